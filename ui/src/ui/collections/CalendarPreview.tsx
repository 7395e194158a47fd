// What the edited (unsaved) calendars do to the collection's jobs: each job's next runs from
// the engine, the ones the calendars remove marked (`data-removed` names the calendar).
import { useEffect, useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { jobStateLabel } from "../../i18n/terms";
import { type Calendar, type CalendarPreviewJob, api, messageOf } from "../../ipc";
import { runLine } from "../../logic/calendarForm";

/** Runs listed per job. */
export const PREVIEW_RUNS = 10;
/** The preview waits this long after the last edit before asking the engine. */
const SETTLE_MS = 250;

type Props = { collection: string; calendars: Calendar[]; jobs: string[] };

export function CalendarPreview({ collection, calendars, jobs }: Props) {
  useI18n();
  const [job, setJob] = useState<string>("");
  const [shown, setShown] = useState<CalendarPreviewJob[] | null>(null);
  const [problem, setProblem] = useState("");
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      api
        .previewCalendars(collection, calendars, job || null, PREVIEW_RUNS)
        .then((r) => {
          if (stale) return;
          setShown(r);
          setProblem("");
        })
        .catch((e) => !stale && setProblem(messageOf(e)));
    }, SETTLE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [collection, calendars, job]);
  return (
    <section
      class="calendar-preview"
      aria-labelledby="calendars-preview-title"
      data-ready={shown !== null || problem ? "" : undefined}
    >
      <h4 id="calendars-preview-title">{i18n._("Effect on the jobs")}</h4>
      <label for="calendars-preview-job">{i18n._("Job")}</label>
      <select id="calendars-preview-job" value={job} onChange={(e) => setJob(e.currentTarget.value)}>
        <option value="">{i18n._("All jobs")}</option>
        {jobs.map((j) => (
          <option key={j} value={j}>
            {j}
          </option>
        ))}
      </select>
      {problem && (
        <p id="calendars-preview-error" class="muted" role="status">
          {i18n._("The preview waits for valid calendars: {reason}", { reason: problem })}
        </p>
      )}
      {shown?.length === 0 && <p class="muted">{i18n._("The collection has no jobs that have not finished.")}</p>}
      {(shown ?? []).map((j) => (
        <div key={j.name} class="calendar-preview-job" data-job={j.name}>
          <h5>
            {j.name}{" "}
            <small class="muted">
              {j.state === "Enabled"
                ? i18n._("({zone})", { zone: j.timeZone })
                : i18n._("({zone}, {state})", { zone: j.timeZone, state: jobStateLabel(j.state) })}
            </small>
          </h5>
          {j.problem && <p class="error-text">{j.problem}</p>}
          <ul>
            {j.runs.map((r) => (
              <li
                key={r.at}
                data-testid="calendar-run"
                data-at={r.at}
                data-removed={r.removedBy ?? undefined}
                class={r.removedBy ? "removed" : undefined}
              >
                {runLine(r)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
