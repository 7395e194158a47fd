import { useState } from "preact/hooks";
import { Modal } from "../Modal";

export function ConfirmDeleteDialog({
  job,
  onYes,
  onClose,
}: {
  job: string | null;
  onYes: () => void;
  onClose: () => void;
}) {
  return (
    <Modal id="confirm-delete" open={job !== null} onClose={onClose} title="Delete job?">
      <p>
        Delete <strong>{job}</strong> and its history? This cannot be undone.
      </p>
      <footer class="dialog-actions">
        <button id="confirm-delete-no" type="button" class="secondary" autoFocus onClick={onClose}>
          Cancel
        </button>
        <button id="confirm-delete-yes" type="button" class="danger" onClick={onYes}>
          Delete
        </button>
      </footer>
    </Modal>
  );
}

type DuplicateProps = { job: string | null; error: string; onYes: (newName: string) => void; onClose: () => void };

export function DuplicateDialog({ job, error, onYes, onClose }: DuplicateProps) {
  const [name, setName] = useState("");
  return (
    <Modal
      id="duplicate-dialog"
      open={job !== null}
      onClose={() => {
        setName("");
        onClose();
      }}
      title={`Duplicate ${job ?? ""}`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onYes(name.trim());
        }}
      >
        <label for="duplicate-name">Name of the copy</label>
        <input
          id="duplicate-name"
          autoFocus
          required
          value={name}
          placeholder={job ? `${job}-copy` : ""}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? "duplicate-error" : undefined}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        {error && (
          <small id="duplicate-error" class="error-text">
            {error}
          </small>
        )}
        <footer class="dialog-actions">
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
          <button id="duplicate-yes" type="submit">
            Duplicate
          </button>
        </footer>
      </form>
    </Modal>
  );
}
