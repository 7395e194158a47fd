// Which preview answer the builder shows. The engine decides whether the schedule is valid
// (`scheduleValid`): the runs depend only on the schedule, so a problem elsewhere (a new job's
// empty URL) is marked on its field while the runs stay current.
import type { PreviewResult } from "../ipc/types";

/** The answer to show after `latest` arrives: it, when its schedule is valid; else the last good one. */
export function nextShown(latest: PreviewResult, good: PreviewResult | null): PreviewResult | null {
  return latest.scheduleValid ? latest : good;
}

/** The schedule itself has problems, so the runs shown are an older answer's (or none). */
export function scheduleNeedsFixing(latest: PreviewResult | null): boolean {
  return latest !== null && !latest.scheduleValid;
}
