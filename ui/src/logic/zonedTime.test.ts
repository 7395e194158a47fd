import { describe, expect, it } from "vitest";
import { fromWall, toWall } from "./zonedTime";

/** An engine time shows as `wall` in `zone` and comes back as `back` (canonical UTC). */
function check(text: string, zone: string, wall: string, back: string | undefined) {
  expect(toWall(text, zone)).toBe(wall);
  expect(fromWall(wall, zone)).toBe(back);
}

const table: [string, string, string, string | undefined][] = [
  ["2026-01-01T00:00:00Z", "", "2026-01-01T00:00", "2026-01-01T00:00:00Z"],
  ["2030-08-04T00:00Z", "UTC", "2030-08-04T00:00", "2030-08-04T00:00:00Z"],
  ["2030-11-04", "", "2030-11-04T00:00", "2030-11-04T00:00:00Z"],
  ["2030-01-01T08:00:05.9Z", "", "2030-01-01T08:00:05", "2030-01-01T08:00:05Z"],
  ["2026-01-01T09:00:00-05:00", "", "2026-01-01T14:00", "2026-01-01T14:00:00Z"],
  ["2026-01-01T09:00:00-0800", "", "2026-01-01T17:00", "2026-01-01T17:00:00Z"],
  ["2026-01-01T09:00:00+01", "", "2026-01-01T08:00", "2026-01-01T08:00:00Z"],
  ["2026-01-15T07:00:00Z", "Europe/Berlin", "2026-01-15T08:00", "2026-01-15T07:00:00Z"],
  ["2026-07-15T07:00:00Z", "Europe/Berlin", "2026-07-15T09:00", "2026-07-15T07:00:00Z"],
  ["2026-03-29T00:30:00Z", "Europe/Berlin", "2026-03-29T01:30", "2026-03-29T00:30:00Z"],
  ["2026-03-29T01:30:00Z", "Europe/Berlin", "2026-03-29T03:30", "2026-03-29T01:30:00Z"],
  ["2026-06-30T23:00:00Z", "Australia/Sydney", "2026-07-01T09:00", "2026-06-30T23:00:00Z"],
  // Unknown zone: UTC here, and the engine reports the zone.
  ["2026-01-01T00:00:00Z", "Mars/Olympus", "2026-01-01T00:00", "2026-01-01T00:00:00Z"],
  // Not a date-time: passed through for the engine to report.
  ["tomorrow", "", "tomorrow", "tomorrow"],
  ["", "", "", undefined],
];

describe("zonedTime", () => {
  for (const [text, zone, wall, back] of table)
    it(`${text || "(empty)"} in ${zone || "UTC"}`, () => check(text, zone, wall, back));
});
