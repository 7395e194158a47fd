// A job's history to a CSV file: every record the history view lets through (its status, date
// range and text), however many pages that is.
import { i18n } from "@lingui/core";
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
    <Dialog
      id="history-export-dialog"
      open={open}
      onClose={onClose}
      title={i18n._("Export the history of {jobName}", { jobName: job })}
    >
      <form class="transfer-form" onSubmit={submit}>
        <p id="history-export-what" class="muted">
          {i18n._("{records}, newest first, as CSV (one line per attempt).", { records: queryWords(status, query) })}
        </p>
        <PathField
          id="history-export-path"
          label={i18n._("Save as")}
          value={path}
          onInput={setPath}
          errors={[...(by.path ?? []), ...(by.status ?? []), ...(by.from ?? []), ...(by.to ?? []), ...(by.text ?? [])]}
          pick={{ kind: "save", defaultPath: `${job}-history.csv`, title: i18n._("Save the history as CSV") }}
          placeholder={i18n._("/home/me/history.csv")}
        />
        <FieldMessages id="history-export-form" field="" errors={by[""] ?? []} />
        {done && (
          <p id="history-export-done" role="status">
            {i18n._("{count, plural, other {Wrote # records to {path}.}}", {
              count: done.records,
              path: done.path,
            })}
          </p>
        )}
        <footer class="dialog-actions">
          <Button onClick={onClose}>{i18n._("Close")}</Button>
          <Button variant="primary" id="history-export-save" type="submit">
            {i18n._("Export")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
