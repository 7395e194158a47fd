// Presenting a job's history: badges, attempt labels, order and durations.
import { i18n } from "@lingui/core";
import { differenceInMilliseconds, format, parseISO } from "date-fns";
import type { HistoryAttempt, HistoryOccurrence } from "../ipc/types";

/**
 * The statuses the history filter offers (passed to jobHistory as `status`): the statuses the
 * engine records. ("CallbackInvoked" from the classic API is not one; the engine rejects it.)
 */
export const HISTORY_FILTERS = ["Completed", "Failed", "Postponed"] as const;

const BADGES: Record<string, string> = {
  completed: "badge badge-ok",
  failed: "badge badge-fail",
  faulted: "badge badge-fail",
  postponed: "badge badge-warn",
  callbackinvoked: "badge badge-info",
  running: "badge badge-info",
  pending: "badge badge-info",
};

export function statusBadgeClass(status: string | null | undefined): string {
  return BADGES[(status ?? "").toLowerCase()] ?? "badge";
}

/** The engine's kinds are "Attempt", "Retry" and "ErrorAction" (older records: "MainAction"). */
function isErrorAction(kind: string): boolean {
  return /^error/i.test(kind);
}

/** "Attempt 1" for the first try, "Retry N" after it, "Error action" (and its retries). */
export function attemptLabel(a: Pick<HistoryAttempt, "kind" | "retryCount">): string {
  if (isErrorAction(a.kind)) {
    return a.retryCount > 0 ? i18n._("Error action, retry {count}", { count: a.retryCount }) : i18n._("Error action");
  }
  if (a.retryCount > 0 || /^retry/i.test(a.kind)) return i18n._("Retry {count}", { count: Math.max(1, a.retryCount) });
  return i18n._("Attempt 1");
}

function latestTime(o: HistoryOccurrence): string {
  const starts = o.attempts.map((a) => a.startTime).sort();
  return o.scheduledTime ?? starts[starts.length - 1] ?? "";
}

/** Occurrences newest first; inside one, attempts in the order they ran (main tries, then error action). */
export function presentHistory(occurrences: HistoryOccurrence[]): HistoryOccurrence[] {
  return [...occurrences]
    .sort((a, b) => latestTime(b).localeCompare(latestTime(a)))
    .map((o) => ({
      ...o,
      attempts: [...o.attempts].sort(
        (a, b) =>
          Number(isErrorAction(a.kind)) - Number(isErrorAction(b.kind)) ||
          a.retryCount - b.retryCount ||
          a.startTime.localeCompare(b.startTime),
      ),
    }));
}

/** "2026-03-01 08:00:05" in the viewer's local time; the raw text when it is not a date-time. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = parseISO(iso);
  return Number.isNaN(d.getTime()) ? iso : format(d, "yyyy-MM-dd HH:mm:ss");
}

/** "350 ms", "2.4 s", "3 min 5 s"; "" when still running. */
export function formatDuration(start: string, end: string | null): string {
  if (!end) return "";
  const ms = differenceInMilliseconds(parseISO(end), parseISO(start));
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return i18n._("{ms, number} ms", { ms });
  if (ms < 60_000) return i18n._("{seconds, number} s", { seconds: Number((ms / 1000).toFixed(1)) });
  return i18n._("{minutes, number} min {seconds, number} s", {
    minutes: Math.floor(ms / 60_000),
    seconds: Math.round((ms % 60_000) / 1000),
  });
}
