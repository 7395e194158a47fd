// A path typed or chosen with "Browse…" (the system's dialog): typing keeps working everywhere,
// and the e2e tests type, since WebDriver cannot drive a native dialog.
import { i18n } from "@lingui/core";
import { type PickPath, messageOf, pickPath } from "../../ipc";
import { toast } from "../toast";
import { Button } from "../components/Button";

type Props = {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  errors?: string[];
  pick: PickPath;
  placeholder?: string;
  hint?: string;
};

export function PathField({ id, label, value, onInput, errors = [], pick, placeholder, hint }: Props) {
  const browse = async () => {
    try {
      const chosen = await pickPath({ ...pick, defaultPath: value || pick.defaultPath });
      if (chosen) onInput(chosen);
    } catch (e) {
      toast(i18n._("Could not open the dialog: {reason}", { reason: messageOf(e) }), "error");
    }
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="input-with-button">
        <input
          id={id}
          class="mono"
          value={value}
          placeholder={placeholder}
          spellcheck={false}
          autoComplete="off"
          aria-invalid={errors.length ? "true" : undefined}
          aria-describedby={errors.length ? `${id}-error` : undefined}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
        <Button id={`${id}-browse`} onClick={browse}>
          {i18n._("Browse…")}
        </Button>
      </div>
      {hint && <small class="hint">{hint}</small>}
      <FieldMessages id={id} field={id} errors={errors} />
    </div>
  );
}

/** A dialog field's errors, next to it (`data-field` names the backend's field). */
export function FieldMessages({ id, field, errors }: { id: string; field: string; errors: string[] }) {
  if (!errors.length) return null;
  return (
    <span id={`${id}-error`} class="field-errors" role="alert">
      {errors.map((m) => (
        <small key={m} class="field-error" data-field={field}>
          {m}
        </small>
      ))}
    </span>
  );
}
