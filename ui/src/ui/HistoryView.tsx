import { i18n } from "@lingui/core";
import { useCallback, useEffect, useLayoutEffect, useState } from "preact/hooks";
import { type HistoryPage, type RunningRun, api, messageOf } from "../ipc";
import { HISTORY_FILTERS, attemptLabel, formatDuration, presentHistory, statusBadgeClass } from "../logic/history";
import { engineQuery, HISTORY_PAGE, type HistoryQuery, NO_QUERY, pageLabel, queryErrors } from "../logic/historyFilter";
import { statusLabel } from "../logic/labels";
import { routeHash } from "../logic/routes";
import { Button } from "./components/Button";
import { EmptyState } from "./components/EmptyState";
import { FilterBar, SearchField } from "./components/FilterBar";
import { PageHeader } from "./components/PageHeader";
import { Select } from "./components/Select";
import { formatDateTime as formatTime } from "./format";
import { HistoryExportDialog } from "./HistoryExportDialog";
import { useEngineChanged } from "./hooks";
import { fill, slots } from "../i18n/rich";

type Props = {
  collection: string;
  /** The collection's name, for the breadcrumbs. */
  collectionName: string;
  job: string;
  /** RFC 3339: open the page of the run that started then, and mark it (a past run in the overview). */
  at?: string;
};

/**
 * A job's history, a page at a time from the engine (the DOM holds one page however long the
 * history is), with the attempts in flight on top: they refresh on every engine change and give
 * way to their results.
 */
export function HistoryView({ collection, collectionName, job, at }: Props) {
  const [status, setStatus] = useState("");
  const [page, setPage] = useState<HistoryPage | null>(null);
  const [error, setError] = useState("");
  const [query, setQuery] = useState<HistoryQuery>(NO_QUERY);
  // Where the shown page starts, and where the pages before it started (for "Newer").
  const [skip, setSkip] = useState(0);
  const [newer, setNewer] = useState<number[]>([]);
  const [anchor, setAnchor] = useState(at ?? null);
  const [found, setFound] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const errors = queryErrors(query);
  const occurrences = page ? presentHistory(page.occurrences) : null;
  const shownRecords = page ? page.occurrences.reduce((n, o) => n + o.attempts.length, 0) : 0;
  const filtered = status !== "" || query.from !== "" || query.to !== "" || query.text.trim() !== "";
  const restart = () => {
    setSkip(0);
    setNewer([]);
    setAnchor(null);
  };
  const narrow = (change: Partial<HistoryQuery>) => {
    setQuery({ ...query, ...change });
    restart();
  };

  const reload = useCallback(() => {
    api
      .historyPage({
        collection,
        job,
        query: engineQuery(status, query),
        skip,
        top: HISTORY_PAGE,
        started: anchor,
      })
      .then(
        (p) => {
          setPage(p);
          setError("");
          if (anchor) {
            // Opened at a run: stay on its page from now on, and mark it.
            setFound(p.found);
            setAnchor(null);
            setSkip(p.skip);
          }
        },
        (e) => setError(messageOf(e)),
      );
  }, [collection, job, status, query, skip, anchor]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);
  useLayoutEffect(() => {
    if (found) document.getElementById("history-found")?.scrollIntoView?.({ block: "center" });
  }, [found, page]);

  const older = () => {
    if (page?.next == null) return;
    setNewer([...newer, page.skip]);
    setSkip(page.next);
  };
  const back = () => {
    const rest = [...newer];
    const previous = rest.pop() ?? Math.max(0, skip - HISTORY_PAGE);
    setNewer(rest);
    setSkip(previous);
  };

  return (
    <section aria-labelledby="history-title">
      <PageHeader
        titleId="history-title"
        title={i18n._("History of {jobName}", { jobName: job })}
        breadcrumbs={[
          { label: collectionName, href: routeHash({ page: "collection", collection }) },
          { label: job, href: routeHash({ page: "job", collection, job }) },
        ]}
        actions={
          <>
            <a id="back-to-job" href={routeHash({ page: "job", collection, job })} class="btn btn-secondary">
              {i18n._("Edit job")}
            </a>
            <Button id="history-export" onClick={() => setExporting(true)}>
              {i18n._("Export CSV…")}
            </Button>
          </>
        }
      />
      <HistoryExportDialog
        open={exporting}
        collection={collection}
        job={job}
        status={status}
        query={query}
        onClose={() => setExporting(false)}
      />
      <FilterBar label={i18n._("Narrow the history")}>
        <SearchField
          id="history-text"
          aria-label={i18n._("Search messages and statuses")}
          placeholder={i18n._("Search messages and statuses")}
          value={query.text}
          onInput={(e) => narrow({ text: e.currentTarget.value })}
        />
        <Select
          id="history-filter"
          aria-label={i18n._("Status")}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value);
            restart();
          }}
          options={[
            { value: "", label: i18n._("All statuses") },
            ...HISTORY_FILTERS.map((s) => ({ value: s, label: statusLabel(s) })),
          ]}
        />
        <DateBound
          bound="from"
          label={i18n._("From")}
          value={query.from}
          error={errors.from}
          onInput={(from) => narrow({ from })}
        />
        <DateBound
          bound="to"
          label={i18n._("To")}
          value={query.to}
          error={errors.to}
          onInput={(to) => narrow({ to })}
        />
      </FilterBar>
      {error && (
        <p class="error-text" role="alert">
          {i18n._("Could not read the history: {reason}", { reason: error })}
        </p>
      )}
      {page === null && !error && <p aria-busy="true">{i18n._("Loading history…")}</p>}
      {page && page.running.length > 0 && <Running runs={page.running} />}
      {/* Only the count is announced (when it changes); the list itself is not a live region: it
          would be read again on every engine change. */}
      <p class="visually-hidden" role="status">
        {page ? pageLabel(page.skip, shownRecords, page.total) : ""}
      </p>
      <div id="history">
        {page && page.total === 0 && filtered && (
          <p class="muted" id="history-none-match">
            {i18n._("No run matches the status, dates and text.")}
          </p>
        )}
        {page && page.total === 0 && !filtered && (
          <EmptyState title={i18n._("No runs yet")}>
            <p>{i18n._("They appear here as the job runs (or after Run now).")}</p>
          </EmptyState>
        )}
        {occurrences?.map((o, i) => {
          const marked = found !== null && o.scheduledTime === found;
          return (
            <section
              key={`${o.scheduledTime}-${i}`}
              id={marked ? "history-found" : undefined}
              data-testid="occurrence"
              class={marked ? "occurrence occurrence-found" : "occurrence"}
              aria-current={marked ? "true" : undefined}
              aria-label={i18n._("Run {time}", { time: formatTime(o.scheduledTime ?? o.attempts[0]?.startTime) })}
            >
              <header>
                <strong>{o.scheduledTime ? formatTime(o.scheduledTime) : i18n._("Run now")}</strong>
                <span class={statusBadgeClass(o.status)}>{statusLabel(o.status)}</span>
              </header>
              {o.attempts.map((a) => (
                <div key={a.id} class="attempt" data-status={a.status}>
                  <div class="attempt-head">
                    <span class="attempt-kind">{attemptLabel(a)}</span>
                    <span class={statusBadgeClass(a.status)}>{statusLabel(a.status)}</span>
                    <time dateTime={a.startTime}>{formatTime(a.startTime)}</time>
                    {a.endTime && <small class="muted"> · {formatDuration(a.startTime, a.endTime)}</small>}
                  </div>
                  {a.message && <pre class="attempt-message">{a.message}</pre>}
                </div>
              ))}
            </section>
          );
        })}
      </div>
      {page && page.total > 0 && (
        <nav class="history-pager" aria-label={i18n._("History pages")}>
          <Button id="history-newer" size="sm" disabled={page.skip === 0} onClick={back}>
            {i18n._("← Newer")}
          </Button>
          <small id="history-range" class="muted">
            {pageLabel(page.skip, shownRecords, page.total)}
          </small>
          <Button id="history-older" size="sm" disabled={page.next === null} onClick={older}>
            {i18n._("Older →")}
          </Button>
        </nav>
      )}
    </section>
  );
}

/** The attempts being sent now: "Running since …" until their results replace them. */
function Running({ runs }: { runs: RunningRun[] }) {
  return (
    <section id="history-running" class="occurrence occurrence-running" aria-label={i18n._("Running now")}>
      {runs.map((r) => (
        <div key={`${r.scheduledTime}-${r.kind}-${r.retryCount}`} class="attempt" data-testid="running">
          <div class="attempt-head">
            <span class="attempt-kind">{attemptLabel(r)}</span>
            <span class={statusBadgeClass("Running")} aria-busy="true">
              {statusLabel("Running")}
            </span>
            <span>
              {fill(i18n._("since {time}", slots("time")), {
                time: <time dateTime={r.since}>{formatTime(r.since)}</time>,
              })}
            </span>
            <small class="muted"> · {i18n._("run of {time}", { time: formatTime(r.scheduledTime) })}</small>
          </div>
        </div>
      ))}
    </section>
  );
}

/** One end of the history's date range, with its error next to it. */
function DateBound(props: {
  bound: "from" | "to";
  label: string;
  value: string;
  error?: string;
  onInput: (value: string) => void;
}) {
  const id = `history-${props.bound}`;
  return (
    <label class="date-bound">
      <span>{props.label}</span>
      <input
        id={id}
        type="date"
        value={props.value}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.error && (
        <small id={`${id}-error`} class="error-text" role="alert">
          {props.error}
        </small>
      )}
    </label>
  );
}
