"""`kairos-tray.exe` (Windows build, under Wine, on an Xvfb display so Wine has a system tray),
with no window open, fires a job that another process (the Linux `kairos serve`) wrote into the
shared database, records the result, shows its icon (no tray problem recorded for the window)
and stops cleanly when the session ends; a Notification job fails cleanly (Wine has no toast platform) and
the problem is recorded for the window."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

import helpers
from conftest import WINE, windows_path, wine_command
from helpers import KairosServer

SUB, RG, JC = "wine-sub", "wine-rg", "wine-jc"
BASE = f"/subscriptions/{SUB}/resourceGroups/{RG}/providers/Microsoft.Scheduler/jobCollections/{JC}"


@pytest.fixture
def display():
    """An Xvfb display of the test's own (Wine's system tray lives on a display)."""
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is needed (apt-get install xvfb)"
    r, w = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    assert number, "Xvfb printed no display number"
    fresh_wineserver()
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


def fresh_wineserver():
    """Stop a Wine server left from earlier programs, so the tray runner's desktop (and its tray)
    belongs to this test's display, not to a display that is gone."""
    wineserver = shutil.which("wineserver") or str(Path(WINE).parent / "wineserver")
    subprocess.run([wineserver, "-k"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    subprocess.run([wineserver, "-w"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)


def end_session(tray: subprocess.Popen, env: dict) -> int | None:
    """Log-off: `wineboot --end-session` sends every window WM_QUERYENDSESSION and WM_ENDSESSION,
    as Windows does. kairos-tray.exe is a GUI program (no console, so no Ctrl-C); tao ends its
    event loop on WM_ENDSESSION and the runner stops, recording what it was doing, before the
    process exits. None when it has not ended within 30 s."""
    subprocess.run([WINE, "wineboot", "--end-session"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60)
    try:
        return tray.wait(30)
    except subprocess.TimeoutExpired:
        return None


def assert_stopped_cleanly(code: int | None, out: str):
    assert code == 0, f"kairos-tray.exe exited {code}: {out[-3000:]}"
    # The runner's own stop, not the process cut off after the event loop's end.
    assert "the session is ending" in out and "stopped" in out.rsplit("the session is ending", 1)[1], \
        out[-3000:]


def write_due_job(data_dir, url: str, due: dt.datetime):
    """The Linux build writes a collection and a one-time job due at `due`, then stops."""
    srv = KairosServer(data_dir).start()
    try:
        r = srv.raw("PUT", BASE, {"location": "local", "properties": {"sku": {"name": "Standard"}}})
        assert r.status in (200, 201), r
        job = {"properties": {
            "startTime": due.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "action": {"type": "Http", "request": {"uri": url, "method": "POST", "body": "from wine"},
                       "retryPolicy": {"retryType": "None"}},
            "state": "Enabled"}}
        r = srv.raw("PUT", f"{BASE}/jobs/due", job)
        assert r.status in (200, 201), r
    finally:
        assert srv.stop() == 0


def setting(data_dir, key: str) -> str | None:
    """A value of the shared settings table, as the window reads it (kairos_local::settings):
    None when absent or empty (a solved problem is recorded as empty)."""
    with sqlite3.connect(data_dir / "kairos.db", timeout=10) as db:
        row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return (row and row[0].strip()) or None


def history(data_dir) -> list[dict]:
    srv = KairosServer(data_dir).start()
    try:
        r = srv.raw("GET", f"{BASE}/jobs/due/history")
        assert r.status == 200, r
        return r.json["value"]
    finally:
        assert srv.stop() == 0


def test_tray_runner_fires_a_due_job_written_by_another_process(tmp_path, target, display):
    data = tmp_path / "data"
    path = target.path("tray")
    due = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(seconds=20)
    write_due_job(data, target.url(path), due)
    assert target.requests(path) == [], "nothing fires before the tray runner starts"

    env = dict(os.environ, KAIROS_DATA_DIR=windows_path(data), DISPLAY=display)
    log = open(tmp_path / "tray.log", "wb")
    tray = subprocess.Popen(wine_command("kairos-tray.exe"), env=env, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        [req] = target.wait_for(path, 1, timeout=90)
        assert req.method == "POST"
        assert req.body == b"from wine"
        assert req.at >= due.timestamp() - 1, "fired before it was due"
        assert req.header("x-ms-execution-tag")
        # The icon was made (Wine's system tray on the Xvfb display): no tray problem recorded
        # for the window's Settings. A failure to make it is recorded when the main loop starts,
        # long before the job is due.
        tray_problem = setting(data, "desktop.trayProblem")
        code = end_session(tray, env)
    finally:
        if tray.poll() is None:
            tray.kill()
            tray.wait(10)
        log.close()
    out = (tmp_path / "tray.log").read_text("utf-8", "replace")
    assert_stopped_cleanly(code, out)
    assert tray_problem is None, f"{tray_problem!r}: {out[-3000:]}"

    runs = history(data)
    assert len(runs) == 1, runs
    assert runs[0]["properties"]["status"] == "Completed", runs[0]
    assert target.requests(path) == [req], "the job fired exactly once"


def test_a_notification_job_under_wine_fails_cleanly_and_is_reported(tmp_path, display):
    """The toast path runs for real: Wine 8 has no Windows.UI.Notifications classes, so the
    Notification action fails with the clear 'unavailable' message (not a crash), and the tray
    runner records it for the window's Settings."""
    data = tmp_path / "data"
    due = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(seconds=15)
    srv = KairosServer(data).start()
    try:
        r = srv.raw("PUT", BASE, {"location": "local", "properties": {"sku": {"name": "Standard"}}})
        assert r.status in (200, 201), r
        job = {"properties": {
            "startTime": due.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "action": {"type": "Notification", "notification": {"title": "Stand-up", "body": "Room 4"},
                       "retryPolicy": {"retryType": "None"}},
            "state": "Enabled"}}
        r = srv.raw("PUT", f"{BASE}/jobs/note", job)
        assert r.status in (200, 201), r
    finally:
        assert srv.stop() == 0

    env = dict(os.environ, KAIROS_DATA_DIR=windows_path(data), DISPLAY=display)
    log = open(tmp_path / "tray.log", "wb")
    tray = subprocess.Popen(wine_command("kairos-tray.exe"), env=env, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT)

    def recorded():
        return setting(data, "desktop.notificationProblem")
    try:
        deadline = time.monotonic() + 90
        while not recorded() and time.monotonic() < deadline and tray.poll() is None:
            time.sleep(0.5)
        problem = recorded()
        code = end_session(tray, env)
    finally:
        if tray.poll() is None:
            tray.kill()
            tray.wait(10)
        log.close()
    out = (tmp_path / "tray.log").read_text("utf-8", "replace")
    assert problem and problem.startswith("no desktop notification service: Windows cannot show toasts"), \
        f"{problem!r}: {out[-3000:]}"
    assert_stopped_cleanly(code, out)

    srv = KairosServer(data).start()
    try:
        runs = srv.raw("GET", f"{BASE}/jobs/note/history").json["value"]
    finally:
        assert srv.stop() == 0
    assert len(runs) == 1, runs
    assert runs[0]["properties"]["status"] == "Failed", runs[0]
    assert runs[0]["properties"]["message"] == problem
