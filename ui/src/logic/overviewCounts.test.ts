import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  type DayBucket,
  type Filter,
  KIND_BLACKED_OUT,
  KIND_MOVED,
  KIND_PAST,
  KIND_PLANNED,
  KIND_SKIPPED,
  type OverviewData,
  type Run,
  bucketRuns,
  heatStrip,
  toColumns,
  viewDays,
  viewWindow,
} from "./overview";
import { COUNT_BUCKET_SECONDS, bucketCounts, countRuns, countsFilter } from "./overviewCounts";

const all: Filter = { collections: null, search: "" };

/**
 * Three jobs over a month and the days around it, at minutes that fall in every quarter hour and
 * on both sides of every local hour: every 7 minutes, every 53 minutes, and daily at 23:59 UTC;
 * past runs before the 20th (one in nine failed, one in thirteen by the error action), then
 * planned, moved, DST-skipped and blacked-out runs in turn.
 */
function monthOfRuns(from: string, to: string): OverviewData {
  const jobs: OverviewData["jobs"] = [
    { collection: "local/desktop/a", name: "often", state: "Enabled", action: "Http", truncated: false },
    { collection: "local/desktop/a", name: "odd", state: "Enabled", action: "StorageQueue", truncated: false },
    { collection: "local/desktop/b", name: "nightly", state: "Disabled", action: "Https", truncated: false },
  ];
  const start = Date.parse(from),
    end = Date.parse(to);
  const now = Date.UTC(2027, 2, 20);
  const runs: Run[] = [];
  [7, 53, 1440].forEach((step, job) => {
    let n = 0;
    for (let t = start + (job === 2 ? 1439 * 60_000 : 0); t < end; t += step * 60_000, n++) {
      const base = { job, at: t, status: null, action: null, calendar: null };
      if (t < now) {
        const status = n % 9 === 4 ? "Failed" : n % 17 === 2 ? "Postponed" : "Completed";
        runs.push({ ...base, kind: KIND_PAST, status, action: n % 13 === 5 ? "ErrorAction" : "MainAction" });
      } else {
        const kind = [KIND_PLANNED, KIND_PLANNED, KIND_MOVED, KIND_SKIPPED, KIND_BLACKED_OUT][n % 5];
        runs.push({ ...base, kind, calendar: kind === KIND_BLACKED_OUT ? "holidays" : null });
      }
    }
  });
  runs.sort((a, b) => a.at - b.at || a.job - b.job);
  return { now: new Date(now).toISOString(), from, jobs, runs: toColumns(from, runs), busyMinutes: [] };
}

const strip = (b: DayBucket[]) => b.map(({ runs: _, ...counted }) => counted);

describe("the month view from counts", () => {
  // March 2027: Europe/Berlin and America/New_York change; Lord Howe is +10:30/+11,
  // Kathmandu +5:45, Chatham +13:45, St John's -3:30 (with DST).
  const zones = [
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "America/St_Johns",
  ];
  for (const zone of zones) {
    it(`adds up quarter hours into the days and hours bucketRuns gives (${zone})`, () => {
      for (const anchor of ["2027-03-01", "2027-04-01", "2027-10-01"]) {
        const days = viewDays("month", anchor);
        const { from, to } = viewWindow(days, zone);
        const data = monthOfRuns(from, to);
        for (const filter of [all, { ...all, search: "o" }, { ...all, state: "Disabled" }]) {
          const counts = { from, bucketSeconds: COUNT_BUCKET_SECONDS, counts: countRuns(data, to, filter) };
          const fromCounts = bucketCounts(counts, days, zone);
          const fromRuns = bucketRuns(data, days, zone, filter);
          expect(strip(fromCounts)).toEqual(strip(fromRuns));
          expect(heatStrip(fromCounts)).toEqual(heatStrip(fromRuns));
          expect(fromCounts.reduce((n, b) => n + b.total, 0)).toBeGreaterThan(0);
        }
      }
    });
  }

  it("counts each run in its quarter hour and category, and none outside the window", () => {
    const from = "2027-03-01T00:00:00Z";
    const data = monthOfRuns(from, "2027-03-02T00:00:00Z");
    const counts = countRuns(data, "2027-03-01T01:00:00Z", all);
    expect(counts).toHaveLength(4 * CATEGORIES.length);
    // "often" every 7 minutes (its third run postponed, its fifth failed, its sixth by the
    // error action) and "odd" at 00:00 and 00:53; "nightly" runs at 23:59, outside.
    const at = (bucket: number, c: (typeof CATEGORIES)[number]) =>
      counts[bucket * CATEGORIES.length + CATEGORIES.indexOf(c)];
    expect([0, 1, 2, 3].map((b) => at(b, "completed"))).toEqual([3, 1, 1, 3]);
    expect([at(0, "skipped"), at(1, "failed"), at(2, "faulted")]).toEqual([1, 1, 1]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(11);
  });

  it("sends the filters to the engine: the collection as its id, blanks as null", () => {
    expect(countsFilter({ collections: new Set(["local/desktop/a"]), search: "x", state: "", action: "Http" })).toEqual(
      { collections: ["local/desktop/a"], search: "x", state: null, action: "Http" },
    );
    expect(countsFilter(all)).toEqual({ collections: null, search: "", state: null, action: null });
  });

  it("leaves quarter hours outside the shown days out", () => {
    const days = ["2027-03-02"];
    const data = { from: "2027-03-01T00:00:00Z", bucketSeconds: 900, counts: new Array(96 * 3 * 8).fill(1) };
    const [day] = bucketCounts(data, days, "UTC");
    expect(day.total).toBe(96 * 8);
    expect(day.byHour.every((n) => n === 32)).toBe(true);
    expect(day.hourCategories.every((bits) => bits === 0xff)).toBe(true);
  });
});
