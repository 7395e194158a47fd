import { describe, expect, it } from "vitest";
import { bucketRuns, viewDays, viewWindow } from "../logic/overview";
import { bucketCounts } from "../logic/overviewCounts";
import { fakeOverview, fakeOverviewCounts } from "./fakeOverview";
import type { JobSummary } from "./types";

const job = (name: string, collection: string, state = "Enabled"): JobSummary => ({
  collection,
  name,
  state,
  actionType: name === "queue" ? "StorageQueue" : "Https",
  sentence: "",
  nextRun: null,
  lastRun: null,
  lastStatus: null,
  executionCount: 0,
  failureCount: 0,
  faultedCount: 0,
});
const jobs = [job("report", "local/desktop/a"), job("queue", "local/desktop/a"), job("sync", "local/desktop/b")];

describe("the development fake's month counts", () => {
  it("count the fake's runs, filtered as the engine filters them", () => {
    const days = viewDays("month", "2026-11-01");
    const { from, to } = viewWindow(days, "Europe/Berlin");
    const now = Date.UTC(2026, 10, 15);
    const ask = (over: { search?: string; action?: string | null; collections?: string[] | null }) =>
      fakeOverviewCounts(jobs, { from, to, collections: null, search: "", state: null, action: null, ...over }, now);
    const all = { collections: null, search: "" };
    const runs = bucketRuns(fakeOverview(jobs, from, to, null, now), days, "Europe/Berlin", all);
    const counted = bucketCounts(ask({}), days, "Europe/Berlin");
    expect(counted.map((d) => d.byCategory)).toEqual(runs.map((d) => d.byCategory));
    const total = (over: Parameters<typeof ask>[0]) =>
      bucketCounts(ask(over), days, "UTC").reduce((n, d) => n + d.total, 0);
    expect(total({})).toBe(90);
    expect(total({ search: "SYN" })).toBe(30);
    expect(total({ action: "Http" })).toBe(60);
    expect(total({ collections: ["local/desktop/b"] })).toBe(30);
    expect(ask({ collections: ["local/desktop/b"] }).jobs.map((j) => j.name)).toEqual(["sync"]);
  });
});
