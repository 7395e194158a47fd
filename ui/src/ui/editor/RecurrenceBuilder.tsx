// The visual recurrence builder: how often, on which days, at which times, until when, in which
// time zone. Only the day pickers that apply to the frequency are shown.
import { i18n } from "@lingui/core";
import { frequencyLabel } from "../../i18n/terms";
import { FREQUENCIES } from "../../logic/enums";
import type { RecurrenceForm } from "../../logic/recurrenceForm";
import { NumberField, type Option, SelectField, TextField, translated } from "./fields";
import { HourChips, MinutesField, MonthChips, MonthDayPicker, NthPicker, WeekdayChips } from "./ScheduleChips";
import { TimeZoneField } from "./TimeZoneField";

const ENDS: Option[] = [
  ["never", /*i18n*/ "Never"],
  ["count", /*i18n*/ "After N runs"],
  ["date", /*i18n*/ "On a date"],
  ["both", /*i18n*/ "After N runs or on a date, whichever is first"],
];

/** "Every … days": the interval's label, in the unit the frequency select shows. */
function intervalLabel(frequency: string, count: number): string {
  return i18n._(
    "{frequency, select, Minute {{count, plural, one {Every … minute} other {Every … minutes}}} Hour {{count, plural, one {Every … hour} other {Every … hours}}} Day {{count, plural, one {Every … day} other {Every … days}}} Week {{count, plural, one {Every … week} other {Every … weeks}}} Month {{count, plural, one {Every … month} other {Every … months}}} Year {{count, plural, one {Every … year} other {Every … years}}} other {Every …}}",
    { frequency, count },
  );
}

type Props = {
  enabled: boolean;
  onEnabled: (v: boolean) => void;
  value: RecurrenceForm;
  onChange: (v: RecurrenceForm) => void;
};

export function RecurrenceBuilder({ enabled, onEnabled, value, onChange }: Props) {
  const set = (patch: Partial<RecurrenceForm>) => onChange({ ...value, ...patch });
  const f = value.frequency;

  return (
    <section class="form-section" aria-labelledby="rec-title">
      <h2 id="rec-title">{i18n._("Schedule")}</h2>
      <label class="switch">
        <input
          id="rec-enabled"
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(e) => onEnabled(e.currentTarget.checked)}
        />
        {i18n._("Repeat on a schedule")}
      </label>
      {!enabled && (
        <p class="muted">
          {i18n._("The job runs once: at the start time, or as soon as it is saved when there is none.")}
        </p>
      )}
      {enabled && (
        <>
          <div class="grid">
            <NumberField
              id="rec-interval"
              label={intervalLabel(f, value.interval ?? 1)}
              min={1}
              value={value.interval}
              placeholder="1"
              onChange={(interval) => set({ interval })}
            />
            <SelectField
              id="rec-frequency"
              label={i18n._("Unit")}
              value={f}
              options={FREQUENCIES.map((f) => [f, frequencyLabel(f)] as const)}
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
              label={i18n._("Ends")}
              value={value.end}
              options={translated(ENDS)}
              onChange={(end) => set({ end: end as RecurrenceForm["end"] })}
            />
            {(value.end === "count" || value.end === "both") && (
              <NumberField
                id="rec-count"
                label={i18n._("Number of runs")}
                min={1}
                value={value.count}
                onChange={(count) => set({ count })}
              />
            )}
            {(value.end === "date" || value.end === "both") && (
              <TextField
                id="rec-end-time"
                label={i18n._("End ({zone})", { zone: value.timeZone || "UTC" })}
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
              {i18n._(
                "This job skips runs in blackout calendars: the list is in the JSON tab; the collection's calendars are edited with Calendars… in the sidebar.",
              )}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function Advanced({ value, set }: { value: RecurrenceForm; set: (p: Partial<RecurrenceForm>) => void }) {
  return (
    <details id="rec-advanced">
      <summary>{i18n._("Advanced: daylight saving, missed runs, overlaps")}</summary>
      <div class="grid">
        <SelectField
          id="rec-dst-gap"
          label={i18n._("Run in the spring-forward gap")}
          value={value.dstGap}
          options={[
            ["", i18n._("Default (move forward)")],
            ["MoveForward", i18n._("Move to just after the gap")],
            ["Skip", i18n._("Skip that day")],
          ]}
          onChange={(dstGap) => set({ dstGap })}
        />
        <SelectField
          id="rec-dst-overlap"
          label={i18n._("Run in the fall-back overlap")}
          value={value.dstOverlap}
          options={[
            ["", i18n._("Default (once)")],
            ["Once", i18n._("Once (the first)")],
            ["Twice", i18n._("Twice")],
          ]}
          onChange={(dstOverlap) => set({ dstOverlap })}
        />
      </div>
      <SelectField
        id="rec-catch-up"
        label={i18n._("Runs missed while the computer was off or asleep")}
        value={value.catchUp}
        options={[
          ["", i18n._("Default (skip them)")],
          ["None", i18n._("Skip them")],
          ["Latest", i18n._("Run the latest one")],
          ["All", i18n._("Run them all (within limits)")],
        ]}
        onChange={(catchUp) => set({ catchUp })}
      />
      {value.catchUp === "All" && (
        <div class="grid">
          <NumberField
            id="rec-catch-up-max-count"
            label={i18n._("At most")}
            min={1}
            max={1000}
            placeholder="10"
            value={value.catchUpMaxCount}
            onChange={(catchUpMaxCount) => set({ catchUpMaxCount })}
          />
          <TextField
            id="rec-catch-up-max-age"
            label={i18n._("None older than")}
            mono
            placeholder={i18n._("P1D")}
            value={value.catchUpMaxAge}
            onInput={(catchUpMaxAge) => set({ catchUpMaxAge })}
          />
        </div>
      )}
      <SelectField
        id="rec-overlap"
        label={i18n._("When the previous run is still going")}
        value={value.overlap}
        options={[
          ["", i18n._("Default (skip)")],
          ["Skip", i18n._("Skip this run")],
          ["Queue", i18n._("Run it when the previous one ends")],
          ["Parallel", i18n._("Run it alongside")],
        ]}
        onChange={(overlap) => set({ overlap })}
      />
    </details>
  );
}
