import { describe, expect, it } from "vitest";
import type { CalendarRun } from "../ipc/types";
import {
  calendarOf,
  crossesMidnight,
  errorsAt,
  freshName,
  generalErrors,
  midnightHint,
  newCalendar,
  replaceAt,
  runLine,
  toggleDay,
} from "./calendarForm";

const window = (start: string, end: string) => ({ days: ["Friday"], start, end });

describe("the calendar editor's logic", () => {
  it("names a new calendar with a name not taken in any case", () => {
    const taken = [newCalendar([]), { ...newCalendar([]), name: "CALENDAR 2" }];
    expect(taken[0].name).toBe("calendar 1");
    expect(freshName(taken)).toBe("calendar 3");
  });

  it("keeps the days of a window in week order", () => {
    const w = toggleDay(toggleDay(window("22:00", "06:00"), "Monday"), "Sunday");
    expect(w.days).toEqual(["Monday", "Friday", "Sunday"]);
    expect(toggleDay(w, "Friday").days).toEqual(["Monday", "Sunday"]);
  });

  it("says when a window crosses midnight", () => {
    expect(crossesMidnight(window("22:00", "06:00"))).toBe(true);
    expect(midnightHint(window("22:00", "06:00"))).toBe("crosses midnight: from 22:00 until 06:00 the next day");
    expect(midnightHint(window("20:00", "00:00"))).toBe("crosses midnight: from 20:00 until midnight");
    expect(crossesMidnight(window("09:00", "17:00"))).toBe(false);
    expect(crossesMidnight(window("9", "06:00"))).toBe(false);
    expect(midnightHint(window("00:00", "24:00"))).toBe("");
  });

  it("sorts the engine's errors onto fields and calendars", () => {
    const errors = [
      { path: "calendars[1].dates[0]", code: "BadRequest", message: "'x' is not a date" },
      { path: "", code: "Conflict", message: "calendar 'night' is used by job 'daily'" },
    ];
    expect(errorsAt(errors, "calendars[1].dates[0]")).toEqual(["'x' is not a date"]);
    expect(errorsAt(errors, "calendars[1].dates[1]")).toEqual([]);
    expect(calendarOf("calendars[12].weekly[0].end")).toBe(12);
    expect(calendarOf("properties.calendars.x")).toBe(-1);
    expect(generalErrors(errors)).toEqual(["calendar 'night' is used by job 'daily'"]);
  });

  it("replaces or removes an item", () => {
    expect(replaceAt(["a", "b", "c"], 1, "B")).toEqual(["a", "B", "c"]);
    expect(replaceAt(["a", "b", "c"], 1, null)).toEqual(["a", "c"]);
  });

  it("words a preview line", () => {
    const run: CalendarRun = {
      at: "2026-11-25T08:00:00Z",
      local: "Wed 25 Nov 2026 08:00",
      removedBy: null,
      skipped: null,
      until: null,
    };
    expect(runLine(run)).toBe("Wed 25 Nov 2026 08:00");
    expect(runLine({ ...run, removedBy: "holidays", skipped: 2, until: "Sun 29 Nov 2026 00:00" })).toBe(
      "Wed 25 Nov 2026 08:00: removed by 'holidays' (2 runs until Sun 29 Nov 2026 00:00)",
    );
    expect(runLine({ ...run, removedBy: "always", skipped: null })).toBe(
      "Wed 25 Nov 2026 08:00: removed by 'always' (runs, from then on)",
    );
    expect(runLine({ ...run, removedBy: "x", skipped: 1, until: "Thu" })).toContain("(1 run until Thu)");
  });
});
