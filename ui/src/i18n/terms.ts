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
