import { describe, expect, it } from "vitest";
import type { HistoryOccurrence } from "../ipc/types";
import { attemptLabel, formatDuration, presentHistory, statusBadgeClass } from "./history";

type Case = { kind: string; retryCount: number; status: string | null; label: string; badge: string };

function check(c: Case) {
  expect(attemptLabel(c)).toBe(c.label);
  expect(statusBadgeClass(c.status)).toBe(c.badge);
}

const cases: Case[] = [
  { kind: "Attempt", retryCount: 0, status: "Completed", label: "Attempt 1", badge: "badge badge-ok" },
  { kind: "Retry", retryCount: 2, status: "Failed", label: "Retry 2", badge: "badge badge-fail" },
  { kind: "ErrorAction", retryCount: 0, status: "Faulted", label: "Error action", badge: "badge badge-fail" },
  { kind: "MainAction", retryCount: 0, status: "Completed", label: "Attempt 1", badge: "badge badge-ok" },
  { kind: "MainAction", retryCount: 2, status: "Failed", label: "Retry 2", badge: "badge badge-fail" },
  { kind: "mainaction", retryCount: 1, status: "failed", label: "Retry 1", badge: "badge badge-fail" },
  { kind: "ErrorAction", retryCount: 0, status: "Postponed", label: "Error action", badge: "badge badge-warn" },
  {
    kind: "ErrorAction",
    retryCount: 3,
    status: "CallbackInvoked",
    label: "Error action, retry 3",
    badge: "badge badge-info",
  },
  { kind: "MainAction", retryCount: 0, status: "Something new", label: "Attempt 1", badge: "badge" },
  { kind: "MainAction", retryCount: 0, status: null, label: "Attempt 1", badge: "badge" },
];

const attempt = (id: string, kind: string, retryCount: number, startTime: string) => ({
  id,
  kind,
  status: "Failed",
  startTime,
  endTime: null,
  retryCount,
  message: "",
});

describe("history", () => {
  for (const c of cases) it(`${c.kind} #${c.retryCount} ${c.status}`, () => check(c));

  it("lists occurrences newest first and attempts in the order they ran", () => {
    const occurrences: HistoryOccurrence[] = [
      {
        scheduledTime: "2030-01-01T08:00:00Z",
        status: "Failed",
        attempts: [
          attempt("c", "ErrorAction", 0, "2030-01-01T08:02:00Z"),
          attempt("b", "Retry", 1, "2030-01-01T08:01:00Z"),
          attempt("a", "Attempt", 0, "2030-01-01T08:00:00Z"),
        ],
      },
      {
        scheduledTime: "2030-01-02T08:00:00Z",
        status: "Completed",
        attempts: [attempt("d", "Attempt", 0, "2030-01-02T08:00:00Z")],
      },
      // Run now: no scheduled time, ordered by when it ran.
      { scheduledTime: null, status: "Completed", attempts: [attempt("e", "Attempt", 0, "2030-01-01T12:00:00Z")] },
    ];
    const shown = presentHistory(occurrences);
    expect(shown.map((o) => o.attempts.map((a) => a.id).join(""))).toEqual(["d", "e", "abc"]);
  });

  it("formats durations", () => {
    expect(formatDuration("2030-01-01T00:00:00Z", null)).toBe("");
    expect(formatDuration("2030-01-01T00:00:00.000Z", "2030-01-01T00:00:00.350Z")).toBe("350 ms");
    expect(formatDuration("2030-01-01T00:00:00Z", "2030-01-01T00:03:05Z")).toBe("3 min 5 s");
  });
});
