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
  return (
    <div class="month-grid">
      {WEEKDAYS.map((w) => (
        <div key={w} class="weekday muted">
          {w}
        </div>
      ))}
      {Array.from({ length: lead }, (_, i) => (
        <div key={`lead-${i}`} />
      ))}
      {cells.map((c, i) => (
        <button
          key={`day-${i}`}
          type="button"
          data-testid={`overview-day-${c.day}`}
          class={`${c.class}${c.day === today ? " today" : ""}${selection.day === c.day ? " selected" : ""}`}
          aria-pressed={selection.day === c.day}
          title={c.title}
          onClick={() => onSelect({ day: c.day, hour: null })}
        >
          <span class="month-day-number">{c.number}</span>
          <small class="month-day-count">{c.count}</small>
        </button>
      ))}
    </div>
  );
}
