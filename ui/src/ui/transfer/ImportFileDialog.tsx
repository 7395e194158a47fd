// Import a file of collections and jobs: a Kairos bundle, an ARM template (with its parameters
// file) or a crontab. Preview first (what would happen to each job), then Import; the report
// stays shown (docs/semantics.md, "Import and export").
import { i18n } from "@lingui/core";
import { useEffect, useState } from "preact/hooks";
import {
  type FieldError,
  type ImportRequest,
  type ImportResult,
  CommandFailure,
  api,
  errorsOf,
  messageOf,
} from "../../ipc";
import { type FormatChoice, errorsByField, formatFor, importCounts, importFields } from "../../logic/transfer";
import { Dialog } from "../components/Dialog";
import { FieldMessages, PathField } from "./PathField";
import { ReportTable } from "./ReportTable";
import { Button } from "../components/Button";

const FIELDS = ["path", "format", "parametersPath", "passphrase", "collection"] as const;

type Props = { open: boolean; onClose: () => void; onImported: (result: ImportResult) => void };

export function ImportFileDialog({ open, onClose, onImported }: Props) {
  const [path, setPath] = useState("");
  const [choice, setChoice] = useState<FormatChoice>("auto");
  const [parametersPath, setParametersPath] = useState("");
  const [collection, setCollection] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [asked, setAsked] = useState(false);
  const [replace, setReplace] = useState(false);
  const [continueOnError, setContinueOnError] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);

  // A report belongs to one showing of the dialog; the paths and options are kept for the next.
  useEffect(() => {
    if (open) {
      setResult(null);
      setErrors([]);
    }
  }, [open]);

  const format = formatFor(path, choice);
  // Once previewed, the file's own format decides (a bundle takes no parameters file).
  const shown = importFields(format ?? result?.format ?? null, asked);
  const by = errorsByField(errors, FIELDS);

  const request = (): ImportRequest => ({
    path: path.trim(),
    format,
    passphrase: shown.passphrase && passphrase ? passphrase : null,
    parametersPath: shown.parameters && parametersPath.trim() ? parametersPath.trim() : null,
    collection: shown.collection && collection.trim() ? collection.trim() : null,
    replace,
    continueOnError,
  });

  const go = async (run: boolean) => {
    setBusy(true);
    setErrors([]);
    try {
      const r = run ? await api.importRun(request()) : await api.importPreview(request());
      setResult(r);
      if (r.written) onImported(r);
    } catch (e) {
      if (e instanceof CommandFailure && e.code === "PassphraseRequired") setAsked(true);
      setResult(null);
      setErrors(errorsOf(e).length ? errorsOf(e) : [{ path: "", code: "Error", message: messageOf(e) }]);
    } finally {
      setBusy(false);
    }
  };

  const counts = result && importCounts(result);
  return (
    <Dialog
      id="import-file-dialog"
      size="wide"
      open={open}
      onClose={onClose}
      title={i18n._("Import collections and jobs")}
    >
      <form
        class="transfer-form"
        onSubmit={(e) => {
          e.preventDefault();
          go(false);
        }}
      >
        <PathField
          id="import-path"
          label={i18n._("File")}
          value={path}
          onInput={(v) => {
            setPath(v);
            setResult(null);
          }}
          errors={by.path}
          placeholder={i18n._("/home/you/kairos.json")}
          pick={{ kind: "file", title: i18n._("Import a file") }}
          hint={i18n._("A Kairos bundle or an ARM template (JSON, told apart by their contents), or a crontab.")}
        />
        <div class="field">
          <label for="import-format">{i18n._("Format")}</label>
          <select
            id="import-format"
            value={choice}
            aria-invalid={by.format ? "true" : undefined}
            onChange={(e) => {
              setChoice(e.currentTarget.value as FormatChoice);
              setResult(null);
            }}
          >
            <option value="auto">
              {format === "Crontab" ? i18n._("Crontab (by its name)") : i18n._("Bundle or template (from the JSON)")}
            </option>
            <option value="Bundle">{i18n._("Kairos bundle")}</option>
            <option value="Template">{i18n._("ARM template")}</option>
            <option value="Crontab">{i18n._("Crontab")}</option>
          </select>
          <FieldMessages id="import-format" field="format" errors={by.format ?? []} />
        </div>
        {shown.parameters && (
          <PathField
            id="import-parameters"
            label={i18n._("Parameters file (templates)")}
            value={parametersPath}
            onInput={setParametersPath}
            errors={by.parametersPath}
            placeholder={i18n._("optional: /home/you/kairos.parameters.json")}
            pick={{ kind: "file", title: i18n._("The template's parameters") }}
          />
        )}
        {shown.collection && (
          <div class="field">
            <label for="import-collection">{i18n._("Into collection")}</label>
            <input
              id="import-collection"
              value={collection}
              placeholder={i18n._("crontab")}
              onInput={(e) => setCollection(e.currentTarget.value)}
              aria-invalid={by.collection ? "true" : undefined}
            />
            <FieldMessages id="import-collection" field="collection" errors={by.collection ?? []} />
          </div>
        )}
        {shown.passphrase && (
          <div class="field">
            <label for="import-passphrase">{i18n._("Passphrase of the bundle's secrets")}</label>
            <input
              id="import-passphrase"
              type="password"
              value={passphrase}
              autoComplete="off"
              aria-invalid={by.passphrase ? "true" : undefined}
              aria-describedby={by.passphrase ? "import-passphrase-error" : undefined}
              onInput={(e) => setPassphrase(e.currentTarget.value)}
            />
            <FieldMessages id="import-passphrase" field="passphrase" errors={by.passphrase ?? []} />
          </div>
        )}
        <fieldset class="transfer-options">
          <label>
            <input
              id="import-replace"
              type="checkbox"
              checked={replace}
              onChange={(e) => setReplace(e.currentTarget.checked)}
            />
            {i18n._("Replace jobs that exist (otherwise they are skipped)")}
          </label>
          <label>
            <input
              id="import-continue"
              type="checkbox"
              checked={continueOnError}
              onChange={(e) => setContinueOnError(e.currentTarget.checked)}
            />
            {i18n._("Continue on error: import what can be imported (otherwise all or nothing)")}
          </label>
        </fieldset>
        {by[""] && (
          <p id="import-error" class="error-text" role="alert">
            {by[""].join(" ")}
          </p>
        )}
        {result && <ReportTable result={result} />}
        <footer class="dialog-actions">
          <Button id="import-close" onClick={onClose}>
            {result?.written ? i18n._("Done") : i18n._("Cancel")}
          </Button>
          <Button id="import-preview" type="submit" aria-busy={busy} disabled={busy || !path.trim()}>
            {i18n._("Preview")}
          </Button>
          <Button
            variant="primary"
            id="import-run"
            aria-busy={busy}
            disabled={busy || !path.trim() || !!result?.written}
            onClick={() => go(true)}
          >
            {counts && !result?.written && counts.created + counts.replaced > 0
              ? i18n._("{count, plural, one {Import # job} other {Import # jobs}}", {
                  count: counts.created + counts.replaced,
                })
              : i18n._("Import")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
