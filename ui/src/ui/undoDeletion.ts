// After a delete: the toast says what went, with Undo while the engine keeps it aside
// (docs/semantics.md, "Undoable deletion (the window)"). Undo brings everything back in one
// engine operation; one that comes too late (UndoExpired) or finds the name taken says so.
import { type UndoTicket, api, messageOf } from "../ipc";
import { toast } from "./toast";

export function toastUndoableDeletion(text: string, restored: string, ticket: UndoTicket, onRestored: () => void) {
  toast(text, "info", {
    label: "Undo",
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
