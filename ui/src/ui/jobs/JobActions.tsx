// What can be done to one job: run it now, enable or disable it, see its history, duplicate,
// export or delete it. Shown above the jobs table (for the selected row) and in the editor.
import { useEffect, useState } from "preact/hooks";
import { type JobSummary, api, messageOf } from "../../ipc";
import { navigate } from "../hooks";
import { toast } from "../toast";
import { copyText, downloadText } from "./download";
import { ConfirmDeleteDialog, DuplicateDialog } from "./JobDialogs";

type Props = {
  collection: string;
  /** null: nothing selected, the buttons are disabled. */
  job: JobSummary | null;
  /** After a change: the job's new summary (null once deleted), and the copy's name for a duplicate. */
  onChanged: (summary: JobSummary | null, duplicate?: string) => void;
  /** The editor shows its own History button next to Save. */
  showHistory?: boolean;
  /** Delete asked for from the keyboard (the jobs table): opens the confirmation. */
  deleteRequested?: boolean;
  onDeleteHandled?: () => void;
};

export function JobActions({
  collection,
  job,
  onChanged,
  showHistory = true,
  deleteRequested = false,
  onDeleteHandled,
}: Props) {
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  useEffect(() => {
    if (deleteRequested && job) {
      onDeleteHandled?.();
      setConfirmDelete(job.name);
    }
  }, [deleteRequested, job]);
  const [duplicating, setDuplicating] = useState<string | null>(null);
  const [duplicateError, setDuplicateError] = useState("");
  const togglable = job !== null && (job.state === "Enabled" || job.state === "Disabled");

  const runNow = async () => {
    if (!job) return;
    try {
      await api.runJobNow(collection, job.name);
      toast(`Running ${job.name} now`);
      onChanged(job);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const toggle = async () => {
    if (!job) return;
    const enable = job.state !== "Enabled";
    try {
      const s = await api.setJobEnabled(collection, job.name, enable);
      toast(`${enable ? "Enabled" : "Disabled"} ${job.name}`);
      onChanged(s);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const exportJob = async () => {
    if (!job) return;
    try {
      const text = await api.exportJob(collection, job.name);
      downloadText(`${job.name}.json`, text);
      toast(`Exported ${job.name}.json${(await copyText(text)) ? " (also copied to the clipboard)" : ""}`);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const duplicate = async (typed: string) => {
    if (!duplicating) return;
    const newName = typed || `${duplicating}-copy`;
    try {
      await api.duplicateJob(collection, duplicating, newName);
      toast(`Duplicated ${duplicating} as ${newName}`);
      setDuplicating(null);
      setDuplicateError("");
      onChanged(job, newName);
    } catch (e) {
      setDuplicateError(messageOf(e));
    }
  };
  const remove = async () => {
    const name = confirmDelete!;
    setConfirmDelete(null);
    try {
      await api.deleteJob(collection, name);
      toast(`Deleted ${name}`);
      onChanged(null);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };

  return (
    <>
      <div
        class="toolbar selection-toolbar"
        role="toolbar"
        aria-label={job ? `Actions on ${job.name}` : "Select a job for these actions"}
      >
        <button id="run-now" type="button" class="outline" disabled={!job} onClick={runNow}>
          Run now
        </button>
        <button id="toggle-enabled" type="button" class="outline" disabled={!togglable} onClick={toggle}>
          {job?.state === "Enabled" ? "Disable" : "Enable"}
        </button>
        {showHistory && (
          <button
            id="open-history"
            type="button"
            class="outline"
            disabled={!job}
            onClick={() => job && navigate({ page: "history", collection, job: job.name })}
          >
            History
          </button>
        )}
        <button
          id="duplicate-job"
          type="button"
          class="outline"
          disabled={!job}
          onClick={() => job && setDuplicating(job.name)}
        >
          Duplicate…
        </button>
        <button id="export-job" type="button" class="outline" disabled={!job} onClick={exportJob}>
          Export
        </button>
        <button
          id="delete-job"
          type="button"
          class="outline danger"
          disabled={!job}
          onClick={() => job && setConfirmDelete(job.name)}
        >
          Delete…
        </button>
      </div>
      <ConfirmDeleteDialog job={confirmDelete} onClose={() => setConfirmDelete(null)} onYes={remove} />
      <DuplicateDialog
        job={duplicating}
        error={duplicateError}
        onYes={duplicate}
        onClose={() => {
          setDuplicating(null);
          setDuplicateError("");
        }}
      />
    </>
  );
}
