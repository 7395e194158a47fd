// The plan and quota fields shared by the new and edit collection dialogs; each field's errors
// next to it (`<prefix>-plan`, `<prefix>-max-job-count`, `<prefix>-max-recurrence-frequency`,
// `<prefix>-max-recurrence-interval`).
import { i18n, useI18n } from "../../i18n";
import { frequencyLabel } from "../../i18n/terms";
import { FREQUENCIES, PLANS, type PlanForm } from "../../logic/collectionForm";
import { FieldMessages } from "../transfer/PathField";

type Props = {
  prefix: string;
  form: PlanForm;
  errors: Record<string, string[]>;
  onChange: (f: PlanForm) => void;
};

export function PlanFields({ prefix, form, errors, onChange }: Props) {
  useI18n();
  const set = (k: keyof PlanForm) => (e: { currentTarget: { value: string } }) =>
    onChange({ ...form, [k]: e.currentTarget.value });
  const invalid = (field: string) => (errors[field]?.length ? "true" : undefined);
  const described = (id: string, field: string) => (errors[field]?.length ? `${id}-error` : undefined);
  const ids = {
    plan: `${prefix}-plan`,
    count: `${prefix}-max-job-count`,
    frequency: `${prefix}-max-recurrence-frequency`,
    interval: `${prefix}-max-recurrence-interval`,
  };
  const limits = PLANS.find((p) => p.name === form.plan)?.limits;
  return (
    <fieldset class="plan-fields">
      <div class="field">
        <label for={ids.plan}>{i18n._("Plan")}</label>
        <select
          id={ids.plan}
          value={form.plan}
          aria-invalid={invalid("plan")}
          aria-describedby={described(ids.plan, "plan")}
          onChange={set("plan")}
        >
          {PLANS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
        {limits && <small class="muted">{limits}</small>}
        <FieldMessages id={ids.plan} field="plan" errors={errors.plan ?? []} />
      </div>
      <div class="field">
        <label for={ids.count}>{i18n._("Most jobs (empty: the plan's)")}</label>
        <input
          id={ids.count}
          inputMode="numeric"
          value={form.maxJobCount}
          aria-invalid={invalid("maxJobCount")}
          aria-describedby={described(ids.count, "maxJobCount")}
          onInput={set("maxJobCount")}
        />
        <FieldMessages id={ids.count} field="maxJobCount" errors={errors.maxJobCount ?? []} />
      </div>
      <div class="field">
        <span id={`${prefix}-max-recurrence-label`}>{i18n._("Most frequent (empty: the plan's)")}</span>
        <div class="row" role="group" aria-labelledby={`${prefix}-max-recurrence-label`}>
          <input
            id={ids.interval}
            inputMode="numeric"
            aria-label={i18n._("Interval")}
            placeholder="1"
            value={form.interval}
            aria-invalid={invalid("maxRecurrenceInterval")}
            aria-describedby={described(ids.interval, "maxRecurrenceInterval")}
            onInput={set("interval")}
          />
          <select
            id={ids.frequency}
            aria-label={i18n._("Frequency")}
            value={form.frequency}
            aria-invalid={invalid("maxRecurrenceFrequency")}
            aria-describedby={described(ids.frequency, "maxRecurrenceFrequency")}
            onChange={set("frequency")}
          >
            <option value="">{i18n._("(the plan's)")}</option>
            {FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {frequencyLabel(f)}
              </option>
            ))}
          </select>
        </div>
        <FieldMessages id={ids.interval} field="maxRecurrenceInterval" errors={errors.maxRecurrenceInterval ?? []} />
        <FieldMessages id={ids.frequency} field="maxRecurrenceFrequency" errors={errors.maxRecurrenceFrequency ?? []} />
      </div>
    </fieldset>
  );
}
