// Where each engine FieldError shows: the form field its path names, or the summary at the top.
import type { FieldError } from "../ipc/types";

/** Path (lower case, without `properties.` and `[i]`) → input id. A trailing `*` matches below it too. */
const ACTION_FIELDS: [string, string][] = [
  ["", "action-type"],
  ["type", "action-type"],
  ["request", "http-uri"],
  ["request.uri", "http-uri"],
  ["request.method", "http-method"],
  ["request.body", "http-body"],
  ["request.headers*", "http-headers"],
  ["request.authentication", "auth-type"],
  ["request.authentication.type", "auth-type"],
  ["request.authentication.username", "auth-username"],
  ["request.authentication.pfx", "auth-pfx"],
  ["request.authentication.tenant", "auth-tenant"],
  ["request.authentication.audience", "auth-audience"],
  ["request.authentication.clientid", "auth-client-id"],
  ["request.authentication.secret", "auth-secret"],
  ["queuemessage", "sq-account"],
  ["queuemessage.storageaccount", "sq-account"],
  ["queuemessage.queuename", "sq-queue"],
  ["queuemessage.sastoken", "sq-sas"],
  ["queuemessage.message", "sq-message"],
  ["notification*", "notify-title"],
  ["notification.body", "notify-body"],
  ["command*", "cmd-program"],
  ["command.arguments*", "cmd-arguments"],
  ["command.shell", "cmd-shell"],
  ["command.workingdirectory", "cmd-working-directory"],
  ["command.environment*", "cmd-environment"],
  ["command.timeout", "cmd-timeout"],
  ["command.successexitcodes*", "cmd-success-codes"],
  ["retrypolicy*", "retry-type"],
  ["retrypolicy.retryinterval", "retry-interval"],
  ["retrypolicy.retrycount", "retry-count"],
  ["retrypolicy.retrymultiplier", "retry-multiplier"],
  ["retrypolicy.maxretryinterval", "retry-max-interval"],
];

/** Service Bus queue and topic messages share one sub-form. */
const SERVICE_BUS_FIELDS: [string, string][] = [
  ["", "sb-namespace"],
  ["namespace", "sb-namespace"],
  ["queuename", "sb-queue"],
  ["topicpath", "sb-topic"],
  ["transporttype", "sb-transport"],
  ["authentication*", "sb-key-name"],
  ["authentication.saskey", "sb-key"],
  ["message", "sb-message"],
  ["custommessageproperties*", "sb-custom"],
];

const JOB_FIELDS: [string, string][] = [
  ["name", "job-name"],
  ["starttime", "start-time"],
  ["state", "job-state"],
  ["action.erroraction", "error-action-enabled"],
  ["recurrence", "rec-enabled"],
  ["recurrence.frequency", "rec-frequency"],
  ["recurrence.interval", "rec-interval"],
  ["recurrence.count", "rec-count"],
  ["recurrence.endtime", "rec-end-time"],
  ["recurrence.schedule", "rec-frequency"],
  ["recurrence.schedule.minutes*", "rec-minutes"],
  ["recurrence.schedule.minute*", "rec-minutes"],
  ["recurrence.schedule.hours*", "rec-hours"],
  ["recurrence.schedule.hour*", "rec-hours"],
  ["recurrence.schedule.weekdays*", "rec-weekdays"],
  ["recurrence.schedule.monthdays*", "rec-monthdays"],
  ["recurrence.schedule.monthlyoccurrences*", "rec-nth"],
  ["recurrence.timezone", "time-zone"],
  ["recurrence.dstgap", "rec-dst-gap"],
  ["recurrence.dstoverlap", "rec-dst-overlap"],
  ["recurrence.catchup*", "rec-catch-up"],
  ["recurrence.catchup.maxcount", "rec-catch-up-max-count"],
  ["recurrence.catchup.maxage", "rec-catch-up-max-age"],
  ["recurrence.overlap", "rec-overlap"],
];

/** The engine path reduced to what the tables match: "properties.a.b[2].c" → "a.b.c". */
export function normalize(path: string): string {
  return path
    .replace(/^properties(\.|$)/i, "")
    .replace(/\[\d+\]/g, "")
    .toLowerCase();
}

function lookup(table: [string, string][], path: string): string | null {
  let best: [string, string] | null = null;
  for (const entry of table) {
    const [key] = entry;
    const prefix = key.endsWith("*") ? key.slice(0, -1) : null;
    const hit = prefix === null ? path === key : path === prefix || path.startsWith(`${prefix}.`);
    if (hit && (!best || key.length > best[0].length)) best = entry;
  }
  return best ? best[1] : null;
}

/** The auth kind decides which input `authentication.password` is (Basic's or the certificate's). */
export type ErrorContext = { authType?: string; errAuthType?: string };

function actionField(path: string, authType: string | undefined): string | null {
  if (path === "request.authentication.password") {
    return authType === "ClientCertificate" ? "auth-cert-password" : "auth-password";
  }
  const sb = /^servicebus(queue|topic)message(?:\.(.*))?$/.exec(path);
  if (sb) return lookup(SERVICE_BUS_FIELDS, sb[2] ?? "");
  return lookup(ACTION_FIELDS, path);
}

/** The id of the input an engine path names, or null when no input shows that field. */
export function fieldIdFor(path: string, ctx: ErrorContext = {}): string | null {
  const p = normalize(path);
  const err = /^action\.erroraction\.(.+)$/.exec(p);
  if (err) {
    const id = actionField(err[1], ctx.errAuthType);
    return id ? `err-${id}` : null;
  }
  const job = lookup(JOB_FIELDS, p);
  if (job) return job;
  if (p === "action" || p.startsWith("action.")) return actionField(p.slice("action.".length), ctx.authType);
  return null;
}

export type GroupedErrors = { byField: Record<string, FieldError[]>; summary: FieldError[] };

/** Errors by input id; the ones no input shows go to the summary. Duplicates appear once. */
export function groupErrors(errors: FieldError[], ctx: ErrorContext = {}): GroupedErrors {
  const byField: Record<string, FieldError[]> = {};
  const summary: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const key = `${e.path}\u0000${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const id = fieldIdFor(e.path, ctx);
    if (id) (byField[id] ??= []).push(e);
    else summary.push(e);
  }
  return { byField, summary };
}
