import { describe, expect, it } from "vitest";
import type { JobSummary } from "../ipc/types";
import {
  NO_FILTER,
  bulkMessage,
  bulkTargets,
  deleteQuestion,
  filterOptions,
  moveFocus,
  nextSort,
  pruneSelection,
  runBulk,
  toggleAll,
  toggleSelection,
  visibleJobs,
} from "./jobsTable";
import { job } from "../test/jobs";

const jobs = [
  job("backup", { nextRun: "2026-11-26T02:00:00Z", lastStatus: "Completed" }),
  job("Alerts", { nextRun: "2026-11-25T12:00:00Z", lastStatus: "Failed" }),
  job("cleanup", { state: "Disabled", lastStatus: null }),
  job("report", { nextRun: "2026-11-25T12:00:00Z", lastStatus: "Postponed" }),
];
const names = (js: JobSummary[]) => js.map((j) => j.name);

describe("the jobs table", () => {
  it("searches names in any case and filters by state and last result", () => {
    expect(names(visibleJobs(jobs, { ...NO_FILTER, search: " UP " }, { key: "name", descending: false }))).toEqual([
      "backup",
      "cleanup",
    ]);
    expect(names(visibleJobs(jobs, { ...NO_FILTER, state: "Disabled" }, { key: "name", descending: false }))).toEqual([
      "cleanup",
    ]);
    expect(names(visibleJobs(jobs, { ...NO_FILTER, lastResult: "never" }, { key: "name", descending: false }))).toEqual(
      ["cleanup"],
    );
    expect(filterOptions(jobs)).toEqual({
      states: ["Disabled", "Enabled"],
      results: ["Completed", "Failed", "Postponed", "never"],
    });
  });

  it("sorts by name, next run (none last) and last result (worst first), ties by name", () => {
    const sorted = (key: "name" | "nextRun" | "lastResult", descending = false) =>
      names(visibleJobs(jobs, NO_FILTER, { key, descending }));
    expect(sorted("name")).toEqual(["Alerts", "backup", "cleanup", "report"]);
    expect(sorted("name", true)).toEqual(["report", "cleanup", "backup", "Alerts"]);
    expect(sorted("nextRun")).toEqual(["Alerts", "report", "backup", "cleanup"]);
    expect(sorted("lastResult")).toEqual(["Alerts", "report", "backup", "cleanup"]);
    expect(nextSort({ key: "name", descending: false }, "name")).toEqual({ key: "name", descending: true });
    expect(nextSort({ key: "name", descending: true }, "nextRun")).toEqual({ key: "nextRun", descending: false });
  });

  it("selects rows one by one, by range and all at once", () => {
    const order = ["a", "b", "c", "d"];
    let s = toggleSelection(new Set(), order, "b", null, false);
    expect([...s]).toEqual(["b"]);
    s = toggleSelection(s, order, "d", "b", true);
    expect([...s].sort()).toEqual(["b", "c", "d"]);
    s = toggleSelection(s, order, "c", "b", false);
    expect([...s].sort()).toEqual(["b", "d"]);
    expect([...toggleAll(s, order)]).toEqual(order);
    expect([...toggleAll(new Set(order), order)]).toEqual([]);
    expect([...pruneSelection(new Set(["a", "gone"]), order)]).toEqual(["a"]);
  });

  it("moves the focus with the arrows, Home and End", () => {
    const order = ["a", "b", "c"];
    expect(moveFocus(order, null, "ArrowDown")).toBe("a");
    expect(moveFocus(order, "a", "ArrowDown")).toBe("b");
    expect(moveFocus(order, "c", "ArrowDown")).toBe("c");
    expect(moveFocus(order, "b", "ArrowUp")).toBe("a");
    expect(moveFocus(order, "a", "End")).toBe("c");
    expect(moveFocus(order, "c", "Home")).toBe("a");
    expect(moveFocus(order, "a", "x")).toBeNull();
    expect(moveFocus([], null, "ArrowDown")).toBeNull();
  });

  it("asks how many jobs to delete", () => {
    expect(deleteQuestion(["a"])).toBe("Delete the job a? Its history goes with it.");
    expect(deleteQuestion(["a", "b", "c"])).toBe("Delete 3 jobs? Their history goes with them.");
  });

  it("runs a bulk action per job and reports what failed", async () => {
    const calls: string[] = [];
    const out = await runBulk(["a", "b", "c"], async (n) => {
      calls.push(n);
      if (n === "b") throw new Error("busy");
    });
    expect(calls).toEqual(["a", "b", "c"]);
    expect(out).toEqual({ done: ["a", "c"], failed: [{ name: "b", message: "busy" }] });
    expect(bulkMessage("disable", out)).toBe("Disabled 2 jobs; Disable failed for b (busy)");
    expect(bulkMessage("run", { done: ["a"], failed: [] })).toBe("Started 1 job");
  });

  it("enables only disabled jobs and disables only enabled ones", () => {
    const selected = [jobs[0], jobs[2], job("done", { state: "Completed" })];
    expect(bulkTargets("enable", selected)).toEqual(["cleanup"]);
    expect(bulkTargets("disable", selected)).toEqual(["backup"]);
    expect(bulkTargets("delete", selected)).toEqual(["backup", "cleanup", "done"]);
  });
});
