"""Desktop footprint benchmark (not a test: pytest collects only test_*.py). Prints its figures;
docs/benchmarks.md records them. Run against a release build:

    cargo build --release -p kairos-desktop -p kairos-tray   # after bash scripts/build-ui.sh
    KAIROS_DESKTOP_BIN=$CARGO_TARGET_DIR/release/kairos-desktop \
        bash scripts/desktop-e2e.sh tests/desktop/bench_footprint.py -s

Measures, with 100 jobs in the database:
- the live preview's round trip through IPC (the page calls preview_job, 1,000 runs), timed in
  the page with performance.now();
- memory (RSS and PSS from /proc) of every Kairos process with the window open, then of the tray
  runner alone after the window closed, and its CPU time over 30 s;
- cold start: spawning kairos-desktop until its page makes its first command ("window ready").
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from pathlib import Path

from conftest import APP_BIN, OUT, wait_for

JOBS = 100
IDLE_SECONDS = 30
COLD_STARTS = 5

SCHEDULES = {
    "every minute": {"frequency": "Minute", "interval": 1},
    "last Friday 05:15": {"frequency": "Month", "interval": 1,
                          "schedule": {"monthlyOccurrences": [{"day": "Friday", "occurrence": -1}],
                                       "hours": [5], "minutes": [15]}},
    "Mon/Wed/Fri 10:00, 22:00 Berlin": {"frequency": "Week", "interval": 1, "timeZone": "Europe/Berlin",
                                        "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"],
                                                     "hours": [10, 22], "minutes": [0]}},
}


def memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in kB."""
    rss = next(int(line.split()[1]) for line in open(f"/proc/{pid}/status") if line.startswith("VmRSS:"))
    pss = next(int(line.split()[1]) for line in open(f"/proc/{pid}/smaps_rollup") if line.startswith("Pss:"))
    return rss, pss


def cpu_ticks(pid: int) -> int:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def descendants(root: int) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                parents[int(entry)] = int(stat[1])
            except OSError:
                pass
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == pid]
        found += kids
        frontier += kids
    return found


def name(pid: int) -> str:
    return Path(open(f"/proc/{pid}/cmdline").read().split("\0")[0]).name


def invoke(driver, command: str, args: dict):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__TAURI_INTERNALS__.invoke(arguments[0], arguments[1])"
        ".then(r => done({ok: r}), e => done({err: e}));", command, args)


def test_footprint(app, driver, data_dir):
    report = []
    # The preview round trip, as the page sees it (before the jobs are added: each save makes the
    # page reload its table, which would be measured too).
    report.append("| preview (1,000 runs) | IPC round trip median | p95 | max | engine time median |")
    report.append("|---|---|---|---|---|")
    for label, recurrence in SCHEDULES.items():
        times = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const request = {properties: {startTime: "2026-01-01T00:00:00Z", recurrence: arguments[0],
                action: {type: "Http", request: {uri: "http://x.test", method: "GET"}}}, count: 1000, month: null};
            (async () => {
              const out = [];
              // Warm-up: the first calls of a page pay for JIT compilation, not for the preview.
              for (let i = 0; i < 20; i++) await window.__TAURI_INTERNALS__.invoke("preview_job", {request});
              for (let i = 0; i < 200; i++) {
                const t0 = performance.now();
                const r = await window.__TAURI_INTERNALS__.invoke("preview_job", {request});
                out.push([performance.now() - t0, r.computeMicros, r.runs.length]);
              }
              done(out);
            })();""", recurrence)
        assert all(runs == 1000 for _, _, runs in times), "1,000 runs each time"
        ms = sorted(t for t, _, _ in times)
        engine = statistics.median(m for _, m, _ in times) / 1000
        report.append(f"| {label} | {statistics.median(ms):.2f} ms | {ms[int(len(ms) * 0.95)]:.2f} ms | "
                      f"{ms[-1]:.2f} ms | {engine:.2f} ms |")

    collection = invoke(driver, "create_collection", {"name": "bench"})["ok"]["id"]
    for i in range(JOBS):
        props = {"startTime": "2026-01-01T00:00:00Z",
                 "action": {"type": "Http", "request": {"uri": f"http://127.0.0.1:9/{i}", "method": "GET"}},
                 "recurrence": {"frequency": "Day", "interval": 1, "schedule": {"hours": [3], "minutes": [i % 60]}}}
        result = invoke(driver, "save_job", {"collection": collection, "name": f"job-{i:03}",
                                             "properties": props, "create": True})
        assert "ok" in result, result

    tray = app.wait_tray_runner()
    window = app.window_pids()[0]
    report.append("")
    report.append("| state | process | RSS | PSS |")
    report.append("|---|---|---|---|")
    total_rss = total_pss = 0
    for pid in [window, *(p for p in descendants(window) if p != tray), tray]:
        rss, pss = memory(pid)
        total_rss, total_pss = total_rss + rss, total_pss + pss
        report.append(f"| window open | {name(pid)} | {rss / 1024:.1f} MB | {pss / 1024:.1f} MB |")
    report.append(f"| window open | **all** | **{total_rss / 1024:.1f} MB** | **{total_pss / 1024:.1f} MB** |")

    driver.quit()
    wait_for(lambda: not app.window_pids(), 20, "the window process to exit")
    time.sleep(5)  # settle: the runner's first passes after the window's writes
    gone = [pid for pid in descendants(window) if os.path.exists(f"/proc/{pid}")]
    assert not gone, f"WebKit processes outlived the window: {gone}"
    before = cpu_ticks(tray)
    time.sleep(IDLE_SECONDS)
    used = cpu_ticks(tray) - before
    rss, pss = memory(tray)
    report.append(f"| window closed, tray only | kairos-tray | **{rss / 1024:.1f} MB** | **{pss / 1024:.1f} MB** |")
    report.append("")
    report.append(f"Tray runner CPU while idle with {JOBS} jobs: {used} ticks of 10 ms over {IDLE_SECONDS} s "
                  f"= {used / IDLE_SECONDS:.2f} % of one core.")

    # Cold start: the tray runner is up, so this is the window alone.
    starts = []
    env = dict(os.environ, KAIROS_DATA_DIR=str(data_dir))
    for _ in range(COLD_STARTS):
        t0 = time.monotonic()
        proc = subprocess.Popen([str(APP_BIN)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        line = proc.stdout.readline()
        starts.append(time.monotonic() - t0)
        proc.terminate()
        proc.wait(10)
        assert line.strip() == "window ready", line
        wait_for(lambda: not app.window_pids(), 20, "the window process to exit")
    report.append("")
    report.append("Cold start to a usable window (spawn until the page's first command): "
                  + ", ".join(f"{s * 1000:.0f} ms" for s in starts)
                  + f"; median {statistics.median(starts) * 1000:.0f} ms.")

    text = "\n".join(report)
    print("\n" + text)
    (OUT / "bench-footprint.md").write_text(text + "\n")
