import { useMemo } from "preact/hooks";
import { currentLocale, i18n, useI18n } from "../../i18n";
import { weekdayColumn, weekdayNames } from "../../i18n/format";
import { CATEGORIES, type DayBucket, toneOf } from "../../logic/overview";
import type { Selection } from "./DayColumns";
import { categoryCount, listUnits } from "./labels";

/**
 * The month view: a cell per day with its run count, coloured by what happened or will. What a
 * cell says is worked out once per set of buckets; a new selection only moves the "selected"
 * class. Cells are keyed by their place in the month, so paging to another month updates the
 * same buttons instead of replacing them.
 */
export function MonthGrid({
  buckets,
  today,
  selection,
  onSelect,
}: {
  buckets: readonly DayBucket[];
  today: string;
  selection: Selection;
  onSelect: (s: Selection) => void;
}) {
  useI18n();
  const locale = currentLocale();
  // The week starts on the language's first day (Monday in de and fr, Sunday in en, zh-TW, pt-BR).
  const lead = weekdayColumn(new Date(`${buckets[0].day}T00:00:00Z`).getUTCDay(), locale);
  const weekdays = useMemo(() => weekdayNames(locale, "short"), [locale]);
  const cells = useMemo(
    () =>
      buckets.map((b) => {
        const tone = toneOf(b.byCategory);
        const parts = CATEGORIES.filter((c) => b.byCategory[c] > 0).map((c) => categoryCount(c, b.byCategory[c]));
        return {
          day: b.day,
          class: `month-day${tone ? ` cat-${tone}` : ""}`,
          title: parts.length ? listUnits(parts) : i18n._("no runs"),
          number: Number(b.day.slice(8)),
          count: b.total > 0 ? b.total : "",
        };
      }),
    [buckets, locale],
  );
  const weeks = useMemo(() => {
    const padded = [...Array.from({ length: lead }, () => null), ...cells];
    const out: (typeof padded)[] = [];
    for (let i = 0; i < padded.length; i += 7) out.push(padded.slice(i, i + 7));
    return out;
  }, [cells, lead]);
  return (
    <div class="month-grid">
      {/* Rows for the grid's semantics only (display: contents): the cells lay out in the 7 columns. */}
      {/* biome-ignore lint/a11y/useFocusableInteractive: a grid's rows hold the focusable cells */}
      <div role="row" class="month-row">
        {weekdays.map((w) => (
          // biome-ignore lint/a11y/useFocusableInteractive: a column's heading, not a cell to choose
          <div key={w.isoDay} role="columnheader" class="weekday muted">
            {w.name}
          </div>
        ))}
      </div>
      {weeks.map((week, r) => (
        // biome-ignore lint/a11y/useFocusableInteractive: a grid's rows hold the focusable cells
        <div key={`week-${r}`} role="row" class="month-row">
          {week.map((c, i) =>
            c === null ? (
              // biome-ignore lint/a11y/useFocusableInteractive: the days before the 1st: an empty cell
              <div key={`lead-${i}`} role="gridcell" />
            ) : (
              <button
                key={`day-${c.day}`}
                type="button"
                role="gridcell"
                data-testid={`overview-day-${c.day}`}
                class={`${c.class}${c.day === today ? " today" : ""}${selection.day === c.day ? " selected" : ""}`}
                aria-selected={selection.day === c.day}
                title={c.title}
                onClick={() => onSelect({ day: c.day, hour: null })}
              >
                <span class="month-day-number">{c.number}</span>
                <small class="month-day-count">{c.count}</small>
              </button>
            ),
          )}
        </div>
      ))}
    </div>
  );
}
