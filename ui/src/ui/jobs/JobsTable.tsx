import { i18n } from "@lingui/core";
import { ArrowDown, ArrowUp } from "lucide";
import type { JobSummary } from "../../ipc";
import { statusBadgeClass } from "../../logic/history";
import { actionTypeLabel, jobStateLabel } from "../../i18n/terms";
import { statusLabel } from "../../logic/labels";
import { type Sort, type SortKey, SORT_LABELS } from "../../logic/jobsTable";
import { type Column, DataTable } from "../components/DataTable";
import { Icon } from "../components/Icon";
import { formatDateTime, formatDateTimeShort } from "../format";

type Props = {
  jobs: JobSummary[];
  selected: ReadonlySet<string>;
  sort: Sort;
  onSort: (key: SortKey) => void;
  onSelectionChange: (next: Set<string>) => void;
  onOpen: (name: string) => void;
  /** Delete on a focused row: the selection, or that row when nothing is selected. */
  onDelete: (name: string) => void;
};

/** One row per job (a DataTable: click selects, double-click or Enter opens, Delete deletes). */
export function JobsTable({ jobs, selected, sort, onSort, onSelectionChange, onOpen, onDelete }: Props) {
  const sortable = (key: SortKey, label: string) => (
    <button type="button" class="sort-button" id={`sort-${key}`} onClick={() => onSort(key)}>
      {label}
      {sort.key === key && <Icon icon={sort.descending ? ArrowDown : ArrowUp} size={12} />}
    </button>
  );
  const ariaSort = (key: SortKey) => (sort.key === key ? (sort.descending ? "descending" : "ascending") : undefined);
  const columns: Column<JobSummary>[] = [
    {
      key: "name",
      header: sortable("name", i18n._("Job")),
      sort: ariaSort("name"),
      rowHeader: true,
      width: "20%",
      cell: (j) => (
        <>
          <span class="ellipsis job-name" title={j.name}>
            {j.name}
          </span>
          <small class="muted action-type">{actionTypeLabel(j.actionType)}</small>
        </>
      ),
    },
    {
      key: "state",
      header: i18n._("State"),
      width: "88px",
      cell: (j) => (
        <span class={statusBadgeClass(j.state === "Enabled" ? "completed" : j.state)}>{jobStateLabel(j.state)}</span>
      ),
    },
    {
      key: "schedule",
      header: i18n._("Schedule"),
      cell: (j) => (
        <span class="schedule-sentence" title={j.sentence}>
          {j.sentence}
        </span>
      ),
    },
    {
      key: "next-run",
      header: sortable("nextRun", i18n._(SORT_LABELS.nextRun)),
      sort: ariaSort("nextRun"),
      width: "148px",
      cell: (j) => (
        <time dateTime={j.nextRun ?? undefined} title={formatDateTime(j.nextRun)}>
          {formatDateTimeShort(j.nextRun)}
        </time>
      ),
    },
    {
      key: "last-result",
      header: sortable("lastResult", i18n._(SORT_LABELS.lastResult)),
      sort: ariaSort("lastResult"),
      width: "148px",
      cell: (j) => (
        <>
          {j.lastStatus ? (
            <span class={statusBadgeClass(j.lastStatus)}>{statusLabel(j.lastStatus)}</span>
          ) : (
            <span class="muted">{statusLabel("never")}</span>
          )}
          {j.lastRun && (
            <small class="muted last-run" title={formatDateTime(j.lastRun)}>
              {formatDateTimeShort(j.lastRun)}
            </small>
          )}
        </>
      ),
    },
    {
      key: "executions",
      header: <span title={i18n._("Executions")}>{i18n._("Runs")}</span>,
      numeric: true,
      width: "56px",
      cell: (j) => j.executionCount,
    },
    {
      key: "failures",
      header: <span title={i18n._("Failures")}>{i18n._({ id: "jobs.column.failed", message: "Failed" })}</span>,
      numeric: true,
      width: "64px",
      cell: (j) => j.failureCount,
    },
    {
      key: "faulted",
      header: i18n._({ id: "jobs.column.faulted", message: "Faulted" }),
      numeric: true,
      width: "76px",
      cell: (j) => j.faultedCount,
    },
  ];
  return (
    <DataTable
      id="jobs-table"
      label={i18n._("Jobs")}
      rows={jobs}
      rowKey={(j) => j.name}
      rowTestId={(j) => `job-row-${j.name}`}
      columns={columns}
      selected={selected}
      onSelectionChange={onSelectionChange}
      onOpen={onOpen}
      onRowKey={(name, e) => {
        if (e.key !== "Delete") return false;
        onDelete(name);
        return true;
      }}
      checkboxes={{
        row: (j) => i18n._("Select {name}", { name: j.name }),
        all: i18n._("Select all shown jobs"),
        allId: "select-all-jobs",
      }}
    />
  );
}
