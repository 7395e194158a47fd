// The visual recurrence builder's state, and its translation to and from the job's
// `recurrence` JSON (spec §5.5 and the Kairos extensions of docs/semantics.md).
import { i18n } from "@lingui/core";
import { CATCH_UPS, DST_GAPS, DST_OVERLAPS, FREQUENCIES, OVERLAPS, WEEKDAYS, canon, weekdayIndex } from "./enums";
import type { FieldError } from "../ipc/types";
import { type JsonObject, type JsonValue, isObject, list, num, obj, put, rest, str } from "./json";
import { fromWall, toWall } from "./zonedTime";

/** `occurrence` null = every such weekday of the month (the field omitted). */
export type Nth = { day: string; occurrence: number | null };
export type EndMode = "never" | "count" | "date" | "both";

export type RecurrenceForm = {
  frequency: string;
  /** null = not given (the engine's default, 1). */
  interval: number | null;
  weekDays: string[];
  monthDays: number[];
  nth: Nth[];
  /** `schedule.months` (1 = January): they expand a Year and limit the other frequencies. */
  months: number[];
  hours: number[];
  /** The text of the minutes input ("0,30"): kept as typed so a half-typed list is not rewritten. */
  minutes: string;
  end: EndMode;
  count: number | null;
  /** Wall-clock value of the end time in `timeZone`. */
  endTime: string;
  /** IANA zone; "" = UTC (the field omitted). */
  timeZone: string;
  dstGap: string;
  dstOverlap: string;
  catchUp: string;
  catchUpMaxCount: number | null;
  catchUpMaxAge: string;
  overlap: string;
  /** Fields of recurrence / schedule / catchUp the builder does not edit (e.g. blackout). */
  extra: JsonObject;
  scheduleExtra: JsonObject;
  catchUpExtra: JsonObject;
};

const KNOWN = [
  "frequency",
  "interval",
  "count",
  "endTime",
  "schedule",
  "timeZone",
  "dstGap",
  "dstOverlap",
  "catchUp",
  "overlap",
];
const KNOWN_SCHEDULE = [
  "minutes",
  "minute",
  "hours",
  "hour",
  "weekDays",
  "monthDays",
  "monthlyOccurrences",
  "months",
  "month",
];
const KNOWN_CATCH_UP = ["policy", "maxCount", "maxAge"];

export function emptyRecurrence(): RecurrenceForm {
  return {
    frequency: "Day",
    interval: 1,
    weekDays: [],
    monthDays: [],
    nth: [],
    months: [],
    hours: [],
    minutes: "",
    end: "never",
    count: null,
    endTime: "",
    timeZone: "",
    dstGap: "",
    dstOverlap: "",
    catchUp: "",
    catchUpMaxCount: null,
    catchUpMaxAge: "",
    overlap: "",
    extra: {},
    scheduleExtra: {},
    catchUpExtra: {},
  };
}

function ints(v: JsonValue | undefined): number[] {
  return list(v)
    .map(num)
    .filter((n): n is number => n !== null);
}

function enumText(v: JsonValue | undefined, values: readonly string[]): string {
  const s = str(v);
  return s === "" ? "" : canon(s, values);
}

export function fromRecurrence(json: JsonValue | undefined): RecurrenceForm {
  const r = obj(json);
  const s = obj(r.schedule);
  const c = obj(r.catchUp);
  const hasCount = r.count !== undefined && r.count !== null;
  const hasEnd = typeof r.endTime === "string" && r.endTime !== "";
  const timeZone = str(r.timeZone);
  return {
    frequency: enumText(r.frequency, FREQUENCIES) || "Day",
    interval: num(r.interval),
    weekDays: list(s.weekDays).map((d) => canon(str(d), WEEKDAYS)),
    monthDays: ints(s.monthDays),
    nth: list(s.monthlyOccurrences)
      .filter(isObject)
      .map((o) => ({
        day: canon(str(o.day), WEEKDAYS),
        // The swagger writes `Occurrence`, the docs `occurrence`; the engine reads both.
        occurrence: num(o.occurrence ?? o.Occurrence),
      })),
    months: ints(s.months ?? s.month),
    hours: ints(s.hours ?? s.hour),
    minutes: ints(s.minutes ?? s.minute).join(","),
    end: hasCount && hasEnd ? "both" : hasCount ? "count" : hasEnd ? "date" : "never",
    count: num(r.count),
    endTime: toWall(str(r.endTime), timeZone),
    timeZone,
    dstGap: enumText(r.dstGap, DST_GAPS),
    dstOverlap: enumText(r.dstOverlap, DST_OVERLAPS),
    catchUp: enumText(c.policy, CATCH_UPS),
    catchUpMaxCount: num(c.maxCount),
    catchUpMaxAge: str(c.maxAge),
    overlap: enumText(r.overlap, OVERLAPS),
    extra: rest(r, KNOWN),
    scheduleExtra: rest(s, KNOWN_SCHEDULE),
    catchUpExtra: rest(c, KNOWN_CATCH_UP),
  };
}

/** The minutes list typed in the input: the numbers, and the tokens that are not numbers. */
export function parseMinutes(text: string): { values: number[]; bad: string[] } {
  const values: number[] = [];
  const bad: string[] = [];
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    if (/^-?\d+$/.test(token)) values.push(Number(token));
    else bad.push(token);
  }
  return { values, bad };
}

/**
 * The recurrence JSON. Day selectors that do not apply to the frequency (weekDays without Week,
 * monthDays without Month or Year) stay in the form, so switching back restores them, but are not sent:
 * the builder hides them and the engine would reject them.
 */
export function toRecurrence(form: RecurrenceForm): JsonObject {
  const schedule: JsonObject = { ...form.scheduleExtra };
  put(schedule, "minutes", parseMinutes(form.minutes).values);
  put(schedule, "hours", form.hours);
  if (form.frequency === "Week") put(schedule, "weekDays", form.weekDays);
  if (form.frequency === "Month" || form.frequency === "Year") {
    put(schedule, "monthDays", form.monthDays);
    put(
      schedule,
      "monthlyOccurrences",
      form.nth.map(
        (n): JsonObject => (n.occurrence === null ? { day: n.day } : { day: n.day, occurrence: n.occurrence }),
      ),
    );
  }
  put(schedule, "months", form.months);
  const out: JsonObject = { ...form.extra, frequency: form.frequency };
  put(out, "interval", form.interval);
  if (form.end === "count" || form.end === "both") put(out, "count", form.count);
  if (form.end === "date" || form.end === "both") put(out, "endTime", fromWall(form.endTime, form.timeZone));
  if (Object.keys(schedule).length) out.schedule = schedule;
  put(out, "timeZone", form.timeZone.trim());
  put(out, "dstGap", form.dstGap);
  put(out, "dstOverlap", form.dstOverlap);
  const catchUp: JsonObject = { ...form.catchUpExtra };
  put(catchUp, "policy", form.catchUp);
  if (form.catchUp === "All") {
    put(catchUp, "maxCount", form.catchUpMaxCount);
    put(catchUp, "maxAge", form.catchUpMaxAge.trim());
  }
  if (Object.keys(catchUp).length) out.catchUp = catchUp;
  put(out, "overlap", form.overlap);
  return out;
}

/** Problems the form can see before the engine does (they use the engine's paths). */
export function localIssues(form: RecurrenceForm): FieldError[] {
  const issues: FieldError[] = [];
  const at = (path: string, message: string) =>
    issues.push({ path: `properties.recurrence.${path}`, code: "Form", message });
  const { bad } = parseMinutes(form.minutes);
  if (bad.length) {
    at(
      "schedule.minutes",
      i18n._("not a minute: {values} (use numbers 0–59 separated by commas)", { values: bad.join(", ") }),
    );
  }
  if ((form.end === "count" || form.end === "both") && form.count === null) at("count", i18n._("enter how many runs"));
  if ((form.end === "date" || form.end === "both") && form.endTime.trim() === "")
    at("endTime", i18n._("choose the end date"));
  return issues;
}

// --- Edits made by the builder's chips. Lists are kept in reading order as they grow. ---

export function toggle<T>(items: T[], item: T, order: (a: T, b: T) => number): T[] {
  return items.includes(item) ? items.filter((i) => i !== item) : [...items, item].sort(order);
}

export const byNumber = (a: number, b: number) => a - b;
export const byWeekday = (a: string, b: string) => weekdayIndex(a) - weekdayIndex(b);
/** 1..31 first, then the days counted from the end: -1 (last), -2, … */
export const byMonthDay = (a: number, b: number) => (a > 0 && b > 0 ? a - b : a < 0 && b < 0 ? b - a : a > 0 ? -1 : 1);

export function addNth(items: Nth[], n: Nth): Nth[] {
  return items.some((i) => i.day === n.day && i.occurrence === n.occurrence) ? items : [...items, n];
}

export function removeNth(items: Nth[], n: Nth): Nth[] {
  return items.filter((i) => !(i.day === n.day && i.occurrence === n.occurrence));
}
