// A run's status as the window's language says it. The engine sends it in English (`Failed`):
// a wire value, not text. The three a history can be filtered by are the shared terms
// (`i18n/terms.ts`); the others (a job's last result, a run in flight) get their own ids, so a
// short word keeps its own translation where another "Completed" (a job's state) needs another.
import { i18n } from "@lingui/core";
import { historyStatusLabel } from "../i18n/terms";

/** A run's or an attempt's status (history, the jobs table's last result); an unknown one as it is. */
export function statusLabel(status: string): string {
  switch (status.toLowerCase()) {
    case "completed":
      return historyStatusLabel("Completed");
    case "failed":
      return historyStatusLabel("Failed");
    case "postponed":
      return historyStatusLabel("Postponed");
    case "faulted":
      return i18n._({ id: "run.status.faulted", message: "Faulted" });
    case "callbackinvoked":
      return i18n._({ id: "run.status.callbackInvoked", message: "Callback invoked" });
    case "running":
      return i18n._({ id: "run.status.running", message: "Running" });
    case "pending":
      return i18n._({ id: "run.status.pending", message: "Pending" });
    case "never":
      return i18n._({ id: "run.status.never", message: "never run" });
    default:
      return status;
  }
}
