import { CATEGORIES, CATEGORY_LABELS, type DayBucket, toneOf } from "../../logic/overview";
import type { Selection } from "./DayColumns";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The month view: a cell per day with its run count, coloured by what happened or will. */
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
      {buckets.map((b) => {
        const tone = toneOf(b.byCategory);
        const parts = CATEGORIES.filter((c) => b.byCategory[c] > 0).map(
          (c) => `${b.byCategory[c]} ${CATEGORY_LABELS[c].toLowerCase()}`,
        );
        return (
          <button
            key={b.day}
            type="button"
            data-testid={`overview-day-${b.day}`}
            class={`month-day${tone ? ` cat-${tone}` : ""}${b.day === today ? " today" : ""}${selection.day === b.day ? " selected" : ""}`}
            aria-pressed={selection.day === b.day}
            title={parts.join(", ") || "no runs"}
            onClick={() => onSelect({ day: b.day, hour: null })}
          >
            <span class="month-day-number">{Number(b.day.slice(8))}</span>
            <small class="month-day-count">{b.total > 0 ? b.total : ""}</small>
          </button>
        );
      })}
    </div>
  );
}
