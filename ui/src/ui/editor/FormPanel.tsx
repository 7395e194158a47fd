// The Form tab: action, retries, error action and the schedule builder.
import { i18n } from "@lingui/core";
import type { JobForm } from "../../logic/jobForm";
import { ActionFields } from "./ActionFields";
import { RecurrenceBuilder } from "./RecurrenceBuilder";
import { RetryFields } from "./RetryFields";

export function FormPanel({
  form,
  set,
  secretsSet,
}: {
  form: JobForm;
  set: (p: Partial<JobForm>) => void;
  secretsSet: readonly string[];
}) {
  return (
    <>
      <section class="form-section" aria-labelledby="action-title">
        <h2 id="action-title">{i18n._("Action")}</h2>
        <ActionFields
          prefix=""
          base="action"
          value={form.action}
          onChange={(action) => set({ action })}
          secretsSet={secretsSet}
        />
      </section>
      <section class="form-section" aria-labelledby="retry-title">
        <h2 id="retry-title">{i18n._("Retries")}</h2>
        <RetryFields
          prefix=""
          value={form.action.retry}
          onChange={(retry) => set({ action: { ...form.action, retry } })}
        />
      </section>
      <section class="form-section" aria-labelledby="error-action-title">
        <h2 id="error-action-title">{i18n._("Error action")}</h2>
        <label class="switch">
          <input
            id="error-action-enabled"
            type="checkbox"
            role="switch"
            checked={form.errorActionEnabled}
            onChange={(e) => set({ errorActionEnabled: e.currentTarget.checked })}
          />
          {i18n._("When every retry has failed, run another action")}
        </label>
        {form.errorActionEnabled && (
          <div class="subsection">
            <ActionFields
              prefix="err-"
              base="action.errorAction"
              value={form.errorAction}
              secretsSet={secretsSet}
              onChange={(errorAction) => set({ errorAction })}
            />
            <RetryFields
              prefix="err-"
              value={form.errorAction.retry}
              onChange={(retry) => set({ errorAction: { ...form.errorAction, retry } })}
            />
          </div>
        )}
      </section>
      <RecurrenceBuilder
        enabled={form.recurrenceEnabled}
        onEnabled={(recurrenceEnabled) => set({ recurrenceEnabled })}
        value={form.recurrence}
        onChange={(recurrence) => set({ recurrence })}
      />
    </>
  );
}
