import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type HistoryOccurrence, api, messageOf } from "../ipc";
import {
  HISTORY_FILTERS,
  attemptLabel,
  formatDuration,
  formatTime,
  presentHistory,
  statusBadgeClass,
} from "../logic/history";
import { filterHistory, HISTORY_PAGE, type HistoryQuery, NO_QUERY, page, queryErrors } from "../logic/historyFilter";
import { routeHash } from "../logic/routes";
import { HistoryExportDialog } from "./HistoryExportDialog";
import { useEngineChanged } from "./hooks";

export function HistoryView({ collection, job }: { collection: string; job: string }) {
  const [status, setStatus] = useState("");
  const [items, setItems] = useState<HistoryOccurrence[] | null>(null);
  const [error, setError] = useState("");
  const [query, setQuery] = useState<HistoryQuery>(NO_QUERY);
  const [pages, setPages] = useState(1);
  const [exporting, setExporting] = useState(false);
  const errors = queryErrors(query);
  const matching = useMemo(() => (items ? filterHistory(items, query) : null), [items, query]);
  const { shown, more } = page(matching ?? [], pages);
  const narrow = (change: Partial<HistoryQuery>) => {
    setQuery({ ...query, ...change });
    setPages(1);
  };

  const reload = useCallback(() => {
    api.jobHistory(collection, job, status || null).then(
      (h) => {
        setItems(presentHistory(h));
        setError("");
      },
      (e) => setError(messageOf(e)),
    );
  }, [collection, job, status]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);

  return (
    <section aria-labelledby="history-title">
      <div class="page-header">
        <h1 id="history-title">History of {job}</h1>
        <div class="toolbar">
          <a
            id="back-to-job"
            href={routeHash({ page: "job", collection, job })}
            role="button"
            class="secondary outline"
          >
            Edit job
          </a>
          <label for="history-filter" class="inline-label">
            Show
          </label>
          <select
            id="history-filter"
            class="inline-select"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value)}
          >
            <option value="">All</option>
            {HISTORY_FILTERS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <button id="history-export" type="button" class="secondary outline" onClick={() => setExporting(true)}>
            Export CSV…
          </button>
        </div>
      </div>
      <HistoryExportDialog
        open={exporting}
        collection={collection}
        job={job}
        status={status}
        onClose={() => setExporting(false)}
      />
      <div class="history-filters" role="search" aria-label="Narrow the history">
        <DateBound
          bound="from"
          label="From"
          value={query.from}
          error={errors.from}
          onInput={(from) => narrow({ from })}
        />
        <DateBound bound="to" label="To" value={query.to} error={errors.to} onInput={(to) => narrow({ to })} />
        <label>
          Text
          <input
            id="history-text"
            type="search"
            placeholder="In messages and statuses"
            value={query.text}
            onInput={(e) => narrow({ text: e.currentTarget.value })}
          />
        </label>
      </div>
      {error && (
        <p class="error-text" role="alert">
          Could not read the history: {error}
        </p>
      )}
      {items === null && !error && <p aria-busy="true">Loading history…</p>}
      <div id="history" aria-live="polite">
        {items && items.length > 0 && matching?.length === 0 && (
          <p class="muted" id="history-none-match">
            No run matches the dates and text.
          </p>
        )}
        {items?.length === 0 && (
          <article class="empty-state">
            <p>
              {status
                ? `No runs with status ${status}.`
                : "No runs yet. They appear here as the job runs (or after Run now)."}
            </p>
          </article>
        )}
        {shown.map((o, i) => (
          <section
            key={`${o.scheduledTime}-${i}`}
            data-testid="occurrence"
            class="occurrence"
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
        ))}
      </div>
      {more > 0 && (
        <p class="history-more">
          <button id="history-more" type="button" class="secondary outline" onClick={() => setPages(pages + 1)}>
            Show {Math.min(more, HISTORY_PAGE)} more
          </button>{" "}
          <small class="muted">
            {shown.length} of {matching?.length ?? 0} runs shown
          </small>
        </p>
      )}
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
    <label>
      {props.label}
      <input
        id={id}
        type="date"
        value={props.value}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.error && (
        <small id={`${id}-error`} class="error-text">
          {props.error}
        </small>
      )}
    </label>
  );
}
