// One blackout calendar's fields: its name, dates, ranges and weekly windows (day chips and
// times; an end before the start crosses midnight). Each field shows the engine's errors for
// its path (`calendars[i].dates[j]`, ...) next to it; ids are `calendars-…`.
import { i18n, useI18n } from "../../i18n";
import { weekdayName } from "../../i18n/format";
import type { Calendar, CalendarWindow, FieldError } from "../../ipc/types";
import { WEEK_DAYS, errorsAt, midnightHint, newWindow, replaceAt, toggleDay } from "../../logic/calendarForm";
import { FieldMessages } from "../transfer/PathField";
import { Button } from "../components/Button";

type Props = {
  index: number;
  calendar: Calendar;
  errors: FieldError[];
  onChange: (c: Calendar) => void;
  onDelete: () => void;
};

/** A text input with its errors; `path` is the engine's, `id` the element's. */
function Text(props: {
  id: string;
  path: string;
  label: string;
  value: string;
  placeholder?: string;
  errors: FieldError[];
  onInput: (v: string) => void;
}) {
  const messages = errorsAt(props.errors, props.path);
  return (
    <span class="calendar-input">
      <input
        id={props.id}
        aria-label={props.label}
        placeholder={props.placeholder}
        value={props.value}
        data-path={props.path}
        aria-invalid={messages.length ? "true" : undefined}
        aria-describedby={messages.length ? `${props.id}-error` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <FieldMessages id={props.id} field={props.path} errors={messages} />
    </span>
  );
}

function Remove({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button size="sm" aria-label={label} title={label} onClick={onClick}>
      ✕
    </Button>
  );
}

/** The separator between a range's or a window's two ends ("from [ ] to [ ]"). */
const to = () => i18n._({ id: "calendars.between", message: "to" });
const dayPlaceholder = () => i18n._("YYYY-MM-DD");
const timePlaceholder = () => i18n._("HH:MM");

export function CalendarFields({ index, calendar: c, errors, onChange, onDelete }: Props) {
  useI18n();
  const at = `calendars[${index}]`;
  const set = (patch: Partial<Calendar>) => onChange({ ...c, ...patch });
  const setWindow = (j: number, w: CalendarWindow | null) => set({ weekly: replaceAt(c.weekly, j, w) });
  return (
    <div class="calendar-fields">
      <div class="row">
        <Text
          id="calendars-name"
          path={`${at}.name`}
          label={i18n._("Calendar name")}
          value={c.name}
          errors={errors}
          onInput={(name) => set({ name })}
        />
        <Button id="calendars-delete" onClick={onDelete}>
          {i18n._("Delete calendar")}
        </Button>
      </div>
      <FieldMessages id="calendars-calendar" field={at} errors={errorsAt(errors, at)} />

      <fieldset class="field-group">
        <legend>{i18n._("Dates (whole days)")}</legend>
        {c.dates.map((d, j) => (
          <div class="row" key={j}>
            <Text
              id={`calendars-date-${j}`}
              path={`${at}.dates[${j}]`}
              label={i18n._("Date {n}", { n: j + 1 })}
              placeholder={dayPlaceholder()}
              value={d}
              errors={errors}
              onInput={(v) => set({ dates: replaceAt(c.dates, j, v) })}
            />
            <Remove
              label={i18n._("Remove date {n}", { n: j + 1 })}
              onClick={() => set({ dates: replaceAt(c.dates, j, null) })}
            />
          </div>
        ))}
        <Button size="sm" id="calendars-add-date" onClick={() => set({ dates: [...c.dates, ""] })}>
          {i18n._("Add date")}
        </Button>
      </fieldset>

      <fieldset class="field-group">
        <legend>{i18n._("Ranges (whole days, both ends included)")}</legend>
        {c.ranges.map((r, j) => (
          <div class="row" key={j}>
            <Text
              id={`calendars-range-${j}-start`}
              path={`${at}.ranges[${j}].start`}
              label={i18n._("Range {n} from", { n: j + 1 })}
              placeholder={dayPlaceholder()}
              value={r.start}
              errors={errors}
              onInput={(v) => set({ ranges: replaceAt(c.ranges, j, { ...r, start: v }) })}
            />
            <span>{to()}</span>
            <Text
              id={`calendars-range-${j}-end`}
              path={`${at}.ranges[${j}].end`}
              label={i18n._("Range {n} to", { n: j + 1 })}
              placeholder={dayPlaceholder()}
              value={r.end}
              errors={errors}
              onInput={(v) => set({ ranges: replaceAt(c.ranges, j, { ...r, end: v }) })}
            />
            <Remove
              label={i18n._("Remove range {n}", { n: j + 1 })}
              onClick={() => set({ ranges: replaceAt(c.ranges, j, null) })}
            />
          </div>
        ))}
        <Button
          size="sm"
          id="calendars-add-range"
          onClick={() => set({ ranges: [...c.ranges, { start: "", end: "" }] })}
        >
          {i18n._("Add range")}
        </Button>
      </fieldset>

      <fieldset class="field-group">
        <legend>{i18n._("Weekly windows")}</legend>
        {c.weekly.map((w, j) => (
          <div class="calendar-window" key={j}>
            <div class="chips" role="group" aria-label={i18n._("Window {n} days", { n: j + 1 })}>
              {WEEK_DAYS.map((day) => (
                <button
                  key={day}
                  id={`calendars-window-${j}-${day}`}
                  type="button"
                  class="chip"
                  aria-pressed={w.days.includes(day) ? "true" : "false"}
                  onClick={() => setWindow(j, toggleDay(w, day))}
                >
                  {weekdayName(WEEK_DAYS.indexOf(day) + 1)}
                </button>
              ))}
            </div>
            <FieldMessages
              id={`calendars-window-${j}-days`}
              field={`${at}.weekly[${j}].days`}
              errors={errorsAt(errors, `${at}.weekly[${j}].days`)}
            />
            <div class="row">
              <Text
                id={`calendars-window-${j}-start`}
                path={`${at}.weekly[${j}].start`}
                label={i18n._("Window {n} from", { n: j + 1 })}
                placeholder={timePlaceholder()}
                value={w.start}
                errors={errors}
                onInput={(v) => setWindow(j, { ...w, start: v })}
              />
              <span>{to()}</span>
              <Text
                id={`calendars-window-${j}-end`}
                path={`${at}.weekly[${j}].end`}
                label={i18n._("Window {n} to", { n: j + 1 })}
                placeholder={timePlaceholder()}
                value={w.end}
                errors={errors}
                onInput={(v) => setWindow(j, { ...w, end: v })}
              />
              <Remove label={i18n._("Remove window {n}", { n: j + 1 })} onClick={() => setWindow(j, null)} />
            </div>
            {midnightHint(w) && (
              <small id={`calendars-window-${j}-hint`} class="muted">
                {midnightHint(w)}
              </small>
            )}
          </div>
        ))}
        <Button size="sm" id="calendars-add-window" onClick={() => set({ weekly: [...c.weekly, newWindow()] })}>
          {i18n._("Add weekly window")}
        </Button>
      </fieldset>
    </div>
  );
}
