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
                    aria-label={`${b.day} ${h}:00, ${count} runs`}
                    onClick={() => onSelect({ day: b.day, hour: h })}
                  >
                    {count > 0 ? count : ""}
                  </button>
                );
              })}
              {at !== null && (
                <div id="overview-now" class="now-line" style={{ top: `${(at * 100).toFixed(2)}%` }} title="now" />
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** One formatter for every label: `toLocaleDateString` builds one per call, and busy-minute warnings make dozens. */
const DAY_LABEL = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});

export function dayLabel(day: string): string {
  return DAY_LABEL.format(new Date(`${day}T00:00:00Z`));
}
