// The jobs table's logic: search, filters, sorting, multi-selection, keyboard movement and the
// bulk actions (the engine's per-job commands, called once per job).
import { i18n } from "@lingui/core";
import type { JobSummary } from "../ipc/types";

export type SortKey = "name" | "nextRun" | "lastResult";
export type Sort = { key: SortKey; descending: boolean };
/** Catalog ids: show them through `i18n._`. */
export const SORT_LABELS: Record<SortKey, string> = {
  name: /*i18n*/ "Name",
  nextRun: /*i18n*/ "Next run",
  lastResult: /*i18n*/ "Last result",
};

export type TableFilter = {
  /** Part of the name, any case. */
  search: string;
  /** A state (`Enabled`, `Disabled`, `Completed`, `Faulted`); "" = any. */
  state: string;
  /** A last status (`Completed`, `Failed`, …), "never" for jobs that never ran; "" = any. */
  lastResult: string;
};
export const NO_FILTER: TableFilter = { search: "", state: "", lastResult: "" };
export const NEVER_RUN = "never";

/** The states and last results present, for the filter menus. */
export function filterOptions(jobs: readonly JobSummary[]): { states: string[]; results: string[] } {
  const states = [...new Set(jobs.map((j) => j.state))].sort();
  const results = [...new Set(jobs.map((j) => j.lastStatus ?? NEVER_RUN))].sort();
  return { states, results };
}

export function matches(job: JobSummary, f: TableFilter): boolean {
  const q = f.search.trim().toLowerCase();
  return (
    (q === "" || job.name.toLowerCase().includes(q)) &&
    (f.state === "" || job.state === f.state) &&
    (f.lastResult === "" || (job.lastStatus ?? NEVER_RUN) === f.lastResult)
  );
}

/** Worst first: what needs looking at comes to the top when sorting by last result. */
const RESULT_RANK: Record<string, number> = { faulted: 0, failed: 1, postponed: 2, completed: 3 };
function resultRank(j: JobSummary): number {
  return j.lastStatus === null ? 5 : (RESULT_RANK[j.lastStatus.toLowerCase()] ?? 4);
}

function compare(a: JobSummary, b: JobSummary, key: SortKey): number {
  switch (key) {
    case "name":
      return 0;
    // RFC 3339 UTC strings sort as times; a job with no next run goes last.
    case "nextRun":
      return a.nextRun === b.nextRun
        ? 0
        : a.nextRun === null
          ? 1
          : b.nextRun === null
            ? -1
            : a.nextRun < b.nextRun
              ? -1
              : 1;
    case "lastResult":
      return resultRank(a) - resultRank(b);
  }
}

/** The rows to show: filtered, then sorted (ties by name). Descending reverses the key only. */
export function visibleJobs(jobs: readonly JobSummary[], f: TableFilter, sort: Sort): JobSummary[] {
  const byName = (a: JobSummary, b: JobSummary) => a.name.localeCompare(b.name);
  const sign = sort.descending ? -1 : 1;
  return jobs
    .filter((j) => matches(j, f))
    .sort((a, b) => {
      const c = sort.key === "name" ? byName(a, b) : compare(a, b, sort.key);
      return c !== 0 ? sign * c : byName(a, b);
    });
}

/** Clicking a column's sort: the same key flips the direction, another starts ascending. */
export function nextSort(current: Sort, key: SortKey): Sort {
  return current.key === key ? { key, descending: !current.descending } : { key, descending: false };
}

/** Selection after a click: plain toggles one row; with Shift, the range from `anchor` to it is added. */
export function toggleSelection(
  selected: ReadonlySet<string>,
  names: readonly string[],
  name: string,
  anchor: string | null,
  range: boolean,
): Set<string> {
  const next = new Set(selected);
  if (range && anchor !== null && names.includes(anchor)) {
    const [a, b] = [names.indexOf(anchor), names.indexOf(name)].sort((x, y) => x - y);
    for (const n of names.slice(a, b + 1)) next.add(n);
    return next;
  }
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}

/** All shown rows, or none when all are already selected. */
export function toggleAll(selected: ReadonlySet<string>, names: readonly string[]): Set<string> {
  return names.length > 0 && names.every((n) => selected.has(n)) ? new Set() : new Set(names);
}

/** Drops selected names that are no longer rows (deleted, or filtered away). */
export function pruneSelection(selected: ReadonlySet<string>, names: readonly string[]): Set<string> {
  const present = new Set(names);
  return new Set([...selected].filter((n) => present.has(n)));
}

/** The row focus moves to on a key (arrows, Home, End), or null when the key does not move it. */
export function moveFocus(names: readonly string[], current: string | null, key: string): string | null {
  if (names.length === 0) return null;
  const i = current === null ? -1 : names.indexOf(current);
  switch (key) {
    case "ArrowDown":
      return names[Math.min(names.length - 1, i + 1)];
    case "ArrowUp":
      return names[Math.max(0, i < 0 ? 0 : i - 1)];
    case "Home":
      return names[0];
    case "End":
      return names[names.length - 1];
    default:
      return null;
  }
}

export type BulkAction = "enable" | "disable" | "run" | "delete";
/** The button of each bulk action (a catalog id: show it through `i18n._`). */
export const BULK_VERBS: Record<BulkAction, string> = {
  enable: /*i18n*/ "Enable",
  disable: /*i18n*/ "Disable",
  run: /*i18n*/ "Run now",
  delete: /*i18n*/ "Delete",
};

/** The delete confirmation's question, with how many. */
export function deleteQuestion(names: readonly string[]): string {
  return names.length === 1
    ? i18n._("Delete the job {name}? Its history goes with it.", { name: names[0] })
    : i18n._(
        "{count, plural, one {Delete # job? Their history goes with them.} other {Delete # jobs? Their history goes with them.}}",
        { count: names.length },
      );
}

/** What Undo says after a deletion was brought back. */
export function restoredMessage(names: readonly string[]): string {
  return names.length === 1
    ? i18n._("Restored {name}", { name: names[0] })
    : i18n._("{count, plural, one {Restored # job} other {Restored # jobs}}", { count: names.length });
}

/** "Disabled 2 jobs": what a bulk action did, one whole sentence per action. */
function doneMessage(action: BulkAction, count: number): string {
  switch (action) {
    case "enable":
      return i18n._("{count, plural, one {Enabled # job} other {Enabled # jobs}}", { count });
    case "disable":
      return i18n._("{count, plural, one {Disabled # job} other {Disabled # jobs}}", { count });
    case "run":
      return i18n._("{count, plural, one {Started # job} other {Started # jobs}}", { count });
    case "delete":
      return i18n._("{count, plural, one {Deleted # job} other {Deleted # jobs}}", { count });
  }
}

/** "Disable failed for b (busy)": which jobs a bulk action could not change, and why. */
function failedMessage(action: BulkAction, failures: string): string {
  switch (action) {
    case "enable":
      return i18n._("Enable failed for {failures}", { failures });
    case "disable":
      return i18n._("Disable failed for {failures}", { failures });
    case "run":
      return i18n._("Run now failed for {failures}", { failures });
    case "delete":
      return i18n._("Delete failed for {failures}", { failures });
  }
}

export type BulkOutcome = { done: string[]; failed: { name: string; message: string }[] };

/** Calls `each` once per job, one after the other (the engine's writes are serialized anyway), collecting failures. */
export async function runBulk(
  names: readonly string[],
  each: (name: string) => Promise<unknown>,
): Promise<BulkOutcome> {
  const out: BulkOutcome = { done: [], failed: [] };
  for (const name of names) {
    try {
      await each(name);
      out.done.push(name);
    } catch (e) {
      out.failed.push({ name, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** The toast after a bulk action: "Disabled 2 jobs", plus what failed. */
export function bulkMessage(action: BulkAction, o: BulkOutcome): string {
  const ok = o.done.length > 0 ? doneMessage(action, o.done.length) : "";
  const bad =
    o.failed.length > 0
      ? failedMessage(
          action,
          o.failed.map((f) => i18n._("{name} ({reason})", { name: f.name, reason: f.message })).join(", "),
        )
      : "";
  return [ok, bad].filter(Boolean).join("; ");
}

/** Enable and disable apply only to jobs that can change (not Completed or Faulted ones). */
export function bulkTargets(action: BulkAction, selected: readonly JobSummary[]): string[] {
  if (action === "enable") return selected.filter((j) => j.state === "Disabled").map((j) => j.name);
  if (action === "disable") return selected.filter((j) => j.state === "Enabled").map((j) => j.name);
  return selected.map((j) => j.name);
}
