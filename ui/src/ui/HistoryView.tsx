import { useCallback, useEffect, useLayoutEffect, useState } from "preact/hooks";
import { type HistoryPage, type RunningRun, api, messageOf } from "../ipc";
import { HISTORY_FILTERS, attemptLabel, formatDuration, presentHistory, statusBadgeClass } from "../logic/history";
import { engineQuery, HISTORY_PAGE, type HistoryQuery, NO_QUERY, pageLabel, queryErrors } from "../logic/historyFilter";
import { routeHash } from "../logic/routes";
import { Button } from "./components/Button";
import { EmptyState } from "./components/EmptyState";
import { FilterBar, SearchField } from "./components/FilterBar";
import { PageHeader } from "./components/PageHeader";
import { Select } from "./components/Select";
import { formatDateTime as formatTime } from "./format";
import { HistoryExportDialog } from "./HistoryExportDialog";
import { useEngineChanged } from "./hooks";

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
        title={`History of ${job}`}
        breadcrumbs={[
          { label: collectionName, href: routeHash({ page: "collection", collection }) },
          { label: job, href: routeHash({ page: "job", collection, job }) },
        ]}
        actions={
          <>
            <a id="back-to-job" href={routeHash({ page: "job", collection, job })} class="btn btn-secondary">
              Edit job
            </a>
            <Button id="history-export" onClick={() => setExporting(true)}>
              Export CSV…
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
      <FilterBar label="Narrow the history">
        <SearchField
          id="history-text"
          aria-label="Search messages and statuses"
          placeholder="Search messages and statuses"
          value={query.text}
          onInput={(e) => narrow({ text: e.currentTarget.value })}
        />
        <Select
          id="history-filter"
          aria-label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value);
            restart();
          }}
          options={[{ value: "", label: "All statuses" }, ...HISTORY_FILTERS.map((s) => ({ value: s, label: s }))]}
        />
        <DateBound
          bound="from"
          label="From"
          value={query.from}
          error={errors.from}
          onInput={(from) => narrow({ from })}
        />
        <DateBound bound="to" label="To" value={query.to} error={errors.to} onInput={(to) => narrow({ to })} />
      </FilterBar>
      {error && (
        <p class="error-text" role="alert">
          Could not read the history: {error}
        </p>
      )}
      {page === null && !error && <p aria-busy="true">Loading history…</p>}
      {page && page.running.length > 0 && <Running runs={page.running} />}
      {/* Only the count is announced (when it changes); the list itself is not a live region: it
          would be read again on every engine change. */}
      <p class="visually-hidden" role="status">
        {page ? pageLabel(page.skip, shownRecords, page.total) : ""}
      </p>
      <div id="history">
        {page && page.total === 0 && filtered && (
          <p class="muted" id="history-none-match">
            No run matches the status, dates and text.
          </p>
        )}
        {page && page.total === 0 && !filtered && (
          <EmptyState title="No runs yet">
            <p>They appear here as the job runs (or after Run now).</p>
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
              aria-label={`Run ${formatTime(o.scheduledTime ?? o.attempts[0]?.startTime)}`}
            >
              <header>
                <strong>{o.scheduledTime ? formatTime(o.scheduledTime) : "Run now"}</strong>
                <span class={statusBadgeClass(o.status)}>{o.status}</span>
              </header>
              {o.attempts.map((a) => (
                <div key={a.id} class="attempt" data-status={a.status}>
                  <div class="attempt-head">
                    <span class="attempt-kind">{attemptLabel(a)}</span>
                    <span class={statusBadgeClass(a.status)}>{a.status}</span>
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
        <nav class="history-pager" aria-label="History pages">
          <Button id="history-newer" size="sm" disabled={page.skip === 0} onClick={back}>
            ← Newer
          </Button>
          <small id="history-range" class="muted">
            {pageLabel(page.skip, shownRecords, page.total)}
          </small>
          <Button id="history-older" size="sm" disabled={page.next === null} onClick={older}>
            Older →
          </Button>
        </nav>
      )}
    </section>
  );
}

/** The attempts being sent now: "Running since …" until their results replace them. */
function Running({ runs }: { runs: RunningRun[] }) {
  return (
    <section id="history-running" class="occurrence occurrence-running" aria-label="Running now">
      {runs.map((r) => (
        <div key={`${r.scheduledTime}-${r.kind}-${r.retryCount}`} class="attempt" data-testid="running">
          <div class="attempt-head">
            <span class="attempt-kind">{attemptLabel(r)}</span>
            <span class={statusBadgeClass("Running")} aria-busy="true">
              Running
            </span>
            <span>
              since <time dateTime={r.since}>{formatTime(r.since)}</time>
            </span>
            <small class="muted"> · run of {formatTime(r.scheduledTime)}</small>
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
