import { i18n } from "@lingui/core";
import { useMemo } from "preact/hooks";
import { shiftMonth } from "../../logic/calendar";
import { shownRuns } from "../../logic/previewRuns";
import { scheduleNeedsFixing } from "../../logic/previewState";
import type { Preview } from "./checks";
import { MonthCalendar } from "./MonthCalendar";

const COUNTS = [10, 50, 100, 1000];

/**
 * The schedule in words, the next runs and a month calendar. While a new answer is on its way,
 * or while the schedule's own fields have errors, the last good answer stays on screen (dimmed);
 * errors elsewhere (the action) do not stop the preview.
 */
export function PreviewPanel({ preview: p }: { preview: Preview }) {
  const shown = p.good;
  const stale = p.pending || (p.latest !== null && p.latest !== p.good);
  const month = p.month ?? shown?.month ?? null;
  // Written once per answer shown, not on every render of the panel.
  const runs = useMemo(() => (shown ? shownRuns(shown) : []), [shown]);
  return (
    <aside id="preview" class="preview" aria-labelledby="preview-title" aria-busy={p.pending}>
      <h2 id="preview-title">{i18n._("Preview")}</h2>
      <p id="preview-sentence" class={stale ? "sentence stale" : "sentence"}>
        {shown?.sentence ?? (p.pending ? "…" : "")}
      </p>
      {p.disabled && <p class="muted">{i18n._("The job is not enabled: these are the runs it makes once it is.")}</p>}
      {scheduleNeedsFixing(p.latest) && (
        <p id="preview-fix" class="error-text">
          {i18n._("Fix the highlighted schedule fields to update the preview.")}
        </p>
      )}
      {p.failure && (
        <p class="error-text" role="alert">
          {i18n._("Preview failed: {reason}", { reason: p.failure })}
        </p>
      )}

      <div class="preview-count">
        <label for="preview-count">{i18n._("Next runs")}</label>
        <select id="preview-count" value={p.count} onChange={(e) => p.setCount(Number(e.currentTarget.value))}>
          {COUNTS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        {shown?.timeZone && <span>{i18n._("in {zone}", { zone: shown.timeZone })}</span>}
      </div>
      <ol id="preview-runs" class={stale ? "runs stale" : "runs"}>
        {runs.map((r) => (
          <li key={r.at}>
            <time dateTime={r.at}>{r.local}</time>
            {r.note && <small class="note"> {r.note}</small>}
          </li>
        ))}
      </ol>
      {shown && shown.runs.length === 0 && (
        <p class="muted">{i18n._("No runs: the schedule never fires, or it has ended.")}</p>
      )}
      {shown && shown.notes.length > 0 && (
        <ul id="preview-notes" class="notes">
          {shown.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {month && (
        <MonthCalendar
          month={month}
          days={shown && shown.month === month ? shown.monthDays : []}
          stale={stale}
          onShift={(by) => p.setMonth(shiftMonth(month, by))}
        />
      )}
    </aside>
  );
}
