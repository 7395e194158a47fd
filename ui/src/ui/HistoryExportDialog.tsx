// A job's history to a CSV file: every record the history view lets through (its status, date
// range and text), however many pages that is.
import { useState } from "preact/hooks";
import { api, errorsOf, type FieldError, type HistoryExportResult, messageOf } from "../ipc";
import { engineQuery, type HistoryQuery, queryWords } from "../logic/historyFilter";
import { errorsByField } from "../logic/transfer";
import { Dialog } from "./components/Dialog";
import { FieldMessages, PathField } from "./transfer/PathField";
import { Button } from "./components/Button";

const FIELDS = ["path", "status", "from", "to", "text"] as const;

type Props = {
  open: boolean;
  collection: string;
  job: string;
  /** What the history view is showing: its status ("" = all) and its date range and text. */
  status: string;
  query: HistoryQuery;
  onClose: () => void;
};

export function HistoryExportDialog({ open, collection, job, status, query, onClose }: Props) {
  const [path, setPath] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [done, setDone] = useState<HistoryExportResult | null>(null);
  const by = errorsByField(errors, FIELDS);

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    setErrors([]);
    try {
      setDone(await api.exportHistory({ collection, job, ...engineQuery(status, query), path: path.trim() }));
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    }
  };

  return (
    <Dialog id="history-export-dialog" open={open} onClose={onClose} title={`Export the history of ${job}`}>
      <form class="transfer-form" onSubmit={submit}>
        <p id="history-export-what" class="muted">
          {queryWords(status, query)}, newest first, as CSV (one line per attempt).
        </p>
        <PathField
          id="history-export-path"
          label="Save as"
          value={path}
          onInput={setPath}
          errors={[...(by.path ?? []), ...(by.status ?? []), ...(by.from ?? []), ...(by.to ?? []), ...(by.text ?? [])]}
          pick={{ kind: "save", defaultPath: `${job}-history.csv`, title: "Save the history as CSV" }}
          placeholder="/home/me/history.csv"
        />
        <FieldMessages id="history-export-form" field="" errors={by[""] ?? []} />
        {done && (
          <p id="history-export-done" role="status">
            Wrote {done.records} records to {done.path}.
          </p>
        )}
        <footer class="dialog-actions">
          <Button onClick={onClose}>Close</Button>
          <Button variant="primary" id="history-export-save" type="submit">
            Export
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
