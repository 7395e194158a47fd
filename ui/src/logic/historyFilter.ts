// Narrowing a job's history in the window: a date range and a text search over the runs the
// engine returned (the status filter goes to the engine), and paging through what is left.
import { endOfDay, parseISO, startOfDay } from "date-fns";
import type { HistoryOccurrence } from "../ipc/types";

/** Runs shown at first, and added by each "Show more". */
export const HISTORY_PAGE = 100;

export type HistoryQuery = {
  /** "yyyy-MM-dd" (an `<input type=date>`), the viewer's local day; "" = no bound. */
  from: string;
  to: string;
  /** Case-insensitive, in any attempt's message or status; "" = everything. */
  text: string;
};

export const NO_QUERY: HistoryQuery = { from: "", to: "", text: "" };

/** Why the query cannot be applied, by field (`from`, `to`); empty when it can. */
export function queryErrors(q: HistoryQuery): Partial<Record<"from" | "to", string>> {
  const errors: Partial<Record<"from" | "to", string>> = {};
  const from = day(q.from);
  const to = day(q.to);
  if (q.from && from === null) errors.from = "not a date";
  if (q.to && to === null) errors.to = "not a date";
  if (from && to && to < from) errors.to = "must not be before the start date";
  return errors;
}

/** The runs that match `q` (an invalid bound is ignored: its error is shown next to it). */
export function filterHistory(items: HistoryOccurrence[], q: HistoryQuery): HistoryOccurrence[] {
  const fromDay = day(q.from);
  const toDay = day(q.to);
  const from = fromDay ? startOfDay(fromDay).getTime() : -Infinity;
  const to = toDay ? endOfDay(toDay).getTime() : Infinity;
  const text = q.text.trim().toLowerCase();
  return items.filter((o) => {
    const at = when(o);
    if (Number.isNaN(at) ? from !== -Infinity || to !== Infinity : at < from || at > to) return false;
    if (!text) return true;
    return o.attempts.some((a) => a.message.toLowerCase().includes(text) || a.status.toLowerCase().includes(text));
  });
}

/** The first `pages` pages of `items`, and whether more are left. */
export function page<T>(items: T[], pages: number): { shown: T[]; more: number } {
  const shown = items.slice(0, Math.max(1, pages) * HISTORY_PAGE);
  return { shown, more: items.length - shown.length };
}

/** The instant a run is placed at: its scheduled time, else its first attempt's start. */
function when(o: HistoryOccurrence): number {
  const iso = o.scheduledTime ?? o.attempts[0]?.startTime;
  return iso ? parseISO(iso).getTime() : Number.NaN;
}

function day(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = parseISO(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
