// Labelled inputs that show their engine errors: <small class="field-error" data-path> next to
// the input, aria-invalid and aria-describedby on it. Errors arrive by input id through context.
import { i18n } from "@lingui/core";
import { type ComponentChildren, createContext } from "preact";
import { useContext } from "preact/hooks";
import type { FieldError } from "../../ipc";
import { fieldErrorText } from "../../logic/fieldErrorMessages";
import { STORED_PLACEHOLDER } from "../../logic/secrets";

export const ErrorsContext = createContext<Record<string, FieldError[]>>({});

export function useFieldErrors(id: string): FieldError[] {
  return useContext(ErrorsContext)[id] ?? [];
}

/** The attributes that tie an input to its errors. */
export function invalidAttrs(id: string, errors: FieldError[]) {
  return errors.length ? { "aria-invalid": "true" as const, "aria-describedby": `${id}-error` } : {};
}

export function FieldErrors({ id, errors }: { id: string; errors: FieldError[] }) {
  if (!errors.length) return null;
  return (
    // An alert: announced when an error appears or changes (not on every keystroke: the same
    // text is not announced again).
    <span id={`${id}-error`} class="field-errors" role="alert">
      {errors.map((e) => (
        <small key={e.path + e.message} class="field-error" data-path={e.path}>
          {fieldErrorText(e)}
        </small>
      ))}
    </span>
  );
}

type Base = { id: string; label: ComponentChildren; hint?: ComponentChildren };

function Wrap({ id, label, hint, errors, children }: Base & { errors: FieldError[]; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && <small class="hint">{hint}</small>}
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

type TextProps = Base & {
  value: string;
  onInput: (v: string) => void;
  type?: "text" | "url" | "datetime-local" | "password";
  placeholder?: string;
  readOnly?: boolean;
  list?: string;
  autoComplete?: string;
  mono?: boolean;
  /** Beside the input, e.g. a "Browse…" button. */
  after?: ComponentChildren;
};

/** Preact types `type`, `list` and `step` per input kind; this field picks them at run time. */
function typeAttrs(p: TextProps) {
  const type = p.type ?? "text";
  return { type, list: p.list, step: type === "datetime-local" ? 1 : undefined };
}

export function TextField(p: TextProps) {
  const errors = useFieldErrors(p.id);
  const input = (
    <input
      id={p.id}
      value={p.value}
      placeholder={p.placeholder}
      readOnly={p.readOnly}
      autoComplete={p.autoComplete ?? "off"}
      spellcheck={false}
      class={p.mono ? "mono" : undefined}
      {...(typeAttrs(p) as object)}
      {...invalidAttrs(p.id, errors)}
      onInput={(e) => p.onInput(e.currentTarget.value)}
    />
  );
  return (
    <Wrap {...p} errors={errors}>
      {p.after ? (
        <div class="input-with-button">
          {input}
          {p.after}
        </div>
      ) : (
        input
      )}
    </Wrap>
  );
}

export function TextArea(
  p: Base & { value: string; onInput: (v: string) => void; rows?: number; mono?: boolean; placeholder?: string },
) {
  const errors = useFieldErrors(p.id);
  return (
    <Wrap {...p} errors={errors}>
      <textarea
        id={p.id}
        rows={p.rows ?? 3}
        value={p.value}
        placeholder={p.placeholder}
        spellcheck={false}
        class={p.mono ? "mono" : undefined}
        {...invalidAttrs(p.id, errors)}
        onInput={(e) => p.onInput(e.currentTarget.value)}
      />
    </Wrap>
  );
}

export function NumberField(
  p: Base & {
    value: number | null;
    onChange: (v: number | null) => void;
    min?: number;
    max?: number;
    step?: number | "any";
    placeholder?: string;
  },
) {
  const errors = useFieldErrors(p.id);
  return (
    <Wrap {...p} errors={errors}>
      <input
        id={p.id}
        type="number"
        inputMode="numeric"
        value={p.value ?? ""}
        min={p.min}
        max={p.max}
        step={p.step}
        placeholder={p.placeholder}
        {...invalidAttrs(p.id, errors)}
        onInput={(e) => {
          const v = e.currentTarget.value;
          p.onChange(v === "" || Number.isNaN(Number(v)) ? null : Number(v));
        }}
      />
    </Wrap>
  );
}

export type Option = readonly [value: string, label: string];

/** Options whose labels are catalog ids (marked `/*i18n*\/`), in the window's language. */
export function translated(options: readonly Option[]): Option[] {
  return options.map(([value, label]) => [value, i18n._(label)] as const);
}

/** A select that also shows a value it does not know (kept for the engine to judge, not dropped). */
export function SelectField(p: Base & { value: string; options: readonly Option[]; onChange: (v: string) => void }) {
  const errors = useFieldErrors(p.id);
  const known = p.options.some(([v]) => v === p.value);
  return (
    <Wrap {...p} errors={errors}>
      <select
        id={p.id}
        value={p.value}
        {...invalidAttrs(p.id, errors)}
        onChange={(e) => p.onChange(e.currentTarget.value)}
      >
        {!known && <option value={p.value}>{i18n._("{value} (not recognised)", { value: p.value })}</option>}
        {p.options.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    </Wrap>
  );
}

/**
 * A write-only secret. For a saved job the input starts empty with a "stored" placeholder;
 * left empty, the secret is not sent and the backend keeps the stored one.
 */
export function SecretField(
  p: Base & { value: string; onInput: (v: string) => void; stored: boolean; multiline?: boolean },
) {
  const errors = useFieldErrors(p.id);
  const placeholder = p.stored ? i18n._(STORED_PLACEHOLDER) : "";
  const hint = p.stored ? i18n._("Leave empty to keep the stored value; type to replace it.") : p.hint;
  return (
    <Wrap {...p} hint={hint} errors={errors}>
      {p.multiline ? (
        <textarea
          id={p.id}
          rows={3}
          class="mono"
          value={p.value}
          placeholder={placeholder}
          spellcheck={false}
          autoComplete="off"
          {...invalidAttrs(p.id, errors)}
          onInput={(e) => p.onInput(e.currentTarget.value)}
        />
      ) : (
        <input
          id={p.id}
          type="password"
          value={p.value}
          placeholder={placeholder}
          autoComplete="new-password"
          {...invalidAttrs(p.id, errors)}
          onInput={(e) => p.onInput(e.currentTarget.value)}
        />
      )}
    </Wrap>
  );
}

/** A group of controls (chips, key/value rows) that errors can point at as one field. */
export function FieldGroup({
  id,
  legend,
  hint,
  children,
}: {
  id: string;
  legend: ComponentChildren;
  hint?: ComponentChildren;
  children: ComponentChildren;
}) {
  const errors = useFieldErrors(id);
  return (
    <fieldset id={id} class="field-group" {...invalidAttrs(id, errors)}>
      <legend>{legend}</legend>
      {children}
      {hint && <small class="hint">{hint}</small>}
      <FieldErrors id={id} errors={errors} />
    </fieldset>
  );
}
