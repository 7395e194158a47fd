// The live preview's runs as the panel lists them. The backend sends them as numbers (seconds
// since the epoch, the zone's offsets from each daylight-saving change on, and the few runs
// daylight saving touched): 1,000 runs as objects of strings were about 100 KB of JSON to parse
// on every edit. The wall-clock text is written here, once per answer shown.
import { currentLocale, intlLocale, type Locale, pseudoIntl } from "../i18n/locales";
import type { PreviewResult } from "../ipc/types";

export type ShownRun = {
  /** RFC 3339, UTC, whole seconds ("2026-11-27T05:15:00Z"). */
  at: string;
  /** Wall-clock time in the job's zone ("Fri 27 Nov 2026 05:15:00"). */
  local: string;
  /** What daylight saving did to this run, if anything. */
  note: string | null;
};

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const year = (y: number) => (y >= 0 && y < 10000 ? String(y).padStart(4, "0") : String(y));

/** `seconds` after the epoch as RFC 3339 in UTC, as the engine writes it. */
export function utcText(seconds: number): string {
  const d = new Date(seconds * 1000);
  return (
    `${year(d.getUTCFullYear())}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}` +
    `T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}Z`
  );
}

/** One formatter per language (building one per run would cost more than the rest of the list). */
const wallFormats = new Map<string, Intl.DateTimeFormat>();
function wallFormat(locale: Locale): Intl.DateTimeFormat {
  const tag = intlLocale(locale);
  let f = wallFormats.get(tag);
  if (!f) {
    f = new Intl.DateTimeFormat(tag, {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZone: "UTC",
    });
    wallFormats.set(tag, f);
  }
  return f;
}

/**
 * Wall-clock time `offset` seconds ahead of UTC: in English as the engine wrote it
 * ("%a %-d %b %Y %H:%M:%S"), in the other languages as Intl writes a date and a 24-hour time.
 */
export function wallText(seconds: number, offset: number, locale: Locale = currentLocale()): string {
  const d = new Date((seconds + offset) * 1000);
  if (intlLocale(locale) !== "en") return wallFormat(locale).format(d);
  return pseudoIntl(
    `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${year(d.getUTCFullYear())} ` +
      `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
    locale,
  );
}

/** The runs of an answer, in order, with their texts. */
export function shownRuns(p: Pick<PreviewResult, "runs" | "offsets" | "runNotes">): ShownRun[] {
  const notes = new Map(p.runNotes);
  const out: ShownRun[] = new Array(p.runs.length);
  let next = 0;
  let offset = 0;
  for (let i = 0; i < p.runs.length; i++) {
    while (next < p.offsets.length && p.offsets[next][0] <= i) offset = p.offsets[next++][1];
    const t = p.runs[i];
    out[i] = { at: utcText(t), local: wallText(t, offset), note: notes.get(i) ?? null };
  }
  return out;
}
