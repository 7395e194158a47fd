// What can be done to one job: run it now, enable or disable it, open it, see its history,
// duplicate, export or delete it. Shown above the jobs table for the selected row, and in the editor.
import { i18n } from "@lingui/core";
import { Copy, Download, History, Pencil, Play, Power, Trash2 } from "lucide";
import { useEffect, useState } from "preact/hooks";
import { useCommandHandler } from "../../commands/registry";
import { type JobSummary, api, messageOf } from "../../ipc";
import { Button } from "../components/Button";
import { navigate } from "../hooks";
import { toast } from "../toast";
import { toastUndoableDeletion } from "../undoDeletion";
import { ConfirmDeleteDialog, DuplicateDialog } from "./JobDialogs";

type Props = {
  collection: string;
  job: JobSummary;
  /** After a change: the job's new summary (null once deleted), and the copy's name for a duplicate. */
  onChanged: (summary: JobSummary | null, duplicate?: string) => void;
  /** Export… (the view opens the export dialog, the same as for a collection). */
  onExport: () => void;
  /** In the jobs table: "Edit" opens the job (the editor is the job already). */
  showEdit?: boolean;
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
  onExport,
  showEdit = true,
  showHistory = true,
  deleteRequested = false,
  onDeleteHandled,
}: Props) {
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  useEffect(() => {
    if (deleteRequested) {
      onDeleteHandled?.();
      setConfirmDelete(job.name);
    }
  }, [deleteRequested, job]);
  const [duplicating, setDuplicating] = useState<string | null>(null);
  const [duplicateError, setDuplicateError] = useState("");
  const togglable = job.state === "Enabled" || job.state === "Disabled";

  const runNow = async () => {
    try {
      await api.runJobNow(collection, job.name);
      toast(i18n._("Running {name} now", { name: job.name }));
      onChanged(job);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const toggle = async () => {
    const enable = job.state !== "Enabled";
    try {
      const s = await api.setJobEnabled(collection, job.name, enable);
      toast(enable ? i18n._("Enabled {name}", { name: job.name }) : i18n._("Disabled {name}", { name: job.name }));
      onChanged(s);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const duplicate = async (typed: string) => {
    if (!duplicating) return;
    const newName = typed || `${duplicating}-copy`;
    try {
      await api.duplicateJob(collection, duplicating, newName);
      toast(i18n._("Duplicated {name} as {copy}", { name: duplicating, copy: newName }));
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
      const ticket = await api.deleteJob(collection, name);
      toastUndoableDeletion(i18n._("Deleted {name}", { name }), i18n._("Restored {name}", { name }), ticket, () =>
        onChanged(null),
      );
      onChanged(null);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  useCommandHandler("run-now", runNow);
  useCommandHandler("delete", () => setConfirmDelete(job.name));

  return (
    <>
      <div
        class="toolbar selection-toolbar"
        role="toolbar"
        aria-label={i18n._("Actions on {name}", { name: job.name })}
      >
        <Button id="run-now" size="sm" icon={Play} onClick={runNow}>
          {i18n._("Run now")}
        </Button>
        <Button id="toggle-enabled" size="sm" icon={Power} disabled={!togglable} onClick={toggle}>
          {job.state === "Enabled" ? i18n._("Disable") : i18n._("Enable")}
        </Button>
        {showEdit && (
          <Button
            id="edit-job"
            size="sm"
            icon={Pencil}
            onClick={() => navigate({ page: "job", collection, job: job.name })}
          >
            {i18n._("Edit")}
          </Button>
        )}
        {showHistory && (
          <Button
            id="open-history"
            size="sm"
            icon={History}
            onClick={() => navigate({ page: "history", collection, job: job.name })}
          >
            {i18n._("History")}
          </Button>
        )}
        <Button id="duplicate-job" size="sm" icon={Copy} onClick={() => setDuplicating(job.name)}>
          {i18n._("Duplicate…")}
        </Button>
        <Button id="export-job" size="sm" icon={Download} onClick={onExport}>
          {i18n._("Export…")}
        </Button>
        <Button
          id="delete-job"
          size="sm"
          variant="ghost"
          class="text-danger"
          icon={Trash2}
          onClick={() => setConfirmDelete(job.name)}
        >
          {i18n._("Delete…")}
        </Button>
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
