"""The desktop scenario, step by step on one window and one data directory: a collection, a job
built with the recurrence builder (and its live preview), Run now and the history, a fault
notification whose click opens the history, and the tray runner that keeps firing jobs after the
window is closed until it is quit from its tray menu."""

from __future__ import annotations

import calendar
import sqlite3
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import now as clock_now
from conftest import (emit_action_invoked, notifications, pid_alive, screenshot, stop_pid, tray_bus_name,
                      tray_click, tray_menu, wait_for)

pytestmark = pytest.mark.incremental

COLLECTION = "default"
JOB = "month-end-report"
MINUTELY = "every-minute"
REMINDER = "stand-up-reminder"
ROW = 'tr[data-testid="job-row-{}"]'


def last_fridays_at_0515(now: datetime, count: int) -> list[datetime]:
    """The next `count` last-Fridays-of-the-month at 05:15 UTC after `now`."""
    out, year, month = [], now.year, now.month
    while len(out) < count:
        last_day = calendar.monthrange(year, month)[1]
        day = max(d for d in range(last_day - 6, last_day + 1) if calendar.weekday(year, month, d) == calendar.FRIDAY)
        at = datetime(year, month, day, 5, 15, tzinfo=timezone.utc)
        if at > now:
            out.append(at)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def preview_local(at: datetime) -> str:
    """How the preview lists a run (src-tauri/src/preview.rs: "%a %-d %b %Y %H:%M:%S")."""
    return f"{at:%a} {at.day} {at:%b %Y %H:%M:%S}"


def calendar_state(ui) -> tuple[str, set[int]]:
    title = ui.find("#preview-month-title").text
    days = {int(td.get_attribute("data-day")) for td in ui.all("#preview-calendar td.run[data-day]")}
    return title, days


def open_collection(ui):
    ui.click(f'[data-testid="collection-{COLLECTION}"] a')
    wait_for(lambda: ui.hash().startswith("#/c/") and ui.hash().count("/") == 2, 10,
             "the collection's page (#/c/<collection>)")


def select_job(ui, name: str):
    """Makes `name` the one selected row (the table selects several with its checkboxes)."""
    for row in ui.all('#jobs-table tbody tr[aria-selected="true"]'):
        if row.get_attribute("data-testid") != f"job-row-{name}":
            row.find_element("css selector", "input[data-select]").click()
    if ui.find(ROW.format(name)).get_attribute("aria-selected") != "true":
        ui.click(ROW.format(name) + " input[data-select]")
    wait_for(lambda: ui.find(ROW.format(name)).get_attribute("aria-selected") == "true", 10, f"{name} to be selected")
    wait_for(lambda: ui.find("#run-now").is_enabled(), 10, "#run-now to be enabled for the selected job")


def test_a_window_opens_and_default_collection(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    wait_for(lambda: ui.all("#create-default-collection") or ui.all(f'[data-testid="collection-{COLLECTION}"]'), 15,
             "the empty state's create button or the collection in the sidebar")
    if ui.all(f'[data-testid="collection-{COLLECTION}"]'):
        open_collection(ui)
    else:
        assert "No job collections yet" in ui.text("#main")
        ui.click("#create-default-collection")
    item = ui.find(f'[data-testid="collection-{COLLECTION}"]')
    assert item.find_element("css selector", ".collection-name").text == COLLECTION
    wait_for(lambda: "current" in (item.get_attribute("class") or ""), 10, "the new collection to be the current one")
    ui.wait_text("#jobs-title", lambda t: t == COLLECTION, f"to be {COLLECTION!r}")
    ui.wait_text("#main .empty-state", lambda t: f"No jobs in {COLLECTION}" in t, "to say the collection has no jobs")
    screenshot(driver, "jobs-empty.png")


def test_b_builder_preview_and_save(driver, ui, target):
    ui.click("#new-job")
    wait_for(lambda: ui.hash().endswith("/new"), 10, "the new-job editor (#/c/<collection>/new)")
    ui.type("#job-name", JOB)
    ui.select("#action-type", "Http")
    ui.select("#http-method", "POST")
    # Bad input: the engine's own rule shows next to the field, and goes once fixed.
    ui.type("#http-uri", "not a url")
    error = '.field-error[data-path="properties.action.request.uri"]'
    ui.wait_text(error, lambda t: len(t) > 10, "to explain what is wrong with the URI")
    wait_for(lambda: ui.find("#http-uri").get_attribute("aria-invalid") == "true", 10, "#http-uri marked invalid")
    ui.type("#http-uri", f"{target.url}/month-end")
    wait_for(lambda: not ui.all(error), 10, "the URI error to go once the URI is valid")
    # No retries, so that step d's failure faults at once (the default retries 4 times, 30 s apart).
    ui.select("#retry-type", "None")
    if not ui.find("#rec-enabled").is_selected():
        ui.click("#rec-enabled")
    ui.select("#rec-frequency", "Month")
    before = ui.text("#preview-sentence")

    ui.select("#nth-occurrence", "-1")
    ui.select("#nth-day", "Friday")
    ui.click("#nth-add")
    ui.find('[data-testid="nth--1-Friday"]')
    hour = ui.click('[data-testid="hour-5"]')
    wait_for(lambda: hour.get_attribute("aria-pressed") == "true", 5, "hour chip 05 to be pressed")
    ui.type("#rec-minutes", "15")

    sentence = ui.wait_text("#preview-sentence",
                            lambda t: t != before and "last friday" in t.lower() and "05:15" in t,
                            "to describe the last Friday at 05:15", timeout=15)
    # A new job starts now (the editor fills in the start time), so it does not also run once at
    # creation: the runs listed are the coming last Fridays.
    assert "when created" not in sentence.lower(), sentence
    # The page reads the clock the engine reads (KAIROS_TEST_NOW shifts its Date too).
    page_now = driver.execute_script("return Date.now()") / 1000
    assert abs(page_now - clock_now().timestamp()) < 5, (page_now, clock_now())
    expected = last_fridays_at_0515(clock_now(), 3)
    want = [preview_local(at) for at in expected]

    def shown_runs():
        return ui.find("#preview-runs").get_attribute("class"), [li.text for li in ui.all("#preview-runs li")]

    def runs_match():
        cls, items = shown_runs()
        return ("stale" not in cls and len(items) >= len(want)
                and all(i.startswith(w) for i, w in zip(items, want)) and items)
    runs = wait_for(runs_match, 15, f"#preview-runs to start with {want}", describe=shown_runs)
    assert len(runs) == 10, f"the preview lists 10 runs by default, got {runs}"

    def marked(at: datetime) -> tuple[str, set[int]]:
        """The calendar of `at`'s month: its title and the days with a run."""
        return f"{at:%B %Y}", {d.day for d in expected if (d.year, d.month) == (at.year, at.month)}
    # The calendar opens on the month of the first run (src-tauri/src/preview.rs), which is next
    # month once this month's last Friday at 05:15 has passed.
    first_month = expected[0].replace(day=1)
    next_month = (first_month + timedelta(days=32)).replace(day=1)
    first, second = marked(first_month), marked(next_month)
    wait_for(lambda: calendar_state(ui) == first, 10, f"the calendar to show {first}", describe=lambda: calendar_state(ui))
    ui.click("#preview-month-next")
    wait_for(lambda: calendar_state(ui) == second, 10, f"the calendar to show {second}", describe=lambda: calendar_state(ui))
    ui.click("#preview-month-prev")
    wait_for(lambda: calendar_state(ui) == first, 10, f"the calendar back on {first}", describe=lambda: calendar_state(ui))
    assert not ui.all(".field-error"), f"no field errors: {[e.text for e in ui.all('.field-error')]}"
    driver.execute_script("document.getElementById('rec-nth').scrollIntoView({block: 'center'})")
    screenshot(driver, "builder.png")

    ui.click("#save-job")
    wait_for(lambda: ui.hash().endswith(f"/j/{JOB}"), 15, f"the saved job's page (#/c/<collection>/j/{JOB})")
    ui.wait_text("#toast", lambda t: f"Saved {JOB}" in t, "to confirm the save")
    open_collection(ui)
    row = ROW.format(JOB)
    ui.find(row)
    assert ui.text(f"{row} .state") == "Enabled"
    assert "last Friday" in ui.text(f"{row} .schedule"), sentence
    assert ui.text(f"{row} .executions") == "0", "nothing ran at creation"
    wait_for(lambda: datetime.fromisoformat(ui.find(f"{row} .next-run time").get_attribute("datetime")) == expected[0],
             15, f"the next run to be {expected[0]}",
             describe=lambda: ui.find(f"{row} .next-run time").get_attribute("datetime"))


PASTED = """{
  // an Azure Scheduler job, as exported: comments and trailing commas are fine
  "name": "weekly-sync",
  "properties": {
    "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/sync", "method": "GET"}},
    "recurrence": {"frequency": "week", "interval": 1,
      "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"], "hours": [10, 22], "minutes": [0]},
      "count": 10,},
  },
}"""


def test_b2_pasted_azure_json_fills_the_form(driver, ui):
    ui.click("#new-job")
    wait_for(lambda: ui.hash().endswith("/new"), 10, "the new-job editor")
    ui.click("#tab-json")
    paste(driver, ui.find("#job-json"), PASTED)
    ui.click("#apply-json")
    wait_for(lambda: ui.find("#tab-form").get_attribute("aria-selected") == "true" or not ui.all("#json-errors li"),
             10, "the JSON to be applied without errors", describe=lambda: ui.text("#panel-json"))
    if ui.find("#tab-form").get_attribute("aria-selected") != "true":
        ui.click("#tab-form")
    wait_for(lambda: ui.find("#rec-frequency").get_property("value") == "Week", 10, "the frequency select on Week")
    for day in ("Monday", "Wednesday", "Friday"):
        assert ui.find(f'[data-testid="weekday-{day}"]').get_attribute("aria-pressed") == "true", day
    assert ui.find('[data-testid="weekday-Tuesday"]').get_attribute("aria-pressed") == "false"
    for hour in (10, 22):
        assert ui.find(f'[data-testid="hour-{hour}"]').get_attribute("aria-pressed") == "true", hour
    assert ui.find("#http-uri").get_property("value") == "http://127.0.0.1:9/sync"
    ui.wait_text("#preview-sentence",
                 # No startTime in the pasted job: Azure runs it once at creation, and the sentence says so.
                 lambda t: "every week on Monday, Wednesday and Friday at 10:00 and 22:00 UTC" in t
                 and "10 times" in t, "to describe the pasted schedule")
    open_collection(ui)


def test_c_run_now_and_history(driver, ui, target):
    select_job(ui, JOB)
    started = time.time()
    ui.click("#run-now")
    request = wait_for(lambda: target.received(job=JOB, after=started), 30,
                       f"the target to receive {JOB}'s request after Run now")[0]
    assert request.method == "POST" and request.path == "/month-end", request
    wait_for(lambda: ui.text(ROW.format(JOB) + " .executions") == "1", 15,
             "the jobs table to count the execution", describe=lambda: ui.text(ROW.format(JOB)))
    ui.wait_text(ROW.format(JOB) + " .last-result", lambda t: "Completed" in t, "to show Completed")
    screenshot(driver, "jobs.png")

    ui.click("#open-history")
    wait_for(lambda: ui.hash().endswith(f"/j/{JOB}/history"), 10, "the history page")
    ui.find("#history")
    wait_for(lambda: len(ui.all('[data-testid="occurrence"] .attempt[data-status="Completed"]')) == 1, 20,
             "the Run now occurrence with a Completed attempt", describe=lambda: ui.text("#history"))
    assert len(ui.all('[data-testid="occurrence"]')) == 1
    screenshot(driver, "history.png")
    # The dark theme, and back (the choice is remembered, so the later steps stay light).
    ui.click("#theme-toggle")
    wait_for(lambda: driver.execute_script("return document.documentElement.dataset.theme") == "dark", 10,
             "the dark theme")
    screenshot(driver, "history-dark.png")
    ui.click("#theme-toggle")
    wait_for(lambda: driver.execute_script("return document.documentElement.dataset.theme") == "light", 10,
             "the light theme again")

    # The history to a CSV file, typed (WebDriver cannot drive the system's save dialog).
    csv = Path(tempfile.mkdtemp(prefix="kairos-e2e-")) / "history.csv"
    ui.click("#history-export")
    ui.type("#history-export-path", str(csv))
    ui.click("#history-export-save")
    ui.wait_text("#history-export-done", lambda t: "Wrote 1 records" in t, "to report the written file")
    lines = csv.read_bytes().decode("utf-8").split("\r\n")
    assert lines[0].startswith("expectedExecutionTime,startTime,endTime,actionName,status"), lines
    assert ",MainAction,Completed," in lines[1], lines
    ui.click("#history-export-dialog .close")
    ui.gone("#history-export-dialog article")


def paste(driver, element, text: str) -> None:
    """A paste: the whole text arrives in one input event."""
    driver.execute_script("arguments[0].value = arguments[1];"
                          "arguments[0].dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));",
                          element, text)
    wait_for(lambda: element.get_property("value") == text, 10, "the pasted text")


def test_c2_duplicate_delete_and_import(driver, ui):
    copy = f"{JOB}-copy"
    open_collection(ui)
    select_job(ui, JOB)
    ui.click("#duplicate-job")
    ui.type("#duplicate-name", copy)
    ui.click("#duplicate-yes")
    ui.find(ROW.format(copy), timeout=15)
    assert "last Friday" in ui.text(ROW.format(copy) + " .schedule")

    select_job(ui, copy)
    ui.click("#delete-job")
    ui.find("#confirm-delete")
    ui.click("#confirm-delete-yes")
    ui.gone(ROW.format(copy), timeout=15)
    ui.find(ROW.format(JOB))

    ui.click("#collection-menu")  # the collection page's "…" menu
    ui.click("#import-job")
    paste(driver, ui.find("#import-text"), PASTED)
    ui.click("#import-submit")
    row = ROW.format("weekly-sync")
    ui.find(row, timeout=15)
    assert "Monday, Wednesday and Friday" in ui.text(row + " .schedule")
    select_job(ui, "weekly-sync")
    ui.click("#delete-job")
    ui.click("#confirm-delete-yes")
    ui.gone(row, timeout=15)


def test_d_fault_notification_opens_history(driver, ui, target, notification_daemon):
    target.status = 500
    ui.click("#open-settings")
    wait_for(lambda: ui.hash() == "#/settings", 10, "the settings page")
    box = ui.find("#setting-notify-fault")
    if not box.is_selected():
        ui.click("#setting-notify-fault")
        ui.wait_text("#toast", lambda t: "Settings saved" in t, "to confirm the setting was saved")
    wait_for(box.is_selected, 5, "the fault-notification switch to be on")

    open_collection(ui)
    select_job(ui, JOB)
    already = len(notifications(notification_daemon))
    started = time.time()
    ui.click("#run-now")
    wait_for(lambda: target.received(job=JOB, after=started), 30, f"the target to receive {JOB}'s second request")

    def fault_note():
        new = notifications(notification_daemon)[already:]
        return next((n for n in new if JOB in n.summary), None)
    note = wait_for(fault_note, 30, f"a Notify naming {JOB} in the mock daemon's log ({notification_daemon.log})")
    assert note.app_name == "Kairos" and "faulted" in note.summary, note.line
    assert "default" in note.actions, f"the notification is clickable: {note.line}"
    ui.wait_text(ROW.format(JOB) + " .last-result", lambda t: "Faulted" in t or "Failed" in t,
                 "to show the failure")

    assert "/history" not in ui.hash()
    emit_action_invoked(note.id, "default")
    wait_for(lambda: ui.hash().endswith(f"/j/{JOB}/history"), 30,
             "the window to open the job's history after the notification click")
    ui.find("#history")
    ui.wait_text("#history-title", lambda t: JOB in t, f"to name {JOB}")
    ui.find('[data-testid="occurrence"] .attempt[data-status="Failed"]', timeout=15)
    assert len(ui.all('[data-testid="occurrence"]')) == 2


def test_d2_notification_action(driver, ui, notification_daemon):
    """A one-time job whose action is a desktop notification: saved now, it runs at once, and the
    notification the tray runner raises is the job's own title and text, clickable."""
    open_collection(ui)
    ui.click("#new-job")
    wait_for(lambda: ui.hash().endswith("/new"), 10, "the new-job editor")
    ui.type("#job-name", REMINDER)
    ui.select("#action-type", "Notification")
    ui.type("#notify-title", "Stand-up in 5 minutes")
    ui.type("#notify-body", "Room 4, bring the release notes")
    if ui.find("#rec-enabled").is_selected():
        ui.click("#rec-enabled")
    ui.wait_text("#preview-sentence", lambda t: t.lower().startswith("once"), "to describe a one-time job")
    already = len(notifications(notification_daemon))
    ui.click("#save-job")
    wait_for(lambda: ui.hash().endswith(f"/j/{REMINDER}"), 15, f"the saved job's page for {REMINDER}")

    def shown():
        return next((n for n in notifications(notification_daemon)[already:]
                     if n.summary == "Stand-up in 5 minutes"), None)
    note = wait_for(shown, 30, f"the job's notification in the mock daemon's log ({notification_daemon.log})")
    assert note.body == "Room 4, bring the release notes" and note.app_name == "Kairos", note.line
    assert "default" in note.actions, f"clickable: {note.line}"


def test_d3_settings_test_notification_and_problems(driver, ui, app, notification_daemon):
    """Settings > "Send a test notification" goes through the system's notification service;
    a problem the tray runner recorded (here: written as it would) shows there with what to do."""
    ui.click("#open-settings")
    wait_for(lambda: ui.hash() == "#/settings", 10, "the settings page")
    already = len(notifications(notification_daemon))
    ui.click("#send-test-notification")
    ui.wait_text("#toast", lambda t: "Test notification sent" in t, "to confirm the test notification")

    def shown():
        return next((n for n in notifications(notification_daemon)[already:]
                     if n.summary == "Kairos test notification"), None)
    note = wait_for(shown, 15, f"the test notification in the mock daemon's log ({notification_daemon.log})")
    assert note.app_name == "Kairos", note.line
    assert not ui.all("#notification-problem"), "no problem once a notification was shown"
    assert not ui.all("#tray-problem"), "the tray runner registered its icon with the watcher"

    problem = "No tray icon: this desktop has no tray host (test). Jobs keep running without it."
    with sqlite3.connect(app.data_dir / "kairos.db", timeout=10) as db:
        db.execute("INSERT INTO settings (key, value) VALUES ('desktop.trayProblem', ?) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (problem,))
    try:
        # The open Settings page follows the database (the window watches it for changes).
        ui.wait_text("#tray-problem", lambda t: t == problem, "to show the tray problem")
    finally:
        with sqlite3.connect(app.data_dir / "kairos.db", timeout=10) as db:
            db.execute("DELETE FROM settings WHERE key = 'desktop.trayProblem'")


def test_e_tray_runner_keeps_firing_after_the_window_closes(driver, ui, app, target, sni_watcher):
    target.status = 200
    open_collection(ui)
    ui.click("#new-job")
    wait_for(lambda: ui.hash().endswith("/new"), 10, "the new-job editor")
    ui.type("#job-name", MINUTELY)
    ui.select("#action-type", "Http")
    ui.select("#http-method", "POST")
    ui.type("#http-uri", f"{target.url}/tick")
    if not ui.find("#rec-enabled").is_selected():
        ui.click("#rec-enabled")
    ui.select("#rec-frequency", "Minute")
    ui.type("#rec-interval", "1")
    ui.wait_text("#preview-sentence", lambda t: "minute" in t.lower(), "to describe a job every minute")

    def one_minute_apart():
        times = [datetime.fromisoformat(t.get_attribute("datetime")) for t in ui.all("#preview-runs li time")]
        return len(times) >= 2 and times[1] - times[0] == timedelta(minutes=1)
    wait_for(one_minute_apart, 10, "the preview's runs to be one minute apart")
    ui.click("#save-job")
    wait_for(lambda: ui.hash().endswith(f"/j/{MINUTELY}"), 15, f"the saved job's page for {MINUTELY}")

    tray = app.wait_tray_runner()
    assert app.window_pids(), "the window process is running"
    driver.close()  # the last window: the window process ends
    wait_for(lambda: not app.window_pids(), 30, "the window process to exit after its window closed")
    closed, closed_at = time.time(), clock_now()  # real (arrivals), the runner's (due times)
    assert pid_alive(tray), "the tray runner outlives the window"

    def scheduled_after_close():
        # Not the run at creation (it may arrive late): one *due* after the window was gone.
        return [r for r in target.received(job=MINUTELY, after=closed)
                if datetime.fromisoformat(r.headers["x-ms-scheduler-expected-execution-time"]) >= closed_at]
    fired = wait_for(scheduled_after_close, 75, f"the tray runner to fire a run of {MINUTELY} due after the window closed",
                     describe=lambda: [(r.at, r.headers.get("x-ms-scheduler-expected-execution-time"))
                                       for r in target.received(job=MINUTELY)])
    assert fired[0].method == "POST" and fired[0].path == "/tick"
    assert pid_alive(tray) and app.tray_runner_pids() == [tray]

    name = tray_bus_name(tray, sni_watcher)
    labels = [label for _, label, _ in tray_menu(name)]
    assert "Quit Kairos" in labels and "Open Kairos" in labels, labels
    assert any(label.startswith(f"Next: {MINUTELY} at ") for label in labels), labels
    assert any(label.startswith(f"Last failure: {JOB} at ") for label in labels), labels
    tray_click(name, "Pause all jobs")
    wait_for(lambda: "Resume all jobs" in [label for _, label, _ in tray_menu(name)], 15,
             "the tray menu to offer Resume after Pause", describe=lambda: tray_menu(name))
    assert "Paused: no job fires" in [label for _, label, _ in tray_menu(name)]
    tray_click(name, "Resume all jobs")
    wait_for(lambda: "Pause all jobs" in [label for _, label, _ in tray_menu(name)], 15,
             "the tray menu to offer Pause again", describe=lambda: tray_menu(name))
    # "Open Kairos" starts the window again (a process of its own); it is closed here so the
    # module's clean-up finds no window left.
    tray_click(name, "Open Kairos")
    window = wait_for(app.window_pids, 30, "a window process started from the tray menu")[0]
    stop_pid(window)
    wait_for(lambda: not app.window_pids(), 20, "the reopened window to exit")
    tray_click(name, "Quit Kairos")
    wait_for(lambda: not pid_alive(tray), 20, "the tray runner to exit after Quit Kairos")
    assert not app.tray_runner_pids()
