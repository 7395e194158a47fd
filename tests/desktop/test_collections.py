"""Collections' plans and quotas, deleting a collection with its jobs, and pausing every job,
through the window (issue 16), step by step on one data directory: a collection made with plan
Standard and at most 5 jobs; a quota of 0 refused next to its field, then the plan edited; the
collection deleted with its jobs after a confirmation that counts them; pause all, resume all
(the `paused` setting the tray runner reads)."""

from __future__ import annotations

import sqlite3

import pytest

from conftest import invoke, wait_for

pytestmark = pytest.mark.incremental

ITEM = 'li[data-testid="collection-{}"]'


def paused_setting(data_dir) -> str | None:
    with sqlite3.connect(f"file:{data_dir / 'kairos.db'}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM settings WHERE key = 'paused'").fetchone()
    return row[0] if row else None


def test_a_a_collection_is_created_with_plan_standard_and_five_jobs_at_most(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    ui.click("#new-collection")
    ui.type("#new-collection-name", "ops")
    ui.select("#new-collection-plan", "Standard")
    # A bad quota first: the engine's refusal, next to the field; nothing is created.
    ui.type("#new-collection-max-job-count", "0")
    ui.click("#new-collection-create")
    error = ui.wait_text("#new-collection-max-job-count-error", lambda t: "at least 1" in t,
                         "to say the quota must be at least 1")
    assert "got 0" in error, error
    assert ui.find("#new-collection-max-job-count").get_attribute("aria-invalid") == "true"
    assert not ui.all(ITEM.format("ops"))
    ui.type("#new-collection-max-job-count", "5")
    ui.click("#new-collection-create")
    ui.wait_text(ITEM.format("ops"), lambda t: "Standard" in t and "0 / 5" in t,
                 "to show plan Standard with 0 of 5 jobs")
    wait_for(lambda: ui.hash().endswith("local%2Fdesktop%2Fops") or ui.hash().endswith("local/desktop/ops"),
             15, "the new collection to open")


def test_b_the_quota_is_enforced_and_the_plan_edited(driver, ui):
    job = {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
           "recurrence": {"frequency": "Day", "interval": 1}}
    for n in range(5):
        invoke(driver, "save_job", {"collection": "local/desktop/ops", "name": f"job{n}",
                                    "properties": job, "create": True})
    with pytest.raises(AssertionError, match="Conflict"):
        invoke(driver, "save_job", {"collection": "local/desktop/ops", "name": "job5",
                                    "properties": job, "create": True})
    ui.wait_text(ITEM.format("ops"), lambda t: "5 / 5" in t, "to count 5 of 5 jobs")
    ui.click("#collection-menu")  # the collection page's "…" menu
    ui.click("#collection-edit")
    ui.find("#edit-collection[open]")
    wait_for(lambda: ui.find("#edit-collection-max-job-count").get_property("value") == "5", 15,
             "the dialog to show the quota")
    # Free allows 5 jobs, none more often than hourly: these are daily, but a second quota error
    # first: an interval below 1, on its field.
    ui.select("#edit-collection-max-recurrence-frequency", "Hour")
    ui.type("#edit-collection-max-recurrence-interval", "-1")
    ui.click("#edit-collection-save")
    ui.wait_text("#edit-collection-max-recurrence-interval-error", lambda t: "at least 1" in t,
                 "to refuse an interval below 1")
    ui.type("#edit-collection-max-recurrence-interval", "")
    ui.select("#edit-collection-max-recurrence-frequency", "")
    ui.type("#edit-collection-max-job-count", "")
    ui.select("#edit-collection-plan", "P10Premium")
    ui.click("#edit-collection-save")
    ui.gone("#edit-collection[open]")
    ui.wait_text(ITEM.format("ops"), lambda t: "P10Premium" in t and "5 / 50" in t,
                 "to show plan P10Premium with its 50 jobs")


def test_c_the_collection_is_deleted_with_its_jobs_after_the_confirmation(driver, ui):
    ui.click("#collection-menu")
    ui.click("#collection-delete")
    ui.find("#delete-collection[open]")
    assert ui.text("#delete-collection-question") == "Delete 'ops' and its 5 jobs?"
    ui.click("#delete-collection-confirm")
    ui.gone("#delete-collection[open]")
    wait_for(lambda: not ui.all(ITEM.format("ops")), 15, "the collection to leave the sidebar")
    assert invoke(driver, "list_collections", {}) == []


def test_d_pause_all_then_resume_all(driver, ui, data_dir):
    button = ui.find("#pause-all")
    assert button.get_attribute("aria-pressed") == "false", button.text
    ui.click("#pause-all")
    wait_for(lambda: ui.find("#pause-all").get_attribute("aria-pressed") == "true", 15, "the button to show paused")
    assert "Resume" in ui.text("#pause-all")
    assert paused_setting(data_dir) == "true"
    assert invoke(driver, "get_paused", {}) is True
    ui.click("#pause-all")
    wait_for(lambda: ui.find("#pause-all").get_attribute("aria-pressed") == "false", 15, "the button to show running")
    assert paused_setting(data_dir) == "false"
