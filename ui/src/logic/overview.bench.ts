// The overview's bucketing on a month of 1,000 jobs (docs/benchmarks.md):
//   cd ui && npx vitest bench --run src/logic/overview.bench.ts
import { bench, describe } from "vitest";
import {
  KIND_PAST,
  KIND_PLANNED,
  type OverviewData,
  type Run,
  bucketRuns,
  heatStrip,
  toColumns,
  viewDays,
} from "./overview";
import { COUNT_BUCKET_SECONDS, bucketCounts, countRuns } from "./overviewCounts";

/** 1,000 jobs over November 2026: 500 hourly, 400 every 6 hours, 100 every 15 minutes (capped at 2,000 runs, as the engine caps them). */
export function monthOfJobs(): OverviewData {
  const jobs: OverviewData["jobs"] = [];
  const runs: Run[] = [];
  const start = Date.UTC(2026, 10, 1);
  for (let j = 0; j < 1000; j++) {
    const step = j < 500 ? 60 : j < 900 ? 360 : 15;
    jobs.push({
      collection: `local/desktop/c${j % 10}`,
      name: `job-${j}`,
      state: "Enabled",
      action: "Http",
      truncated: step === 15,
    });
    for (let k = 0, t = start + (j % 60) * 60_000; k < 2000 && t < start + 30 * 86_400_000; k++, t += step * 60_000) {
      const past = t < Date.UTC(2026, 10, 25);
      runs.push({
        job: j,
        at: t,
        kind: past ? KIND_PAST : KIND_PLANNED,
        status: past ? "Completed" : null,
        action: past ? "MainAction" : null,
        calendar: null,
      });
    }
  }
  runs.sort((a, b) => a.at - b.at);
  const from = "2026-11-01T00:00:00Z";
  return { now: "2026-11-25T00:00:00Z", from, jobs, runs: toColumns(from, runs), busyMinutes: [] };
}

const data = monthOfJobs();
// What IPC carries: the answer as JSON, parsed in the window (Tauri's invoke answers JSON).
const wire = JSON.stringify(data);
const month = viewDays("month", "2026-11-01");
const week = viewDays("week", "2026-11-25");

describe(`bucketing ${data.runs.job.length} runs of ${data.jobs.length} jobs`, () => {
  bench("month view, Europe/Berlin", () => {
    heatStrip(bucketRuns(data, month, "Europe/Berlin", { collections: null, search: "" }));
  });
  bench("month view, UTC", () => {
    heatStrip(bucketRuns(data, month, "UTC", { collections: null, search: "" }));
  });
  bench("week view, name filter", () => {
    bucketRuns(data, week, "Europe/Berlin", { collections: null, search: "job-1" });
  });
});

describe(`the answer over IPC: ${(wire.length / 1e6).toFixed(1)} MB of JSON`, () => {
  bench("JSON.parse of the month", () => {
    JSON.parse(wire);
  });
});

// The month view now asks the engine for counts per quarter hour and category instead: what
// the window parses and sums is 2,880 quarter hours × 8 numbers, whatever the number of runs.
const counts = {
  from: data.from,
  bucketSeconds: COUNT_BUCKET_SECONDS,
  counts: countRuns(data, "2026-12-01T00:00:00Z", { collections: null, search: "" }),
};
const countsWire = JSON.stringify({ ...counts, now: data.now, jobs: data.jobs, busyMinutes: [] });

describe(`summing the month's counts: ${counts.counts.length} numbers, ${(countsWire.length / 1e3).toFixed(0)} kB of JSON`, () => {
  bench("month view from counts, Europe/Berlin (summing + heat strip)", () => {
    heatStrip(bucketCounts(counts, month, "Europe/Berlin"));
  });
  bench("month view from counts, UTC", () => {
    heatStrip(bucketCounts(counts, month, "UTC"));
  });
  bench("JSON.parse of the counts answer", () => {
    JSON.parse(countsWire);
  });
});
