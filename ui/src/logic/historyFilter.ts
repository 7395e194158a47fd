// Narrowing a job's history in the window: the status, a date range and a text, sent to the
// engine (which filters and pages in SQL, so a history of any length reads a page at a time).
import { i18n } from "@lingui/core";
import { endOfDay, parseISO, startOfDay } from "date-fns";
import type { HistoryEngineQuery as EngineQuery } from "../ipc/types";

/** Records asked for per page (the page holds fewer when that keeps a run's attempts together). */
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
  if (q.from && from === null) errors.from = i18n._("not a date");
  if (q.to && to === null) errors.to = i18n._("not a date");
  if (from && to && to < from) errors.to = i18n._("must not be before the start date");
  return errors;
}

/**
 * What the engine is asked for: local days become instants (from the start of the first day to
 * the end of the last, inclusive); an invalid bound is left out (its error shows next to it).
 */
export function engineQuery(status: string, q: HistoryQuery): EngineQuery {
  const errors = queryErrors(q);
  const fromDay = errors.from ? null : day(q.from);
  const toDay = errors.to ? null : day(q.to);
  const text = q.text.trim();
  return {
    status: status || null,
    from: fromDay ? startOfDay(fromDay).toISOString() : null,
    to: toDay ? endOfDay(toDay).toISOString() : null,
    text: text || null,
  };
}

/**
 * The records `engineQuery(status, q)` lets through, in words: "Every Failed record from
 * 2026-11-01 to 2026-11-20 containing “timeout”" (an invalid bound is left out, as it is there).
 */
export function queryWords(status: string, q: HistoryQuery): string {
  const errors = queryErrors(q);
  const from = errors.from ? "" : q.from;
  const to = errors.to ? "" : q.to;
  const text = q.text.trim();
  const range = from && to ? "both" : from ? "from" : to ? "to" : "none";
  // One message: each language orders the status, the range and the text as its grammar needs.
  return i18n._(
    "{status, select, Completed {Every Completed record} Failed {Every Failed record} Postponed {Every Postponed record} other {Every record}}{range, select, both { from {from} to {to}} from { from {from} on} to { up to {to}} other {}}{hasText, select, yes { containing “{text}”} other {}}",
    { status: status || "any", range, from, to, text, hasText: text ? "yes" : "no" },
  );
}

/** "Records 101–200 of 2,500" for a page of `shown` records from `skip`. */
export function pageLabel(skip: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return i18n._("No records of {total, number}", { total });
  return i18n._("Records {first, number}–{last, number} of {total, number}", {
    first: skip + 1,
    last: skip + shown,
    total,
  });
}

function day(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = parseISO(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
