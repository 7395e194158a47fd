// The overview's bucketing on a month of 1,000 jobs (docs/benchmarks.md):
//   cd ui && npx vitest bench --run src/logic/overview.bench.ts
import { bench, describe } from "vitest";
import { type OverviewData, bucketRuns, heatStrip, viewDays } from "./overview";

/** 1,000 jobs over November 2026: 500 hourly, 400 every 6 hours, 100 every 15 minutes (capped at 2,000 runs, as the engine caps them). */
export function monthOfJobs(): OverviewData {
  const jobs: OverviewData["jobs"] = [];
  const runs: OverviewData["runs"] = [];
  const start = Date.UTC(2026, 10, 1);
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  for (let j = 0; j < 1000; j++) {
    const step = j < 500 ? 60 : j < 900 ? 360 : 15;
    jobs.push({ collection: `local/desktop/c${j % 10}`, name: `job-${j}`, state: "Enabled", action: "Http", truncated: step === 15 });
    for (let k = 0, t = start + (j % 60) * 60_000; k < 2000 && t < start + 30 * 86_400_000; k++, t += step * 60_000) {
      runs.push({ job: j, at: iso(t), kind: t < Date.UTC(2026, 10, 25) ? "Past" : "Planned", status: "Completed", action: "MainAction", calendar: null });
    }
  }
  runs.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { now: "2026-11-25T00:00:00Z", jobs, runs, busyMinutes: [] };
}

const data = monthOfJobs();
const month = viewDays("month", "2026-11-01");
const week = viewDays("week", "2026-11-25");

describe(`bucketing ${data.runs.length} runs of ${data.jobs.length} jobs`, () => {
  bench("month view, Europe/Berlin", () => { heatStrip(bucketRuns(data, month, "Europe/Berlin", { collections: null, search: "" })); });
  bench("month view, UTC", () => { heatStrip(bucketRuns(data, month, "UTC", { collections: null, search: "" })); });
  bench("week view, name filter", () => { bucketRuns(data, week, "Europe/Berlin", { collections: null, search: "job-1" }); });
});
