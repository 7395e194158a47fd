import { useMemo } from "preact/hooks";
import { currentLocale, i18n, useI18n } from "../../i18n";
import { historyActionLabel, historyStatusLabel } from "../../i18n/terms";
import {
  KIND_BLACKED_OUT,
  KIND_PAST,
  type OverviewData,
  categoryOf,
  localTime,
  runAt,
  runTarget,
} from "../../logic/overview";
import { Button } from "../components/Button";
import { categoryLabel } from "./labels";

type Props = {
  data: OverviewData;
  /** Indices into `data.runs`. */
  runs: readonly number[];
  zone: string;
  /** The most runs listed at once; the rest are counted ("and 120 more"). */
  limit: number;
  onMore?: () => void;
  onOpen: (target: ReturnType<typeof runTarget>) => void;
  label: string;
  /** The list of another day or hour is on its way: these rows stay until it comes (aria-busy)... */
  busy?: boolean;
  /** ...and are dimmed when it is slow to come. */
  dim?: boolean;
};

/**
 * Runs as buttons (Tab moves between them, Enter opens): a coming run opens its job, a past one its history.
 * Rows are keyed by their position, not by run: moving to another day rewrites the text and
 * attributes of the rows already there instead of replacing every node, which is most of what
 * WebKit has to restyle, lay out and paint when the arrow keys move the month view's selection.
 */
export function RunList({ data, runs, zone, limit, onMore, onOpen, label, busy = false, dim = false }: Props) {
  useI18n();
  const locale = currentLocale();
  const shown = runs.slice(0, limit);
  // Marking the list busy (a key press) or not does not render its rows again.
  // (onOpen only navigates: the one of the first render does.)
  const rows = useMemo(
    () => <RunRows data={data} runs={runs} zone={zone} limit={limit} onOpen={onOpen} label={label} />,
    [data, runs, zone, limit, label, locale],
  );
  return (
    <div class={dim ? "overview-runs stale" : "overview-runs"} aria-busy={busy}>
      {rows}
      {runs.length > shown.length && (
        <p class="muted">
          {i18n._("and {count} more", { count: runs.length - shown.length })}{" "}
          {onMore && (
            <Button size="sm" onClick={onMore}>
              {i18n._("Show more")}
            </Button>
          )}
        </p>
      )}
    </div>
  );
}

function RunRows({ data, runs, zone, limit, onOpen, label }: Omit<Props, "busy" | "dim" | "onMore">) {
  return (
    <ul aria-label={label}>
      {runs.slice(0, limit).map((i, position) => {
        const run = runAt(data, i);
        const job = data.jobs[run.job];
        const category = categoryOf(data, i);
        const past = run.kind === KIND_PAST;
        const status = historyStatusLabel(run.status ?? "");
        const what = past
          ? run.action && run.action !== "MainAction"
            ? i18n._("{status} ({action})", { status, action: historyActionLabel(run.action) })
            : status
          : run.kind === KIND_BLACKED_OUT
            ? run.calendar
              ? i18n._("blacked out by {calendar}", { calendar: run.calendar })
              : i18n._("blacked out by a calendar")
            : categoryLabel(category);
        const at = new Date(run.at).toISOString().replace(/\.\d{3}Z$/, "Z");
        return (
          <li key={position}>
            <button
              type="button"
              class={`run-chip cat-${category}`}
              data-testid="overview-run"
              data-job={job.name}
              data-category={category}
              data-at={at}
              title={
                past
                  ? i18n._("{name} · {what} · opens the history", { name: job.name, what })
                  : i18n._("{name} · {what} · opens the job", { name: job.name, what })
              }
              onClick={() => onOpen(runTarget(data, i))}
            >
              <time dateTime={at}>{localTime(run.at, zone)}</time>{" "}
              <span class="run-job" translate={false}>
                {job.name}
              </span>{" "}
              <small class="run-what">{what}</small>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
