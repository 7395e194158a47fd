// Actions on several selected jobs at once: the engine's per-job commands, called once per job;
// delete is one engine operation for the whole selection, undone as one.
import { i18n } from "@lingui/core";
import { useEffect, useState } from "preact/hooks";
import { type JobSummary, api, messageOf } from "../../ipc";
import {
  type BulkAction,
  BULK_VERBS,
  bulkMessage,
  bulkTargets,
  deleteQuestion,
  restoredMessage,
  runBulk,
} from "../../logic/jobsTable";
import { Button } from "../components/Button";
import { Dialog } from "../components/Dialog";
import { toast } from "../toast";
import { toastUndoableDeletion } from "../undoDeletion";

type Props = {
  collection: string;
  selected: JobSummary[];
  /** Delete asked for from the keyboard: opens the confirmation. */
  deleteRequested: boolean;
  onDeleteHandled: () => void;
  /** Export… the selection (the jobs view opens the export dialog for it). */
  onExport: () => void;
  onDone: () => void;
};

export function BulkActions({ collection, selected, deleteRequested, onDeleteHandled, onExport, onDone }: Props) {
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const call: Record<BulkAction, (name: string) => Promise<unknown>> = {
    enable: (n) => api.setJobEnabled(collection, n, true),
    disable: (n) => api.setJobEnabled(collection, n, false),
    run: (n) => api.runJobNow(collection, n),
    delete: (n) => api.deleteJob(collection, n),
  };
  const removeAll = async (names: string[]) => {
    setBusy(true);
    try {
      const ticket = await api.deleteJobs(collection, names);
      toastUndoableDeletion(bulkMessage("delete", { done: names, failed: [] }), restoredMessage(names), ticket, onDone);
    } catch (e) {
      toast(messageOf(e), "error");
    }
    setBusy(false);
    onDone();
  };
  const run = async (action: BulkAction, names: string[]) => {
    setBusy(true);
    const outcome = await runBulk(names, call[action]);
    setBusy(false);
    toast(bulkMessage(action, outcome), outcome.failed.length ? "error" : undefined);
    onDone();
  };
  const askDelete = () => setConfirming(selected.map((j) => j.name));
  useEffect(() => {
    if (deleteRequested && selected.length > 0) {
      onDeleteHandled();
      askDelete();
    }
  }, [deleteRequested]);

  const button = (action: Exclude<BulkAction, "delete">) => {
    const names = bulkTargets(action, selected);
    return (
      <Button id={`bulk-${action}`} size="sm" disabled={busy || names.length === 0} onClick={() => run(action, names)}>
        {names.length
          ? i18n._("{action} ({count, number})", { action: i18n._(BULK_VERBS[action]), count: names.length })
          : i18n._(BULK_VERBS[action])}
      </Button>
    );
  };
  return (
    <>
      <div
        class="toolbar selection-toolbar"
        role="toolbar"
        aria-label={i18n._("{count, plural, one {Actions on # selected job} other {Actions on # selected jobs}}", {
          count: selected.length,
        })}
      >
        {button("run")}
        {button("enable")}
        {button("disable")}
        <Button id="bulk-export" size="sm" disabled={busy} onClick={onExport}>
          {i18n._("Export ({count, number})…", { count: selected.length })}
        </Button>
        <Button id="bulk-delete" size="sm" variant="ghost" class="text-danger" disabled={busy} onClick={askDelete}>
          {i18n._("Delete ({count, number})…", { count: selected.length })}
        </Button>
      </div>
      <Dialog
        id="confirm-bulk-delete"
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={
          confirming && confirming.length > 1
            ? i18n._("{count, plural, one {Delete # job?} other {Delete # jobs?}}", { count: confirming.length })
            : i18n._("Delete job?")
        }
      >
        <p id="confirm-bulk-delete-text">
          {confirming && deleteQuestion(confirming)} {i18n._("You can undo it for a few seconds.")}
        </p>
        <footer class="dialog-actions">
          <Button id="confirm-bulk-delete-no" autoFocus onClick={() => setConfirming(null)}>
            {i18n._("Cancel")}
          </Button>
          <Button
            id="confirm-bulk-delete-yes"
            variant="danger"
            onClick={() => {
              const names = confirming ?? [];
              setConfirming(null);
              void removeAll(names);
            }}
          >
            {i18n._("{count, plural, one {Delete # job} other {Delete # jobs}}", { count: confirming?.length ?? 0 })}
          </Button>
        </footer>
      </Dialog>
    </>
  );
}
