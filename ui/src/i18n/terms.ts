// The engine's state words as people read them, shared by both halves of the window (the engine
// and the REST API keep the English values; only what is shown is translated).
import { i18n } from "@lingui/core";

/** A job's state: "Enabled", "Disabled", "Completed", "Faulted" (anything else as it came). */
export function jobStateLabel(state: string): string {
  switch (state) {
    case "Enabled":
      return i18n._({ id: "state.enabled", message: "Enabled" });
    case "Disabled":
      return i18n._({ id: "state.disabled", message: "Disabled" });
    case "Completed":
      return i18n._({ id: "state.completed", message: "Completed" });
    case "Faulted":
      return i18n._({ id: "state.faulted", message: "Faulted" });
    default:
      return state;
  }
}

/** A job collection's state: a job's words, and "Suspended" (its quota exceeded) and "Deleted". */
export function collectionStateLabel(state: string): string {
  switch (state) {
    case "Suspended":
      return i18n._({ id: "state.suspended", message: "Suspended" });
    case "Deleted":
      return i18n._({ id: "state.deleted", message: "Deleted" });
    default:
      return jobStateLabel(state);
  }
}

/** A recurrence frequency ("Minute" … "Year") as a choice in a list. */
export function frequencyLabel(frequency: string): string {
  switch (frequency) {
    case "Minute":
      return i18n._({ id: "frequency.minute", message: "Minute" });
    case "Hour":
      return i18n._({ id: "frequency.hour", message: "Hour" });
    case "Day":
      return i18n._({ id: "frequency.day", message: "Day" });
    case "Week":
      return i18n._({ id: "frequency.week", message: "Week" });
    case "Month":
      return i18n._({ id: "frequency.month", message: "Month" });
    case "Year":
      return i18n._({ id: "frequency.year", message: "Year" });
    default:
      return frequency;
  }
}

/**
 * "every minute" · "alle 2 Stunden" · "每2小時": how often, from the engine's "2 Hour" (an interval
 * and a frequency, as a collection's quota says it). Text it cannot read is returned as it came.
 */
export function everyLabel(recurrence: string): string {
  const m = /^(\d+)\s+(\w+)$/.exec(recurrence.trim());
  if (!m) return recurrence;
  const count = Number(m[1]);
  switch (m[2]) {
    case "Minute":
      return i18n._("{count, plural, one {every minute} other {every # minutes}}", { count });
    case "Hour":
      return i18n._("{count, plural, one {every hour} other {every # hours}}", { count });
    case "Day":
      return i18n._("{count, plural, one {every day} other {every # days}}", { count });
    case "Week":
      return i18n._("{count, plural, one {every week} other {every # weeks}}", { count });
    case "Month":
      return i18n._("{count, plural, one {every month} other {every # months}}", { count });
    case "Year":
      return i18n._("{count, plural, one {every year} other {every # years}}", { count });
    default:
      return recurrence;
  }
}

/** A history entry's status: "Completed", "Failed", "Postponed" (anything else as it came). */
export function historyStatusLabel(status: string): string {
  switch (status) {
    case "Completed":
      return i18n._({ id: "history.status.completed", message: "Completed" });
    case "Failed":
      return i18n._({ id: "history.status.failed", message: "Failed" });
    case "Postponed":
      return i18n._({ id: "history.status.postponed", message: "Postponed" });
    default:
      return status;
  }
}

/** Which action a history entry ran: "MainAction", "ErrorAction" (anything else as it came). */
export function historyActionLabel(action: string): string {
  switch (action) {
    case "MainAction":
      return i18n._({ id: "history.action.main", message: "main action" });
    case "ErrorAction":
      return i18n._({ id: "history.action.error", message: "error action" });
    default:
      return action;
  }
}

/** An action's type as a choice in a list: "HTTP", "Storage queue", "Service Bus topic", … */
export function actionTypeLabel(type: string): string {
  switch (type) {
    case "Http":
      return i18n._({ id: "action.http", message: "HTTP" });
    case "Https":
      return i18n._({ id: "action.https", message: "HTTPS" });
    case "StorageQueue":
      return i18n._({ id: "action.storageQueue", message: "Storage queue" });
    case "ServiceBusQueue":
      return i18n._({ id: "action.serviceBusQueue", message: "Service Bus queue" });
    case "ServiceBusTopic":
      return i18n._({ id: "action.serviceBusTopic", message: "Service Bus topic" });
    case "Notification":
      return i18n._({ id: "action.notification", message: "Notification" });
    case "Command":
      return i18n._({ id: "action.command", message: "Command" });
    default:
      return type;
  }
}
