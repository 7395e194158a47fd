// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type JobSummary, api } from "../../ipc";
import { JobsView } from "./JobsView";
import { Toast } from "../components/Toast";
import { job } from "../../test/jobs";

const C = "local/desktop/default";
const SUMMARY = {
  id: C,
  name: "default",
  subscription: "local",
  resourceGroup: "desktop",
  state: "Enabled",
  plan: "Free",
  maxJobCount: 5,
  jobCount: 3,
  minRecurrence: "1 Hour",
};
let jobs: JobSummary[];

// Outside Tauri the ipc layer loads the development fake on first use (events included): load it
// before the tests, not while the environment is torn down after them.
beforeAll(async () => {
  await import("../../ipc/fake");
});

beforeEach(() => {
  location.hash = `#/c/${encodeURIComponent(C)}`;
  jobs = [
    job("backup", { nextRun: "2026-11-26T02:00:00Z", lastStatus: "Completed" }),
    job("alerts", { nextRun: "2026-11-25T12:00:00Z", lastStatus: "Failed" }),
    job("cleanup", { state: "Disabled" }),
  ];
  vi.spyOn(api, "listJobs").mockImplementation(async () => jobs.map((j) => ({ ...j })));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const rowNames = () =>
  [...document.querySelectorAll("#jobs-table tbody tr")].map((r) => r.getAttribute("data-testid")!.slice(8));

describe("the jobs table", () => {
  it("searches, filters and sorts", async () => {
    render(<JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />);
    await waitFor(() => expect(rowNames()).toEqual(["alerts", "backup", "cleanup"]));
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "UP" } });
    await waitFor(() => expect(rowNames()).toEqual(["backup", "cleanup"]));
    fireEvent.input(screen.getByLabelText("Search jobs by name"), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("State"), { target: { value: "Disabled" } });
    await waitFor(() => expect(rowNames()).toEqual(["cleanup"]));
    fireEvent.change(screen.getByLabelText("State"), { target: { value: "" } });
    fireEvent.click(document.getElementById("sort-nextRun")!);
    await waitFor(() => expect(rowNames()).toEqual(["alerts", "backup", "cleanup"]));
    fireEvent.click(document.getElementById("sort-name")!);
    fireEvent.click(document.getElementById("sort-name")!);
    await waitFor(() => expect(rowNames()).toEqual(["cleanup", "backup", "alerts"]));
  });

  it("selects several jobs and disables them, one call per job", async () => {
    const setEnabled = vi.spyOn(api, "setJobEnabled").mockImplementation(async (_c, name, enabled) => {
      const j = jobs.find((x) => x.name === name)!;
      j.state = enabled ? "Enabled" : "Disabled";
      return j;
    });
    render(<JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />);
    fireEvent.click(await screen.findByLabelText("Select alerts"));
    fireEvent.click(screen.getByLabelText("Select backup"));
    await waitFor(() => expect(screen.getByText("2 jobs selected")).toBeTruthy());
    fireEvent.click(document.getElementById("bulk-disable")!);
    await waitFor(() => expect(setEnabled).toHaveBeenCalledTimes(2));
    expect(setEnabled.mock.calls.map((c) => [c[1], c[2]])).toEqual([
      ["alerts", false],
      ["backup", false],
    ]);
  });

  it("selects from anywhere in the checkbox cell; a click on the row selects it, a double-click opens it", async () => {
    render(<JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />);
    const box = await screen.findByLabelText("Select backup");
    const cell = box.closest("td")!;
    fireEvent.click(cell);
    await waitFor(() => expect(screen.getByLabelText("Select backup")).toHaveProperty("checked", true));
    expect(location.hash).toBe(`#/c/${encodeURIComponent(C)}`);
    fireEvent.click(screen.getByLabelText("Select backup").closest("td")!);
    await waitFor(() => expect(screen.getByLabelText("Select backup")).toHaveProperty("checked", false));
    const schedule = screen.getByLabelText("Select backup").closest("tr")!.querySelector("td.schedule")!;
    fireEvent.click(schedule);
    await waitFor(() => expect(screen.getByTestId("job-row-backup").getAttribute("aria-selected")).toBe("true"));
    expect(location.hash).toBe(`#/c/${encodeURIComponent(C)}`);
    // One job selected: its actions appear (none are shown, disabled, without a selection).
    expect(document.getElementById("run-now")).not.toBeNull();
    fireEvent.dblClick(schedule);
    await waitFor(() => expect(location.hash).toContain("/j/backup"));
  });

  it("exports only the selected jobs", async () => {
    const exported = vi
      .spyOn(api, "exportCollection")
      .mockImplementation(async (r) => ({ path: r.path, warnings: [] }));
    render(<JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />);
    fireEvent.click(await screen.findByLabelText("Select alerts"));
    fireEvent.click(screen.getByLabelText("Select cleanup"));
    await waitFor(() => expect(screen.getByText("2 jobs selected")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: "Export (2)…" }));
    await waitFor(() => expect(screen.getByText("Export 2 jobs of default")).toBeTruthy());
    fireEvent.change(document.getElementById("export-format")!, { target: { value: "Crontab" } });
    fireEvent.input(document.getElementById("export-path")!, { target: { value: "/tmp/two.crontab" } });
    fireEvent.click(document.getElementById("export-submit")!);
    await waitFor(() => expect(document.getElementById("export-done")).not.toBeNull());
    expect(exported).toHaveBeenCalledWith({
      collection: C,
      format: "Crontab",
      withSecrets: false,
      passphrase: null,
      jobs: ["alerts", "cleanup"],
      path: "/tmp/two.crontab",
    });
    fireEvent.click(document.getElementById("export-close")!);
    // The whole collection: from the page's "…" menu.
    fireEvent.click(screen.getByRole("button", { name: "More actions for default" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Export collection…" }));
    await waitFor(() => expect(screen.getByText("Export default")).toBeTruthy());
  });

  it("asks before deleting, deletes the selection as one, and Undo brings it back", async () => {
    const kept = jobs;
    const del = vi.spyOn(api, "deleteJobs").mockImplementation(async (_c, names) => {
      jobs = jobs.filter((j) => !names.includes(j.name));
      return { token: "t-1", until: "2026-11-27T10:00:10.000Z", undoSeconds: 10 };
    });
    const undo = vi.spyOn(api, "undoDeletion").mockImplementation(async (token) => {
      jobs = kept;
      return {
        ticket: { token, until: "2026-11-27T10:00:10.000Z", undoSeconds: 10 },
        wholeCollection: false,
        collection: C,
        jobs: kept.map((j) => j.name),
      };
    });
    render(
      <>
        <JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />
        <Toast />
      </>,
    );
    fireEvent.click(await screen.findByLabelText("Select all shown jobs"));
    await waitFor(() => expect(screen.getByText("3 jobs selected")).toBeTruthy());
    // Delete on a focused row asks for the whole selection.
    fireEvent.keyDown(screen.getByTestId("job-row-backup"), { key: "Delete" });
    await waitFor(() =>
      expect(document.getElementById("confirm-bulk-delete-text")!.textContent).toContain(
        "Delete 3 jobs? Their history goes with them.",
      ),
    );
    expect(del).not.toHaveBeenCalled();
    fireEvent.click(document.getElementById("confirm-bulk-delete-yes")!);
    await waitFor(() => expect(del).toHaveBeenCalledTimes(1));
    expect(del.mock.calls[0][1]).toEqual(["alerts", "backup", "cleanup"]);
    await waitFor(() => expect(rowNames()).toEqual([]));
    // One toast for the selection, with Undo: one engine call restores all three.
    await waitFor(() => expect(document.querySelector("#toast .toast-text")!.textContent).toBe("Deleted 3 jobs"));
    fireEvent.click(document.getElementById("toast-action")!);
    await waitFor(() => expect(undo).toHaveBeenCalledWith("t-1"));
    await waitFor(() => expect(document.querySelector("#toast .toast-text")!.textContent).toBe("Restored 3 jobs"));
    await waitFor(() => expect(rowNames()).toEqual(["alerts", "backup", "cleanup"]));
  });

  it("moves with the arrows, opens with Enter, searches with Ctrl+F and makes a job with Ctrl+N, not N alone", async () => {
    render(<JobsView collection={C} title="default" summary={SUMMARY} onCollectionChanged={() => {}} />);
    const first = await screen.findByTestId("job-row-alerts");
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("job-row-backup"));
    fireEvent.keyDown(document.activeElement!, { key: "Enter" });
    expect(location.hash).toBe(`#/c/${encodeURIComponent(C)}/j/backup`);
    fireEvent.keyDown(document.body, { key: "f", ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByLabelText("Search jobs by name"));
    fireEvent.keyDown(document.activeElement!, { key: "n" });
    fireEvent.keyDown(document.body, { key: "n" });
    // A single key is never a shortcut (WCAG 2.1.4).
    expect(location.hash).toBe(`#/c/${encodeURIComponent(C)}/j/backup`);
    fireEvent.keyDown(document.body, { key: "n", ctrlKey: true });
    expect(location.hash).toBe(`#/c/${encodeURIComponent(C)}/new`);
  });
});
