// The whole job editor's state and the job's `properties` JSON (spec §5).
import { type ActionForm, emptyAction, fromAction, toAction } from "./actionForm";
import { JOB_STATES, canon } from "./enums";
import { type JsonObject, type JsonValue, obj, put, rest, str } from "./json";
import { type RecurrenceForm, emptyRecurrence, fromRecurrence, toRecurrence } from "./recurrenceForm";
import { fromWall, toWall, instantToWall } from "./zonedTime";

export type JobForm = {
  /** Wall-clock value of startTime in the job's time zone; "" = no startTime (run now). */
  startTime: string;
  state: string;
  action: ActionForm;
  errorActionEnabled: boolean;
  errorAction: ActionForm;
  /** false = a one-time job (no `recurrence`). */
  recurrenceEnabled: boolean;
  recurrence: RecurrenceForm;
  extra: JsonObject;
};

// `status` is service-owned and read-only: shown in the jobs table, never sent back.
const KNOWN = ["startTime", "state", "action", "recurrence", "status"];

export function emptyJob(): JobForm {
  return {
    startTime: "",
    state: "Enabled",
    action: emptyAction(),
    errorActionEnabled: false,
    errorAction: emptyAction(),
    recurrenceEnabled: true,
    recurrence: emptyRecurrence(),
    extra: {},
  };
}

/**
 * A new job in the editor starts now (to the minute), so its first run is the schedule's first
 * match from now on. With no start time at all, Azure runs a job once at creation before its
 * schedule, which is rarely what someone building "the last Friday at 05:15" wants; the field
 * can still be emptied for that.
 */
export function newJob(nowMs: number): JobForm {
  const minute = Math.floor(nowMs / 60_000) * 60_000;
  return { ...emptyJob(), startTime: instantToWall(minute, "") };
}

/** Start and end times are typed on the job's zone clock; a one-time job has no zone (UTC). */
export function zoneOf(form: JobForm): string {
  return form.recurrenceEnabled ? form.recurrence.timeZone.trim() : "";
}

export function fromProperties(json: JsonValue | undefined): JobForm {
  const p = obj(json);
  const a = obj(p.action);
  const hasRecurrence = p.recurrence !== undefined && p.recurrence !== null;
  const recurrence = hasRecurrence ? fromRecurrence(p.recurrence) : emptyRecurrence();
  const hasError = a.errorAction !== undefined && a.errorAction !== null;
  return {
    startTime: toWall(str(p.startTime), hasRecurrence ? recurrence.timeZone : ""),
    state: str(p.state) ? canon(str(p.state), JOB_STATES) : "Enabled",
    action: fromAction(p.action),
    errorActionEnabled: hasError,
    errorAction: hasError ? fromAction(a.errorAction) : emptyAction(),
    recurrenceEnabled: hasRecurrence,
    recurrence,
    extra: rest(p, KNOWN),
  };
}

export function toProperties(form: JobForm): JsonObject {
  const out: JsonObject = { ...form.extra };
  put(out, "startTime", fromWall(form.startTime, zoneOf(form)));
  put(out, "state", form.state);
  const action = toAction(form.action);
  if (form.errorActionEnabled) action.errorAction = toAction(form.errorAction);
  out.action = action;
  if (form.recurrenceEnabled) out.recurrence = toRecurrence(form.recurrence);
  return out;
}
