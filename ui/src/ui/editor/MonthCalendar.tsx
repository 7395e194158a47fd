import { i18n } from "@lingui/core";
import { firstDayOfWeek, weekdayNames } from "../../i18n/format";
import { monthGrid } from "../../logic/calendar";
import { Button } from "../components/Button";

type Props = { month: string; days: number[]; onShift: (by: number) => void; stale: boolean };

/** The month the preview describes: run days are marked (class "run"). */
export function MonthCalendar({ month, days, onShift, stale }: Props) {
  const grid = monthGrid(month, days, firstDayOfWeek());
  return (
    <div class="calendar">
      <div class="calendar-nav">
        <Button size="sm" id="preview-month-prev" aria-label={i18n._("Previous month")} onClick={() => onShift(-1)}>
          ‹
        </Button>
        <strong id="preview-month-title" aria-live="polite">
          {grid.title}
        </strong>
        <Button size="sm" id="preview-month-next" aria-label={i18n._("Next month")} onClick={() => onShift(1)}>
          ›
        </Button>
      </div>
      <table id="preview-calendar" class={stale ? "stale" : undefined} aria-labelledby="preview-month-title">
        <thead>
          <tr>
            {weekdayNames().map((d) => (
              <th key={d.isoDay} scope="col">
                {d.name}
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
                    {c.marked && <span class="visually-hidden"> {i18n._("(runs)")}</span>}
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
