"""Self-update, for real (issue 32): the installed Kairos (the .deb scripts/update-e2e.sh built
and installed) finds a newer signed .deb on a loopback feed, downloads it, verifies it, installs
it and comes back as the new version, window and tray runner, with its jobs, history and settings;
and refuses a bad signature, a truncated download, a feed that is not JSON and an older version,
staying as it was. Everything is checked from outside too: dpkg's database, /proc, the database
file, the requests the job sent."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from release_feed import FILES, NEW, OLD, Feed, installed_version

from kairos_desktop_conftest import (OUT, REFUSAL_BOX, TEST_NOW, atspi_or_none, invoke, now, pid_alive, refusal_box,
                                     stop_pid, wait_for)

pytestmark = pytest.mark.incremental

WINDOW = Path("/usr/bin/kairos-desktop")
TRAY = Path("/usr/bin/kairos-tray")


def exe(pid: int) -> str:
    """The program a process runs; ' (deleted)' once its file was replaced."""
    return os.readlink(f"/proc/{pid}/exe")


def start_time(pid: int) -> float:
    """When the process started, as seconds since boot (field 22 of /proc/pid/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[19]) / os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def feed():
    f = Feed()
    yield f
    f.server.shutdown()


class State:
    schema = 0
    collection = ""
    tray_pid = 0
    window_pid = 0
    job_created_at = 0.0
    history_before = 0
    updated_at = 0.0


def test_installed_old_version_starts_and_its_offline_start_check_says_nothing(driver, ui, app):
    assert installed_version() == OLD, "scripts/update-e2e.sh installs the old .deb first"
    State.schema = schema(app)
    assert State.schema > 0
    State.window_pid = app.window_pids()[0]
    assert exe(State.window_pid) == str(WINDOW), "the window runs from the installed package"
    State.tray_pid = app.wait_tray_runner()
    assert exe(State.tray_pid) == str(TRAY)
    # The automatic check at start reads the release's own feed, which this offline machine
    # cannot reach: it logs that and shows nothing (no dialog, no error toast).
    wait_for(lambda: "offline: no update check" in app.log.read_text(errors="replace"), 90,
             f"the start-up check to find the machine offline (log {app.log})")
    assert not ui.all("[data-testid=update-dialog]"), "an offline start showed an update dialog"
    assert not ui.all("[role=alert]"), "an offline start showed an error"


def test_a_job_fires_every_minute(driver, ui, app, target):
    State.collection = invoke(driver, "create_collection", {"name": "updates"})["id"]
    start = now().replace(second=0, microsecond=0) - timedelta(minutes=1)
    props = {"startTime": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
             "action": {"type": "Http", "request": {"uri": f"{target.url}/tick", "method": "GET"}},
             "recurrence": {"frequency": "Minute", "interval": 1}}
    invoke(driver, "save_job", {"collection": State.collection, "name": "every-minute",
                                "properties": props, "create": True})
    State.job_created_at = time.time()
    wait_for(lambda: target.received(method="GET"), 75, "the every-minute job's first request")


def open_settings(ui):
    if ui.hash() != "#/settings":
        ui.click("#open-settings")
        wait_for(lambda: ui.hash() == "#/settings", 10, "the settings page")


def use_feed(ui, feed, case: str):
    open_settings(ui)
    ui.type("[data-testid=update-feed-url]", f"{feed.url}/{case}/latest.json")
    ui.click("[data-testid=update-save]")
    wait_for(lambda: ui.find("[data-testid=update-feed-url]").get_property("value")
             == f"{feed.url}/{case}/latest.json", 10, "the feed URL to be saved")


def check_now(ui):
    ui.click("[data-testid=check-updates]")


def status_kind(ui, want: str, timeout: float = 60) -> str:
    return wait_for(lambda: (el := ui.find("[data-testid=update-status]")) and
                    el.get_attribute("data-kind") == want and el.text, timeout,
                    f"the update status to be {want!r}")


def still_old(app):
    assert installed_version() == OLD, "a refused update changed the installed package"
    assert app.tray_runner_pids() == [State.tray_pid], "a refused update touched the tray runner"
    assert exe(State.tray_pid) == str(TRAY), "the tray runner's program was replaced"


def test_a_feed_that_is_not_json_is_refused(driver, ui, app, feed):
    use_feed(ui, feed, "notjson")
    check_now(ui)
    text = status_kind(ui, "UpdateFeedInvalid")
    assert "JSON" in text or "feed" in text.lower(), text
    still_old(app)


def test_an_older_version_in_the_feed_is_refused(driver, ui, app, feed):
    use_feed(ui, feed, "older")
    check_now(ui)
    text = status_kind(ui, "older")
    assert "0.0.9" in text and OLD in text, f"the message names both versions: {text!r}"
    assert not ui.all("[data-testid=update-dialog]")
    still_old(app)


def install_and_expect(ui, code: str):
    dialog = ui.find("[data-testid=update-dialog]", timeout=60)
    assert NEW in dialog.text, f"the dialog offers {NEW}: {dialog.text!r}"
    ui.click("[data-testid=update-install]")
    error = wait_for(lambda: (el := ui.find("[data-testid=update-error]")) and
                     el.get_attribute("data-code"), 120, f"the install to fail with {code}")
    assert error == code, f"expected {code}, the dialog says {error}"
    assert "nothing" in ui.find("[data-testid=update-error]").text.lower(), "the sentence says nothing was installed"
    ui.click("[data-testid=update-close]")
    ui.gone("[data-testid=update-dialog]")


def test_a_download_with_another_keys_signature_is_refused(driver, ui, app, feed):
    use_feed(ui, feed, "badsig")
    check_now(ui)
    install_and_expect(ui, "UpdateSignatureInvalid")
    assert any(h.startswith("/other/") and h.endswith(".deb") for h in feed.hits), \
        "the file was downloaded before it was refused"
    still_old(app)


def test_a_truncated_download_is_refused(driver, ui, app, feed):
    use_feed(ui, feed, "truncated")
    check_now(ui)
    install_and_expect(ui, "UpdateDownloadFailed")
    still_old(app)


def schema(app) -> int:
    with sqlite3.connect(f"file:{app.data_dir / 'kairos.db'}?mode=ro", uri=True) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def as_root(*argv: str) -> list[str]:
    return list(argv) if os.geteuid() == 0 else ["sudo", *argv]


def history_count(app) -> int:
    with sqlite3.connect(f"file:{app.data_dir / 'kairos.db'}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM history").fetchone()[0]


def test_the_update_installs_and_both_programs_come_back_new(driver, ui, app, feed, target):
    State.history_before = history_count(app)
    assert State.history_before >= 1
    use_feed(ui, feed, "good")
    check_now(ui)
    dialog = ui.find("[data-testid=update-dialog]", timeout=60)
    assert NEW in dialog.text and "Line two of the notes." in dialog.text, dialog.text
    old_window, old_tray = State.window_pid, State.tray_pid
    ui.click("[data-testid=update-install]")
    # The window installs, then ends and starts again as the new version; it is no longer the
    # WebDriver session's, so from here on it is watched from outside.
    wait_for(lambda: installed_version() == NEW, 180, f"dpkg to show kairos {NEW}")
    State.updated_at = time.time()
    new_window = wait_for(lambda: [p for p in app.window_pids() if p != old_window], 60,
                          "a new window process")[0]
    assert not pid_alive(old_window) or wait_for(lambda: not pid_alive(old_window), 30,
                                                 "the old window to exit")
    assert exe(new_window) == str(WINDOW), f"the new window runs {exe(new_window)}"
    new_tray = wait_for(lambda: [p for p in app.tray_runner_pids() if p != old_tray], 60,
                        "a new tray runner")[0]
    assert not pid_alive(old_tray), "the old tray runner is still running"
    assert exe(new_tray) == str(TRAY), f"the tray runner runs {exe(new_tray)}, not the new program"
    assert app.tray_runner_pids() == [new_tray], "one tray runner"
    log = app.log.read_text(errors="replace")
    assert "handing over" in log, "the old tray runner stopped cleanly for the update"
    State.window_pid, State.tray_pid = new_window, new_tray


def test_jobs_history_and_settings_survived(app, feed):
    with sqlite3.connect(f"file:{app.data_dir / 'kairos.db'}?mode=ro", uri=True) as db:
        jobs = [r[0] for r in db.execute("SELECT name FROM jobs")]
        feed_url = db.execute("SELECT value FROM settings WHERE key = 'desktop.updates.feedUrl'").fetchone()
    assert jobs == ["every-minute"], jobs
    assert history_count(app) >= State.history_before
    assert feed_url == (f"{feed.url}/good/latest.json",)


def test_no_occurrence_was_lost_or_sent_twice(app, target):
    def expected_times():
        return sorted(datetime.fromisoformat(r.headers["x-ms-scheduler-expected-execution-time"]
                                             .replace("Z", "+00:00"))
                      for r in target.received(method="GET"))
    # One occurrence after the update, fired by the new tray runner.
    wait_for(lambda: any(r.at > State.updated_at for r in target.received(method="GET")), 90,
             "the new tray runner to fire the job")
    times = expected_times()
    assert len(times) == len(set(times)), f"an occurrence was sent twice: {times}"
    gaps = [b - a for a, b in zip(times, times[1:]) if b - a != timedelta(minutes=1)]
    assert not gaps, f"an occurrence is missing: {times}"


def test_the_new_version_migrated_the_database_forward_once(app):
    # The new version's schema is one step newer (scripts/update-e2e.sh adds a table to it).
    assert schema(app) == State.schema + 1
    with sqlite3.connect(f"file:{app.data_dir / 'kairos.db'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'update_e2e_probe'").fetchone()


def test_the_new_version_quits_cleanly(app):
    # The restarted window is not WebDriver's: end it (and the runner) here, as a user would quit.
    for pid in app.window_pids() + app.tray_runner_pids():
        stop_pid(pid)
    assert not app.window_pids() and not app.tray_runner_pids()


def test_the_old_version_installed_again_refuses_the_newer_database_and_changes_nothing(app):
    subprocess.run(as_root("apt-get", "install", "-y", "-q", "--allow-downgrades",
                           str(FILES / "old.deb")), check=True, capture_output=True)
    assert installed_version() == OLD
    database = app.data_dir / "kairos.db"
    # What the stopped programs left in the WAL goes into the file first, so the bytes compared
    # are the whole database.
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    env = dict(os.environ, KAIROS_DATA_DIR=str(app.data_dir), KAIROS_TEST_NOW=TEST_NOW)
    with open(OUT / "downgrade.log", "wb") as log:
        proc = subprocess.Popen([str(WINDOW)], env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
    try:
        texts = refusal_box(proc.pid, "Kairos cannot start")
        assert "newer version of Kairos" in texts and f"schema {State.schema + 1}" in texts, texts
        assert not app.tray_runner_pids(), "the refused old version started a tray runner"
        assert atspi_or_none("press", proc.pid, REFUSAL_BOX, "OK") is not None
        assert proc.wait(20) == 1
    finally:
        if proc.poll() is None:
            stop_pid(proc.pid)
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before, "the refused database changed"
    assert schema(app) == State.schema + 1
