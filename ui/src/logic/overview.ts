// The schedule overview's logic: which days a view shows, which jobs the filters keep, and the
// runs bucketed into days and hours of the chosen time zone. The engine decides what each run
// is (past, planned, moved, skipped, blacked out); this only groups and counts, so a month of
// 1,000 jobs renders as per-day counts and short lists instead of hundreds of thousands of nodes.
import { i18n } from "@lingui/core";

/** The fields of the engine's answer this logic reads (ipc `OverviewResult`): runs come as columns. */
export type OverviewData = {
  now: string;
  /** Run times are seconds after this instant. */
  from: string;
  jobs: { collection: string; name: string; state: string; action: string; truncated: boolean }[];
  runs: {
    job: number[];
    at: number[];
    /** `KIND_*` below. */
    kind: number[];
    /** Index into `details` (0: none). */
    detail: number[];
    details: string[];
  };
  busyMinutes: { minute: string; host: string; jobs: number }[];
  /** Every host with busy minutes and how many (`busyMinutes` lists the earliest few of each). */
  busyHosts?: { host: string; minutes: number }[];
};

/** `runs.kind` codes (src-tauri/src/overview.rs). */
export const KIND_PAST = 0,
  KIND_PLANNED = 1,
  KIND_MOVED = 2,
  KIND_SKIPPED = 3,
  KIND_BLACKED_OUT = 4;

/** One run, as objects (tests, the development fake, the run list). */
export type Run = {
  job: number;
  /** Epoch ms. */
  at: number;
  kind: number;
  /** A past run's status and action, a blacked-out run's calendar. */
  status: string | null;
  action: string | null;
  calendar: string | null;
};

export function runAt(data: OverviewData, i: number): Run {
  const r = data.runs;
  const detail = r.details[r.detail[i]] || null;
  const past = r.kind[i] === KIND_PAST;
  const [status, action] = past && detail ? [detail.split(" ")[0], detail.split(" ")[1] ?? null] : [null, null];
  return {
    job: r.job[i],
    at: instantMs(data.from) + r.at[i] * 1000,
    kind: r.kind[i],
    status,
    action,
    calendar: r.kind[i] === KIND_BLACKED_OUT ? detail : null,
  };
}

/** Runs (sorted by time) into the answer's columns, as the engine sends them. */
export function toColumns(from: string, runs: readonly Run[]): OverviewData["runs"] {
  const out: OverviewData["runs"] = { job: [], at: [], kind: [], detail: [], details: [""] };
  const base = instantMs(from);
  for (const r of runs) {
    const text =
      r.kind === KIND_PAST && r.status
        ? `${r.status}${r.action ? ` ${r.action}` : ""}`
        : r.kind === KIND_BLACKED_OUT
          ? (r.calendar ?? "")
          : "";
    let d = out.details.indexOf(text);
    if (d < 0) {
      out.details.push(text);
      d = out.details.length - 1;
    }
    out.job.push(r.job);
    out.at.push(Math.round((r.at - base) / 1000));
    out.kind.push(r.kind);
    out.detail.push(d);
  }
  return out;
}

export type View = "day" | "week" | "month" | "agenda";
export const VIEWS: readonly View[] = ["day", "week", "month", "agenda"];
/** Days an agenda lists from its first day. */
export const AGENDA_DAYS = 14;

/** What a run looks like: a past run by its result, a coming one by what the schedule does to it. */
export type Category =
  | "completed"
  | "failed"
  | "faulted"
  | "skipped" // past
  | "planned"
  | "moved"
  | "dstSkipped"
  | "blackedOut"; // to come
export const CATEGORIES: readonly Category[] = [
  "completed",
  "failed",
  "faulted",
  "skipped",
  "planned",
  "moved",
  "dstSkipped",
  "blackedOut",
];
export const CATEGORY_LABELS: Record<Category, string> = {
  completed: "Completed",
  failed: "Failed",
  faulted: "Faulted",
  skipped: "Skipped",
  planned: "Planned",
  moved: "Moved (daylight saving)",
  dstSkipped: "Skipped (daylight saving)",
  blackedOut: "Blacked out",
};

const CATEGORY_BIT = Object.fromEntries(CATEGORIES.map((c, i) => [c, 1 << i])) as Record<Category, number>;

/** Which category colours a cell holding these: a failure first, then what the schedule changed, then results. */
const TONE_ORDER: readonly Category[] = [
  "faulted",
  "failed",
  "blackedOut",
  "dstSkipped",
  "moved",
  "skipped",
  "completed",
  "planned",
];
export function toneOf(counts: Record<Category, number> | number): Category | null {
  const has = (c: Category) => (typeof counts === "number" ? (counts & CATEGORY_BIT[c]) !== 0 : counts[c] > 0);
  return TONE_ORDER.find(has) ?? null;
}

/** A past run's category from its detail ("STATUS ACTION"). */
function pastCategory(detail: string): Category {
  // An error action runs when the main action faulted (retries exhausted).
  if (detail.endsWith(" ErrorAction")) return "faulted";
  switch (detail.split(" ")[0].toLowerCase()) {
    case "completed":
      return "completed";
    case "faulted":
      return "faulted";
    case "postponed":
    case "skipped":
    case "cancelled":
      return "skipped";
    default:
      return "failed";
  }
}

const COMING: Record<number, Category> = {
  [KIND_PLANNED]: "planned",
  [KIND_MOVED]: "moved",
  [KIND_SKIPPED]: "dstSkipped",
  [KIND_BLACKED_OUT]: "blackedOut",
};

/** The category of run `i`. */
export function categoryOf(data: OverviewData, i: number): Category {
  const kind = data.runs.kind[i];
  return kind === KIND_PAST ? pastCategory(data.runs.details[data.runs.detail[i]]) : (COMING[kind] ?? "planned");
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** "YYYY-MM-DD" ↔ a day number (days since 1970-01-01): calendar arithmetic without zones. */
export function dayNumber(day: string): number {
  return Math.floor(Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / DAY_MS);
}
export function dayText(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}
export function shiftDay(day: string, by: number): string {
  return dayText(dayNumber(day) + by);
}

/**
 * The offset (ms) of `zone` from UTC at an instant. Offsets only change on the hour or half hour
 * in every zone in use, so one Intl call per hour of instants is enough: the cache makes
 * bucketing a month of runs cost ~750 Intl calls, not one per run.
 */
const offsetFunctions = new Map<string, (ms: number) => number>();
export function zoneOffsets(zone: string): (ms: number) => number {
  let fn = offsetFunctions.get(zone);
  if (!fn) {
    fn = makeZoneOffsets(zone);
    offsetFunctions.set(zone, fn);
  }
  return fn;
}

function makeZoneOffsets(zone: string): (ms: number) => number {
  if (zone === "UTC" || zone === "") return () => 0;
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  const cache = new Map<number, number>();
  const exact = (ms: number) => {
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute) - Math.floor(ms / 60_000) * 60_000;
  };
  return (ms: number) => {
    // Keyed by the half hour, so a :30 transition (e.g. Australia/Lord_Howe) is seen too.
    const key = Math.floor(ms / (HOUR_MS / 2));
    let offset = cache.get(key);
    if (offset === undefined) {
      offset = exact(key * (HOUR_MS / 2));
      cache.set(key, offset);
    }
    return offset;
  };
}

/** The instant (ms) a local midnight of `zone` falls on (the day's first instant). */
export function startOfLocalDay(day: number, offsetAt: (ms: number) => number): number {
  const guess = day * DAY_MS;
  let t = guess - offsetAt(guess);
  t = guess - offsetAt(t);
  return t;
}

/** The days a view shows around `anchor` ("YYYY-MM-DD"): one day, a Monday-first week, a month, or an agenda's fortnight. */
export function viewDays(view: View, anchor: string): string[] {
  const n = dayNumber(anchor);
  let first: number, count: number;
  switch (view) {
    case "day":
      first = n;
      count = 1;
      break;
    case "week":
      first = n - ((new Date(n * DAY_MS).getUTCDay() + 6) % 7);
      count = 7;
      break;
    case "agenda":
      first = n;
      count = AGENDA_DAYS;
      break;
    case "month": {
      first = dayNumber(`${anchor.slice(0, 7)}-01`);
      const [y, m] = [+anchor.slice(0, 4), +anchor.slice(5, 7)];
      count = new Date(Date.UTC(y, m, 0)).getUTCDate();
      break;
    }
  }
  return Array.from({ length: count }, (_, i) => dayText(first + i));
}

/** The first day of the view after (`by` = 1) or before (-1) this one. */
export function shiftView(view: View, anchor: string, by: number): string {
  switch (view) {
    case "day":
      return shiftDay(anchor, by);
    case "week":
      return shiftDay(anchor, 7 * by);
    case "agenda":
      return shiftDay(anchor, AGENDA_DAYS * by);
    case "month": {
      const d = new Date(Date.UTC(+anchor.slice(0, 4), +anchor.slice(5, 7) - 1 + by, 1));
      return d.toISOString().slice(0, 10);
    }
  }
}

/** The window to ask the engine for: from the first shown day's local midnight to the day after the last. */
export function viewWindow(days: readonly string[], zone: string): { from: string; to: string } {
  const offsetAt = zoneOffsets(zone);
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    from: iso(startOfLocalDay(dayNumber(days[0]), offsetAt)),
    to: iso(startOfLocalDay(dayNumber(days[days.length - 1]) + 1, offsetAt)),
  };
}

export type Filter = {
  /** Collection ids to show; null: all. */
  collections: ReadonlySet<string> | null;
  /** Part of a job's name, any case; blank: all. */
  search: string;
  /** A job state (`Enabled`, `Disabled`, `Completed`, `Faulted`); blank or absent: all. */
  state?: string;
  /** An action type (`Http`, `StorageQueue`, `Command`, …); `Http` covers `Https`; blank or absent: all. */
  action?: string;
};

/** Per job index: whether the filters keep it. */
export function keptJobs(data: Pick<OverviewData, "jobs">, filter: Filter): boolean[] {
  const q = filter.search.trim().toLowerCase();
  const state = filter.state ?? "";
  const action = actionKind(filter.action ?? "");
  return data.jobs.map(
    (j) =>
      (filter.collections === null || filter.collections.has(j.collection)) &&
      (q === "" || j.name.toLowerCase().includes(q)) &&
      (state === "" || j.state === state) &&
      (action === "" || actionKind(j.action) === action),
  );
}

/** The action kinds the filter offers for these jobs, sorted (`Https` is shown as `Http`). */
export function actionKinds(data: Pick<OverviewData, "jobs">): string[] {
  return [...new Set(data.jobs.map((j) => actionKind(j.action)).filter((a) => a !== ""))].sort();
}

/** The job states the filter offers. */
export const JOB_STATES = ["Enabled", "Disabled", "Completed", "Faulted"] as const;

function actionKind(action: string): string {
  return action === "Https" ? "Http" : action;
}

export type DayBucket = {
  day: string;
  /** The instant the day starts, in the chosen zone. */
  start: number;
  total: number;
  byCategory: Record<Category, number>;
  /** Runs per local hour (0–23; a 25-hour autumn day counts its repeated hour twice in one slot). */
  byHour: number[];
  /** Per local hour, the categories present (bit `CATEGORIES.indexOf(c)`), for the cell's colour. */
  hourCategories: number[];
  /** Indices into `data.runs`, by time. */
  runs: number[];
};

function emptyCounts(): Record<Category, number> {
  return { completed: 0, failed: 0, faulted: 0, skipped: 0, planned: 0, moved: 0, dstSkipped: 0, blackedOut: 0 };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** "YYYY-MM-DDTHH:MM:SSZ" (how the engine writes instants) → ms, digit by digit: it is the hot loop. */
export function instantMs(at: string): number {
  if (at.length !== 20 || at.charCodeAt(19) !== 90 /* Z */) return Date.parse(at);
  const n = (i: number) => (at.charCodeAt(i) - 48) * 10 + at.charCodeAt(i + 1) - 48;
  const days = daysFromCivil(n(0) * 100 + n(2), n(5), n(8));
  return days * DAY_MS + n(11) * HOUR_MS + n(14) * 60_000 + n(17) * 1000;
}

/**
 * The runs the filters keep, in one bucket per shown day (in `zone`), each with counts by
 * category and by hour. One pass over the runs; runs outside the days are left out.
 */
export function bucketRuns(data: OverviewData, days: readonly string[], zone: string, filter: Filter): DayBucket[] {
  const offsetAt = zoneOffsets(zone);
  const first = dayNumber(days[0]);
  const buckets: DayBucket[] = days.map((day) => ({
    day,
    start: startOfLocalDay(dayNumber(day), offsetAt),
    total: 0,
    byCategory: emptyCounts(),
    byHour: new Array(24).fill(0),
    hourCategories: new Array(24).fill(0),
    runs: [],
  }));
  const kept = keptJobs(data, filter);
  const { job, at, kind, detail, details } = data.runs;
  const base = instantMs(data.from);
  // Past runs' categories, once per distinct detail.
  const pastCategories = details.map(pastCategory);
  let lastHalf = NaN,
    offset = 0;
  for (let i = 0; i < job.length; i++) {
    if (!kept[job[i]]) continue;
    const ms = base + at[i] * 1000;
    // Runs come by time: the offset changes at most every half hour, so ask only then.
    const half = Math.floor(ms / (HOUR_MS / 2));
    if (half !== lastHalf) {
      lastHalf = half;
      offset = offsetAt(ms);
    }
    const local = ms + offset;
    const d = Math.floor(local / DAY_MS) - first;
    const b = buckets[d];
    if (b === undefined) continue;
    const category = kind[i] === KIND_PAST ? pastCategories[detail[i]] : (COMING[kind[i]] ?? "planned");
    const hour = Math.floor((local - (first + d) * DAY_MS) / HOUR_MS);
    b.total++;
    b.byCategory[category]++;
    b.byHour[hour]++;
    b.hourCategories[hour] |= CATEGORY_BIT[category];
    b.runs.push(i);
  }
  return buckets;
}

/** Runs per hour over the shown days (days × 24 counts) and the largest, for the heat strip. */
export function heatStrip(buckets: readonly DayBucket[]): { counts: number[]; max: number } {
  const counts = buckets.flatMap((b) => b.byHour);
  return { counts, max: counts.reduce((m, c) => Math.max(m, c), 0) };
}

/** A heat strip cell's shade: 0 for no runs, else 1–4 (quartiles of the busiest hour). */
export function heatLevel(count: number, max: number): number {
  if (count === 0 || max === 0) return 0;
  return Math.min(4, Math.ceil((count / max) * 4));
}

/** The runs of one local hour of a bucket (`hour` 0–23). */
export function runsInHour(data: OverviewData, bucket: DayBucket, hour: number, zone: string): number[] {
  const offsetAt = zoneOffsets(zone);
  const base = instantMs(data.from);
  const midnight = dayNumber(bucket.day) * DAY_MS; // on the zone's clock
  return bucket.runs.filter((i) => {
    const ms = base + data.runs.at[i] * 1000;
    return Math.floor((ms + offsetAt(ms) - midnight) / HOUR_MS) === hour;
  });
}

/** Where "now" falls in a shown day, as a fraction of the day (0–1), or null on other days. */
export function nowPosition(now: number, bucket: Pick<DayBucket, "start">, next: number): number | null {
  if (now < bucket.start || now >= next) return null;
  return (now - bucket.start) / (next - bucket.start);
}

/** The busy-minute warnings, grouped by host: "api.example.com: 12 jobs at 09:00 on Mon 23 Nov, …". */
export function busyWarnings(
  busy: OverviewData["busyMinutes"],
  format: (ms: number) => string,
  limit = 5,
  hosts?: OverviewData["busyHosts"],
): { host: string; text: string; minutes: number }[] {
  const byHost = new Map<string, { minute: number; jobs: number }[]>();
  for (const b of busy) {
    const list = byHost.get(b.host) ?? [];
    list.push({ minute: instantMs(b.minute), jobs: b.jobs });
    byHost.set(b.host, list);
  }
  // The engine's count of each host's minutes when it sends one (it lists only the earliest).
  const counted =
    hosts ??
    [...byHost.entries()]
      .map(([host, list]) => ({ host, minutes: list.length }))
      .sort((a, b) => b.minutes - a.minutes || a.host.localeCompare(b.host));
  return counted.map(({ host, minutes }) => {
    const list = byHost.get(host) ?? [];
    const shown = list
      .slice(0, limit)
      .map((m) =>
        i18n._("{count, plural, one {# job at {time}} other {# jobs at {time}}}", {
          count: m.jobs,
          time: format(m.minute),
        }),
      )
      .join(", ");
    const listed = Math.min(limit, list.length);
    const text =
      minutes > listed
        ? i18n._("{host}: {minutes} and {count, plural, other {# more minutes}}", {
            host,
            minutes: shown,
            count: minutes - listed,
          })
        : i18n._("{host}: {minutes}", { host, minutes: shown });
    return { host, text, minutes };
  });
}

/** Where clicking a run goes: a coming run opens the job, a past one its history at that record (by its start). */
export function runTarget(
  data: OverviewData,
  index: number,
): { page: "job"; collection: string; job: string } | { page: "history"; collection: string; job: string; at: string } {
  const job = data.jobs[data.runs.job[index]];
  if (data.runs.kind[index] !== KIND_PAST) return { page: "job", collection: job.collection, job: job.name };
  const at = new Date(runAt(data, index).at).toISOString();
  return { page: "history", collection: job.collection, job: job.name, at };
}

/** The local day ("YYYY-MM-DD") of an instant in `zone`. */
export function localDay(ms: number, zone: string): string {
  return dayText(Math.floor((ms + zoneOffsets(zone)(ms)) / DAY_MS));
}

/** "HH:MM" of an instant in `zone`. */
export function localTime(ms: number, zone: string): string {
  return new Date(ms + zoneOffsets(zone)(ms)).toISOString().slice(11, 16);
}
