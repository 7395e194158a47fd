import { i18n } from "@lingui/core";
import { Inbox, Plus } from "lucide";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useCommandHandler } from "../../commands/registry";
import { type CollectionSummary, type JobSummary, api, messageOf } from "../../ipc";
import { inOrder } from "../../logic/inOrder";
import {
  NEVER_RUN,
  NO_FILTER,
  type Sort,
  type TableFilter,
  filterOptions,
  nextSort,
  pruneSelection,
  visibleJobs,
} from "../../logic/jobsTable";
import { jobStateLabel } from "../../i18n/terms";
import { statusLabel } from "../../logic/labels";
import { useCollectionActions } from "../collections/CollectionActions";
import { Button } from "../components/Button";
import { EmptyState } from "../components/EmptyState";
import { FilterBar, SearchField } from "../components/FilterBar";
import { PageHeader } from "../components/PageHeader";
import { Select } from "../components/Select";
import { navigate, useEngineChanged } from "../hooks";
import { ExportDialog } from "../transfer/ExportDialog";
import { BulkActions } from "./BulkActions";
import { JobActions } from "./JobActions";
import { JobsTable } from "./JobsTable";
import "./jobs.css";

type Props = {
  /** The collection's id. */
  collection: string;
  /** Its name. */
  title: string;
  /** Its summary (for the "…" menu's dialogs); null until the list of collections is in. */
  summary: CollectionSummary | null;
  /** After a change to the collection itself (its plan, all jobs enabled…). */
  onCollectionChanged: () => void;
};

/** `collection` is the collection's id; `title` its name. */
export function JobsView({ collection, title, summary, onCollectionChanged }: Props) {
  const [jobs, setJobs] = useState<JobSummary[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [filter, setFilter] = useState<TableFilter>(NO_FILTER);
  const [sort, setSort] = useState<Sort>({ key: "name", descending: false });
  const [deleteRequested, setDeleteRequested] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  // Export…: the whole collection (null) or the selected jobs.
  const [exporting, setExporting] = useState<{ jobs: string[] | null } | null>(null);

  // Reloads replace the rows in place (no loading state), so the table does not flicker. They
  // answer out of order (`inOrder`): an older list never replaces a newer one, and a list of the
  // collection shown before is dropped.
  const shownCollection = useRef(collection);
  shownCollection.current = collection;
  const applyJobs = useMemo(
    () =>
      inOrder((j: JobSummary[]) => {
        if (shownCollection.current !== collection) return;
        setJobs(j);
        setLoadError("");
      }),
    [collection],
  );
  const reload = useCallback(() => {
    applyJobs(api.listJobs(collection)).catch((e) => setLoadError(messageOf(e)));
  }, [collection, applyJobs]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);

  const shown = useMemo(() => (jobs ? visibleJobs(jobs, filter, sort) : []), [jobs, filter, sort]);
  const names = useMemo(() => shown.map((j) => j.name), [shown]);
  // Rows that went away (deleted, filtered out) leave the selection.
  useEffect(() => {
    if ([...selected].some((n) => !names.includes(n))) setSelected(pruneSelection(selected, names));
  }, [names]);
  const chosen = shown.filter((j) => selected.has(j.name));
  const single = chosen.length === 1 ? chosen[0] : null;
  const options = useMemo(() => filterOptions(jobs ?? []), [jobs]);
  const empty = jobs !== null && jobs.length === 0;

  const newJob = () => navigate({ page: "new", collection });
  const find = () => search.current?.focus();
  // Ctrl/Cmd+F searches and Ctrl/Cmd+N makes a job (also from the native menu and the palette).
  // No single-key shortcut: a key without a modifier types (WCAG 2.1.4).
  useCommandHandler("new-job", newJob);
  useCommandHandler("find", empty ? undefined : find);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement).closest("dialog[open]") || e.defaultPrevented) return;
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const key = e.key.toLowerCase();
      if (key === "f") {
        e.preventDefault();
        find();
      } else if (key === "n") {
        e.preventDefault();
        newJob();
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [collection]);
  const actions = useCollectionActions(
    summary,
    () => {
      onCollectionChanged();
      reload();
    },
    false,
    (name) => setSelected(new Set([name])),
  );

  return (
    <section aria-labelledby="jobs-title">
      <PageHeader
        titleId="jobs-title"
        title={title}
        actions={
          !empty && (
            <Button id="new-job" variant="primary" icon={Plus} title={i18n._("New job (Ctrl+N)")} onClick={newJob}>
              {i18n._("New job")}
            </Button>
          )
        }
        menu={{
          id: "collection-menu",
          label: i18n._("More actions for {name}", { name: title }),
          items: actions.items(),
        }}
      />
      {!empty && jobs && (
        <FilterBar label={i18n._("Filter the jobs")}>
          <SearchField
            id="jobs-search"
            ref={search}
            placeholder={i18n._("Search by name (Ctrl+F)")}
            aria-label={i18n._("Search jobs by name")}
            value={filter.search}
            onInput={(e) => setFilter({ ...filter, search: e.currentTarget.value })}
          />
          <Select
            id="jobs-state-filter"
            aria-label={i18n._("State")}
            value={filter.state}
            onChange={(e) => setFilter({ ...filter, state: e.currentTarget.value })}
            options={[
              { value: "", label: i18n._("Any state") },
              ...options.states.map((s) => ({ value: s, label: jobStateLabel(s) })),
            ]}
          />
          <Select
            id="jobs-result-filter"
            aria-label={i18n._("Last result")}
            value={filter.lastResult}
            onChange={(e) => setFilter({ ...filter, lastResult: e.currentTarget.value })}
            options={[
              { value: "", label: i18n._("Any last result") },
              ...options.results.map((r) => ({
                value: r,
                label: r === NEVER_RUN ? i18n._("Never run") : statusLabel(r),
              })),
            ]}
          />
        </FilterBar>
      )}
      {!empty && jobs && (
        <div class="selection-row">
          {chosen.length === 0 && (
            <>
              <span class="muted" id="selection-label">
                {i18n._("No job selected")}
              </span>
              <span class="muted">
                {i18n._("Click a job to see its actions; double-click it or press Enter to open it.")}
              </span>
            </>
          )}
          {single && (
            <>
              <span class="selection-label ellipsis" id="selection-label" title={single.name}>
                {single.name}
              </span>
              <JobActions
                collection={collection}
                job={single}
                deleteRequested={deleteRequested}
                onDeleteHandled={() => setDeleteRequested(false)}
                onExport={() => setExporting({ jobs: [single.name] })}
                onChanged={(summary, duplicate) => {
                  if (duplicate) setSelected(new Set([duplicate]));
                  else if (summary === null) setSelected(new Set());
                  reload();
                }}
              />
            </>
          )}
          {chosen.length > 1 && (
            <>
              <span class="selection-label" id="selection-label">
                {i18n._("{count, plural, one {# job selected} other {# jobs selected}}", { count: chosen.length })}
              </span>
              <BulkActions
                collection={collection}
                selected={chosen}
                deleteRequested={deleteRequested}
                onDeleteHandled={() => setDeleteRequested(false)}
                onExport={() => setExporting({ jobs: chosen.map((j) => j.name) })}
                onDone={() => {
                  setSelected(new Set());
                  reload();
                }}
              />
            </>
          )}
        </div>
      )}
      {loadError && (
        <p class="error-text" role="alert">
          {i18n._("Could not list the jobs: {reason}", { reason: loadError })}
        </p>
      )}
      {jobs === null && !loadError && <p aria-busy="true">{i18n._("Loading jobs…")}</p>}
      {empty && (
        <EmptyState
          title={i18n._("No jobs in {name}", { name: title })}
          icon={Inbox}
          actions={
            <Button id="new-job" variant="primary" icon={Plus} onClick={newJob}>
              {i18n._("Create a job")}
            </Button>
          }
        >
          <p>
            {i18n._(
              "A job calls a URL, puts a message on a queue or shows a notification — once, or on a schedule you build visually.",
            )}
          </p>
        </EmptyState>
      )}
      {jobs && jobs.length > 0 && shown.length === 0 && (
        <p class="muted" id="jobs-none-match">
          {i18n._("No job matches the search and filters.")}
        </p>
      )}
      {shown.length > 0 && (
        <JobsTable
          jobs={shown}
          selected={selected}
          sort={sort}
          onSort={(k) => setSort(nextSort(sort, k))}
          onSelectionChange={setSelected}
          onOpen={(name) => navigate({ page: "job", collection, job: name })}
          onDelete={(name) => {
            if (!selected.has(name)) setSelected(new Set([name]));
            setDeleteRequested(true);
          }}
        />
      )}
      <ExportDialog
        key={exporting?.jobs?.join("\n") ?? ""}
        open={exporting !== null}
        collection={collection}
        name={title}
        jobs={exporting?.jobs ?? null}
        onClose={() => setExporting(null)}
      />
      {actions.dialogs}
    </section>
  );
}
