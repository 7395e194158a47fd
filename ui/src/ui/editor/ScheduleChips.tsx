// The day and time pickers of the recurrence builder. Every chip is a <button aria-pressed>,
// so Tab reaches it and Enter or Space toggles it.
import { i18n } from "@lingui/core";
import { useState } from "preact/hooks";
import { currentLocale, intlLocale, pseudoIntl } from "../../i18n/locales";
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

/** Intl formatters are slow to build: one per language and option. */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(options: Intl.DateTimeFormatOptions, at: number): string {
  const tag = intlLocale(currentLocale());
  const key = `${tag}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(tag, { ...options, timeZone: "UTC" })));
  return pseudoIntl(f.format(at), currentLocale());
}

/** A weekday by its wire name ("Monday"), as the window's language writes it. */
function weekdayName(day: string, weekday: "long" | "short"): string {
  const i = (WEEKDAYS as readonly string[]).indexOf(day);
  // 2024-01-01 was a Monday; noon UTC keeps it the same day everywhere.
  return i < 0 ? day : format({ weekday }, Date.UTC(2024, 0, 1 + i, 12));
}

/** Month `m` (1–12) as the window's language writes it. */
function monthName(m: number, month: "long" | "short"): string {
  return format({ month }, Date.UTC(2024, m - 1, 15, 12));
}

export function WeekdayChips({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <FieldGroup
      id="rec-weekdays"
      legend={i18n._("On these days")}
      hint={value.length ? undefined : i18n._("None chosen: the start day's weekday.")}
    >
      <div class="chips">
        {WEEKDAYS.map((d) => (
          <Chip
            key={d}
            testId={`weekday-${d}`}
            pressed={value.includes(d)}
            label={weekdayName(d, "short")}
            title={weekdayName(d, "long")}
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
      : i18n._("Runs happen only in these months.")
    : expands
      ? i18n._("None chosen: the start month.")
      : i18n._("None chosen: every month.");
  return (
    <FieldGroup
      id="rec-months"
      legend={expands ? i18n._("In these months") : i18n._("Only in these months")}
      hint={hint}
    >
      <div class="chips">
        {MONTHS.map((m, i) => (
          <Chip
            key={m}
            testId={`month-${i + 1}`}
            pressed={value.includes(i + 1)}
            label={monthName(i + 1, "short")}
            title={monthName(i + 1, "long")}
            onClick={() => onChange(toggle(value, i + 1, byNumber))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

/** "Last day", "2nd to last day": a day counted from the month's end (`n` is -1 … -31). */
function fromEnd(n: number): string {
  return n === -1
    ? i18n._("Last day")
    : i18n._(
        "{n, selectordinal, one {#st to last day} two {#nd to last day} few {#rd to last day} other {#th to last day}}",
        {
          n: -n,
        },
      );
}

export function MonthDayPicker({ value, onChange }: { value: number[]; onChange: (v: number[]) => void }) {
  const others = value.filter((d) => d < -1);
  return (
    <FieldGroup
      id="rec-monthdays"
      legend={i18n._("On these days of the month")}
      hint={i18n._("Days a month lacks (the 31st in April) are skipped; “Last day” is always there.")}
    >
      <div class="chips month-grid">
        {Array.from({ length: 31 }, (_, i) => i + 1).map((d) => (
          <Chip
            key={d}
            testId={`monthday-${d}`}
            pressed={value.includes(d)}
            label={String(d)}
            title={i18n._("Day {n}", { n: d })}
            onClick={() => onChange(toggle(value, d, byMonthDay))}
          />
        ))}
        <Chip
          testId="monthday--1"
          pressed={value.includes(-1)}
          label={i18n._("Last")}
          title={i18n._("Last day of the month")}
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
            title={i18n._("Remove “{item}”", { item: fromEnd(d) })}
            onClick={() => onChange(toggle(value, d, byMonthDay))}
          />
        ))}
        <select
          id="monthday-negative"
          aria-label={i18n._("Add a day counted from the end of the month")}
          class="inline-select"
          value=""
          onChange={(e) => {
            const d = Number(e.currentTarget.value);
            if (d && !value.includes(d)) onChange(toggle(value, d, byMonthDay));
            e.currentTarget.value = "";
          }}
        >
          <option value="">{i18n._("Add a day from the end…")}</option>
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

/** The "which" select: a catalog id per occurrence (show it through `i18n._`). */
const OCCURRENCES: [string, string][] = [
  ["1", /*i18n*/ "First"],
  ["2", /*i18n*/ "Second"],
  ["3", /*i18n*/ "Third"],
  ["4", /*i18n*/ "Fourth"],
  ["5", /*i18n*/ "Fifth"],
  ["-1", /*i18n*/ "Last"],
  ["-2", /*i18n*/ "Second to last"],
  ["-3", /*i18n*/ "Third to last"],
  ["-4", /*i18n*/ "Fourth to last"],
  ["-5", /*i18n*/ "Fifth to last"],
  ["", /*i18n*/ "Every"],
];

/**
 * "Last Friday": one message, so each language agrees the ordinal with the weekday
 * (`dayKey` is the wire name, for languages whose weekdays differ in gender).
 */
export function nthLabel(n: Nth): string {
  return i18n._(
    "{occurrence, select, 1 {First {day}} 2 {Second {day}} 3 {Third {day}} 4 {Fourth {day}} 5 {Fifth {day}} m1 {Last {day}} m2 {Second to last {day}} m3 {Third to last {day}} m4 {Fourth to last {day}} m5 {Fifth to last {day}} other {Every {day}}}",
    {
      occurrence: n.occurrence === null ? "every" : String(n.occurrence).replace("-", "m"),
      day: weekdayName(n.day, "long"),
      dayKey: n.day,
    },
  );
}

export function NthPicker({ value, onChange }: { value: Nth[]; onChange: (v: Nth[]) => void }) {
  const [occurrence, setOccurrence] = useState("1");
  const [day, setDay] = useState<string>("Monday");
  return (
    <FieldGroup
      id="rec-nth"
      legend={i18n._("On these weekdays of the month")}
      hint={i18n._("A fifth weekday runs only in months that have one.")}
    >
      <div class="nth-picker">
        <select
          id="nth-occurrence"
          aria-label={i18n._("Which")}
          value={occurrence}
          onChange={(e) => setOccurrence(e.currentTarget.value)}
        >
          {OCCURRENCES.map(([v, label]) => (
            <option key={v} value={v}>
              {i18n._(label)}
            </option>
          ))}
        </select>
        <select id="nth-day" aria-label={i18n._("Weekday")} value={day} onChange={(e) => setDay(e.currentTarget.value)}>
          {WEEKDAYS.map((d) => (
            <option key={d} value={d}>
              {weekdayName(d, "long")}
            </option>
          ))}
        </select>
        <Button
          id="nth-add"
          onClick={() => onChange(addNth(value, { day, occurrence: occurrence === "" ? null : Number(occurrence) }))}
        >
          {i18n._("Add")}
        </Button>
      </div>
      <div class="chips">
        {value.map((n) => (
          <Chip
            key={`${n.occurrence}-${n.day}`}
            testId={`nth-${n.occurrence ?? "every"}-${n.day}`}
            label={`${nthLabel(n)} ×`}
            title={i18n._("Remove “{item}”", { item: nthLabel(n) })}
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
      legend={limits ? i18n._("Only in these hours") : i18n._("At these hours")}
      hint={value.length ? undefined : i18n._("None chosen: the start time's hour (every hour when minutes are set).")}
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
      <label for="rec-minutes">{i18n._("At these minutes")}</label>
      <div class="minutes-row">
        <input
          id="rec-minutes"
          value={value}
          placeholder={i18n._("e.g. 0,30")}
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
              title={i18n._("Minute {n}", { n: m })}
              onClick={() => flip(m)}
            />
          ))}
        </div>
      </div>
      <small class="hint">{i18n._("Comma-separated, 0–59. Empty: the start time's minute.")}</small>
      <FieldErrors id="rec-minutes" errors={errors} />
    </div>
  );
}
