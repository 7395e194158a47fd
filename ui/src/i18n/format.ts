// Dates, times, relative times and numbers in the window's language, through Intl (so de, fr and
// pt-BR get the 24-hour clock and their own date order without a table of ours). Every function
// takes the locale last and defaults to the one showing now; the pseudo-locale formats as English.
import { currentLocale, intlLocale, type Locale, pseudoIntl } from "./locales";

type DateInput = string | number | Date;

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
/** Intl formatters are slow to build and immutable: one per locale and options. */
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  kind: string,
  locale: Locale,
  options: object,
  make: (tag: string) => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make(intlLocale(locale))));
  return f;
}

function dateTime(value: DateInput, options: Intl.DateTimeFormatOptions, locale: Locale): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return pseudoIntl(cached("dt", locale, options, (tag) => new Intl.DateTimeFormat(tag, options)).format(d), locale);
}

/** "Mar 1, 2026" · "1. März 2026" · "2026年3月1日". */
export function formatDate(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { dateStyle: "medium", timeZone }, locale);
}

/** "8:00 AM" · "08:00" (de, fr, pt-BR: 24-hour by the locale's own convention). */
export function formatTime(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { timeStyle: "short", timeZone }, locale);
}

/** With seconds: "8:00:05 AM" · "08:00:05". */
export function formatTimeWithSeconds(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { timeStyle: "medium", timeZone }, locale);
}

/** "Mar 1, 2026, 8:00 AM" · "01.03.2026, 08:00". */
export function formatDateTime(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { dateStyle: "medium", timeStyle: "short", timeZone }, locale);
}

/** "Sunday, March 1, 2026" (a day's heading). */
export function formatLongDate(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { dateStyle: "full", timeZone }, locale);
}

/** "March 2026" (a month calendar's heading). */
export function formatMonthYear(value: DateInput, locale: Locale = currentLocale(), timeZone?: string): string {
  return dateTime(value, { month: "long", year: "numeric", timeZone }, locale);
}

/** "1,234.5" · "1.234,5" · "1 234,5". */
export function formatNumber(
  value: number,
  locale: Locale = currentLocale(),
  options: Intl.NumberFormatOptions = {},
): string {
  return cached("n", locale, options, (tag) => new Intl.NumberFormat(tag, options)).format(value);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/**
 * "in 5 minutes" · "vor 2 Stunden" · "amanhã": `value` seen from `now`, in the largest unit that
 * fits (rounded, so 90 minutes read "in 2 hours"). `now` is a parameter so tests pin the clock.
 */
export function formatRelative(
  value: DateInput,
  now: DateInput = Date.now(),
  locale: Locale = currentLocale(),
): string {
  const seconds = (toDate(value).getTime() - toDate(now).getTime()) / 1000;
  if (Number.isNaN(seconds)) return String(value);
  const rtf = cached("rt", locale, {}, (tag) => new Intl.RelativeTimeFormat(tag, { numeric: "auto" }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second")
      return pseudoIntl(rtf.format(Math.round(seconds / size), unit), locale);
  }
  return rtf.format(0, "second");
}

/**
 * The first day of the week, ISO-numbered (1 Monday … 7 Sunday), for the month calendars.
 * Intl.Locale's week info where the engine has it (getWeekInfo(), or the older weekInfo getter),
 * else the table below (the same answers, from CLDR).
 */
export function firstDayOfWeek(locale: Locale = currentLocale()): number {
  const tag = intlLocale(locale);
  try {
    const l = new Intl.Locale(tag) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = typeof l.getWeekInfo === "function" ? l.getWeekInfo() : l.weekInfo;
    if (info && info.firstDay >= 1 && info.firstDay <= 7) return info.firstDay;
  } catch {
    // an engine without Intl.Locale: the table below
  }
  return FIRST_DAY_FALLBACK[locale];
}

/** CLDR's first day for each language's main region (en: US, zh-TW: Taiwan, pt-BR: Brazil). */
export const FIRST_DAY_FALLBACK: Record<Locale, number> = {
  en: 7,
  "en-XA": 7,
  "zh-TW": 7,
  de: 1,
  "pt-BR": 7,
  fr: 1,
};

/**
 * The weekday names in calendar order, from the locale's first day: ["Mon", …, "Sun"] in de.
 * `weekday` as Intl's option ("short": Mo, "narrow": M, "long": Montag).
 */
export function weekdayNames(
  locale: Locale = currentLocale(),
  weekday: "long" | "short" | "narrow" = "short",
): Array<{ isoDay: number; name: string }> {
  const first = firstDayOfWeek(locale);
  return Array.from({ length: 7 }, (_, i) => {
    const isoDay = ((first - 1 + i) % 7) + 1;
    return { isoDay, name: weekdayName(isoDay, locale, weekday) };
  });
}

/** The column (0–6) a date's weekday takes in a calendar that starts on `firstDayOfWeek`. */
export function weekdayColumn(jsDay: number, locale: Locale = currentLocale()): number {
  const isoDay = jsDay === 0 ? 7 : jsDay;
  return (isoDay - firstDayOfWeek(locale) + 7) % 7;
}

/** An ISO weekday (1 Monday … 7 Sunday) by name: "Mon" · "Mo." · "週一". */
export function weekdayName(
  isoDay: number,
  locale: Locale = currentLocale(),
  weekday: "long" | "short" | "narrow" = "short",
): string {
  // 2024-01-01 was a Monday (ISO day 1); noon UTC so no time zone moves it to another day.
  const monday = Date.UTC(2024, 0, 1, 12);
  return dateTime(monday + (isoDay - 1) * 24 * 3600 * 1000, { weekday, timeZone: "UTC" }, locale);
}
