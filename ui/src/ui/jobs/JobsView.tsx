import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type JobSummary, api, messageOf } from "../../ipc";
import {
  NO_FILTER,
  NEVER_RUN,
  type Sort,
  type TableFilter,
  filterOptions,
  nextSort,
  pruneSelection,
  toggleAll,
  toggleSelection,
  visibleJobs,
} from "../../logic/jobsTable";
import { inOrder } from "../../logic/inOrder";
import { navigate, useEngineChanged } from "../hooks";
import { toast } from "../toast";
import { BulkActions } from "./BulkActions";
import { ExportDialog } from "../transfer/ExportDialog";
import { ImportDialog } from "./ImportDialog";
import { JobActions } from "./JobActions";
import { JobsTable } from "./JobsTable";
import "./jobs.css";

/** `collection` is the collection's id; `title` its name. */
export function JobsView({ collection, title }: { collection: string; title: string }) {
  const [jobs, setJobs] = useState<JobSummary[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [filter, setFilter] = useState<TableFilter>(NO_FILTER);
  const [sort, setSort] = useState<Sort>({ key: "name", descending: false });
  const [deleteRequested, setDeleteRequested] = useState(false);
  const [importing, setImporting] = useState(false);
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

  // Ctrl/Cmd+F searches, N makes a new job (outside fields and dialogs).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest("dialog[open]")) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "f") {
        e.preventDefault();
        search.current?.focus();
        return;
      }
      if (t.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "n" || e.key === "N") {
        e.preventDefault();
        navigate({ page: "new", collection });
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [collection]);

  return (
    <section aria-labelledby="jobs-title">
      <div class="page-header">
        <h1 id="jobs-title">{title}</h1>
        <div class="toolbar" role="toolbar" aria-label="Jobs">
          {/* With no jobs the empty state carries the one #new-job button. */}
          {!empty && (
            <button
              id="new-job"
              type="button"
              title="New job (N)"
              onClick={() => navigate({ page: "new", collection })}
            >
              New job
            </button>
          )}
          <button id="import-job" type="button" class="secondary" onClick={() => setImporting(true)}>
            Import job…
          </button>
          <button
            id="export-collection"
            type="button"
            class="secondary outline"
            onClick={() => setExporting({ jobs: null })}
          >
            Export…
          </button>
        </div>
      </div>
      {!empty && jobs && (
        <div class="jobs-filters">
          <input
            id="jobs-search"
            ref={search}
            type="search"
            placeholder="Search by name (Ctrl+F)"
            aria-label="Search jobs by name"
            value={filter.search}
            onInput={(e) => setFilter({ ...filter, search: e.currentTarget.value })}
          />
          <select
            id="jobs-state-filter"
            aria-label="State"
            value={filter.state}
            onChange={(e) => setFilter({ ...filter, state: e.currentTarget.value })}
          >
            <option value="">Any state</option>
            {options.states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <select
            id="jobs-result-filter"
            aria-label="Last result"
            value={filter.lastResult}
            onChange={(e) => setFilter({ ...filter, lastResult: e.currentTarget.value })}
          >
            <option value="">Any last result</option>
            {options.results.map((r) => (
              <option key={r} value={r}>
                {r === NEVER_RUN ? "Never run" : r}
              </option>
            ))}
          </select>
        </div>
      )}
      {!empty && (
        <div class="selection-row">
          <span class="muted selection-label" id="selection-label">
            {chosen.length === 0 ? "No job selected" : single ? single.name : `${chosen.length} jobs selected`}
          </span>
          {chosen.length > 1 ? (
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
          ) : (
            <JobActions
              collection={collection}
              job={single}
              deleteRequested={deleteRequested}
              onDeleteHandled={() => setDeleteRequested(false)}
              onChanged={(summary, duplicate) => {
                if (duplicate) setSelected(new Set([duplicate]));
                else if (summary === null) setSelected(new Set());
                reload();
              }}
            />
          )}
        </div>
      )}
      {loadError && (
        <p class="error-text" role="alert">
          Could not list the jobs: {loadError}
        </p>
      )}
      {jobs === null && !loadError && <p aria-busy="true">Loading jobs…</p>}
      {empty && (
        <article class="empty-state">
          <h2>No jobs in {title}</h2>
          <p>
            A job calls a URL, puts a message on a queue or shows a notification — once, or on a schedule you build
            visually.
          </p>
          <button id="new-job" type="button" onClick={() => navigate({ page: "new", collection })}>
            Create a job
          </button>
        </article>
      )}
      {jobs && jobs.length > 0 && shown.length === 0 && (
        <p class="muted" id="jobs-none-match">
          No job matches the search and filters.
        </p>
      )}
      {shown.length > 0 && (
        <JobsTable
          jobs={shown}
          selected={selected}
          sort={sort}
          onSort={(k) => setSort(nextSort(sort, k))}
          onToggle={(name, range) => {
            setSelected(toggleSelection(selected, names, name, anchor, range));
            setAnchor(name);
          }}
          onToggleAll={() => setSelected(toggleAll(selected, names))}
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
      <ImportDialog
        open={importing}
        collection={collection}
        onClose={() => setImporting(false)}
        onImported={(name) => {
          setImporting(false);
          toast(`Imported ${name}`);
          setSelected(new Set([name]));
          reload();
        }}
      />
    </section>
  );
}
