import { describe, expect, it } from "vitest";
import {
  KIND_BLACKED_OUT,
  KIND_MOVED,
  KIND_PAST,
  KIND_PLANNED,
  KIND_SKIPPED,
  type OverviewData,
  type Run,
  bucketRuns,
  busyWarnings,
  categoryOf,
  heatLevel,
  heatStrip,
  actionKinds,
  keptJobs,
  localDay,
  localTime,
  nowPosition,
  runAt,
  runTarget,
  runsInHour,
  shiftView,
  toColumns,
  toneOf,
  viewDays,
  viewWindow,
  zoneOffsets,
} from "./overview";

const all = { collections: null, search: "" };

type Given = Partial<Omit<Run, "at">> & { at?: string };
function data(runs: Given[]): OverviewData {
  const from = "2026-11-20T00:00:00Z";
  return {
    now: "2026-11-25T12:00:00Z",
    from,
    jobs: [
      {
        collection: "local/desktop/default",
        name: "nightly-report",
        state: "Enabled",
        action: "Http",
        truncated: false,
      },
      { collection: "local/desktop/other", name: "cleanup", state: "Enabled", action: "Http", truncated: false },
    ],
    runs: toColumns(
      from,
      runs.map((r) => ({
        job: 0,
        kind: KIND_PLANNED,
        status: null,
        action: null,
        calendar: null,
        ...r,
        at: Date.parse(r.at ?? "2026-11-25T10:00:00Z"),
      })),
    ),
    busyMinutes: [],
  };
}

describe("views", () => {
  it("shows one day, a Monday-first week, a whole month or a fortnight", () => {
    expect(viewDays("day", "2026-11-25")).toEqual(["2026-11-25"]);
    expect(viewDays("week", "2026-11-25")).toEqual([
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
    ]);
    expect(viewDays("week", "2026-11-29")[0]).toBe("2026-11-23"); // a Sunday belongs to the week before
    const feb = viewDays("month", "2027-02-14");
    expect([feb.length, feb[0], feb[27]]).toEqual([28, "2027-02-01", "2027-02-28"]);
    expect(viewDays("agenda", "2026-11-25")).toHaveLength(14);
  });

  it("moves by a view's length", () => {
    expect(shiftView("day", "2026-12-31", 1)).toBe("2027-01-01");
    expect(shiftView("week", "2026-11-25", -1)).toBe("2026-11-18");
    expect(shiftView("month", "2026-01-31", 1)).toBe("2026-02-01");
    expect(shiftView("agenda", "2026-11-25", 1)).toBe("2026-12-09");
  });

  it("asks the engine for the shown days' local midnights, across a DST change", () => {
    // Berlin: CET (+1) before 29 March 2026, CEST (+2) after.
    expect(viewWindow(viewDays("week", "2026-03-25"), "Europe/Berlin")).toEqual({
      from: "2026-03-22T23:00:00Z",
      to: "2026-03-29T22:00:00Z",
    });
    expect(viewWindow(["2026-11-25"], "UTC")).toEqual({ from: "2026-11-25T00:00:00Z", to: "2026-11-26T00:00:00Z" });
  });

  it("knows a zone's offset at any instant", () => {
    const ny = zoneOffsets("America/New_York");
    expect(ny(Date.UTC(2026, 2, 8, 6, 59)) / 3_600_000).toBe(-5);
    expect(ny(Date.UTC(2026, 2, 8, 7, 0)) / 3_600_000).toBe(-4);
    expect(localDay(Date.UTC(2026, 10, 25, 3), "America/New_York")).toBe("2026-11-24");
    expect(localTime(Date.UTC(2026, 10, 25, 3), "Asia/Kolkata")).toBe("08:30");
  });
});

describe("runs", () => {
  it("colours past runs by result and coming runs by what the schedule does", () => {
    const d = data([
      { kind: KIND_PAST, status: "Completed", action: "MainAction" },
      { kind: KIND_PAST, status: "Failed", action: "MainAction" },
      { kind: KIND_PAST, status: "Completed", action: "ErrorAction" },
      { kind: KIND_PAST, status: "Postponed", action: "MainAction" },
      { kind: KIND_PLANNED },
      { kind: KIND_MOVED },
      { kind: KIND_SKIPPED },
      { kind: KIND_BLACKED_OUT, calendar: "holidays" },
    ]);
    expect(d.runs.job.map((_, i) => categoryOf(d, i))).toEqual([
      "completed",
      "failed",
      "faulted",
      "skipped",
      "planned",
      "moved",
      "dstSkipped",
      "blackedOut",
    ]);
    // Distinct details travel once.
    expect(d.runs.details).toEqual([
      "",
      "Completed MainAction",
      "Failed MainAction",
      "Completed ErrorAction",
      "Postponed MainAction",
      "holidays",
    ]);
    expect(runAt(d, 2)).toEqual({
      job: 0,
      at: Date.parse("2026-11-25T10:00:00Z"),
      kind: KIND_PAST,
      status: "Completed",
      action: "ErrorAction",
      calendar: null,
    });
    expect(runAt(d, 7).calendar).toBe("holidays");
  });

  it("filters by collection and by part of the name", () => {
    const d = data([]);
    expect(keptJobs(d, all)).toEqual([true, true]);
    expect(keptJobs(d, { collections: new Set(["local/desktop/other"]), search: "" })).toEqual([false, true]);
    expect(keptJobs(d, { collections: null, search: " REPORT " })).toEqual([true, false]);
  });

  it("filters by job state and by action kind (Https counts as Http)", () => {
    const d = data([]);
    d.jobs[0] = { ...d.jobs[0], state: "Disabled", action: "Https" };
    d.jobs[1] = { ...d.jobs[1], action: "StorageQueue" };
    expect(keptJobs(d, { ...all, state: "Disabled" })).toEqual([true, false]);
    expect(keptJobs(d, { ...all, state: "Enabled" })).toEqual([false, true]);
    expect(keptJobs(d, { ...all, state: "Faulted" })).toEqual([false, false]);
    expect(keptJobs(d, { ...all, action: "Http" })).toEqual([true, false]);
    expect(keptJobs(d, { ...all, action: "StorageQueue" })).toEqual([false, true]);
    expect(keptJobs(d, { ...all, state: "Enabled", action: "Http" })).toEqual([false, false]);
    expect(keptJobs(d, { ...all, state: "", action: "" })).toEqual([true, true]);
    expect(actionKinds(d)).toEqual(["Http", "StorageQueue"]);
  });

  it("buckets runs into the days and hours of the chosen zone", () => {
    const d = data([
      { at: "2026-11-24T23:30:00Z", kind: KIND_PAST, status: "Failed", action: "MainAction" }, // 24 Nov in UTC, 25 Nov 00:30 in Berlin
      { at: "2026-11-25T10:00:00Z" },
      { at: "2026-11-25T10:15:00Z", job: 1, kind: KIND_BLACKED_OUT, calendar: "holidays" },
      { at: "2026-11-27T10:00:00Z" }, // outside the shown days
    ]);
    const days = ["2026-11-24", "2026-11-25"];
    const utc = bucketRuns(d, days, "UTC", all);
    expect(utc.map((b) => b.total)).toEqual([1, 2]);
    expect(utc[0].byCategory.failed).toBe(1);
    expect(utc[1].byHour[10]).toBe(2);
    const berlin = bucketRuns(d, days, "Europe/Berlin", all);
    expect(berlin.map((b) => b.total)).toEqual([0, 3]);
    expect(berlin[1].byHour[0]).toBe(1);
    expect(berlin[1].byHour[11]).toBe(2);
    expect(berlin[1].runs).toEqual([0, 1, 2]);
    expect(runsInHour(d, berlin[1], 11, "Europe/Berlin")).toEqual([1, 2]);
    // The hour's colour: a blacked-out run outranks a planned one; the failed run colours its hour.
    expect(toneOf(berlin[1].hourCategories[11])).toBe("blackedOut");
    expect(toneOf(berlin[1].hourCategories[0])).toBe("failed");
    expect(toneOf(berlin[1].byCategory)).toBe("failed");
    expect(toneOf(berlin[1].hourCategories[5])).toBeNull();
    const filtered = bucketRuns(d, days, "Europe/Berlin", { collections: null, search: "cleanup" });
    expect(filtered[1].byCategory).toMatchObject({ blackedOut: 1, planned: 0 });
  });

  it("counts runs per hour for the heat strip", () => {
    const d = data([{ at: "2026-11-25T10:00:00Z" }, { at: "2026-11-25T10:01:00Z" }, { at: "2026-11-25T13:00:00Z" }]);
    const strip = heatStrip(bucketRuns(d, ["2026-11-25"], "UTC", all));
    expect(strip.counts).toHaveLength(24);
    expect([strip.counts[10], strip.counts[13], strip.max]).toEqual([2, 1, 2]);
    expect([heatLevel(0, 2), heatLevel(1, 2), heatLevel(2, 2), heatLevel(0, 0)]).toEqual([0, 2, 4, 0]);
  });

  it("places now in the shown day", () => {
    const [b] = bucketRuns(data([]), ["2026-11-25"], "UTC", all);
    const next = b.start + 86_400_000;
    expect(nowPosition(Date.UTC(2026, 10, 25, 12), b, next)).toBe(0.5);
    expect(nowPosition(Date.UTC(2026, 10, 26, 0), b, next)).toBeNull();
  });

  it("opens a coming run's job and a past run's history", () => {
    const d = data([{ kind: KIND_PAST, status: "Completed" }, { job: 1 }]);
    expect(runTarget(d, 0)).toEqual({
      page: "history",
      collection: "local/desktop/default",
      job: "nightly-report",
      at: new Date(runAt(d, 0).at).toISOString(),
    });
    expect(runTarget(d, 1)).toEqual({ page: "job", collection: "local/desktop/other", job: "cleanup" });
  });

  it("lists busy minutes by host, busiest host first", () => {
    const busy = [
      { minute: "2026-11-25T09:00:00Z", host: "a.example", jobs: 10 },
      { minute: "2026-11-25T09:00:00Z", host: "b.example", jobs: 12 },
      { minute: "2026-11-25T10:00:00Z", host: "b.example", jobs: 11 },
    ];
    const warnings = busyWarnings(busy, (ms) => localTime(ms, "UTC"), 1);
    expect(warnings.map((w) => w.text)).toEqual([
      "b.example: 12 jobs at 09:00 and 1 more minutes",
      "a.example: 10 jobs at 09:00",
    ]);
    // The engine lists the earliest few per host and counts them all: the count wins.
    const counted = busyWarnings(busy, (ms) => localTime(ms, "UTC"), 1, [
      { host: "a.example", minutes: 300 },
      { host: "b.example", minutes: 2 },
    ]);
    expect(counted.map((w) => [w.text, w.minutes])).toEqual([
      ["a.example: 10 jobs at 09:00 and 299 more minutes", 300],
      ["b.example: 12 jobs at 09:00 and 1 more minutes", 2],
    ]);
  });
});

describe("instants", () => {
  it("reads the engine's RFC 3339 form as Date.parse does", async () => {
    const { instantMs } = await import("./overview");
    for (const at of [
      "1970-01-01T00:00:00Z",
      "2026-02-28T23:59:59Z",
      "2028-02-29T12:30:05Z",
      "2100-03-01T00:00:00Z",
      "1999-12-31T23:59:59Z",
    ]) {
      expect(instantMs(at)).toBe(Date.parse(at));
    }
    expect(instantMs("2026-11-25T10:00:00+01:00")).toBe(Date.parse("2026-11-25T09:00:00Z"));
  });
});
