"""The overview's month view in the real window (issue 16: 1,000 jobs over a month rendered in
<= 100 ms, no view update over 16 ms). A benchmark, not a test: pytest collects only test_*.py,
and this file asserts only that the steps happened. Prints its figures; docs/benchmarks.md
("Schedule overview (window, end to end)") records them. Run it with

    bash scripts/overview-window-bench.sh

The jobs are the mix of crates/kairos-engine/examples/overview_bench.rs (a fifth each hourly,
daily with the collection's blackout calendar, twice a week, every 15 minutes in Europe/Paris,
twice a month; 1,000 jobs), imported as one bundle, starting on the first of next month (so the
months measured are wholly planned runs, and nothing runs while the benchmark does; all jobs are
paused too).

The page keeps timing marks only when `window.__KAIROS_BENCH__` is set (ui/src/logic/benchMarks.ts).
Each action is started in the page (performance.now(), then the button's click(), as a user's
click would) and ends when the mark "month-painted" comes: the frame holding the month grid drawn
from the new counts has been painted (requestAnimationFrame, then a message). In between: the
Rust command (its own time is `computeMicros`), serializing and carrying the answer, parsing it,
summing the counts into days (`bucketCounts`), Preact's render and commit, then style, layout and
paint. Every render of the view is timed from its start to its commit ("update"), and a
requestAnimationFrame loop records every frame while the view is navigated and scrolled.
"""

from __future__ import annotations

import json
import statistics
import time
from datetime import date, datetime, timezone
from pathlib import Path

from conftest import OUT, invoke, wait_for

JOBS = 1_000
SWITCHES = 10  # month -> week -> month
AT_ONCE = 8  # next month, clicked as soon as the month before is painted
LOOKED = 6  # next month, clicked a second after the month before is painted
LOOK_SECONDS = 1.0
BACK = 4  # previous month
SEARCHES = ["j", "jo", "job", "job-", "J", "JO", "JOB", "JOB-", "Jo", "Job"]  # all match every job
DAY_STEPS = 20  # ArrowRight in the month view: the selected day's runs
SCROLL_STEPS = 30


def first_of_next_month(today: date) -> date:
    return date(today.year + (today.month == 12), today.month % 12 + 1, 1)


def bundle(start: date) -> dict:
    jobs = []
    for i in range(JOBS):
        recurrence = [
            {"frequency": "Hour", "interval": 1, "schedule": {"minutes": [i % 60]}},
            {"frequency": "Day", "interval": 1, "schedule": {"hours": [i % 24], "minutes": [15]},
             "blackout": ["holidays"]},
            {"frequency": "Week", "interval": 1,
             "schedule": {"weekDays": ["Monday", "Thursday"], "hours": [9], "minutes": [0]}},
            {"frequency": "Minute", "interval": 15, "timeZone": "Europe/Paris"},
            {"frequency": "Month", "interval": 1, "schedule": {"monthDays": [1, 15], "hours": [2], "minutes": [30]}},
        ][i % 5]
        jobs.append({"name": f"job-{i:04}", "properties": {
            "startTime": f"{start.isoformat()}T00:00:00Z",
            "action": {"type": "Http", "request": {"uri": f"https://host{i % 7}.example.test/", "method": "GET"}},
            "recurrence": recurrence}})
    holiday = start.replace(day=15).isoformat()
    return {"kairosBundle": 1, "collections": [{
        "resourceGroup": "desktop", "name": "bench",
        "collection": {"location": "local", "properties": {
            "sku": {"name": "P20Premium"}, "quota": {"maxJobCount": JOBS},
            "calendars": {"holidays": {"dates": [holiday]}}}},
        "jobs": jobs}]}


# Start an action in the page and wait for the mark that ends it. arguments: the element's CSS,
# the action ("click" or an arrow key), the mark that ends it.
ACT = """
const [css, action, until, done] = arguments;
const B = window.__KAIROS_BENCH__;
const start = B.marks.length;
const el = document.querySelector(css);
const t0 = performance.now();
if (action === "click") el.click();
else if (action.startsWith("type:")) {
  el.value = action.slice(5);
  el.dispatchEvent(new Event("input", {bubbles: true}));
} else el.dispatchEvent(new KeyboardEvent("keydown", {key: action, bubbles: true, cancelable: true}));
const deadline = t0 + 60000;
// The paint of a commit made after the action (a paint asked for before it may land after it).
const committed = until.replace("-painted", "-committed");
(function poll() {
  const marks = B.marks.slice(start);
  const c = marks.findIndex(m => m.name === committed);
  if ((c >= 0 && marks.slice(c).some(m => m.name === until)) || performance.now() > deadline) done({t0, marks});
  else setTimeout(poll, 2);
})();
"""

# One requestAnimationFrame loop per recording (a stopped loop's last callback ends it).
FRAMES_START = """
const B = window.__KAIROS_BENCH__;
const frames = B.frames = [];
const run = B.run = (B.run || 0) + 1;
const loop = (t) => { if (B.run !== run) return; frames.push(t); requestAnimationFrame(loop); };
requestAnimationFrame(loop);
"""

FRAMES_STOP = """
const B = window.__KAIROS_BENCH__;
B.run = (B.run || 0) + 1;
return B.frames;
"""

# Down the page and back up, one step per frame. arguments: the number of steps.
SCROLL = """
const [steps, done] = arguments;
const el = document.scrollingElement;
const max = Math.max(0, el.scrollHeight - el.clientHeight);
const half = Math.max(1, Math.floor(steps / 2));
let i = 0;
const step = () => {
  el.scrollTop = Math.round(max * (i <= half ? i / half : (steps - i) / half));
  if (++i <= steps) requestAnimationFrame(step);
  else requestAnimationFrame(() => done(max));
};
requestAnimationFrame(step);
"""


def act(driver, css: str, action: str, until: str) -> dict:
    out = driver.execute_async_script(ACT, css, action, until)
    names = [m["name"] for m in out["marks"]]
    committed = until.replace("-painted", "-committed")
    assert committed in names and until in names[names.index(committed):], \
        f"no {until!r} within 60 s after {action} on {css}: {names}"
    return out


def first(marks: list[dict], name: str) -> dict:
    """The first `name` (a "-painted" mark) after the first matching "-committed" one."""
    committed = next(m for m in marks if m["name"] == name.replace("-painted", "-committed"))
    return next(m for m in marks if m["name"] == name and m["at"] >= committed["at"])


def month_breakdown(out: dict) -> dict:
    """The stages of one month render, in ms from the click. `how`: "asked" (the click asked the
    engine), "joined" (it found the month asked ahead, still under way), "kept" (the month's
    answer was there: asked ahead and done, or seen lately)."""
    marks, t0 = out["marks"], out["t0"]
    painted = first(marks, "month-painted")
    committed = next(m for m in marks if m["name"] == "month-committed" and m["at"] <= painted["at"])
    answer = next((m for m in marks if m["name"] == "counts-answer" and m["at"] <= committed["at"]), None)
    sent = next((m for m in marks if m["name"] == "counts-sent" and answer and m["at"] <= answer["at"]), None)
    return {
        "how": "kept" if answer is None else "asked" if sent else "joined",
        "total": painted["at"] - t0,
        "to request": sent["at"] - t0 if sent else None,
        "wait": answer["at"] - (sent["at"] if sent else t0) if answer else None,
        "rust": int(committed["detail"].split()[1]) / 1000 if answer else None,
        "render": committed["at"] - (answer["at"] if answer else t0),
        "paint": painted["at"] - committed["at"],
        "updates": [float(m["detail"]) for m in marks if m["name"] == "update" and m["at"] <= painted["at"]],
    }


def runs_breakdown(out: dict) -> dict:
    """A list of runs asked for and drawn (a day, a week), in ms from the action."""
    marks, t0 = out["marks"], out["t0"]
    painted = first(marks, "runs-painted")
    committed = next(m for m in marks if m["name"] == "runs-committed" and m["at"] <= painted["at"])
    answer = next((m for m in marks if m["name"] == "runs-answer" and m["at"] <= committed["at"]), None)
    sent = next((m for m in marks if m["name"] == "runs-sent" and answer and m["at"] <= answer["at"]), None)
    return {
        "total": painted["at"] - t0,
        "to request": sent["at"] - t0 if sent else None,
        "wait": answer["at"] - sent["at"] if sent else None,
        "rust": int(committed["detail"].split()[1]) / 1000 if sent else None,
        "render": committed["at"] - answer["at"] if answer else None,
        "paint": painted["at"] - committed["at"],
        "updates": [float(m["detail"]) for m in marks if m["name"] == "update" and m["at"] <= painted["at"]],
    }


def runs_stages(samples: list[dict]) -> str:
    def median(key: str) -> str:
        values = [s[key] for s in samples if s[key] is not None]
        return f"{statistics.median(values):.1f} ms" if values else "–"
    return (f"Rust command {median('rust')}, click to request {median('to request')}, wait for the answer "
            f"{median('wait')}, answer to commit {median('render')}, commit to painted {median('paint')} (medians)")


def stats(values: list[float]) -> str:
    v = sorted(values)
    return (f"median {statistics.median(v):.1f} ms, p95 {v[min(len(v) - 1, int(len(v) * 0.95))]:.1f} ms, "
            f"max {v[-1]:.1f} ms (n = {len(v)})")


def frame_report(frames: list[float]) -> str:
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    long = [g for g in gaps if g > 17.5]
    return (f"{len(gaps)} frames, interval median {statistics.median(gaps):.1f} ms, max {max(gaps):.1f} ms; "
            f"{len(long)} over 17.5 ms" + (f" ({', '.join(f'{g:.0f}' for g in sorted(long)[-8:])} ms the longest)"
                                            if long else ""))


def test_overview_window(driver, data_dir):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    invoke(driver, "set_paused", {"paused": True})
    today = datetime.now(timezone.utc).date()
    start = first_of_next_month(today)
    path = Path(OUT) / "overview-bench-bundle.json"
    path.write_text(json.dumps(bundle(start)))
    report = invoke(driver, "import_run", {"request": {
        "path": str(path), "format": None, "passphrase": None, "parametersPath": None, "collection": None,
        "replace": False, "continueOnError": False}})
    assert report["written"], report
    driver.execute_script("window.__KAIROS_BENCH__ = {marks: []}; location.hash = '#/overview';")
    wait_for(lambda: driver.execute_script("return !!document.querySelector('#overview-calendar')"), 30,
             "the overview's week view", describe=lambda: driver.execute_script(
                 "return [location.hash, document.body.innerText.slice(0, 500), "
                 "JSON.stringify(window.__KAIROS_BENCH__.marks.slice(-8))]"))
    lines = [f"{JOBS} jobs (the overview_bench mix), months from {start.isoformat()}, zone "
             + driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")]

    # The month view of this month (no runs yet), then next month: the first full month.
    act(driver, "#overview-view-month", "click", "month-painted")
    cold = month_breakdown(act(driver, "#overview-next", "click", "month-painted"))
    counted = driver.execute_script(
        "return [...document.querySelectorAll('.month-day-count')].reduce((n, e) => n + Number(e.textContent || 0), 0)")
    assert counted > 500_000, counted
    # The size of what the month view carries: the same command, its answer as JSON.
    size = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const days = [...document.querySelectorAll('[data-testid^="overview-day-"]')].map(e => e.dataset.testid.slice(13));
        const from = days[0] + "T00:00:00Z", to = new Date(Date.parse(days[days.length - 1] + "T00:00:00Z") + 86400000)
          .toISOString().replace(".000Z", "Z");
        window.__TAURI_INTERNALS__.invoke("overview_counts", {request: {from, to, collections: null, search: "",
          state: null, action: null}}).then(r => done([JSON.stringify(r).length, r.counts.length, r.busyMinutes.length]));""")
    lines.append(f"runs counted in the month grid: {counted:,}; the counts answer: {size[0]:,} bytes of JSON "
                 f"({size[1]:,} counts, {size[2]:,} busy minutes listed)")

    # Paging forward: at once (the month asked ahead is still under way), then after looking at
    # each month for a second (asked ahead and done), then back (months seen lately are kept).
    at_once = [month_breakdown(act(driver, "#overview-next", "click", "month-painted")) for _ in range(AT_ONCE)]
    looked = []
    for _ in range(LOOKED):
        time.sleep(LOOK_SECONDS)
        looked.append(month_breakdown(act(driver, "#overview-next", "click", "month-painted")))
    back = [month_breakdown(act(driver, "#overview-prev", "click", "month-painted")) for _ in range(BACK)]
    # The month asked anew: a search text that every job still matches (the same runs counted),
    # a new text each time, so nothing kept answers it; after a second, so the month asked ahead
    # is done and the engine has the machine to itself.
    anew = []
    for text in SEARCHES:
        time.sleep(LOOK_SECONDS)
        anew.append(month_breakdown(act(driver, "#overview-search", f"type:{text}", "month-painted")))
    # A day of the month shown selected (a view switch shows the selected day's week or month),
    # then week view and month view again.
    act(driver, '[data-testid^="overview-day-"]', "click", "runs-painted")
    switches, weeks = [], []
    for _ in range(SWITCHES):
        weeks.append(runs_breakdown(act(driver, "#overview-view-week", "click", "runs-painted")))
        switches.append(month_breakdown(act(driver, "#overview-view-month", "click", "month-painted")))

    def ms(samples: list[dict], key: str) -> str:
        values = [s[key] for s in samples if s[key] is not None]
        return f"{statistics.median(values):.1f} ms" if values else "–"

    def row(what: str, samples: list[dict]) -> None:
        hows = sorted({s["how"] for s in samples})
        lines.append(f"| {what} | {'/'.join(hows)} | {stats([s['total'] for s in samples])} | {ms(samples, 'rust')} | "
                     f"{ms(samples, 'to request')} | {ms(samples, 'wait')} | {ms(samples, 'render')} | "
                     f"{ms(samples, 'paint')} |")

    lines += ["", "| action | the month's counts | click to month painted | Rust command | click to request | "
                  "wait for the answer (Rust, serialize, IPC, parse) | answer to commit (sum, render) | "
                  "commit to painted (style, layout, paint) |", "|---|---|---|---|---|---|---|---|"]
    row("first full month (plans compiled)", [cold])
    row("next month at once (asked ahead, under way)", at_once)
    row(f"next month after {LOOK_SECONDS:g} s on the one before (asked ahead)", looked)
    row("previous month (seen lately)", back)
    row("the month asked anew (a search text every job matches)", anew)
    row("week view -> month view", switches)
    lines.append("")
    lines.append(f"Week view (its runs listed, 7 days): click to painted {stats([w['total'] for w in weeks])}; "
                 f"{runs_stages(weeks)}.")

    # Navigating the month view day by day (each day's runs listed below the grid), then scrolling,
    # with every frame recorded.
    driver.execute_script(FRAMES_START)
    days = []
    for _ in range(DAY_STEPS):
        days.append(runs_breakdown(act(driver, "#overview-calendar", "ArrowRight", "runs-painted")))
    nav_frames = driver.execute_script(FRAMES_STOP)
    driver.execute_script(FRAMES_START)
    height = driver.execute_async_script(SCROLL, SCROLL_STEPS)
    scroll_frames = driver.execute_script(FRAMES_STOP)
    month_updates = [u for s in at_once + looked + back + anew + switches for u in s["updates"]]
    day_updates = [u for d in days for u in d["updates"]]
    lines += [
        "",
        f"Arrow key to the next day (its runs listed, at most 100 drawn): click to painted {stats([d['total'] for d in days])}; "
        f"{runs_stages(days)}.",
        f"View updates (render to commit), month changes: {stats(month_updates)}.",
        f"View updates, day changes: {stats(day_updates)}.",
        f"Frames while moving day by day: {frame_report(nav_frames)}.",
        f"Frames while scrolling ({SCROLL_STEPS} steps over {height} px): {frame_report(scroll_frames)}.",
    ]
    text = "\n".join(lines)
    print("\n" + text)
    (Path(OUT) / "bench-overview-window.md").write_text(text + "\n")
