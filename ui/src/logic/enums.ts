// The closed value lists of the job format, and case-insensitive parsing of them: the docs and
// the live service wrote "week", "monday", "fixed"; the engine writes PascalCase.

export const FREQUENCIES = ["Minute", "Hour", "Day", "Week", "Month", "Year"] as const;
/** January first; `schedule.months` numbers them from 1. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
/** Monday first, as the engine's weeks (ISO 8601) and the calendar. */
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export const ACTION_TYPES = [
  "Http",
  "Https",
  "StorageQueue",
  "ServiceBusQueue",
  "ServiceBusTopic",
  "Notification",
  "Command",
] as const;
export const AUTH_TYPES = ["NotSpecified", "Basic", "ClientCertificate", "ActiveDirectoryOAuth"] as const;
export const RETRY_TYPES = ["Fixed", "Exponential", "None"] as const;
export const JOB_STATES = ["Enabled", "Disabled", "Completed", "Faulted"] as const;
export const TRANSPORT_TYPES = ["NotSpecified", "NetMessaging", "AMQP"] as const;
export const SB_AUTH_TYPES = ["SharedAccessKey", "NotSpecified"] as const;
export const DST_GAPS = ["MoveForward", "Skip"] as const;
export const DST_OVERLAPS = ["Once", "Twice"] as const;
export const CATCH_UPS = ["None", "Latest", "All"] as const;
export const OVERLAPS = ["Skip", "Queue", "Parallel"] as const;
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export type Frequency = (typeof FREQUENCIES)[number];
export type WeekDay = (typeof WEEKDAYS)[number];

/** The engine's aliases (semantics.md): adverbs for frequencies, older spellings for DST. */
const ALIASES: Record<string, string> = {
  minutely: "Minute",
  hourly: "Hour",
  daily: "Day",
  weekly: "Week",
  monthly: "Month",
  yearly: "Year",
  move: "MoveForward",
  runonce: "Once",
  runtwice: "Twice",
};

/**
 * The canonical spelling of `raw` among `values`, matched without regard to case. A value that
 * matches nothing is returned as given, so the engine (not the form) reports it and nothing is
 * lost on a round trip.
 */
export function canon<T extends string>(raw: string, values: readonly T[]): T | string {
  const lower = raw.trim().toLowerCase();
  const hit = values.find((v) => v.toLowerCase() === lower);
  if (hit) return hit;
  const alias = ALIASES[lower];
  if (alias && (values as readonly string[]).includes(alias)) return alias;
  return raw;
}

export function weekdayIndex(day: string): number {
  return (WEEKDAYS as readonly string[]).indexOf(day);
}
