// "Delete collection…": asks with the number of jobs that go with it.
import { useState } from "preact/hooks";
import { type CollectionSummary, api, messageOf } from "../../ipc";
import { deleteQuestion } from "../../logic/collectionForm";
import { Modal } from "../Modal";
import { toast } from "../toast";

type Props = { open: boolean; collection: CollectionSummary; onClose: () => void; onDeleted: () => void };

export function DeleteCollectionDialog({ open, collection, onClose, onDeleted }: Props) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await api.deleteCollection(collection.id);
      toast(`Deleted collection ${collection.name}`);
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
    <Modal id="delete-collection" open={open} onClose={onClose} title="Delete collection">
      <p id="delete-collection-question">{deleteQuestion(collection.name, collection.jobCount)}</p>
      <p class="muted">Their history goes too. This cannot be undone.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <footer class="dialog-actions">
        <button type="button" class="secondary outline" onClick={onClose}>
          Cancel
        </button>
        <button
          id="delete-collection-confirm"
          type="button"
          class="contrast"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={confirm}
        >
          Delete
        </button>
      </footer>
    </Modal>
  );
}
