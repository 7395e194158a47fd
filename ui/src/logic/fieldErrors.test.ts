import { describe, expect, it } from "vitest";
import { type ErrorContext, fieldIdFor, groupErrors } from "./fieldErrors";

/** `id` null = no field shows it: the error goes to the summary at the top of the form. */
function check(path: string, id: string | null, ctx: ErrorContext = {}) {
  expect(fieldIdFor(path, ctx)).toBe(id);
  const error = { path, code: "BadRequest", message: "bad" };
  const grouped = groupErrors([error, { ...error }], ctx);
  if (id === null) {
    expect(grouped.summary).toEqual([error]);
    expect(grouped.byField).toEqual({});
  } else {
    expect(grouped.byField).toEqual({ [id]: [error] });
    expect(grouped.summary).toEqual([]);
  }
}

const table: [string, string | null, ErrorContext?][] = [
  ["properties.action.request.uri", "http-uri"],
  ["properties.action.request.method", "http-method"],
  ["properties.action.request.body", "http-body"],
  ["properties.action.request.headers", "http-headers"],
  ["properties.action.request.headers.X-Bad Name", "http-headers"],
  ["properties.action.request.authentication.password", "auth-password"],
  ["properties.action.request.authentication.password", "auth-cert-password", { authType: "ClientCertificate" }],
  ["properties.action.request.authentication.clientId", "auth-client-id"],
  ["properties.action.type", "action-type"],
  ["properties.action", "action-type"],
  ["properties.action.queueMessage.storageAccount", "sq-account"],
  ["properties.action.queueMessage.sasToken", "sq-sas"],
  ["properties.action.serviceBusQueueMessage.queueName", "sb-queue"],
  ["properties.action.serviceBusTopicMessage.topicPath", "sb-topic"],
  ["properties.action.serviceBusTopicMessage.authentication.sasKey", "sb-key"],
  ["properties.action.serviceBusTopicMessage.authentication.sasKeyName", "sb-key-name"],
  ["properties.action.notification.title", "notify-title"],
  ["properties.action.command", "cmd-program"],
  ["properties.action.command.program", "cmd-program"],
  ["properties.action.command.arguments", "cmd-arguments"],
  ["properties.action.command.workingDirectory", "cmd-working-directory"],
  ["properties.action.command.environment", "cmd-environment"],
  ["properties.action.command.environment.PATH", "cmd-environment"],
  ["properties.action.command.timeout", "cmd-timeout"],
  ["properties.action.command.successExitCodes[1]", "cmd-success-codes"],
  ["properties.action.errorAction.command.program", "err-cmd-program"],
  ["properties.action.retryPolicy.retryInterval", "retry-interval"],
  ["properties.action.retryPolicy", "retry-type"],
  ["properties.action.errorAction", "error-action-enabled"],
  ["properties.action.errorAction.request.uri", "err-http-uri"],
  [
    "properties.action.errorAction.request.authentication.password",
    "err-auth-cert-password",
    { errAuthType: "ClientCertificate" },
  ],
  ["properties.action.errorAction.retryPolicy.retryCount", "err-retry-count"],
  ["properties.startTime", "start-time"],
  ["properties.state", "job-state"],
  ["name", "job-name"],
  ["properties.recurrence.frequency", "rec-frequency"],
  ["properties.recurrence.interval", "rec-interval"],
  ["properties.recurrence.schedule.hours[0]", "rec-hours"],
  ["properties.recurrence.schedule.minutes[1]", "rec-minutes"],
  ["properties.recurrence.schedule.weekDays[2]", "rec-weekdays"],
  ["properties.recurrence.schedule.monthDays[0]", "rec-monthdays"],
  ["properties.recurrence.schedule.monthlyOccurrences[0].Occurrence", "rec-nth"],
  ["properties.recurrence.endTime", "rec-end-time"],
  ["properties.recurrence.count", "rec-count"],
  ["properties.recurrence.timeZone", "time-zone"],
  ["properties.recurrence.catchUp.maxAge", "rec-catch-up-max-age"],
  ["properties.recurrence.catchUp.policy", "rec-catch-up"],
  ["properties.recurrence", "rec-enabled"],
  // No field edits these: they show in the summary.
  ["properties.recurrence.blackout[0].ranges[1].end", null],
  ["properties.action.frobnicate", null],
  ["properties", null],
  ["", null],
];

describe("fieldErrors", () => {
  for (const [path, id, ctx] of table) it(`${path || "(empty)"} → ${id ?? "summary"}`, () => check(path, id, ctx));
});
