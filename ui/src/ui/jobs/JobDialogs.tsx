import { i18n } from "@lingui/core";
import { useState } from "preact/hooks";
import { Button } from "../components/Button";
import { Dialog } from "../components/Dialog";
import { Field } from "../components/Field";
import { fill, slots } from "../../i18n/rich";

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
    <Dialog id="confirm-delete" open={job !== null} onClose={onClose} title={i18n._("Delete job?")}>
      <p>
        {fill(i18n._("Delete {name} and its history? You can undo it for a few seconds.", slots("name")), {
          name: <strong>{job}</strong>,
        })}
      </p>
      <footer class="dialog-actions">
        <Button id="confirm-delete-no" autoFocus onClick={onClose}>
          {i18n._("Cancel")}
        </Button>
        <Button id="confirm-delete-yes" variant="danger" onClick={onYes}>
          {i18n._("Delete")}
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
      title={i18n._("Duplicate {name}", { name: job ?? "" })}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onYes(name.trim());
        }}
      >
        <Field id="duplicate-name" label={i18n._("Name of the copy")} error={error}>
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
          <Button onClick={onClose}>{i18n._("Cancel")}</Button>
          <Button id="duplicate-yes" type="submit" variant="primary">
            {i18n._("Duplicate")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
