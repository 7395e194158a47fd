// @vitest-environment happy-dom
import { cleanup, fireEvent, render, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { api } from "../ipc";
import { Toast } from "./components/Toast";
import { deletedText, offerPendingUndo } from "./undoDeletion";

const job = { action: { type: "Http", request: { uri: "https://example.invalid/", method: "GET" } } };

afterEach(cleanup);

describe("undo after the window opens again", () => {
  it("offers the latest pending deletion, and Undo brings it back", async () => {
    const { id } = await api.createCollection("reopened");
    for (const n of ["a", "b"]) await api.saveJob(id, n, job, true);
    await api.deleteJobs(id, ["a", "b"]);
    render(<Toast />);
    let restored = 0;
    await offerPendingUndo(() => restored++);
    await waitFor(() => expect(document.querySelector("#toast .toast-text")!.textContent).toBe("Deleted 2 jobs"));
    fireEvent.click(document.getElementById("toast-action")!);
    await waitFor(() => expect(restored).toBe(1));
    expect((await api.listJobs(id)).map((j) => j.name)).toEqual(["a", "b"]);
    expect(await api.pendingDeletions()).toEqual([]);
  });

  it("offers nothing when nothing is pending", async () => {
    render(<Toast />);
    await offerPendingUndo(() => {});
    expect(document.getElementById("toast-action")).toBeNull();
  });

  it("says what went: a collection by its name, jobs by count or name", () => {
    const ticket = { token: "t", until: "2026-11-27T10:00:10Z", undoSeconds: 10 };
    expect(deletedText({ ticket, wholeCollection: true, collection: "local/desktop/ops", jobs: ["x"] })).toEqual({
      text: "Deleted collection ops",
      restored: "Restored collection ops",
    });
    expect(deletedText({ ticket, wholeCollection: false, collection: "local/desktop/ops", jobs: ["x"] })).toEqual({
      text: "Deleted x",
      restored: "Restored x",
    });
  });
});
