import type { JobSummary } from "../../ipc";
import { formatTime, statusBadgeClass } from "../../logic/history";
import { type Sort, type SortKey, SORT_LABELS, moveFocus } from "../../logic/jobsTable";
import { routeHash } from "../../logic/routes";

type Props = {
  jobs: JobSummary[];
  selected: ReadonlySet<string>;
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** A checkbox (or Space) on `name`; `range` with Shift. */
  onToggle: (name: string, range: boolean) => void;
  onToggleAll: () => void;
  onOpen: (name: string) => void;
  /** Delete on a focused row: the selection, or that row when nothing is selected. */
  onDelete: (name: string) => void;
};

/**
 * One row per job. The checkbox (or Space) selects rows for the toolbar; a click anywhere else
 * on a row, or Enter, opens the editor. Up/Down, Home and End move between rows; Delete deletes.
 */
export function JobsTable({ jobs, selected, sort, onSort, onToggle, onToggleAll, onOpen, onDelete }: Props) {
  const names = jobs.map((j) => j.name);
  const allSelected = names.length > 0 && names.every((n) => selected.has(n));
  const focusRow = (table: HTMLElement | null, name: string) =>
    table?.querySelector<HTMLElement>(`tr[data-testid="job-row-${CSS.escape(name)}"]`)?.focus();
  const header = (key: SortKey, extra = "") => (
    <th
      scope="col"
      class={extra}
      aria-sort={sort.key === key ? (sort.descending ? "descending" : "ascending") : undefined}
    >
      <button type="button" class="sort-button" id={`sort-${key}`} onClick={() => onSort(key)}>
        {key === "name" ? "Job" : SORT_LABELS[key]}
        {sort.key === key ? (sort.descending ? " ▼" : " ▲") : ""}
      </button>
    </th>
  );
  return (
    <div class="table-scroll">
      <table id="jobs-table" class="striped">
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                id="select-all-jobs"
                aria-label="Select all shown jobs"
                checked={allSelected}
                onChange={onToggleAll}
              />
            </th>
            {header("name")}
            <th scope="col">State</th>
            <th scope="col">Schedule</th>
            {header("nextRun")}
            {header("lastResult")}
            <th scope="col" class="num" title="Executions">
              Runs
            </th>
            <th scope="col" class="num">
              Failures
            </th>
            <th scope="col" class="num">
              Faulted
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr
              key={j.name}
              data-testid={`job-row-${j.name}`}
              tabIndex={0}
              aria-selected={selected.has(j.name)}
              class={selected.has(j.name) ? "selected" : ""}
              onClick={(e) => {
                const target = e.target as HTMLElement;
                if (target.closest("input, a")) return;
                // The whole checkbox cell selects: a click just beside the box (or on a row that
                // moved under the pointer as the table refreshed) never opens the job instead.
                if (target.closest(".select-cell")) onToggle(j.name, e.shiftKey);
                else onOpen(j.name);
              }}
              onKeyDown={(e) => {
                if (e.target !== e.currentTarget) return;
                const next = moveFocus(names, j.name, e.key);
                if (next !== null) {
                  e.preventDefault();
                  focusRow(e.currentTarget.closest("table"), next);
                  return;
                }
                if (e.key === "Enter") {
                  e.preventDefault();
                  onOpen(j.name);
                }
                if (e.key === " ") {
                  e.preventDefault();
                  onToggle(j.name, e.shiftKey);
                }
                if (e.key === "Delete") {
                  e.preventDefault();
                  onDelete(j.name);
                }
              }}
            >
              <td class="select-cell">
                <input
                  type="checkbox"
                  data-select
                  aria-label={`Select ${j.name}`}
                  checked={selected.has(j.name)}
                  onClick={(e) => onToggle(j.name, e.shiftKey)}
                />
              </td>
              <th scope="row" class="name">
                <a href={routeHash({ page: "job", collection: j.collection, job: j.name })} tabIndex={-1}>
                  {j.name}
                </a>
                <small class="muted action-type">{j.actionType}</small>
              </th>
              <td class="state">
                <span class={statusBadgeClass(j.state === "Enabled" ? "completed" : j.state)}>{j.state}</span>
              </td>
              <td class="schedule">{j.sentence}</td>
              <td class="next-run">
                <time dateTime={j.nextRun ?? undefined}>{j.nextRun ? formatTime(j.nextRun) : "—"}</time>
              </td>
              <td class="last-result">
                {j.lastStatus ? (
                  <span class={statusBadgeClass(j.lastStatus)}>{j.lastStatus}</span>
                ) : (
                  <span class="muted">never run</span>
                )}
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
