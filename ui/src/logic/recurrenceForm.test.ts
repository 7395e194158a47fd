import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json";
import {
  type RecurrenceForm,
  addNth,
  byMonthDay,
  byNumber,
  byWeekday,
  emptyRecurrence,
  fromRecurrence,
  localIssues,
  removeNth,
  toRecurrence,
  toggle,
} from "./recurrenceForm";

type Case = {
  name: string;
  /** Recurrence JSON to load, or edits made on a new builder. */
  from: JsonValue | ((f: RecurrenceForm) => RecurrenceForm);
  /** The JSON the builder writes. */
  json: JsonValue;
  /** Parts of the form state after loading. */
  form?: Partial<RecurrenceForm>;
  /** Paths of the problems the form reports itself. */
  issues?: string[];
};

function check(c: Case) {
  const form = typeof c.from === "function" ? c.from(emptyRecurrence()) : fromRecurrence(c.from);
  if (c.form) expect(form).toMatchObject(c.form);
  expect(toRecurrence(form)).toEqual(c.json);
  // What the builder writes loads back into the same JSON: the round trip is stable.
  expect(toRecurrence(fromRecurrence(c.json))).toEqual(c.json);
  expect(localIssues(form).map((i) => i.path)).toEqual(c.issues ?? []);
}

const lastFriday = {
  frequency: "Month",
  interval: 1,
  schedule: { monthlyOccurrences: [{ day: "Friday", occurrence: -1 }], hours: [5], minutes: [15] },
};
const mwf = {
  frequency: "Week",
  interval: 1,
  schedule: { weekDays: ["Monday", "Wednesday", "Friday"], hours: [10, 22], minutes: [0] },
};

const cases: Case[] = [
  {
    name: "last Friday of every month at 05:15",
    from: lastFriday,
    json: lastFriday,
    form: {
      frequency: "Month",
      interval: 1,
      nth: [{ day: "Friday", occurrence: -1 }],
      hours: [5],
      minutes: "15",
      end: "never",
    },
  },
  {
    name: "last Friday built with the chips",
    from: (f) => ({
      ...f,
      frequency: "Month",
      nth: addNth(addNth(f.nth, { day: "Friday", occurrence: -1 }), { day: "Friday", occurrence: -1 }),
      hours: [5],
      minutes: "15",
    }),
    json: lastFriday,
  },
  {
    name: "swagger spelling Occurrence and lower-case enums are read",
    from: {
      frequency: "month",
      schedule: { minutes: [15], hours: [5], monthlyOccurrences: [{ day: "friday", Occurrence: -1 }] },
    },
    json: {
      frequency: "Month",
      schedule: { minutes: [15], hours: [5], monthlyOccurrences: [{ day: "Friday", occurrence: -1 }] },
    },
    form: { interval: null },
  },
  {
    name: "Monday, Wednesday and Friday at 10:00 and 22:00",
    from: mwf,
    json: mwf,
    form: { frequency: "Week", weekDays: ["Monday", "Wednesday", "Friday"], hours: [10, 22], minutes: "0" },
  },
  {
    name: "Monday, Wednesday and Friday built with the chips in any order",
    from: (f) => ({
      ...f,
      frequency: "Week",
      weekDays: ["Friday", "Monday", "Wednesday"].reduce((d, x) => toggle(d, x, byWeekday), f.weekDays),
      hours: toggle(toggle(f.hours, 22, byNumber), 10, byNumber),
      minutes: "0",
    }),
    json: mwf,
  },
  {
    name: "the docs' weekly example: lower case, count and endTime together",
    from: {
      frequency: "week",
      interval: 1,
      schedule: { weekDays: ["monday", "wednesday", "friday"], hours: [10, 22] },
      count: 10,
      endTime: "2030-11-04",
    },
    json: {
      frequency: "Week",
      interval: 1,
      schedule: { weekDays: ["Monday", "Wednesday", "Friday"], hours: [10, 22] },
      count: 10,
      endTime: "2030-11-04T00:00:00Z",
    },
    form: { end: "both", count: 10, endTime: "2030-11-04T00:00" },
  },
  {
    name: "month days 1, 15 and the last day",
    from: { frequency: "Month", interval: 1, schedule: { monthDays: [1, 15, -1], hours: [9], minutes: [0] } },
    json: { frequency: "Month", interval: 1, schedule: { monthDays: [1, 15, -1], hours: [9], minutes: [0] } },
    form: { monthDays: [1, 15, -1] },
  },
  {
    name: "month day chips keep 1..31 first, then days from the end",
    from: (f) => ({
      ...f,
      frequency: "Month",
      monthDays: [-1, 15, -3, 1].reduce((d, x) => toggle(d, x, byMonthDay), f.monthDays),
    }),
    json: { frequency: "Month", interval: 1, schedule: { monthDays: [1, 15, -1, -3] } },
  },
  {
    name: "every Tuesday of the month (occurrence omitted), and removing an entry",
    from: (f) => ({
      ...f,
      frequency: "Month",
      nth: removeNth(addNth(addNth(f.nth, { day: "Tuesday", occurrence: null }), { day: "Monday", occurrence: 2 }), {
        day: "Monday",
        occurrence: 2,
      }),
    }),
    json: { frequency: "Month", interval: 1, schedule: { monthlyOccurrences: [{ day: "Tuesday" }] } },
  },
  {
    name: "day selectors of another frequency are kept in the form but not written",
    from: (f) => ({
      ...f,
      frequency: "Day",
      weekDays: ["Monday"],
      monthDays: [3],
      nth: [{ day: "Friday", occurrence: 1 }],
      hours: [7],
    }),
    json: { frequency: "Day", interval: 1, schedule: { hours: [7] } },
  },
  {
    name: "extensions, with unknown fields at every level preserved",
    from: {
      frequency: "Day",
      timeZone: "Europe/Berlin",
      dstGap: "skip",
      dstOverlap: "runTwice",
      overlap: "queue",
      catchUp: { policy: "all", maxCount: 5, maxAge: "P1D", future: true },
      blackout: ["holidays"],
      x: 1,
      schedule: { hours: [2], minutes: [30], seconds: [5] },
    },
    json: {
      frequency: "Day",
      timeZone: "Europe/Berlin",
      dstGap: "Skip",
      dstOverlap: "Twice",
      overlap: "Queue",
      catchUp: { policy: "All", maxCount: 5, maxAge: "P1D", future: true },
      blackout: ["holidays"],
      x: 1,
      schedule: { hours: [2], minutes: [30], seconds: [5] },
    },
  },
  {
    name: "the end time is shown on the zone's wall clock",
    from: { frequency: "Day", timeZone: "Europe/Berlin", endTime: "2030-07-01T22:00:00Z" },
    json: { frequency: "Day", timeZone: "Europe/Berlin", endTime: "2030-07-01T22:00:00Z" },
    form: { endTime: "2030-07-02T00:00", end: "date" },
  },
  {
    name: "aliases and single values (hourly, minute: 15)",
    from: { frequency: "hourly", schedule: { minute: 15, hour: [1, 13] } },
    json: { frequency: "Hour", schedule: { minutes: [15], hours: [1, 13] } },
  },
  {
    name: "an unknown frequency passes through for the engine to report",
    from: { frequency: "Fortnight", interval: 1 },
    json: { frequency: "Fortnight", interval: 1 },
  },
  {
    name: "Year with months and days of the month (the 2015 API) round-trips",
    from: { frequency: "yearly", schedule: { months: [1, 7], monthDays: [-1], hours: [6] } },
    json: { frequency: "Year", schedule: { hours: [6], monthDays: [-1], months: [1, 7] } },
    form: { frequency: "Year", months: [1, 7], monthDays: [-1] },
  },
  {
    name: "months limit other frequencies and are kept; month days are not sent with Week",
    from: { frequency: "Week", schedule: { weekDays: ["Monday"], months: [12], monthDays: [3] } },
    json: { frequency: "Week", schedule: { weekDays: ["Monday"], months: [12] } },
  },
  {
    name: "minutes typed with spaces; a bad token is reported and not sent",
    from: (f) => ({ ...f, frequency: "Hour", minutes: "0, 30 ,x5" }),
    json: { frequency: "Hour", interval: 1, schedule: { minutes: [0, 30] } },
    issues: ["properties.recurrence.schedule.minutes"],
  },
  {
    name: "end after N runs without N, and on a date without a date",
    from: (f) => ({ ...f, end: "both" }),
    json: { frequency: "Day", interval: 1 },
    issues: ["properties.recurrence.count", "properties.recurrence.endTime"],
  },
  {
    name: "a count left in the form is not sent when the end is Never",
    from: (f) => ({ ...f, end: "never", count: 4, catchUp: "Latest", catchUpMaxCount: 3 }),
    json: { frequency: "Day", interval: 1, catchUp: { policy: "Latest" } },
  },
];

describe("recurrenceForm", () => {
  for (const c of cases) it(c.name, () => check(c));
});
