"""Undoable deletion in the real window (docs/semantics.md "Undoable deletion (the window)"),
through the window's own IPC commands, step by step: a selection of jobs deleted with one
ticket leaves the jobs table and comes back with Undo as it was (its history and its stored
secret included); a collection deleted and not undone is gone for good once its window ends
(`UndoExpired`), while the tray runner keeps running. One step goes through the window's own
controls: the selection's Delete, then the toast's Undo."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from conftest import free_port, invoke, wait_for
from conftest import now as clock_now

pytestmark = pytest.mark.incremental

COLLECTION = "default"
COLLECTION_ID = f"local/desktop/{COLLECTION}"
ROW = 'tr[data-testid="job-row-{}"]'
SECRET, FAILING, KEPT = "with-secret", "failing", "kept"
PASSWORD_PATH = "properties.action.request.authentication.password"


def failure(driver, command: str, args: dict) -> dict:
    """Call a command that must fail; returns its CommandError."""
    out = driver.execute_async_script(
        "const [cmd, args, done] = arguments;"
        "window.__TAURI_INTERNALS__.invoke(cmd, args).then(r => done({ok: r}), e => done({err: e}));",
        command, args)
    assert "err" in out, f"{command} should have failed: {out}"
    return out["err"]


def rows(ui) -> set[str]:
    return {r.get_attribute("data-testid").removeprefix("job-row-") for r in ui.all('tr[data-testid^="job-row-"]')}


def history(driver, name: str) -> dict:
    return invoke(driver, "history_page", {"request": {
        "collection": COLLECTION_ID, "job": name, "query": {}, "skip": 0, "top": None, "started": None}})


def test_a_collection_with_three_jobs(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    ui.click("#create-default-collection")
    ui.wait_text("#jobs-title", lambda t: t == COLLECTION, f"to be {COLLECTION!r}")
    closed = free_port()  # nothing listens there: a run fails at once
    action = {"type": "Http", "request": {"uri": f"http://127.0.0.1:{closed}/", "method": "GET"},
              "retryPolicy": {"retryType": "None"}}
    daily = {"frequency": "Day", "interval": 1, "schedule": {"hours": [23], "minutes": [59]}}
    secret = {**action, "request": {**action["request"], "authentication": {
        "type": "Basic", "username": "ops", "password": "never-shown"}}}
    # Starting tomorrow: a recurring job without a startTime also runs once when created, and
    # only the run below may make history.
    start = (clock_now() + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    for name, act in ((SECRET, secret), (FAILING, action), (KEPT, action)):
        invoke(driver, "save_job", {"collection": COLLECTION_ID, "name": name, "create": True,
                                    "properties": {"action": act, "recurrence": daily,
                                                   "startTime": start.isoformat().replace("+00:00", "Z")}})
    invoke(driver, "run_job_now", {"collection": COLLECTION_ID, "name": FAILING})
    wait_for(lambda: history(driver, FAILING)["total"] == 1, 60,
             f"the Failed record of {FAILING} (run now against a closed port)")
    wait_for(lambda: rows(ui) == {SECRET, FAILING, KEPT}, 15, "the three jobs in the table",
             describe=lambda: rows(ui))


def test_b_a_selection_deleted_and_undone_comes_back_as_it_was(driver, ui):
    before = {name: (invoke(driver, "get_job", {"collection": COLLECTION_ID, "name": name}), history(driver, name))
              for name in (SECRET, FAILING)}
    assert before[SECRET][0]["secretsSet"] == [PASSWORD_PATH]
    ticket = invoke(driver, "delete_jobs", {"collection": COLLECTION_ID, "names": [SECRET, FAILING]})
    assert ticket["undoSeconds"] >= 8
    until = datetime.fromisoformat(ticket["until"].replace("Z", "+00:00"))
    assert 0 < (until - clock_now()).total_seconds() <= ticket["undoSeconds"], (ticket, clock_now())
    wait_for(lambda: rows(ui) == {KEPT}, 15, "the table without the deleted jobs", describe=lambda: rows(ui))
    pending = invoke(driver, "pending_deletions", {})
    assert [(p["ticket"]["token"], sorted(p["jobs"])) for p in pending] == [(ticket["token"], sorted([SECRET, FAILING]))]

    undone = invoke(driver, "undo_deletion", {"token": ticket["token"]})
    assert (undone["collection"], undone["wholeCollection"]) == (COLLECTION_ID, False)
    wait_for(lambda: rows(ui) == {SECRET, FAILING, KEPT}, 15, "the jobs back in the table", describe=lambda: rows(ui))
    after = {name: (invoke(driver, "get_job", {"collection": COLLECTION_ID, "name": name}), history(driver, name))
             for name in (SECRET, FAILING)}
    assert after == before, "definitions, state, counters, history and the stored secret as they were"
    assert invoke(driver, "pending_deletions", {}) == []


def test_bb_the_toasts_undo_brings_a_deleted_selection_back(driver, ui):
    """The same through the window's own controls: the selection's Delete, then the toast's Undo."""
    ui.click('input[aria-label="Select all shown jobs"]')
    ui.click("#bulk-delete")
    ui.click("#confirm-bulk-delete-yes")
    wait_for(lambda: rows(ui) == set(), 15, "the table without the deleted jobs", describe=lambda: rows(ui))
    ui.wait_text("#toast .toast-text", lambda t: t == "Deleted 3 jobs", "to say what went")
    [pending] = invoke(driver, "pending_deletions", {})
    assert sorted(pending["jobs"]) == sorted([SECRET, FAILING, KEPT]), "one ticket for the selection"
    ui.click("#toast-action")
    ui.wait_text("#toast .toast-text", lambda t: t == "Restored 3 jobs", "to say they are back")
    wait_for(lambda: rows(ui) == {SECRET, FAILING, KEPT}, 15, "the jobs back in the table", describe=lambda: rows(ui))
    assert invoke(driver, "pending_deletions", {}) == []
    assert invoke(driver, "get_job", {"collection": COLLECTION_ID, "name": SECRET})["secretsSet"] == [PASSWORD_PATH]


def test_c_a_collection_not_undone_is_gone_once_its_window_ends(driver, ui):
    ticket = invoke(driver, "delete_collection", {"collection": COLLECTION_ID})
    wait_for(lambda: COLLECTION_ID not in [c["id"] for c in invoke(driver, "list_collections", {})], 10,
             "the collection gone from the list")
    until = datetime.fromisoformat(ticket["until"].replace("Z", "+00:00"))
    # The window's clock and the suite's are one (conftest.now): wait for it to pass `until`.
    wait_for(lambda: clock_now() > until, ticket["undoSeconds"] + 5, f"the undo window to end at {until}")
    err = failure(driver, "undo_deletion", {"token": ticket["token"]})
    assert err["code"] == "UndoExpired", err
    assert COLLECTION_ID not in [c["id"] for c in invoke(driver, "list_collections", {})]
    assert invoke(driver, "pending_deletions", {}) == []
    assert failure(driver, "list_jobs", {"collection": COLLECTION_ID})["code"] == "ResourceNotFound"
