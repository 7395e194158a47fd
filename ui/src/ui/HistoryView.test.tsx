// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { api, CommandFailure, type HistoryOccurrence } from "../ipc";
import { HISTORY_PAGE } from "../logic/historyFilter";
import { HistoryView } from "./HistoryView";

/** 250 runs an hour apart, newest first, every tenth one failed. */
function history(): HistoryOccurrence[] {
  return Array.from({ length: 250 }, (_, i) => {
    const at = new Date(Date.UTC(2026, 10, 24, 23) - i * 3_600_000).toISOString();
    const failed = i % 10 === 0;
    const status = failed ? "Failed" : "Completed";
    const message = failed ? `run ${i}: connection refused` : `run ${i}: OK`;
    return {
      scheduledTime: at,
      status,
      attempts: [{ id: String(i), kind: "Attempt", status, startTime: at, endTime: at, retryCount: 0, message }],
    };
  });
}

beforeAll(async () => {
  await import("../ipc/fake");
});
beforeEach(() => {
  vi.spyOn(api, "jobHistory").mockImplementation(async () => history());
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const runs = () => document.querySelectorAll("[data-testid=occurrence]").length;

describe("the history view", () => {
  it("pages through the runs and narrows them by text and dates", async () => {
    render(<HistoryView collection="local/desktop/default" job="ping" />);
    await waitFor(() => expect(runs()).toBe(HISTORY_PAGE));
    fireEvent.click(screen.getByRole("button", { name: `Show ${HISTORY_PAGE} more` }));
    await waitFor(() => expect(runs()).toBe(2 * HISTORY_PAGE));
    fireEvent.click(screen.getByRole("button", { name: "Show 50 more" }));
    await waitFor(() => expect(runs()).toBe(250));
    expect(document.querySelector("#history-more")).toBeNull();

    fireEvent.input(document.querySelector("#history-text")!, { target: { value: "REFUSED" } });
    await waitFor(() => expect(runs()).toBe(25));

    fireEvent.input(document.querySelector("#history-text")!, { target: { value: "" } });
    fireEvent.input(document.querySelector("#history-from")!, { target: { value: "2026-11-30" } });
    await waitFor(() => expect(document.querySelector("#history-none-match")).not.toBeNull());
    expect(runs()).toBe(0);

    fireEvent.input(document.querySelector("#history-to")!, { target: { value: "2026-11-01" } });
    await waitFor(() =>
      expect(document.querySelector("#history-to-error")?.textContent).toBe("must not be before the start date"),
    );
    expect(document.querySelector("#history-to")!.getAttribute("aria-invalid")).toBe("true");
  });

  it("exports the records with the shown status to CSV, errors next to the path", async () => {
    const exported = vi.spyOn(api, "exportHistory").mockImplementation(async (r) => ({ path: r.path, records: 25 }));
    render(<HistoryView collection="local/desktop/default" job="ping" />);
    await waitFor(() => expect(runs()).toBe(HISTORY_PAGE));
    fireEvent.change(document.querySelector("#history-filter")!, { target: { value: "Failed" } });
    fireEvent.click(document.querySelector("#history-export")!);
    fireEvent.input(document.querySelector("#history-export-path")!, { target: { value: "/tmp/ping.csv" } });
    fireEvent.click(document.querySelector("#history-export-save")!);
    await waitFor(() =>
      expect(document.querySelector("#history-export-done")?.textContent).toBe("Wrote 25 records to /tmp/ping.csv."),
    );
    expect(exported).toHaveBeenCalledWith({
      collection: "local/desktop/default",
      job: "ping",
      status: "Failed",
      path: "/tmp/ping.csv",
    });

    exported.mockRejectedValueOnce(
      new CommandFailure("BadRequest", "give the full path", [
        { path: "path", code: "BadRequest", message: "give the full path (x.csv is relative)" },
      ]),
    );
    fireEvent.input(document.querySelector("#history-export-path")!, { target: { value: "x.csv" } });
    fireEvent.click(document.querySelector("#history-export-save")!);
    await waitFor(() =>
      expect(document.querySelector("#history-export-path-error")?.textContent).toContain("is relative"),
    );
  });
});
