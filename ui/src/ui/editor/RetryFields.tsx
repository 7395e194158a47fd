import { i18n } from "@lingui/core";
import type { RetryForm } from "../../logic/actionForm";
import { NumberField, type Option, SelectField, TextField, translated } from "./fields";

const TYPES: Option[] = [
  ["", /*i18n*/ "Default (every 30 seconds, 4 times)"],
  ["Fixed", /*i18n*/ "Fixed interval"],
  ["Exponential", /*i18n*/ "Exponential back-off"],
  ["None", /*i18n*/ "No retries"],
];

/** Durations are ISO 8601 (PT30S, PT5M, P1D); the engine also reads the TimeSpan form 00:00:30. */
export function RetryFields({
  prefix: p,
  value,
  onChange,
}: {
  prefix: string;
  value: RetryForm;
  onChange: (v: RetryForm) => void;
}) {
  const set = (patch: Partial<RetryForm>) => onChange({ ...value, ...patch });
  const timed = value.type === "Fixed" || value.type === "Exponential";
  return (
    <>
      <SelectField
        id={`${p}retry-type`}
        label={i18n._("Retry policy")}
        value={value.type}
        options={translated(TYPES)}
        onChange={(type) => set({ type })}
      />
      {timed && (
        <div class="grid">
          <TextField
            id={`${p}retry-interval`}
            label={value.type === "Exponential" ? i18n._("First wait") : i18n._("Wait between tries")}
            mono
            value={value.interval}
            placeholder={i18n._("PT30S")}
            hint={i18n._("ISO 8601: PT30S, PT5M, PT1H")}
            onInput={(interval) => set({ interval })}
          />
          <NumberField
            id={`${p}retry-count`}
            label={i18n._("Retries")}
            min={0}
            max={20}
            value={value.count}
            placeholder="4"
            onChange={(count) => set({ count })}
          />
        </div>
      )}
      {value.type === "Exponential" && (
        <div class="grid">
          <NumberField
            id={`${p}retry-multiplier`}
            label={i18n._("Multiplier")}
            min={1}
            max={10}
            step="any"
            value={value.multiplier}
            placeholder="2"
            onChange={(multiplier) => set({ multiplier })}
          />
          <TextField
            id={`${p}retry-max-interval`}
            label={i18n._("Longest wait")}
            mono
            value={value.maxInterval}
            placeholder={i18n._("PT1H")}
            onInput={(maxInterval) => set({ maxInterval })}
          />
        </div>
      )}
    </>
  );
}
