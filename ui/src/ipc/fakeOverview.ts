// Development only: the fake backend's overview (see fake.ts). No recurrence engine: every
// enabled job "runs" daily at a time made from its name, with a failure, a blackout and a
// daylight-saving move thrown in so every kind of run can be seen.
import { KIND_BLACKED_OUT, KIND_MOVED, KIND_PAST, KIND_PLANNED, type Run, toColumns } from "../logic/overview";
import { COUNT_BUCKET_SECONDS, countRuns } from "../logic/overviewCounts";
import type { OverviewCountsRequest_Deserialize as CountsRequest } from "./bindings";
import type { JobSummary, OverviewCountsResult, OverviewResult } from "./types";

export function fakeOverview(
  jobs: JobSummary[],
  from: string,
  to: string,
  collections: string[] | null,
  now = Date.now(),
): OverviewResult {
  const kept = jobs.filter((j) => collections === null || collections.includes(j.collection));
  const start = Date.parse(from),
    end = Date.parse(to);
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const runs: Run[] = [];
  kept.forEach((j, job) => {
    const minuteOfDay = [...j.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1440, 7);
    for (let day = Math.floor(start / 86_400_000) * 86_400_000, n = 0; day < end; day += 86_400_000, n++) {
      const at = day + minuteOfDay * 60_000;
      if (at < start || at >= end) continue;
      const base = { job, at, status: null, action: null, calendar: null };
      if (at < now)
        runs.push({ ...base, kind: KIND_PAST, status: n % 5 === 3 ? "Failed" : "Completed", action: "MainAction" });
      else if (j.state !== "Enabled") continue;
      else if (n % 7 === 5) runs.push({ ...base, kind: KIND_BLACKED_OUT, calendar: "holidays" });
      else if (n % 11 === 4) runs.push({ ...base, kind: KIND_MOVED });
      else runs.push({ ...base, kind: KIND_PLANNED });
    }
  });
  runs.sort((a, b) => a.at - b.at || a.job - b.job);
  return {
    now: iso(now),
    from,
    jobs: kept.map((j) => ({
      collection: j.collection,
      name: j.name,
      state: j.state,
      action: j.actionType,
      truncated: false,
    })),
    runs: toColumns(from, runs),
    busyMinutes: [],
    busyHosts: [],
    computeMicros: 0,
  };
}

/** The same runs counted per quarter hour and category, as `overview_counts` answers. */
export function fakeOverviewCounts(jobs: JobSummary[], request: CountsRequest, now = Date.now()): OverviewCountsResult {
  const runs = fakeOverview(jobs, request.from, request.to, request.collections ?? null, now);
  const filter = {
    collections: null,
    search: request.search,
    state: request.state ?? "",
    action: request.action ?? "",
  };
  return {
    now: runs.now,
    from: runs.from,
    bucketSeconds: COUNT_BUCKET_SECONDS,
    counts: countRuns(runs, request.to, filter),
    jobs: runs.jobs,
    busyMinutes: runs.busyMinutes,
    busyHosts: runs.busyHosts,
    computeMicros: 0,
  };
}
