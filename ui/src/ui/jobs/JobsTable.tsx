import type { JobSummary } from "../../ipc";
import { formatTime, statusBadgeClass } from "../../logic/history";
import { routeHash } from "../../logic/routes";

type Props = {
  jobs: JobSummary[];
  selected: string | null;
  onSelect: (name: string) => void;
  onOpen: (name: string) => void;
};

/**
 * One row per job. The radio selects the job for the toolbar; a click anywhere else on the row,
 * or Enter on the focused row, opens the editor (Space selects it).
 */
export function JobsTable({ jobs, selected, onSelect, onOpen }: Props) {
  return (
    <div class="table-scroll">
      <table id="jobs-table" class="striped">
        <thead>
          <tr>
            <th scope="col"><span class="visually-hidden">Select</span></th>
            <th scope="col">Job</th>
            <th scope="col">State</th>
            <th scope="col">Schedule</th>
            <th scope="col">Next run</th>
            <th scope="col">Last result</th>
            <th scope="col" class="num" title="Executions">Runs</th>
            <th scope="col" class="num">Failures</th>
            <th scope="col" class="num">Faulted</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.name} data-testid={`job-row-${j.name}`} tabIndex={0} aria-selected={j.name === selected}
              class={j.name === selected ? "selected" : ""}
              onClick={(e) => { if (!(e.target as HTMLElement).closest("input, a")) onOpen(j.name); }}
              onKeyDown={(e) => {
                if (e.target !== e.currentTarget) return;
                if (e.key === "Enter") { e.preventDefault(); onOpen(j.name); }
                if (e.key === " ") { e.preventDefault(); onSelect(j.name); }
              }}>
              <td>
                <input type="radio" name="job-select" aria-label={`Select ${j.name}`} checked={j.name === selected}
                  onChange={() => onSelect(j.name)} />
              </td>
              <th scope="row" class="name">
                <a href={routeHash({ page: "job", collection: j.collection, job: j.name })} tabIndex={-1}>{j.name}</a>
                <small class="muted action-type">{j.actionType}</small>
              </th>
              <td class="state"><span class={statusBadgeClass(j.state === "Enabled" ? "completed" : j.state)}>{j.state}</span></td>
              <td class="schedule">{j.sentence}</td>
              <td class="next-run"><time dateTime={j.nextRun ?? undefined}>{j.nextRun ? formatTime(j.nextRun) : "—"}</time></td>
              <td class="last-result">
                {j.lastStatus ? <span class={statusBadgeClass(j.lastStatus)}>{j.lastStatus}</span> : <span class="muted">never run</span>}
                {j.lastRun && <small class="muted"> {formatTime(j.lastRun)}</small>}
              </td>
              <td class="executions num">{j.executionCount}</td>
              <td class="failures num">{j.failureCount}</td>
              <td class="faulted num">{j.faultedCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
