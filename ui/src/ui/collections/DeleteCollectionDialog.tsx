// "Delete collection…": asks with the number of jobs that go with it.
import { useState } from "preact/hooks";
import { type CollectionSummary, api, messageOf } from "../../ipc";
import { deleteQuestion } from "../../logic/collectionForm";
import { Dialog } from "../components/Dialog";
import { toast } from "../toast";
import { Button } from "../components/Button";

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
    <Dialog id="delete-collection" open={open} onClose={onClose} title="Delete collection">
      <p id="delete-collection-question">{deleteQuestion(collection.name, collection.jobCount)}</p>
      <p class="muted">Their history goes too. This cannot be undone.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <footer class="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="danger"
          id="delete-collection-confirm"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={confirm}
        >
          Delete
        </Button>
      </footer>
    </Dialog>
  );
}
