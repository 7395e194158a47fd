// Export a collection, or only the jobs selected in it, to a file: a Kairos bundle (secrets
// sealed with a passphrase, asked twice, when wanted), an ARM template or a crontab. What the
// file changed or needs is listed after.
import { i18n } from "@lingui/core";
import { useState } from "preact/hooks";
import { type ExportResult, type FieldError, type TransferFormat, api, errorsOf, messageOf } from "../../ipc";
import { checkExport, errorsByField, exportFileName } from "../../logic/transfer";
import { Dialog } from "../components/Dialog";
import { FieldMessages, PathField } from "./PathField";
import { Button } from "../components/Button";
import { fill, slots } from "../../i18n/rich";

// A `jobs` error (a selected job deleted meanwhile) has no field of its own: it shows at the end.
const FIELDS = ["path", "format", "passphrase", "again"] as const;

type Props = {
  open: boolean;
  collection: string;
  name: string;
  /** Only these jobs (with the collection around them); null or absent: every job. */
  jobs?: string[] | null;
  onClose: () => void;
};

export function ExportDialog({ open, collection, name, jobs = null, onClose }: Props) {
  const [format, setFormat] = useState<TransferFormat>("Bundle");
  const [withSecrets, setWithSecrets] = useState(false);
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [path, setPath] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [done, setDone] = useState<ExportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const by = errorsByField(errors, FIELDS);
  const secrets = format === "Bundle" && withSecrets;
  const title = jobs
    ? jobs.length === 1
      ? i18n._("Export {jobName} from {collection}", { jobName: jobs[0], collection: name })
      : i18n._("{count, plural, one {Export # job of {collection}} other {Export # jobs of {collection}}}", {
          count: jobs.length,
          collection: name,
        })
    : i18n._("Export {collection}", { collection: name });
  const fileBase = jobs ? (jobs.length === 1 ? jobs[0] : `${name}-${jobs.length}-jobs`) : name;

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const form = { format, withSecrets, passphrase, again, path };
    const local = checkExport(form);
    setErrors(local);
    if (local.length) return;
    setBusy(true);
    try {
      setDone(
        await api.exportCollection({
          collection,
          format,
          withSecrets: secrets,
          passphrase: secrets ? passphrase : null,
          jobs,
          path: path.trim(),
        }),
      );
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog id="export-dialog" size="wide" open={open} onClose={onClose} title={title}>
      <form class="transfer-form" onSubmit={submit}>
        <div class="field">
          <label for="export-format">{i18n._("Format")}</label>
          <select
            id="export-format"
            value={format}
            aria-invalid={by.format ? "true" : undefined}
            onChange={(e) => {
              setFormat(e.currentTarget.value as TransferFormat);
              setDone(null);
            }}
          >
            <option value="Bundle">{i18n._("Kairos bundle (the collection, its calendars and jobs)")}</option>
            <option value="Template">{i18n._("ARM template (Azure; secrets become parameters)")}</option>
            <option value="Crontab">{i18n._("Crontab (the jobs cron can express)")}</option>
          </select>
          <FieldMessages id="export-format" field="format" errors={by.format ?? []} />
        </div>
        {format === "Bundle" && (
          <label>
            <input
              id="export-with-secrets"
              type="checkbox"
              checked={withSecrets}
              onChange={(e) => setWithSecrets(e.currentTarget.checked)}
            />
            {i18n._("With the jobs' secrets, sealed with a passphrase")}
          </label>
        )}
        {secrets && (
          <div class="grid">
            <div class="field">
              <label for="export-passphrase">{i18n._("Passphrase")}</label>
              <input
                id="export-passphrase"
                type="password"
                autoComplete="new-password"
                value={passphrase}
                aria-invalid={by.passphrase ? "true" : undefined}
                onInput={(e) => setPassphrase(e.currentTarget.value)}
              />
              <FieldMessages id="export-passphrase" field="passphrase" errors={by.passphrase ?? []} />
            </div>
            <div class="field">
              <label for="export-passphrase-again">{i18n._("Passphrase again")}</label>
              <input
                id="export-passphrase-again"
                type="password"
                autoComplete="new-password"
                value={again}
                aria-invalid={by.again ? "true" : undefined}
                onInput={(e) => setAgain(e.currentTarget.value)}
              />
              <FieldMessages id="export-passphrase-again" field="again" errors={by.again ?? []} />
            </div>
          </div>
        )}
        <PathField
          id="export-path"
          label={i18n._("Save as")}
          value={path}
          onInput={(v) => {
            setPath(v);
            setDone(null);
          }}
          errors={by.path}
          placeholder={i18n._("/home/you/{file}", { file: exportFileName(fileBase, format) })}
          pick={{ kind: "save", title, defaultPath: exportFileName(fileBase, format) }}
          hint={secrets ? i18n._("The file is made readable by you only.") : undefined}
        />
        {by[""] && (
          <p id="export-error" class="error-text" role="alert">
            {by[""].join(" ")}
          </p>
        )}
        {done && (
          <div id="export-done" role="status">
            <p>{fill(i18n._("Saved to {path}.", slots("path")), { path: <code>{done.path}</code> })}</p>
            {done.warnings.length > 0 && (
              <ul id="export-warnings" class="warning-list">
                {done.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <footer class="dialog-actions">
          <Button id="export-close" onClick={onClose}>
            {done ? i18n._("Done") : i18n._("Cancel")}
          </Button>
          <Button variant="primary" id="export-submit" type="submit" aria-busy={busy} disabled={busy}>
            {i18n._("Export")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
