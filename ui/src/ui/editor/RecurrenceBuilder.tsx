// The visual recurrence builder: how often, on which days, at which times, until when, in which
// time zone. Only the day pickers that apply to the frequency are shown.
import type { RecurrenceForm } from "../../logic/recurrenceForm";
import { NumberField, type Option, SelectField, TextField } from "./fields";
import { HourChips, MinutesField, MonthChips, MonthDayPicker, NthPicker, WeekdayChips } from "./ScheduleChips";
import { TimeZoneField } from "./TimeZoneField";

const FREQUENCIES: Option[] = [
  ["Minute", "Minute"],
  ["Hour", "Hour"],
  ["Day", "Day"],
  ["Week", "Week"],
  ["Month", "Month"],
  ["Year", "Year"],
];
const UNITS: Record<string, [string, string]> = {
  Minute: ["minute", "minutes"],
  Hour: ["hour", "hours"],
  Day: ["day", "days"],
  Week: ["week", "weeks"],
  Month: ["month", "months"],
  Year: ["year", "years"],
};
const ENDS: Option[] = [
  ["never", "Never"],
  ["count", "After N runs"],
  ["date", "On a date"],
  ["both", "After N runs or on a date, whichever is first"],
];

type Props = {
  enabled: boolean;
  onEnabled: (v: boolean) => void;
  value: RecurrenceForm;
  onChange: (v: RecurrenceForm) => void;
};

export function RecurrenceBuilder({ enabled, onEnabled, value, onChange }: Props) {
  const set = (patch: Partial<RecurrenceForm>) => onChange({ ...value, ...patch });
  const f = value.frequency;
  const unit = UNITS[f]?.[(value.interval ?? 1) === 1 ? 0 : 1] ?? "";
  return (
    <section class="form-section" aria-labelledby="rec-title">
      <h2 id="rec-title">Schedule</h2>
      <label class="switch">
        <input
          id="rec-enabled"
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(e) => onEnabled(e.currentTarget.checked)}
        />
        Repeat on a schedule
      </label>
      {!enabled && (
        <p class="muted">The job runs once: at the start time, or as soon as it is saved when there is none.</p>
      )}
      {enabled && (
        <>
          <div class="grid">
            <NumberField
              id="rec-interval"
              label={`Every … ${unit}`}
              min={1}
              value={value.interval}
              placeholder="1"
              onChange={(interval) => set({ interval })}
            />
            <SelectField
              id="rec-frequency"
              label="Unit"
              value={f}
              options={FREQUENCIES}
              onChange={(frequency) => set({ frequency })}
            />
          </div>
          {f === "Week" && <WeekdayChips value={value.weekDays} onChange={(weekDays) => set({ weekDays })} />}
          {(f === "Month" || f === "Year") && (
            <MonthDayPicker value={value.monthDays} onChange={(monthDays) => set({ monthDays })} />
          )}
          {(f === "Month" || f === "Year") && <NthPicker value={value.nth} onChange={(nth) => set({ nth })} />}
          {/* Months add runs to a Year and limit every other frequency. */}
          <MonthChips value={value.months} expands={f === "Year"} onChange={(months) => set({ months })} />
          {/* For Minute and Hour frequencies the hours (and for Minute the minutes) limit runs instead of adding them. */}
          <HourChips value={value.hours} limits={f === "Minute" || f === "Hour"} onChange={(hours) => set({ hours })} />
          <MinutesField value={value.minutes} onChange={(minutes) => set({ minutes })} />
          <div class="grid">
            <SelectField
              id="rec-end"
              label="Ends"
              value={value.end}
              options={ENDS}
              onChange={(end) => set({ end: end as RecurrenceForm["end"] })}
            />
            {(value.end === "count" || value.end === "both") && (
              <NumberField
                id="rec-count"
                label="Number of runs"
                min={1}
                value={value.count}
                onChange={(count) => set({ count })}
              />
            )}
            {(value.end === "date" || value.end === "both") && (
              <TextField
                id="rec-end-time"
                label={`End (${value.timeZone || "UTC"})`}
                type="datetime-local"
                value={value.endTime}
                onInput={(endTime) => set({ endTime })}
              />
            )}
          </div>
          <TimeZoneField value={value.timeZone} onChange={(timeZone) => set({ timeZone })} />
          <Advanced value={value} set={set} />
          {value.extra.blackout !== undefined && (
            <p class="muted">
              This job skips runs in blackout calendars: the list is in the JSON tab; the collection's calendars are
              edited with Calendars… in the sidebar.
            </p>
          )}
        </>
      )}
    </section>
  );
}

const DEFAULT = (what: string): Option => ["", `Default (${what})`];

function Advanced({ value, set }: { value: RecurrenceForm; set: (p: Partial<RecurrenceForm>) => void }) {
  return (
    <details id="rec-advanced">
      <summary>Advanced: daylight saving, missed runs, overlaps</summary>
      <div class="grid">
        <SelectField
          id="rec-dst-gap"
          label="Run in the spring-forward gap"
          value={value.dstGap}
          options={[DEFAULT("move forward"), ["MoveForward", "Move to just after the gap"], ["Skip", "Skip that day"]]}
          onChange={(dstGap) => set({ dstGap })}
        />
        <SelectField
          id="rec-dst-overlap"
          label="Run in the fall-back overlap"
          value={value.dstOverlap}
          options={[DEFAULT("once"), ["Once", "Once (the first)"], ["Twice", "Twice"]]}
          onChange={(dstOverlap) => set({ dstOverlap })}
        />
      </div>
      <SelectField
        id="rec-catch-up"
        label="Runs missed while the computer was off or asleep"
        value={value.catchUp}
        options={[
          DEFAULT("skip them"),
          ["None", "Skip them"],
          ["Latest", "Run the latest one"],
          ["All", "Run them all (within limits)"],
        ]}
        onChange={(catchUp) => set({ catchUp })}
      />
      {value.catchUp === "All" && (
        <div class="grid">
          <NumberField
            id="rec-catch-up-max-count"
            label="At most"
            min={1}
            max={1000}
            placeholder="10"
            value={value.catchUpMaxCount}
            onChange={(catchUpMaxCount) => set({ catchUpMaxCount })}
          />
          <TextField
            id="rec-catch-up-max-age"
            label="None older than"
            mono
            placeholder="P1D"
            value={value.catchUpMaxAge}
            onInput={(catchUpMaxAge) => set({ catchUpMaxAge })}
          />
        </div>
      )}
      <SelectField
        id="rec-overlap"
        label="When the previous run is still going"
        value={value.overlap}
        options={[
          DEFAULT("skip"),
          ["Skip", "Skip this run"],
          ["Queue", "Run it when the previous one ends"],
          ["Parallel", "Run it alongside"],
        ]}
        onChange={(overlap) => set({ overlap })}
      />
    </details>
  );
}
