import { describe, expect, it } from "vitest";
import type { PreviewResult } from "../ipc/types";
import { nextShown, scheduleNeedsFixing } from "./previewState";

const result = (over: Partial<PreviewResult>): PreviewResult => ({
  sentence: "Every day",
  timeZone: "UTC",
  runs: [Date.parse("2026-11-27T05:15:00Z") / 1000],
  offsets: [[0, 0]],
  runNotes: [],
  month: "2026-11",
  monthDays: [27],
  notes: [],
  errors: [],
  scheduleValid: true,
  computeMicros: 1,
  ...over,
});
const uriError = { path: "properties.action.request.uri", code: "BadRequest", message: "is required" };

describe("the builder's preview", () => {
  it("shows the runs of a valid schedule even while the action has errors", () => {
    const latest = result({ errors: [uriError] });
    expect(nextShown(latest, null)).toBe(latest);
    expect(scheduleNeedsFixing(latest)).toBe(false);
  });

  it("keeps the last good answer while the schedule itself is invalid", () => {
    const good = result({});
    const bad = result({
      scheduleValid: false,
      runs: [],
      errors: [{ ...uriError, path: "properties.recurrence.interval" }],
    });
    expect(nextShown(bad, good)).toBe(good);
    expect(nextShown(bad, null)).toBeNull();
    expect(scheduleNeedsFixing(bad)).toBe(true);
    expect(scheduleNeedsFixing(null)).toBe(false);
  });
});
