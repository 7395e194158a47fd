import type { ComponentChildren } from "preact";

type Props = {
  /** The control's id: the label points at it, the hint and error are `${id}-hint` and `${id}-error`. */
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  /** Shown under the control and announced at once (role=alert). Give the control aria-invalid and
      aria-describedby={fieldDescribedBy(...)} so it is read with the control too. */
  error?: string | string[];
  class?: string;
  children: ComponentChildren;
};

export function errorText(error: string | string[] | undefined): string {
  return Array.isArray(error) ? error.join(" ") : (error ?? "");
}

/** The ids that describe a field's control: its hint and its error, when there are. */
export function fieldDescribedBy(id: string, hint: boolean, error: string | string[] | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : "", errorText(error) ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** A label, its control, a hint and an error slot. */
export function Field({ id, label, hint, error, class: cls, children }: Props) {
  const message = errorText(error);
  return (
    <div class={cls ? `field ${cls}` : "field"}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} class="field-error" role="alert" aria-live="assertive">
          {message}
        </small>
      )}
    </div>
  );
}
