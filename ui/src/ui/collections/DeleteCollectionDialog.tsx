// "Delete collection…": asks with the number of jobs that go with it.
import { useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { type CollectionSummary, api, messageOf } from "../../ipc";
import { deleteQuestion } from "../../logic/collectionForm";
import { Dialog } from "../components/Dialog";
import { navigate } from "../hooks";
import { toastUndoableDeletion } from "../undoDeletion";
import { Button } from "../components/Button";

type Props = { open: boolean; collection: CollectionSummary; onClose: () => void; onDeleted: () => void };

export function DeleteCollectionDialog({ open, collection, onClose, onDeleted }: Props) {
  useI18n();
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      const ticket = await api.deleteCollection(collection.id);
      toastUndoableDeletion(
        i18n._("Deleted collection {collection}", { collection: collection.name }),
        i18n._("Restored collection {collection}", { collection: collection.name }),
        ticket,
        () => navigate({ page: "collection", collection: collection.id }),
      );
      setError("");
      onClose();
      onDeleted();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog id="delete-collection" open={open} onClose={onClose} title={i18n._("Delete collection")}>
      <p id="delete-collection-question">{deleteQuestion(collection.name, collection.jobCount)}</p>
      <p class="muted">{i18n._("Their history goes too. You can undo it for a few seconds.")}</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <footer class="dialog-actions">
        <Button onClick={onClose}>{i18n._("Cancel")}</Button>
        <Button
          variant="danger"
          id="delete-collection-confirm"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={confirm}
        >
          {i18n._("Delete")}
        </Button>
      </footer>
    </Dialog>
  );
}
