import { useState } from "preact/hooks";
import { Button } from "../components/Button";
import { Dialog } from "../components/Dialog";
import { Field } from "../components/Field";

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
    <Dialog id="confirm-delete" open={job !== null} onClose={onClose} title="Delete job?">
      <p>
        Delete <strong>{job}</strong> and its history? You can undo it for a few seconds.
      </p>
      <footer class="dialog-actions">
        <Button id="confirm-delete-no" autoFocus onClick={onClose}>
          Cancel
        </Button>
        <Button id="confirm-delete-yes" variant="danger" onClick={onYes}>
          Delete
        </Button>
      </footer>
    </Dialog>
  );
}

type DuplicateProps = { job: string | null; error: string; onYes: (newName: string) => void; onClose: () => void };

export function DuplicateDialog({ job, error, onYes, onClose }: DuplicateProps) {
  const [name, setName] = useState("");
  return (
    <Dialog
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
        <Field id="duplicate-name" label="Name of the copy" error={error}>
          <input
            id="duplicate-name"
            autoFocus
            required
            value={name}
            placeholder={job ? `${job}-copy` : ""}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? "duplicate-name-error" : undefined}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <footer class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button id="duplicate-yes" type="submit" variant="primary">
            Duplicate
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
