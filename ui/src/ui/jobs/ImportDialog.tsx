import { i18n } from "@lingui/core";
import { useState } from "preact/hooks";
import { type FieldError, api, errorsOf, messageOf } from "../../ipc";
import { fieldErrorText } from "../../logic/fieldErrorMessages";
import { Dialog } from "../components/Dialog";
import { Button } from "../components/Button";

type Props = { open: boolean; collection: string; onClose: () => void; onImported: (name: string) => void };

/** A job document (ARM form or bare properties; comments allowed) pasted or read from a file. */
export function ImportDialog({ open, collection, onClose, onImported }: Props) {
  const [text, setText] = useState("");
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setText(await file.text());
    if (!name) setName(file.name.replace(/\.jsonc?$/i, ""));
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      const parsed = await api.parseJobText(text);
      if (parsed.errors.length || parsed.properties === null) {
        setErrors(
          parsed.errors.length
            ? parsed.errors
            : [{ path: "", code: "BadRequest", message: i18n._("No job properties found.") }],
        );
        return;
      }
      const jobName = name.trim() || parsed.name || "";
      if (!jobName) {
        setErrors([{ path: "name", code: "Form", message: i18n._("Give the job a name.") }]);
        return;
      }
      await api.saveJob(collection, jobName, parsed.properties, true);
      setText("");
      setName("");
      onImported(jobName);
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog id="import-dialog" open={open} onClose={onClose} title={i18n._("Import a job")}>
      <form onSubmit={submit}>
        <label for="import-file">{i18n._("From a file")}</label>
        <input
          id="import-file"
          type="file"
          accept=".json,.jsonc,application/json"
          onChange={(e) => readFile(e.currentTarget.files?.[0])}
        />
        <label for="import-text">{i18n._("Or paste the job JSON")}</label>
        <textarea
          id="import-text"
          rows={10}
          class="mono"
          spellcheck={false}
          value={text}
          aria-invalid={errors.length ? "true" : undefined}
          aria-describedby="import-errors"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <label for="import-name">{i18n._("Job name")}</label>
        <input
          id="import-name"
          value={name}
          placeholder={i18n._("from the document when it has one")}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <ul id="import-errors" class="error-list" aria-live="polite">
          {errors.map((er) => (
            <li key={er.path + er.message}>
              <small class="field-error" data-path={er.path}>
                {er.path && <code>{er.path}</code>} {fieldErrorText(er)}
              </small>
            </li>
          ))}
        </ul>
        <footer class="dialog-actions">
          <Button onClick={onClose}>{i18n._("Cancel")}</Button>
          <Button
            variant="primary"
            id="import-submit"
            type="submit"
            aria-busy={busy}
            disabled={busy || text.trim() === ""}
          >
            {i18n._("Import")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
