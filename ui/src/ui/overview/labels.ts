// The overview's words for what a run is (its legend, the runs' chips, the month cells' titles),
// and its one way of writing a run's minute: whole phrases from the catalog and Intl, never
// English pieces glued together.
import { i18n } from "../../i18n";
import { currentLocale, intlLocale } from "../../i18n/locales";
import { type Category, localDay, localTime } from "../../logic/overview";
import { dayLabel } from "./DayColumns";

export function categoryLabel(category: Category): string {
  switch (category) {
    case "completed":
      return i18n._({ id: "overview.category.completed", message: "Completed" });
    case "failed":
      return i18n._({ id: "overview.category.failed", message: "Failed" });
    case "faulted":
      return i18n._({ id: "overview.category.faulted", message: "Faulted" });
    case "skipped":
      return i18n._({ id: "overview.category.skipped", message: "Skipped" });
    case "planned":
      return i18n._({ id: "overview.category.planned", message: "Planned" });
    case "moved":
      return i18n._({ id: "overview.category.moved", message: "Moved (daylight saving)" });
    case "dstSkipped":
      return i18n._({ id: "overview.category.dstSkipped", message: "Skipped (daylight saving)" });
    case "blackedOut":
      return i18n._({ id: "overview.category.blackedOut", message: "Blacked out" });
  }
}

/** "1 planned" · "1 blacked out": a count of runs of one category (a month cell's title). */
export function categoryCount(category: Category, count: number): string {
  switch (category) {
    case "completed":
      return i18n._("{count, plural, one {# completed} other {# completed}}", { count });
    case "failed":
      return i18n._("{count, plural, one {# failed} other {# failed}}", { count });
    case "faulted":
      return i18n._("{count, plural, one {# faulted} other {# faulted}}", { count });
    case "skipped":
      return i18n._("{count, plural, one {# skipped} other {# skipped}}", { count });
    case "planned":
      return i18n._("{count, plural, one {# planned} other {# planned}}", { count });
    case "moved":
      return i18n._("{count, plural, one {# moved (daylight saving)} other {# moved (daylight saving)}}", { count });
    case "dstSkipped":
      return i18n._("{count, plural, one {# skipped (daylight saving)} other {# skipped (daylight saving)}}", {
        count,
      });
    case "blackedOut":
      return i18n._("{count, plural, one {# blacked out} other {# blacked out}}", { count });
  }
}

const lists = new Map<string, Intl.ListFormat>();
/** "1 planned, 1 blacked out": parts listed as the language lists units. */
export function listUnits(parts: readonly string[]): string {
  const tag = intlLocale(currentLocale());
  let f = lists.get(tag);
  // CLDR joins Chinese units with bare spaces; a conjunction list reads "甲、乙和丙" instead.
  const type = tag.startsWith("zh") ? "conjunction" : "unit";
  if (!f) lists.set(tag, (f = new Intl.ListFormat(tag, { type, style: "short" })));
  return f.format(parts);
}

/**
 * "09:00 on Tue 24 Nov" · "Di., 24. Nov., 09:00": the minute a busy host is called, in `zone`
 * (the engine's wall clock there: 24-hour, as the hour grid).
 */
export function runMinuteLabel(ms: number, zone: string): string {
  return i18n._("{time} on {day}", { time: localTime(ms, zone), day: dayLabel(localDay(ms, zone)) });
}
