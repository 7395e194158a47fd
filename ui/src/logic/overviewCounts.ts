// The month view from counts (issue 16): the engine counts runs per quarter hour and category
// (ipc `overviewCounts`), and this adds them up into the days and hours of the chosen zone. A
// month is 2,976 quarter hours whatever the number of runs, where listing them is half a million.
import {
  CATEGORIES,
  type Category,
  type DayBucket,
  type Filter,
  type OverviewData,
  categoryOf,
  dayNumber,
  instantMs,
  keptJobs,
  startOfLocalDay,
  zoneOffsets,
} from "./overview";

/** The fields of the engine's counts this logic reads (ipc `OverviewCountsResult`). */
export type CountsData = {
  /** Bucket 0 starts here. */
  from: string;
  bucketSeconds: number;
  /** Bucket `b`, category `c` (`CATEGORIES` order) is `counts[b * CATEGORIES.length + c]`. */
  counts: number[];
};

/** The bucket length the engine counts in: every zone in use is a whole number of quarter hours from UTC. */
export const COUNT_BUCKET_SECONDS = 900;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const WIDTH = CATEGORIES.length;

/** The filters as the counts command takes them (the collection chooses the engine's collections). */
export function countsFilter(filter: Filter): {
  collections: string[] | null;
  search: string;
  state: string | null;
  action: string | null;
} {
  return {
    collections: filter.collections === null ? null : [...filter.collections],
    search: filter.search,
    state: filter.state || null,
    action: filter.action || null,
  };
}

/**
 * The counts added up into one bucket per shown day (in `zone`), by category and by local hour,
 * as `bucketRuns` gives them for the same runs; `runs` stays empty (the month view asks for a
 * day's runs when it is selected). A bucket before the first day or after the last is left out.
 */
export function bucketCounts(data: CountsData, days: readonly string[], zone: string): DayBucket[] {
  const offsetAt = zoneOffsets(zone);
  const first = dayNumber(days[0]);
  const buckets: DayBucket[] = days.map((day) => ({
    day,
    start: startOfLocalDay(dayNumber(day), offsetAt),
    total: 0,
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>,
    byHour: new Array(24).fill(0),
    hourCategories: new Array(24).fill(0),
    runs: [],
  }));
  const base = instantMs(data.from);
  const step = data.bucketSeconds * 1000;
  const { counts } = data;
  for (let b = 0, o = 0; o < counts.length; b++, o += WIDTH) {
    let sum = 0;
    for (let c = 0; c < WIDTH; c++) sum += counts[o + c];
    if (sum === 0) continue;
    // A quarter hour never straddles a local hour: zones and their changes are quarter-hour aligned.
    const ms = base + b * step;
    const local = ms + offsetAt(ms);
    const d = Math.floor(local / DAY_MS) - first;
    const day = buckets[d];
    if (day === undefined) continue;
    const hour = Math.floor((local - (first + d) * DAY_MS) / HOUR_MS);
    day.total += sum;
    day.byHour[hour] += sum;
    for (let c = 0; c < WIDTH; c++) {
      const n = counts[o + c];
      if (n === 0) continue;
      day.byCategory[CATEGORIES[c]] += n;
      day.hourCategories[hour] |= 1 << c;
    }
  }
  return buckets;
}

/**
 * What the engine's `overview_counts` answers for these runs: the runs the filter keeps, per
 * bucket from `data.from` and category; runs before `from` or at `to` and after are in none.
 * The development fake answers with it, and tests hold the month view to `bucketRuns` with it.
 */
export function countRuns(
  data: OverviewData,
  to: string,
  filter: Filter,
  bucketSeconds = COUNT_BUCKET_SECONDS,
): number[] {
  const base = instantMs(data.from);
  const step = bucketSeconds * 1000;
  const buckets = Math.ceil((instantMs(to) - base) / step);
  const counts = new Array<number>(Math.max(0, buckets) * WIDTH).fill(0);
  const kept = keptJobs(data, filter);
  const column = Object.fromEntries(CATEGORIES.map((c, i) => [c, i])) as Record<Category, number>;
  for (let i = 0; i < data.runs.job.length; i++) {
    if (!kept[data.runs.job[i]]) continue;
    const b = Math.floor((data.runs.at[i] * 1000) / step);
    if (b < 0 || b >= buckets) continue;
    counts[b * WIDTH + column[categoryOf(data, i)]]++;
  }
  return counts;
}
