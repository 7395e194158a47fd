import { currentLocale, i18n, useI18n } from "../../i18n";
import { intlLocale, type Locale, pseudoIntl } from "../../i18n/locales";
import { type DayBucket, nowPosition, toneOf } from "../../logic/overview";

export type Selection = { day: string; hour: number | null };

type Props = {
  buckets: readonly DayBucket[];
  now: number;
  selection: Selection;
  onSelect: (s: Selection) => void;
};

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const DAY_MS = 86_400_000;

/** The day and week views: a column per day, a cell per hour with its run count, and a "now" line. */
export function DayColumns({ buckets, now, selection, onSelect }: Props) {
  useI18n();
  return (
    <div class="day-columns" style={{ gridTemplateColumns: `3rem repeat(${buckets.length}, minmax(0, 1fr))` }}>
      <div class="hour-labels" aria-hidden="true">
        <div class="day-head-spacer" />
        {HOURS.map((h) => (
          <div key={h} class="hour-label">
            {String(h).padStart(2, "0")}
          </div>
        ))}
      </div>
      {buckets.map((b, i) => {
        const next = buckets[i + 1]?.start ?? b.start + DAY_MS;
        const at = nowPosition(now, b, next);
        return (
          // biome-ignore lint/a11y/useFocusableInteractive: a grid's rows hold the focusable cells (the day and its hours)
          <div key={b.day} class="day-column" data-day={b.day} role="row">
            <button
              type="button"
              role="gridcell"
              class={`day-head${selection.day === b.day && selection.hour === null ? " selected" : ""}`}
              data-testid={`overview-day-${b.day}`}
              aria-selected={selection.day === b.day && selection.hour === null}
              onClick={() => onSelect({ day: b.day, hour: null })}
            >
              {dayLabel(b.day)} <small class="muted">{b.total}</small>
            </button>
            <div class="hours">
              {HOURS.map((h) => {
                const count = b.byHour[h];
                const tone = toneOf(b.hourCategories[h]);
                const selected = selection.day === b.day && selection.hour === h;
                return (
                  <button
                    key={h}
                    type="button"
                    role="gridcell"
                    tabIndex={-1}
                    aria-selected={selected}
                    class={`hour-cell${tone ? ` cat-${tone}` : ""}${selected ? " selected" : ""}`}
                    data-hour={h}
                    data-count={count}
                    aria-label={i18n._("{day}, {hour}:00: {count, plural, one {# run} other {# runs}}", {
                      day: dayLabel(b.day),
                      hour: String(h).padStart(2, "0"),
                      count,
                    })}
                    onClick={() => onSelect({ day: b.day, hour: h })}
                  >
                    {count > 0 ? count : ""}
                  </button>
                );
              })}
              {at !== null && (
                <div
                  id="overview-now"
                  class="now-line"
                  style={{ top: `${(at * 100).toFixed(2)}%` }}
                  title={i18n._("now")}
                />
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/**
 * One formatter per language for every label: `toLocaleDateString` builds one per call, and
 * busy-minute warnings make dozens. English writes the day first ("Tue 24 Nov"), as before.
 */
const dayLabels = new Map<Locale, Intl.DateTimeFormat>();

/** "Tue 24 Nov" · "Di., 24. Nov." · "11月24日 週二": a day (YYYY-MM-DD) in the window's language. */
export function dayLabel(day: string, locale: Locale = currentLocale()): string {
  let f = dayLabels.get(locale);
  if (!f) {
    const tag = locale === "en" || locale === "en-XA" ? "en-GB" : intlLocale(locale);
    f = new Intl.DateTimeFormat(tag, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
    dayLabels.set(locale, f);
  }
  return pseudoIntl(f.format(new Date(`${day}T00:00:00Z`)), locale);
}
