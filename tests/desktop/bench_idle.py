"""Idle benchmark (not a test: pytest collects only test_*.py). Prints its figures;
docs/benchmarks.md ("Quiet when idle") records them. Run against release builds:

    cargo build --release -p kairos-cli -p kairos-tray
    bash scripts/desktop-e2e.sh tests/desktop/bench_idle.py -s

(the harness gives the tray runner its real surroundings: an X display, a session bus with a
notification daemon and a StatusNotifierWatcher, so its icon is registered). Binaries:
KAIROS_BENCH_BIN_DIR (default $CARGO_TARGET_DIR/release); KAIROS_BENCH_IDLE_JOBS chooses the sizes
(default 0,1000,100000).

For 0, 1,000 and 100,000 jobs (100 collections of 1,000, each job due once a day at a whole
minute, imported as crontabs), an idle `kairos serve` and an idle tray runner are each measured
over 30 s starting at second 15 of a minute, at least 15 s after they started (so between due
times): context switches of all threads (`/proc/PID/task/*/status`: a thread that never switches
never woke up), CPU as utime + stime (`/proc/PID/stat`, 10 ms ticks) and exact on-CPU time
(`/proc/PID/task/*/schedstat`). Targets (issue "Quiet when idle"): fewer than 0.1 wake-ups a
second and 0.000 % CPU.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import OUT, TARGET_DIR, wait_for

BINS = Path(os.environ.get("KAIROS_BENCH_BIN_DIR") or TARGET_DIR / "release")
KAIROS = BINS / "kairos"
TRAY = BINS / "kairos-tray"
SIZES = tuple(int(n) for n in os.environ.get("KAIROS_BENCH_IDLE_JOBS", "0,1000,100000").split(","))
PER_COLLECTION = 1_000
WINDOW_S = 30
SETTLE_S = 15
TICK = os.sysconf("SC_CLK_TCK")


def crontab(n: int) -> str:
    """n daily jobs on whole minutes, spread over the day."""
    return "".join(f"{(i * 7) % 60} {(i * 11) % 24} * * * /bin/true job{i}\n" for i in range(n))


def fill(data_dir: Path, jobs: int) -> None:
    for c in range(jobs // PER_COLLECTION):
        path = data_dir / f"c{c}.tab"
        path.write_text(crontab(PER_COLLECTION))
        subprocess.run([str(KAIROS), "import", "--crontab", "--collection", f"c{c}", "--data-dir", str(data_dir),
                        str(path)], check=True, stdout=subprocess.DEVNULL)
        path.unlink()


def snapshot(pid: int) -> tuple[int, int, dict[str, int]]:
    """(utime + stime ticks, on-CPU ns, context switches per thread "name/tid"), all threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    run_ns = 0
    switches: dict[str, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            run_ns += int((task / "schedstat").read_text().split()[0])
            name = f"{(task / 'comm').read_text().strip()}/{task.name}"
            switches[name] = sum(int(line.split()[1]) for line in (task / "status").read_text().splitlines()
                                 if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return ticks, run_ns, switches


def measure(pid: int, started: float) -> str:
    # From second 15 of a minute (jobs are due at whole minutes), and not before SETTLE_S.
    while True:
        now = time.time()
        if now - started >= SETTLE_S and 15 <= now % 60 < 16:
            break
        time.sleep(0.2)
    before, t0 = snapshot(pid), time.monotonic()
    time.sleep(WINDOW_S)
    after, elapsed = snapshot(pid), time.monotonic() - t0
    ticks, run_ns = after[0] - before[0], after[1] - before[1]
    # Threads that started during the window count from zero; those that ended are lost (rare).
    per_thread = {t: n - before[2].get(t, 0) for t, n in after[2].items()}
    switches = sum(per_thread.values())
    busy = ", ".join(f"{t} {n}" for t, n in sorted(per_thread.items(), key=lambda x: -x[1]) if n) or "none"
    return (f"{switches} switches = {switches / elapsed:.2f}/s | CPU {ticks / TICK / elapsed * 100:.3f} % "
            f"({ticks * 1000 // TICK} ms) | on-CPU {run_ns / 1e6:.1f} ms = {run_ns / 1e9 / elapsed * 100:.4f} % "
            f"| {len(after[2])} threads | {busy}")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serve(data_dir: Path) -> str:
    log = open(OUT / f"bench-serve-{data_dir.name}.log", "w")
    proc = subprocess.Popen([str(KAIROS), "serve", "--data-dir", str(data_dir), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    started = time.time()
    try:
        wait_for(lambda: "listening on" in (proc.stdout.readline() or ""), 60, "kairos serve to listen")
        return measure(proc.pid, started)
    finally:
        stop(proc)


def tray(data_dir: Path) -> str:
    log = open(OUT / f"bench-tray-{data_dir.name}.log", "w")
    env = dict(os.environ, KAIROS_DATA_DIR=str(data_dir))
    proc = subprocess.Popen([str(TRAY)], env=env, stdout=subprocess.PIPE, stderr=log, text=True)
    started = time.time()
    try:
        wait_for(lambda: "tray runner ready" in (proc.stdout.readline() or ""), 60, "the tray runner")
        return measure(proc.pid, started)
    finally:
        stop(proc)


@pytest.mark.timeout(3600)  # six 30 s windows, each waiting for second 15 of a minute
def test_idle(tmp_path):
    for path, what in ((KAIROS, "kairos"), (TRAY, "kairos-tray")):
        assert path.is_file(), f"build {what} first: {path}"
    rows = ["| jobs | process | wake-ups (context switches, all threads, 30 s) | CPU (utime+stime) | on-CPU | threads "
            "| switches by thread |",
            "|---:|---|---|---|---|---|---|"]
    for jobs in SIZES:
        data_dir = tmp_path / f"jobs-{jobs}"
        data_dir.mkdir()
        fill(data_dir, jobs)
        for name, run in (("kairos serve", serve), ("kairos-tray", tray)):
            figures = run(data_dir).split(" | ")
            rows.append(f"| {jobs:,} | {name} | " + " | ".join(figures) + " |")
            print(rows[-1], flush=True)
    print("\n" + "\n".join(rows))
