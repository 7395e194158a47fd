// The day and time pickers of the recurrence builder. Every chip is a <button aria-pressed>,
// so Tab reaches it and Enter or Space toggles it.
import { useState } from "preact/hooks";
import { MONTHS, WEEKDAYS } from "../../logic/enums";
import {
  type Nth,
  addNth,
  byMonthDay,
  byNumber,
  byWeekday,
  parseMinutes,
  removeNth,
  toggle,
} from "../../logic/recurrenceForm";
import { FieldErrors, FieldGroup, invalidAttrs, useFieldErrors } from "./fields";
import { Button } from "../components/Button";

/** `pressed` undefined: a removable chip (clicking removes it), not a toggle. */
function Chip({
  testId,
  pressed,
  label,
  title,
  onClick,
}: {
  testId: string;
  pressed?: boolean;
  label: string;
  title?: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      class="chip"
      data-testid={testId}
      aria-pressed={pressed}
      title={title}
      aria-label={title}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

export function WeekdayChips({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <FieldGroup
      id="rec-weekdays"
      legend="On these days"
      hint={value.length ? undefined : "None chosen: the start day's weekday."}
    >
      <div class="chips">
        {WEEKDAYS.map((d) => (
          <Chip
            key={d}
            testId={`weekday-${d}`}
            pressed={value.includes(d)}
            label={d.slice(0, 3)}
            title={d}
            onClick={() => onChange(toggle(value, d, byWeekday))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

export function MonthChips({
  value,
  expands,
  onChange,
}: {
  value: number[];
  expands: boolean;
  onChange: (v: number[]) => void;
}) {
  const hint = value.length
    ? expands
      ? undefined
      : "Runs happen only in these months."
    : expands
      ? "None chosen: the start month."
      : "None chosen: every month.";
  return (
    <FieldGroup id="rec-months" legend={expands ? "In these months" : "Only in these months"} hint={hint}>
      <div class="chips">
        {MONTHS.map((m, i) => (
          <Chip
            key={m}
            testId={`month-${i + 1}`}
            pressed={value.includes(i + 1)}
            label={m.slice(0, 3)}
            title={m}
            onClick={() => onChange(toggle(value, i + 1, byNumber))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

const ORDINAL = ["", "1st", "2nd", "3rd", "4th", "5th"];
function fromEnd(n: number): string {
  return n === -1 ? "Last day" : `${ordinal(-n)} to last day`;
}
function ordinal(n: number): string {
  return (
    ORDINAL[n] ??
    `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`
  );
}

export function MonthDayPicker({ value, onChange }: { value: number[]; onChange: (v: number[]) => void }) {
  const others = value.filter((d) => d < -1);
  return (
    <FieldGroup
      id="rec-monthdays"
      legend="On these days of the month"
      hint="Days a month lacks (the 31st in April) are skipped; “Last day” is always there."
    >
      <div class="chips month-grid">
        {Array.from({ length: 31 }, (_, i) => i + 1).map((d) => (
          <Chip
            key={d}
            testId={`monthday-${d}`}
            pressed={value.includes(d)}
            label={String(d)}
            title={`Day ${d}`}
            onClick={() => onChange(toggle(value, d, byMonthDay))}
          />
        ))}
        <Chip
          testId="monthday--1"
          pressed={value.includes(-1)}
          label="Last"
          title="Last day of the month"
          onClick={() => onChange(toggle(value, -1, byMonthDay))}
        />
      </div>
      <div class="chips">
        {others.map((d) => (
          <Chip
            key={d}
            testId={`monthday-${d}`}
            pressed
            label={`${fromEnd(d)} ×`}
            title={`Remove ${fromEnd(d).toLowerCase()}`}
            onClick={() => onChange(toggle(value, d, byMonthDay))}
          />
        ))}
        <select
          id="monthday-negative"
          aria-label="Add a day counted from the end of the month"
          class="inline-select"
          value=""
          onChange={(e) => {
            const d = Number(e.currentTarget.value);
            if (d && !value.includes(d)) onChange(toggle(value, d, byMonthDay));
            e.currentTarget.value = "";
          }}
        >
          <option value="">Add a day from the end…</option>
          {Array.from({ length: 30 }, (_, i) => -(i + 2)).map((d) => (
            <option key={d} value={d} disabled={value.includes(d)}>
              {fromEnd(d)}
            </option>
          ))}
        </select>
      </div>
    </FieldGroup>
  );
}

const OCCURRENCES: [string, string][] = [
  ["1", "First"],
  ["2", "Second"],
  ["3", "Third"],
  ["4", "Fourth"],
  ["5", "Fifth"],
  ["-1", "Last"],
  ["-2", "Second to last"],
  ["-3", "Third to last"],
  ["-4", "Fourth to last"],
  ["-5", "Fifth to last"],
  ["", "Every"],
];

export function nthLabel(n: Nth): string {
  const occ =
    OCCURRENCES.find(([v]) => v === (n.occurrence === null ? "" : String(n.occurrence)))?.[1] ?? String(n.occurrence);
  return `${occ} ${n.day}`;
}

export function NthPicker({ value, onChange }: { value: Nth[]; onChange: (v: Nth[]) => void }) {
  const [occurrence, setOccurrence] = useState("1");
  const [day, setDay] = useState<string>("Monday");
  return (
    <FieldGroup
      id="rec-nth"
      legend="On these weekdays of the month"
      hint="A fifth weekday runs only in months that have one."
    >
      <div class="nth-picker">
        <select
          id="nth-occurrence"
          aria-label="Which"
          value={occurrence}
          onChange={(e) => setOccurrence(e.currentTarget.value)}
        >
          {OCCURRENCES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
        <select id="nth-day" aria-label="Weekday" value={day} onChange={(e) => setDay(e.currentTarget.value)}>
          {WEEKDAYS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
        <Button
          id="nth-add"
          onClick={() => onChange(addNth(value, { day, occurrence: occurrence === "" ? null : Number(occurrence) }))}
        >
          Add
        </Button>
      </div>
      <div class="chips">
        {value.map((n) => (
          <Chip
            key={`${n.occurrence}-${n.day}`}
            testId={`nth-${n.occurrence ?? "every"}-${n.day}`}
            label={`${nthLabel(n)} ×`}
            title={`Remove ${nthLabel(n).toLowerCase()}`}
            onClick={() => onChange(removeNth(value, n))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

export function HourChips({
  value,
  onChange,
  limits,
}: {
  value: number[];
  onChange: (v: number[]) => void;
  limits: boolean;
}) {
  return (
    <FieldGroup
      id="rec-hours"
      legend={limits ? "Only in these hours" : "At these hours"}
      hint={value.length ? undefined : "None chosen: the start time's hour (every hour when minutes are set)."}
    >
      <div class="chips hour-grid">
        {Array.from({ length: 24 }, (_, h) => (
          <Chip
            key={h}
            testId={`hour-${h}`}
            pressed={value.includes(h)}
            label={String(h).padStart(2, "0")}
            title={`${String(h).padStart(2, "0")}:00`}
            onClick={() => onChange(toggle(value, h, byNumber))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

export function MinutesField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const errors = useFieldErrors("rec-minutes");
  const { values } = parseMinutes(value);
  const flip = (m: number) => {
    const next = values.includes(m) ? values.filter((x) => x !== m) : [...values, m].sort(byNumber);
    onChange(next.join(","));
  };
  return (
    <div class="field">
      <label for="rec-minutes">At these minutes</label>
      <div class="minutes-row">
        <input
          id="rec-minutes"
          value={value}
          placeholder="e.g. 0,30"
          inputMode="numeric"
          spellcheck={false}
          autoComplete="off"
          {...invalidAttrs("rec-minutes", errors)}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
        <div class="chips">
          {[0, 15, 30, 45].map((m) => (
            <Chip
              key={m}
              testId={`minute-${m}`}
              pressed={values.includes(m)}
              label={`:${String(m).padStart(2, "0")}`}
              title={`Minute ${m}`}
              onClick={() => flip(m)}
            />
          ))}
        </div>
      </div>
      <small class="hint">Comma-separated, 0–59. Empty: the start time's minute.</small>
      <FieldErrors id="rec-minutes" errors={errors} />
    </div>
  );
}
