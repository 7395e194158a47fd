// The schedule overview: every job's runs in a day, a week, a month or an agenda, in the
// user's time zone (or a chosen one). The engine says what each run is; logic/overview.ts
// buckets them into days and hours; these components draw counts and short lists only. The
// month view asks the engine for counts per quarter hour instead of runs (logic/overviewCounts.ts)
// and for the selected day's runs only.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { currentLocale, i18n, useI18n } from "../../i18n";
import { formatNumber } from "../../i18n/format";
import { actionTypeLabel, jobStateLabel } from "../../i18n/terms";
import { type CollectionSummary, type OverviewCountsRequest, type OverviewCountsResult, api } from "../../ipc";
import { AnswerCache } from "../../logic/answerCache";
import { benchMark, benchNow, benchPainted, benchSince, benchTimed } from "../../logic/benchMarks";
import {
  CATEGORIES,
  JOB_STATES,
  VIEWS,
  actionKinds,
  type OverviewData,
  type View,
  bucketRuns,
  busyWarnings,
  localDay,
  runsInHour,
  shiftDay,
  shiftView,
  viewDays,
  viewWindow,
} from "../../logic/overview";
import { bucketCounts, countsFilter } from "../../logic/overviewCounts";
import { knownZone } from "../../logic/zonedTime";
import type { OverviewState } from "../../logic/routes";
import { FilterBar, SearchField } from "../components/FilterBar";
import { PageHeader } from "../components/PageHeader";
import { SegmentedControl } from "../components/SegmentedControl";
import { Select } from "../components/Select";
import { navigate, recordRoute, useAnswer, useEngineChanged } from "../hooks";
import { DayColumns, type Selection, dayLabel } from "./DayColumns";
import { HeatStrip } from "./HeatStrip";
import { MonthGrid } from "./MonthGrid";
import { categoryLabel, listUnits, runMinuteLabel } from "./labels";
import { RunList } from "./RunList";
import "./overview.css";
import { ChevronLeft, ChevronRight } from "lucide";
import { Button } from "../components/Button";

const LIST_LIMIT = 100;
/** Months of counts kept: the ones paged through lately, and the one asked ahead. */
const MONTHS_KEPT = 6;

export function userZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

type Props = {
  collections: readonly CollectionSummary[];
  /** What to show (from the address): the view, the day, the filters; the defaults where absent. */
  route?: OverviewState;
  /** For tests: the time zone and the clock. */
  initialZone?: string;
  clock?: () => number;
};

function viewLabel(view: View): string {
  switch (view) {
    case "day":
      return i18n._("Day");
    case "week":
      return i18n._("Week");
    case "month":
      return i18n._("Month");
    case "agenda":
      return i18n._("Agenda");
  }
}

export function OverviewView({ collections, route = {}, initialZone, clock = Date.now }: Props) {
  // The window benchmark times each update from here to its commit (a no-op otherwise).
  const renderStart = benchNow();
  useI18n();
  const locale = currentLocale();
  const defaultZone = initialZone ?? userZone();
  const [zone, setZone] = useState(() => (route.zone && knownZone(route.zone) ? route.zone : defaultZone));
  const [zoneText, setZoneText] = useState(zone);
  const [view, setView] = useState<View>(() => (VIEWS.includes(route.view as View) ? (route.view as View) : "week"));
  const [now, setNow] = useState(clock);
  const [selection, setSelection] = useState<Selection>(() => ({
    day: route.day && /^\d{4}-\d{2}-\d{2}$/.test(route.day) ? route.day : localDay(now, zone),
    hour: route.hour ?? null,
  }));
  const [anchor, setAnchor] = useState(selection.day);
  const [collection, setCollection] = useState(route.collection ?? "");
  const [search, setSearch] = useState(route.search ?? "");
  const [state, setState] = useState(route.state ?? "");
  const [action, setAction] = useState(route.action ?? "");
  const [limit, setLimit] = useState(LIST_LIMIT);
  // The way the user last paged in the month view (-1, 1; 0: not yet): the month after that way
  // is asked for while they look at this one.
  const [paging, setPaging] = useState(0);
  const countsCache = useMemo(() => new AnswerCache<OverviewCountsResult>(MONTHS_KEPT), []);

  const monthly = view === "month";
  const days = useMemo(() => viewDays(view, anchor), [view, anchor]);
  const filter = useMemo(
    () => ({ collections: collection ? new Set([collection]) : null, search, state, action }),
    [collection, search, state, action],
  );
  // The runs: of the shown days, or in the month view of the selected day only.
  const runsWindow = viewWindow(monthly ? [selection.day] : days, zone);
  const runs = useAnswer(`${runsWindow.from} ${runsWindow.to}`, () =>
    benchTimed("runs", runsWindow.from, api.overview(runsWindow.from, runsWindow.to, null)),
  );
  // The month's counts, filtered in the engine (a month of 1,000 jobs is half a million runs).
  // Kept per month (and filter) while nothing changes, so paging back is at once.
  const monthCounts = (days: readonly string[]) => {
    const request: OverviewCountsRequest = { ...viewWindow(days, zone), ...countsFilter(filter) };
    return countsCache.get(JSON.stringify(request), () =>
      benchTimed("counts", request.from, api.overviewCounts(request)),
    );
  };
  const countsKey = monthly ? JSON.stringify({ ...viewWindow(days, zone), ...countsFilter(filter) }) : null;
  // A month kept is drawn in the render that asks for it (no empty month first, then a second render).
  const counts = useAnswer(
    countsKey,
    () => monthCounts(days),
    (key) => countsCache.peek(key),
  );
  const reload = () => {
    countsCache.clear();
    runs.reload();
    counts.reload();
  };
  useEngineChanged(reload);
  // Runs come due and "now" moves: refresh once a minute.
  const latestReload = useRef(reload);
  latestReload.current = reload;
  useEffect(() => {
    const t = setInterval(() => {
      setNow(clock());
      latestReload.current();
    }, 60_000);
    return () => clearInterval(t);
  }, [clock]);

  // Once a month paged to is on screen, the next one that way is asked for (after the paint).
  useEffect(() => {
    if (!monthly || paging === 0 || !counts.fresh) return;
    const t = setTimeout(() => {
      monthCounts(viewDays("month", shiftView("month", anchor, paging))).catch(() => {
        /* asked ahead only: the month itself asks again, and says what failed */
      });
    }, 0);
    return () => clearTimeout(t);
  }, [monthly, paging, counts.fresh, anchor, zone, filter]);

  const data = runs.value;
  const error = runs.error || (monthly ? counts.error : "");
  // Two memos, so a day's runs coming in the month view do not sum the month's counts again
  // (new buckets would redraw the heat strip and the grid).
  const monthBuckets = useMemo(
    () => (monthly && counts.value ? bucketCounts(counts.value, days, zone) : null),
    [monthly, counts.value, days, zone],
  );
  const runBuckets = useMemo(
    () => (!monthly && data ? bucketRuns(data, days, zone, filter) : null),
    [monthly, data, days, zone, filter],
  );
  const buckets = monthly ? monthBuckets : runBuckets;
  const today = localDay(now, zone);
  // What is shown goes into the address (no new history entry): Back, and the sidebar's link,
  // come back to it. Defaults are left out, so the plain overview is "#/overview".
  useEffect(() => {
    recordRoute({
      page: "overview",
      view: view === "week" ? undefined : view,
      day: selection.day === today ? undefined : selection.day,
      hour: selection.hour ?? undefined,
      collection: collection || undefined,
      search: search || undefined,
      state: state || undefined,
      action: action || undefined,
      zone: zone === defaultZone ? undefined : zone,
    });
  }, [view, selection, collection, search, state, action, zone]);
  const open = (t: { page: "job" | "history"; collection: string; job: string }) => navigate(t);

  const select = (s: Selection) => {
    setSelection(s);
    setLimit(LIST_LIMIT);
    if (!viewDays(view, anchor).includes(s.day)) setAnchor(s.day);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: view === "month" ? -7 : -1,
      ArrowDown: view === "month" ? 7 : 1,
    }[e.key];
    if (step === undefined || (e.target as HTMLElement).closest("input, select")) return;
    e.preventDefault();
    select({ day: shiftDay(selection.day, step), hour: null });
  };

  // The month view's buckets hold counts only: the selected day's runs come in their own answer.
  const dayBucket = useMemo(
    () => (monthly && runs.fresh && data ? bucketRuns(data, [selection.day], zone, filter)[0] : null),
    [monthly, runs.fresh, data, selection.day, zone, filter],
  );
  const bucket = monthly ? dayBucket : (buckets?.find((b) => b.day === selection.day) ?? null);
  const selectedRuns = useMemo(
    () =>
      data && bucket ? (selection.hour === null ? bucket.runs : runsInHour(data, bucket, selection.hour, zone)) : null,
    [data, bucket, selection.hour, zone],
  );
  // While the next day's runs load, the rows listed stay (dimmed, aria-busy) and are then
  // rewritten in place: clearing the list and filling it again cost two full layouts and paints
  // per arrow key.
  const listedRef = useRef<{ data: OverviewData; runs: readonly number[]; day: string } | null>(null);
  const last = listedRef.current;
  if (data && selectedRuns && (last?.data !== data || last.runs !== selectedRuns || last.day !== selection.day)) {
    listedRef.current = { data, runs: selectedRuns, day: selection.day };
  }
  const listed = listedRef.current;
  const listBusy = selectedRuns === null;
  // Dimmed only when the answer is slow: a quick one would cost a repaint to dim and another to undim.
  const [listSlow, setListSlow] = useState(false);
  useEffect(() => {
    setListSlow(false);
    if (!listBusy) return;
    const t = setTimeout(() => setListSlow(true), 300);
    return () => clearTimeout(t);
  }, [listBusy]);
  const runList = useMemo(
    () =>
      listed && (
        <RunList
          data={listed.data}
          runs={listed.runs}
          zone={zone}
          limit={limit}
          onOpen={open}
          label={i18n._("Runs on {day}", { day: dayLabel(listed.day) })}
          busy={listBusy}
          dim={listBusy && listSlow}
          onMore={() => setLimit((l) => l + LIST_LIMIT * 5)}
        />
      ),
    [listed, zone, limit, listBusy, listSlow, locale],
  );
  const heatStrip = useMemo(() => buckets && <HeatStrip buckets={buckets} />, [buckets]);
  const shown = monthly ? counts.value : data;
  const kinds = useMemo(() => (shown ? actionKinds(shown) : []), [shown]);
  const suggestedZones = useMemo(() => [userZone(), "UTC", "Europe/Berlin", "America/New_York"], []);
  const warnings = useMemo(
    () => (shown ? busyWarnings(shown.busyMinutes, (ms) => runMinuteLabel(ms, zone), 5, shown.busyHosts) : []),
    [shown, zone, locale],
  );
  const truncated = useMemo(
    () => (monthly ? [] : (data?.jobs.filter((j) => j.truncated).map((j) => j.name) ?? [])),
    [monthly, data],
  );
  const selectionLabel =
    selection.hour === null
      ? dayLabel(selection.day)
      : i18n._("{day}, {from}:00–{to}:00", {
          day: dayLabel(selection.day),
          from: String(selection.hour).padStart(2, "0"),
          to: String(selection.hour + 1).padStart(2, "0"),
        });
  const runCount = (count: number) => i18n._("{count, plural, one {# run} other {# runs}}", { count });

  // The window benchmark's marks: every update's render and commit, and when a new answer is on
  // screen (committed, then painted).
  useLayoutEffect(() => benchSince("update", renderStart));
  useLayoutEffect(() => {
    if (!monthly || !counts.fresh || !counts.value) return;
    benchMark("month-committed", `${counts.value.from} ${counts.value.computeMicros}`);
    benchPainted("month-painted", counts.value.from);
  }, [counts.value, monthly]);
  useLayoutEffect(() => {
    if (!runs.fresh || !data) return;
    benchMark("runs-committed", `${data.from} ${data.computeMicros}`);
    benchPainted("runs-painted", data.from);
  }, [data]);

  return (
    <section aria-labelledby="overview-title" class="overview">
      <PageHeader
        titleId="overview-title"
        title={i18n._("Overview")}
        actions={
          <SegmentedControl
            id="overview-views"
            label={i18n._("View")}
            value={view}
            options={VIEWS.map((v) => ({ value: v, label: viewLabel(v), id: `overview-view-${v}` }))}
            onChange={(v) => {
              setView(v);
              setAnchor(selection.day);
            }}
          />
        }
      >
        <div class="toolbar overview-nav" role="toolbar" aria-label={i18n._("Shown days")}>
          <Button
            id="overview-prev"
            size="sm"
            icon={ChevronLeft}
            class="btn-icon"
            aria-label={i18n._("Earlier")}
            title={i18n._("Earlier")}
            onClick={() => {
              setAnchor(shiftView(view, anchor, -1));
              if (monthly) setPaging(-1);
            }}
          />
          <Button id="overview-today" size="sm" onClick={() => select({ day: today, hour: null })}>
            {i18n._("Today")}
          </Button>
          <Button
            id="overview-next"
            size="sm"
            icon={ChevronRight}
            class="btn-icon"
            aria-label={i18n._("Later")}
            title={i18n._("Later")}
            onClick={() => {
              setAnchor(shiftView(view, anchor, 1));
              if (monthly) setPaging(1);
            }}
          />
          <strong id="overview-range">
            {days.length === 1
              ? dayLabel(days[0])
              : i18n._("{first} – {last}", { first: dayLabel(days[0]), last: dayLabel(days[days.length - 1]) })}
          </strong>
        </div>
      </PageHeader>
      <FilterBar label={i18n._("Filter the runs")}>
        <SearchField
          id="overview-search"
          placeholder={i18n._("Search jobs by name")}
          aria-label={i18n._("Search jobs by name")}
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          id="overview-collection"
          aria-label={i18n._("Collection")}
          value={collection}
          onChange={(e) => setCollection(e.currentTarget.value)}
          options={[
            { value: "", label: i18n._("All collections") },
            ...collections.map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
        <Select
          id="overview-state"
          aria-label={i18n._("Job state")}
          value={state}
          onChange={(e) => setState(e.currentTarget.value)}
          options={[
            { value: "", label: i18n._("All states") },
            ...JOB_STATES.map((s) => ({ value: s, label: jobStateLabel(s) })),
          ]}
        />
        <Select
          id="overview-action"
          aria-label={i18n._("Action kind")}
          value={action}
          onChange={(e) => setAction(e.currentTarget.value)}
          options={[
            { value: "", label: i18n._("All actions") },
            ...kinds.map((a) => ({ value: a, label: actionTypeLabel(a) })),
          ]}
        />
        <div class="zone-field">
          <label for="overview-zone">{i18n._("Time zone")}</label>
          <input
            id="overview-zone"
            list="overview-zones"
            value={zoneText}
            onInput={(e) => {
              const z = e.currentTarget.value;
              setZoneText(z);
              if (z.trim() && knownZone(z)) setZone(z.trim());
            }}
          />
        </div>
        <datalist id="overview-zones">
          {suggestedZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </FilterBar>
      <ul class="overview-legend" aria-label={i18n._("Legend")}>
        {CATEGORIES.map((c) => (
          <li key={c}>
            <span class={`swatch cat-${c}`} /> {categoryLabel(c)}
          </li>
        ))}
      </ul>
      {error && (
        <p class="error-text" role="alert">
          {i18n._("Could not read the overview: {reason}", { reason: error })}
        </p>
      )}
      {warnings.length > 0 && (
        <div id="overview-busy" class="overview-warning" role="note">
          <strong>{i18n._("Many jobs call the same host in the same minute:")}</strong>
          <ul>
            {warnings.map((w) => (
              <li key={w.host}>{w.text}</li>
            ))}
          </ul>
        </div>
      )}
      {truncated.length > 0 && (
        <p class="muted">
          {i18n._("More runs than shown for {names} (a job lists at most {max} in a window).", {
            names: listUnits(truncated),
            max: formatNumber(2000),
          })}
        </p>
      )}
      {buckets === null && !error && <p aria-busy="true">{i18n._("Loading the overview…")}</p>}
      {buckets && (
        <div class="overview-body">
          {heatStrip}
          {view !== "agenda" && (
            // The calendar is a grid (a row per day, or per week in the month): it takes the arrow keys.
            <div
              id="overview-calendar"
              class="overview-calendar"
              role="grid"
              tabIndex={0}
              onKeyDown={onKeyDown}
              aria-label={i18n._("Runs by day: arrow keys move between days")}
            >
              {view === "month" ? (
                <MonthGrid buckets={buckets} today={today} selection={selection} onSelect={select} />
              ) : (
                <DayColumns buckets={buckets} now={now} selection={selection} onSelect={select} />
              )}
            </div>
          )}
          {view === "agenda" && data && (
            <div id="overview-agenda">
              {buckets
                .filter((b) => b.total > 0)
                .map((b) => (
                  <section key={b.day} data-testid={`agenda-${b.day}`}>
                    <h2 class="agenda-day">
                      {dayLabel(b.day)} <small class="muted">{runCount(b.total)}</small>
                    </h2>
                    <RunList
                      data={data}
                      runs={b.runs}
                      zone={zone}
                      limit={20}
                      onOpen={open}
                      label={i18n._("Runs on {day}", { day: dayLabel(b.day) })}
                      onMore={() => {
                        setView("day");
                        select({ day: b.day, hour: null });
                      }}
                    />
                  </section>
                ))}
              {buckets.every((b) => b.total === 0) && <p class="muted">{i18n._("No runs in these days.")}</p>}
            </div>
          )}
          {view !== "agenda" && (
            <section id="overview-selection">
              <h2 class="agenda-day">
                {selectionLabel}{" "}
                <small class="muted">{selectedRuns ? runCount(selectedRuns.length) : i18n._("loading runs…")}</small>
              </h2>
              {/* Announced: the day and its count, once they are known; never the list of up to 100 runs. */}
              <p id="overview-selection-status" class="visually-hidden" role="status">
                {selectedRuns
                  ? i18n._("{selection}: {count, plural, one {# run} other {# runs}}", {
                      selection: selectionLabel,
                      count: selectedRuns.length,
                    })
                  : ""}
              </p>
              {!error && runList}
            </section>
          )}
        </div>
      )}
    </section>
  );
}
