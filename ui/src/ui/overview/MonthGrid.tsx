import { useMemo } from "preact/hooks";
import { CATEGORIES, CATEGORY_LABELS, type DayBucket, toneOf } from "../../logic/overview";
import type { Selection } from "./DayColumns";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

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
  const lead = (new Date(`${buckets[0].day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells = useMemo(
    () =>
      buckets.map((b) => {
        const tone = toneOf(b.byCategory);
        const parts = CATEGORIES.filter((c) => b.byCategory[c] > 0).map(
          (c) => `${b.byCategory[c]} ${CATEGORY_LABELS[c].toLowerCase()}`,
        );
        return {
          day: b.day,
          class: `month-day${tone ? ` cat-${tone}` : ""}`,
          title: parts.join(", ") || "no runs",
          number: Number(b.day.slice(8)),
          count: b.total > 0 ? b.total : "",
        };
      }),
    [buckets],
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
        {WEEKDAYS.map((w) => (
          // biome-ignore lint/a11y/useFocusableInteractive: a column's heading, not a cell to choose
          <div key={w} role="columnheader" class="weekday muted">
            {w}
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
