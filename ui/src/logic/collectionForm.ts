// The plan and quota fields of the new and edit collection dialogs: what the form holds, what it
// sends, and the engine's errors by field. The engine judges the values (a count below 1, a
// plan it does not know); the form only refuses what is not a whole number at all.
import { i18n } from "@lingui/core";
import type { CollectionPlan, FieldError } from "../ipc/types";

/**
 * The plans the engine accepts, with their limits when a collection sets no quota (`limits` is
 * read when shown, so it is in the window's language of the moment).
 */
export const PLANS = [
  {
    name: "Free",
    get limits() {
      return i18n._("5 jobs, hourly at most; one per subscription, no outbound authentication");
    },
  },
  {
    name: "Standard",
    get limits() {
      return i18n._("{count, number} jobs, every minute", { count: 50 });
    },
  },
  {
    name: "P10Premium",
    get limits() {
      return i18n._("{count, number} jobs, every minute", { count: 50 });
    },
  },
  {
    name: "P20Premium",
    get limits() {
      return i18n._("{count, number} jobs, every minute", { count: 1000 });
    },
  },
] as const;

export const FREQUENCIES = ["Minute", "Hour", "Day", "Week", "Month", "Year"] as const;

/** The fields errors are shown on (the backend's names; `""` is the dialog's summary). */
export const PLAN_FIELDS = ["name", "plan", "maxJobCount", "maxRecurrenceFrequency", "maxRecurrenceInterval"] as const;

export type PlanForm = { plan: string; maxJobCount: string; frequency: string; interval: string };

export const NEW_PLAN: PlanForm = { plan: "P20Premium", maxJobCount: "", frequency: "", interval: "" };

export function formOf(p: CollectionPlan): PlanForm {
  return {
    plan: p.plan,
    maxJobCount: p.maxJobCount === null ? "" : String(p.maxJobCount),
    frequency: p.maxRecurrenceFrequency ?? "",
    interval: p.maxRecurrenceInterval === null ? "" : String(p.maxRecurrenceInterval),
  };
}

/** The plan to send, or the fields that are not whole numbers. Empty quota fields: the plan's limits. */
export function planOf(f: PlanForm): { plan: CollectionPlan; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const whole = (field: string, text: string): number | null => {
    const t = text.trim();
    if (!t) return null;
    if (!/^[+-]?\d{1,9}$/.test(t)) {
      errors.push({ path: field, code: "Form", message: i18n._("''{value}'' is not a whole number", { value: t }) });
      return null;
    }
    return Number(t);
  };
  const plan: CollectionPlan = {
    plan: f.plan,
    maxJobCount: whole("maxJobCount", f.maxJobCount),
    maxRecurrenceFrequency: f.frequency || null,
    maxRecurrenceInterval: whole("maxRecurrenceInterval", f.interval),
  };
  return { plan, errors };
}

/** "Delete 'ops' and its 12 jobs?" */
export function deleteQuestion(name: string, jobs: number): string {
  if (jobs === 0) return i18n._("Delete ''{name}''? It has no jobs.", { name });
  return i18n._("{count, plural, one {Delete ''{name}'' and its job?} other {Delete ''{name}'' and its # jobs?}}", {
    name,
    count: jobs,
  });
}
