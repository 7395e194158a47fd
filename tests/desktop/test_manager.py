"""The job manager (issue 16), step by step on one data directory: three jobs made through the
window's own IPC commands, then a selection of them enabled, run now, exported ("Export (2)…")
and deleted from the jobs table; for the job never run (so the runner's pruning to 1,000 never
touches it) a history longer than the runner's 1,000 records (seeded into the database) paged to
its end in the history view; and a run the target holds, shown live ("Running … since") in its
history until the target answers and its result takes its place.

The jobs call the module's loopback target; "Run now" is proven by the requests the target
receives. The history's records are written straight into the app's SQLite file in one short
transaction (the runner keeps 1,000 per job, so making 2,500 by running would take hours)."""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import timedelta

import pytest

from conftest import now as clock_now
from conftest import invoke, wait_for

pytestmark = pytest.mark.incremental

COLLECTION = "manager"
COLLECTION_ID = f"local/desktop/{COLLECTION}"
JOBS = ("m-one", "m-two", "m-three")
ROW = 'tr[data-testid="job-row-{}"]'
SEEDED = 2_500
HOUR_MS = 3_600_000
# 2026-07-01T00:00:00Z: the seeded runs are hourly from then, oldest first.
BASE_MS = 1_782_864_000_000


def select(ui, *names: str) -> None:
    for name in names:
        ui.click(ROW.format(name) + " input[data-select]")
    ui.wait_text("#selection-label", lambda t: t == f"{len(names)} jobs selected", "to count the selection")


def states(driver) -> dict[str, str]:
    return {j["name"]: j["state"] for j in invoke(driver, "list_jobs", {"collection": COLLECTION_ID})}


def test_a_three_disabled_jobs(driver, ui, target):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    invoke(driver, "create_collection", {"name": COLLECTION, "plan": None})
    # Daily from a year ahead (the engine accepts at most 18 months): nothing runs on its own.
    start = (clock_now() + timedelta(days=365)).strftime("%Y-%m-%dT00:00:00Z")
    for name in JOBS:
        invoke(driver, "save_job", {"collection": COLLECTION_ID, "name": name, "create": True, "properties": {
            "startTime": start, "state": "Disabled",
            "action": {"type": "Http", "request": {"uri": f"{target.url}/{name}", "method": "POST"}},
            "recurrence": {"frequency": "Day", "interval": 1}}})
    ui.click(f'[data-testid="collection-{COLLECTION}"] a')
    ui.wait_text("#jobs-title", lambda t: t == COLLECTION, "the collection's jobs")
    for name in JOBS:
        assert ui.find(ROW.format(name) + " td.state").text == "Disabled"


def test_b_bulk_enable(driver, ui):
    select(ui, "m-one", "m-two")
    ui.click("#bulk-enable")
    for name in ("m-one", "m-two"):
        wait_for(lambda n=name: ui.find(ROW.format(n) + " td.state").text == "Enabled", 15, f"{name} to be enabled")
    assert states(driver) == {"m-one": "Enabled", "m-two": "Enabled", "m-three": "Disabled"}


def test_c_bulk_run_now(driver, ui, target):
    started = time.time()
    select(ui, "m-two", "m-three")
    ui.click("#bulk-run")
    for name in ("m-two", "m-three"):
        wait_for(lambda n=name: target.received(job=n, after=started), 60,
                 f"the target to receive {name}'s run now")
    assert not target.received(job="m-one", after=started), "m-one was not selected"
    # The table shows their results, and the selection is cleared (the next step starts from a
    # table that no longer changes under its clicks).
    for name in ("m-two", "m-three"):
        ui.wait_text(ROW.format(name) + " td.last-result", lambda t: "never run" not in t, f"{name}'s last result")
    assert "never run" in ui.text(ROW.format("m-one") + " td.last-result")
    ui.wait_text("#selection-label", lambda t: t == "No job selected", "to say nothing is selected after the run")


def test_d_bulk_export_of_the_selection(driver, ui, tmp_path):
    select(ui, "m-one", "m-three")
    ui.wait_text("#bulk-export", lambda t: t == "Export (2)…", "the export button to count the selection")
    ui.click("#bulk-export")
    ui.find("#export-dialog[open]")
    ui.select("#export-format", "Bundle")
    bundle = tmp_path / "selection.json"
    ui.type("#export-path", str(bundle))
    ui.click("#export-submit")
    ui.wait_text("#export-done", lambda t: str(bundle) in t, "to say where the bundle was saved")
    doc = json.loads(bundle.read_text())
    [collection] = doc["collections"]
    names = sorted(j["name"].split("/")[-1] for j in collection["jobs"])
    assert names == ["m-one", "m-three"], names
    ui.click("#export-close")
    ui.gone("#export-dialog[open]")
    # The selection stays for the next step: clear it.
    for name in ("m-one", "m-three"):
        ui.click(ROW.format(name) + " input[data-select]")
    ui.wait_text("#selection-label", lambda t: t == "No job selected", "the selection to be cleared")


def test_e_bulk_delete_after_the_confirmation(driver, ui):
    select(ui, "m-two", "m-three")
    ui.click("#bulk-delete")
    ui.wait_text("#confirm-bulk-delete-text", lambda t: "Delete 2 jobs?" in t, "to ask about 2 jobs")
    ui.click("#confirm-bulk-delete-yes")
    for name in ("m-two", "m-three"):
        ui.gone(ROW.format(name))
    assert list(states(driver)) == ["m-one"]


def seed_history(data_dir, job: str) -> None:
    with sqlite3.connect(data_dir / "kairos.db", timeout=10) as db:
        (job_id,) = db.execute(
            "SELECT j.id FROM jobs j JOIN collections c ON c.id = j.collection_id WHERE j.name = ? AND c.name = ?",
            (job, COLLECTION)).fetchone()
        db.executemany(
            "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message,"
            " retry_count, repeat_count) VALUES (?, ?, ?, ?, 'MainAction', ?, ?, 0, ?)",
            [(job_id, BASE_MS + i * HOUR_MS, BASE_MS + i * HOUR_MS + 200, BASE_MS + i * HOUR_MS,
              "Failed" if i % 10 == 0 else "Completed", f"seeded run {i}", i + 1) for i in range(SEEDED)])


def test_f_history_pages_past_1000_records(driver, ui, data_dir):
    seed_history(data_dir, "m-one")
    ui.click(ROW.format("m-one") + " input[data-select]")
    ui.click("#open-history")
    wait_for(lambda: ui.hash().endswith("/history"), 15, "the history page")
    ui.wait_text("#history-range", lambda t: t == "Records 1–100 of 2,500", "to show the first page")
    assert len(ui.all('[data-testid="occurrence"]')) <= 100, "one page in the DOM"
    pages = 1
    while ui.find("#history-older").is_enabled():
        before = ui.text("#history-range")
        ui.click("#history-older")
        ui.wait_text("#history-range", lambda t, b=before: t != b, "to move to the next page")
        pages += 1
        assert pages <= 30, "the pages end"
    last = ui.text("#history-range")
    assert last.endswith("–2,500 of 2,500"), last
    assert pages >= 25, pages
    runs = ui.all('[data-testid="occurrence"]')
    assert len(runs) <= 100
    assert "seeded run 0" in runs[-1].text, runs[-1].text

    # The engine filters: the failed seeded runs are one in ten.
    ui.select("#history-filter", "Failed")
    ui.wait_text("#history-range", lambda t: t == "Records 1–100 of 250", "to count the failed runs")


def test_g_a_run_in_progress_shows_live_then_its_result(driver, ui, target):
    release = target.hold("/m-slow")
    try:
        start = (clock_now() + timedelta(days=365)).strftime("%Y-%m-%dT00:00:00Z")
        invoke(driver, "save_job", {"collection": COLLECTION_ID, "name": "m-slow", "create": True, "properties": {
            "startTime": start,
            "action": {"type": "Http", "request": {"uri": f"{target.url}/m-slow", "method": "POST"},
                       "retryPolicy": {"retryType": "None"}},
            "recurrence": {"frequency": "Day", "interval": 1}}})
        driver.execute_script("location.hash = arguments[0]", f"#/c/{COLLECTION_ID.replace('/', '%2F')}/j/m-slow/history")
        ui.wait_text("#history .empty-state", lambda t: "No runs yet" in t, "the empty history of m-slow")
        invoke(driver, "run_job_now", {"collection": COLLECTION_ID, "name": "m-slow"})
        wait_for(lambda: target.received(job="m-slow"), 60, "the target to receive m-slow's run (held)")
        running = ui.wait_text("#history-running", lambda t: "Running" in t and "since" in t,
                               "the held run to show live")
        assert "run of" in running, running
        assert not ui.all('[data-testid="occurrence"]'), "no result yet"
    finally:
        release.set()
    ui.gone("#history-running", timeout=30)
    result = ui.wait_text('[data-testid="occurrence"]', lambda t: "Completed" in t,
                          "the finished run's result in its place", timeout=30)
    assert "200" in result, result
