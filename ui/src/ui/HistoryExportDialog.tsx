// A job's history to a CSV file: every record with the status the history shows (the date and
// text filters narrow the view only; the file is for a spreadsheet to sort and filter).
import { useState } from "preact/hooks";
import { api, errorsOf, type FieldError, type HistoryExportResult, messageOf } from "../ipc";
import { errorsByField } from "../logic/transfer";
import { Modal } from "./Modal";
import { FieldMessages, PathField } from "./transfer/PathField";

const FIELDS = ["path", "status"] as const;

type Props = { open: boolean; collection: string; job: string; status: string; onClose: () => void };

export function HistoryExportDialog({ open, collection, job, status, onClose }: Props) {
  const [path, setPath] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [done, setDone] = useState<HistoryExportResult | null>(null);
  const by = errorsByField(errors, FIELDS);

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    setErrors([]);
    try {
      setDone(await api.exportHistory({ collection, job, status: status || null, path: path.trim() }));
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    }
  };

  return (
    <Modal id="history-export-dialog" open={open} onClose={onClose} title={`Export the history of ${job}`}>
      <form class="transfer-form" onSubmit={submit}>
        <p class="muted">
          {status ? `Every ${status} record` : "Every record"}, newest first, as CSV (one line per attempt).
        </p>
        <PathField
          id="history-export-path"
          label="Save as"
          value={path}
          onInput={setPath}
          errors={[...(by.path ?? []), ...(by.status ?? [])]}
          pick={{ kind: "save", defaultPath: `${job}-history.csv`, title: "Save the history as CSV" }}
          placeholder="/home/me/history.csv"
        />
        <FieldMessages id="history-export-form" field="" errors={by[""] ?? []} />
        {done && (
          <p id="history-export-done" role="status">
            Wrote {done.records} records to {done.path}.
          </p>
        )}
        <footer>
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
          <button id="history-export-save" type="submit">
            Export
          </button>
        </footer>
      </form>
    </Modal>
  );
}
