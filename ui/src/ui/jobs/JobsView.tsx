import { useCallback, useEffect, useState } from "preact/hooks";
import { type JobSummary, api, messageOf } from "../../ipc";
import { navigate, useEngineChanged } from "../hooks";
import { toast } from "../toast";
import { ExportDialog } from "../transfer/ExportDialog";
import { ImportDialog } from "./ImportDialog";
import { JobActions } from "./JobActions";
import { JobsTable } from "./JobsTable";

/** `collection` is the collection's id; `title` its name. */
export function JobsView({ collection, title }: { collection: string; title: string }) {
  const [jobs, setJobs] = useState<JobSummary[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  // Reloads replace the rows in place (no loading state), so the table does not flicker.
  const reload = useCallback(() => {
    api.listJobs(collection).then((j) => { setJobs(j); setLoadError(""); }, (e) => setLoadError(messageOf(e)));
  }, [collection]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);

  const job = jobs?.find((j) => j.name === selected) ?? null;
  const empty = jobs !== null && jobs.length === 0;
  return (
    <section aria-labelledby="jobs-title">
      <div class="page-header">
        <h1 id="jobs-title">{title}</h1>
        <div class="toolbar" role="toolbar" aria-label="Jobs">
          {/* With no jobs the empty state carries the one #new-job button. */}
          {!empty && <button id="new-job" type="button" onClick={() => navigate({ page: "new", collection })}>New job</button>}
          <button id="import-job" type="button" class="secondary" onClick={() => setImporting(true)}>Import job…</button>
          <button id="export-collection" type="button" class="secondary outline" onClick={() => setExporting(true)}>Export…</button>
        </div>
      </div>
      {!empty && (
        <div class="selection-row">
          <span class="muted selection-label">{job ? job.name : "No job selected"}</span>
          <JobActions collection={collection} job={job}
            onChanged={(summary, duplicate) => {
              if (duplicate) setSelected(duplicate);
              else if (summary === null) setSelected(null);
              reload();
            }} />
        </div>
      )}
      {loadError && <p class="error-text" role="alert">Could not list the jobs: {loadError}</p>}
      {jobs === null && !loadError && <p aria-busy="true">Loading jobs…</p>}
      {empty && (
        <article class="empty-state">
          <h2>No jobs in {title}</h2>
          <p>A job calls a URL, puts a message on a queue or shows a notification — once, or on a schedule you build visually.</p>
          <button id="new-job" type="button" onClick={() => navigate({ page: "new", collection })}>Create a job</button>
        </article>
      )}
      {jobs && jobs.length > 0 && (
        <JobsTable jobs={jobs} selected={selected} onSelect={setSelected}
          onOpen={(name) => navigate({ page: "job", collection, job: name })} />
      )}
      <ExportDialog open={exporting} collection={collection} name={title} onClose={() => setExporting(false)} />
      <ImportDialog open={importing} collection={collection} onClose={() => setImporting(false)}
        onImported={(name) => { setImporting(false); toast(`Imported ${name}`); setSelected(name); reload(); }} />
    </section>
  );
}
