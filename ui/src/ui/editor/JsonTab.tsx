import { i18n } from "@lingui/core";
import type { FieldError } from "../../ipc";
import { fieldErrorText } from "../../logic/fieldErrorMessages";
import { Button } from "../components/Button";

type Props = { text: string; onText: (t: string) => void; errors: FieldError[]; busy: boolean; onApply: () => void };

/** The job's properties as JSON: edit freely (comments and trailing commas are fine), then apply. */
export function JsonTab({ text, onText, errors, busy, onApply }: Props) {
  return (
    <div class="json-tab">
      <label for="job-json">{i18n._("Job properties (JSON)")}</label>
      <textarea
        id="job-json"
        class="mono"
        rows={28}
        spellcheck={false}
        value={text}
        aria-invalid={errors.length ? "true" : undefined}
        aria-describedby="json-errors"
        onInput={(e) => onText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onApply();
          }
        }}
      />
      <ul id="json-errors" class="error-list" aria-live="polite">
        {errors.map((e) => (
          <li key={e.path + e.message}>
            <small class="field-error" data-path={e.path}>
              {e.path && <code>{e.path}</code>} {fieldErrorText(e)}
            </small>
          </li>
        ))}
      </ul>
      <Button variant="primary" id="apply-json" aria-busy={busy} disabled={busy} onClick={onApply}>
        {i18n._("Apply to form")}
      </Button>
      <small class="hint"> {i18n._("Ctrl+Enter applies. Secrets typed here are sent like the form's.")}</small>
    </div>
  );
}
