// Fixtures shared by the tests of the jobs table (its logic and its component).
import type { JobSummary } from "../ipc/types";

/** A job summary as the backend sends it: Enabled, Http, never run; `over` changes any field. */
export function job(name: string, over: Partial<JobSummary> = {}): JobSummary {
  return {
    collection: "local/desktop/default",
    name,
    state: "Enabled",
    actionType: "Http",
    sentence: "Every day",
    nextRun: null,
    lastRun: null,
    lastStatus: null,
    executionCount: 0,
    failureCount: 0,
    faultedCount: 0,
    ...over,
  };
}
