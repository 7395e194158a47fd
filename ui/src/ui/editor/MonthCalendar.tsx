import { WEEKDAY_HEADERS, monthGrid } from "../../logic/calendar";
import { Button } from "../components/Button";

type Props = { month: string; days: number[]; onShift: (by: number) => void; stale: boolean };

/** The month the preview describes: run days are marked (class "run"). */
export function MonthCalendar({ month, days, onShift, stale }: Props) {
  const grid = monthGrid(month, days);
  return (
    <div class="calendar">
      <div class="calendar-nav">
        <Button size="sm" id="preview-month-prev" aria-label="Previous month" onClick={() => onShift(-1)}>
          ‹
        </Button>
        <strong id="preview-month-title" aria-live="polite">
          {grid.title}
        </strong>
        <Button size="sm" id="preview-month-next" aria-label="Next month" onClick={() => onShift(1)}>
          ›
        </Button>
      </div>
      <table id="preview-calendar" class={stale ? "stale" : undefined} aria-labelledby="preview-month-title">
        <thead>
          <tr>
            {WEEKDAY_HEADERS.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.weeks.map((week) => (
            <tr key={week[0].date}>
              {week.map((c) =>
                c.inMonth ? (
                  <td key={c.date} data-day={c.day} class={c.marked ? "run" : undefined}>
                    {c.day}
                    {c.marked && <span class="visually-hidden"> (runs)</span>}
                  </td>
                ) : (
                  <td key={c.date} class="outside" aria-hidden="true" />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
