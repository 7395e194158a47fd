// After a delete: the toast says what went, with Undo while the engine keeps it aside
// (docs/semantics.md, "Undoable deletion (the window)"). Undo brings everything back in one
// engine operation; one that comes too late (UndoExpired) or finds the name taken says so.
import { i18n } from "../i18n";
import { type Deletion, type UndoTicket, api, messageOf } from "../ipc";
import { bulkMessage, restoredMessage } from "../logic/jobsTable";
import { toast } from "./toast";

export function toastUndoableDeletion(text: string, restored: string, ticket: UndoTicket, onRestored: () => void) {
  toast(text, "info", {
    label: i18n._("Undo"),
    run: () => {
      api.undoDeletion(ticket.token).then(
        () => {
          toast(restored);
          onRestored();
        },
        (e) => toast(messageOf(e), "error"),
      );
    },
  });
}

/** What a pending deletion took, in the toast's words. */
export function deletedText(d: Deletion): { text: string; restored: string } {
  const collection = d.collection.split("/").pop() ?? d.collection;
  if (d.wholeCollection) {
    return {
      text: i18n._("Deleted collection {collection}", { collection }),
      restored: i18n._("Restored collection {collection}", { collection }),
    };
  }
  return {
    text:
      d.jobs.length === 1
        ? i18n._("Deleted {name}", { name: d.jobs[0] })
        : bulkMessage("delete", { done: d.jobs, failed: [] }),
    restored: restoredMessage(d.jobs),
  };
}

/**
 * A window opened again while a deletion made before it closed can still be undone: the latest
 * one is offered in the toast, as it was when it was made.
 */
export async function offerPendingUndo(onRestored: () => void): Promise<void> {
  const pending = await api.pendingDeletions();
  const latest = pending.at(-1);
  if (!latest) return;
  const { text, restored } = deletedText(latest);
  toastUndoableDeletion(text, restored, latest.ticket, onRestored);
}
