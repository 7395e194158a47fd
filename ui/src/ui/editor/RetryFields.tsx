import type { RetryForm } from "../../logic/actionForm";
import { NumberField, type Option, SelectField, TextField } from "./fields";

const TYPES: Option[] = [
  ["", "Default (every 30 seconds, 4 times)"],
  ["Fixed", "Fixed interval"],
  ["Exponential", "Exponential back-off"],
  ["None", "No retries"],
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
        label="Retry policy"
        value={value.type}
        options={TYPES}
        onChange={(type) => set({ type })}
      />
      {timed && (
        <div class="grid">
          <TextField
            id={`${p}retry-interval`}
            label={value.type === "Exponential" ? "First wait" : "Wait between tries"}
            mono
            value={value.interval}
            placeholder="PT30S"
            hint="ISO 8601: PT30S, PT5M, PT1H"
            onInput={(interval) => set({ interval })}
          />
          <NumberField
            id={`${p}retry-count`}
            label="Retries"
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
            label="Multiplier"
            min={1}
            max={10}
            step="any"
            value={value.multiplier}
            placeholder="2"
            onChange={(multiplier) => set({ multiplier })}
          />
          <TextField
            id={`${p}retry-max-interval`}
            label="Longest wait"
            mono
            value={value.maxInterval}
            placeholder="PT1H"
            onInput={(maxInterval) => set({ maxInterval })}
          />
        </div>
      )}
    </>
  );
}
