import { format } from "date-fns";
import { describe, expect, it } from "vitest";
import type { HistoryOccurrence } from "../ipc/types";
import { filterHistory, HISTORY_PAGE, NO_QUERY, page, queryErrors, type HistoryQuery } from "./historyFilter";

/** A run at `local` (the viewer's wall clock, "yyyy-MM-ddTHH:mm") with one attempt. */
function run(local: string, status: string, message: string, scheduled = true): HistoryOccurrence {
  const iso = new Date(local).toISOString();
  return {
    scheduledTime: scheduled ? iso : null,
    status,
    attempts: [{ id: local, kind: "Attempt", status, startTime: iso, endTime: iso, retryCount: 0, message }],
  };
}

const runs = [
  run("2026-11-20T23:59", "Completed", "Http Action - Response from host 'a': 'OK' Body: done"),
  run("2026-11-21T00:00", "Failed", "Http Action - Request to host 'b' failed: connection refused"),
  run("2026-11-22T12:00", "Completed", "exit code 0 (success: 0)", false),
  run("2026-11-23T08:30", "Postponed", "the job was still running; overlap policy Skip"),
];

type Case = { name: string; query: Partial<HistoryQuery>; expect: number[] };

function check(c: Case) {
  const shown = filterHistory(runs, { ...NO_QUERY, ...c.query });
  expect(
    shown.map((o) => runs.indexOf(o)),
    c.name,
  ).toEqual(c.expect);
}

const cases: Case[] = [
  { name: "no query keeps everything", query: {}, expect: [0, 1, 2, 3] },
  { name: "from is inclusive from the start of the day", query: { from: "2026-11-21" }, expect: [1, 2, 3] },
  { name: "to is inclusive to the end of the day", query: { to: "2026-11-20" }, expect: [0] },
  { name: "a one-day range", query: { from: "2026-11-22", to: "2026-11-22" }, expect: [2] },
  { name: "a run now (no scheduled time) is placed at its start", query: { from: "2026-11-22" }, expect: [2, 3] },
  { name: "text in a message, any case", query: { text: "CONNECTION refused" }, expect: [1] },
  { name: "text in a status", query: { text: "postponed" }, expect: [3] },
  { name: "text and range together", query: { text: "http action", from: "2026-11-21" }, expect: [1] },
  { name: "surrounding spaces do not count", query: { text: "  exit code  " }, expect: [2] },
  { name: "an invalid bound is ignored (its error is shown)", query: { from: "2026-13-01" }, expect: [0, 1, 2, 3] },
  { name: "nothing matches", query: { text: "no such words" }, expect: [] },
];

describe("filterHistory", () => {
  for (const c of cases) it(c.name, () => check(c));
});

describe("queryErrors", () => {
  it("names the field and the rule", () => {
    expect(queryErrors(NO_QUERY)).toEqual({});
    expect(queryErrors({ ...NO_QUERY, from: "2026-02-30" })).toEqual({ from: "not a date" });
    expect(queryErrors({ ...NO_QUERY, to: "yesterday" })).toEqual({ to: "not a date" });
    expect(queryErrors({ ...NO_QUERY, from: "2026-11-22", to: "2026-11-21" })).toEqual({
      to: "must not be before the start date",
    });
    expect(queryErrors({ ...NO_QUERY, from: "2026-11-22", to: "2026-11-22" })).toEqual({});
  });
});

describe("page", () => {
  it("shows a page at a time and says how many are left", () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    expect(page(items, 1)).toEqual({ shown: items.slice(0, HISTORY_PAGE), more: 1000 - HISTORY_PAGE });
    expect(page(items, 3).shown.length).toBe(3 * HISTORY_PAGE);
    expect(page(items, 10)).toEqual({ shown: items, more: 0 });
    expect(page(items, 0).shown.length).toBe(HISTORY_PAGE);
    expect(page([], 1)).toEqual({ shown: [], more: 0 });
  });

  it("test runs are where the test says (local time)", () => {
    expect(format(new Date(runs[0].scheduledTime as string), "yyyy-MM-dd HH:mm")).toBe("2026-11-20 23:59");
  });
});
