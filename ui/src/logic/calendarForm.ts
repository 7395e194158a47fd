// The calendar editor's state: a collection's blackout calendars as a list the dialog edits, the
// engine's errors by field (`calendars[i].dates[j]`, `calendars[i].name`, ...), and the preview's
// runs as lines. The engine judges every value (dates, times, names in any case); nothing here
// re-implements its rules.
import { i18n } from "@lingui/core";
import type { Calendar, CalendarRun, CalendarWindow, FieldError } from "../ipc/types";
import { fieldErrorText } from "./fieldErrorMessages";

export const WEEK_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** A calendar name not yet used (in any case: names are case-insensitive). */
export function freshName(calendars: Calendar[], base = "calendar"): string {
  const taken = new Set(calendars.map((c) => c.name.toLowerCase()));
  for (let n = 1; ; n++) {
    const name = `${base} ${n}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

export function newCalendar(calendars: Calendar[]): Calendar {
  return { name: freshName(calendars), dates: [], ranges: [], weekly: [] };
}

export function newWindow(): CalendarWindow {
  return { days: ["Saturday", "Sunday"], start: "00:00", end: "24:00" };
}

/** The window with `day` on or off; days stay in week order (Monday first). */
export function toggleDay(w: CalendarWindow, day: string): CalendarWindow {
  const on = w.days.includes(day) ? w.days.filter((d) => d !== day) : [...w.days, day];
  return { ...w, days: WEEK_DAYS.filter((d) => on.includes(d)) };
}

/** `HH:MM` as minutes, or null when it is not that shape. */
function minutes(t: string): number | null {
  const m = /^(\d\d):(\d\d)$/.exec(t.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** An end before the start: the window runs past midnight into the next day. */
export function crossesMidnight(w: CalendarWindow): boolean {
  const s = minutes(w.start);
  const e = minutes(w.end);
  return s !== null && e !== null && e < s;
}

/** "Fri 22:00 → Sat 06:00" style hint for a window that crosses midnight ("" otherwise). */
export function midnightHint(w: CalendarWindow): string {
  if (!crossesMidnight(w)) return "";
  const start = w.start.trim();
  return w.end.trim() === "00:00"
    ? i18n._("crosses midnight: from {start} until midnight", { start })
    : i18n._("crosses midnight: from {start} until {end} the next day", { start, end: w.end.trim() });
}

/** The list with item `i` replaced (or removed, with `null`). */
export function replaceAt<T>(list: T[], i: number, item: T | null): T[] {
  return item === null ? list.filter((_, j) => j !== i) : list.map((x, j) => (j === i ? item : x));
}

/** The errors of one field, by its exact path. */
export function errorsAt(errors: FieldError[], path: string): string[] {
  return errors.filter((e) => e.path === path).map(fieldErrorText);
}

/** Errors on no field of the editor's (a job still naming a removed calendar, ...). */
export function generalErrors(errors: FieldError[]): string[] {
  return errors.filter((e) => calendarOf(e.path) < 0).map(fieldErrorText);
}

/** Which calendar an error belongs to, so the list can mark it (-1: none). */
export function calendarOf(path: string): number {
  const m = /^calendars\[(\d+)\]/.exec(path);
  return m ? Number(m[1]) : -1;
}

/** A preview line: the run, or what a calendar removes there. */
export function runLine(r: CalendarRun): string {
  if (!r.removedBy) return r.local;
  const values = { run: r.local, calendarName: r.removedBy, count: r.skipped ?? 0, until: r.until };
  if (r.skipped === null) {
    return r.until === null
      ? i18n._("{run}: removed by ''{calendarName}'' (runs, from then on)", values)
      : i18n._("{run}: removed by ''{calendarName}'' (runs until {until})", values);
  }
  return r.until === null
    ? i18n._("{run}: removed by ''{calendarName}'' ({count, plural, one {# run} other {# runs}}, from then on)", values)
    : i18n._(
        "{run}: removed by ''{calendarName}'' ({count, plural, one {# run} other {# runs}} until {until})",
        values,
      );
}
