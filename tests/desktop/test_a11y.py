"""axe-core in the real window (issue 30): every view and every dialog, in light, dark and high
contrast (over light and over dark; see window_themes.py), must have no serious or critical
violation. axe (ui/node_modules/axe-core/axe.min.js, the version package-lock.json pins) is
injected with WebDriver's execute_script and run in the page; a failure prints each violation's
rule id, impact, theme, target and axe's summary.

A dialog is checked on its own (axe's context is the open <dialog>); the page behind it is checked
as a view. The data: a first run (no collection), then a collection with a job per action type,
one of them run against a closed port so its history has a failed run. Steps in order; a view
test recovers from a dialog an earlier step left open."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, invoke, wait_for
from conftest import now as clock_now
from window_themes import NO_RUNNING_ANIMATIONS, THEMES, apply_theme, forget_theme_choice, tokens_by_theme

AXE = ROOT / "ui/node_modules/axe-core/axe.min.js"
BLOCKING = ("serious", "critical")

COLLECTION = "a11y"
COLLECTION_ID = f"local/desktop/{COLLECTION}"
ENCODED = "local%2Fdesktop%2Fa11y"
JOB = "http-job"
ROW = 'tr[data-testid="job-row-{}"]'


@pytest.fixture(scope="module", autouse=True)
def _forget_the_theme(driver):
    yield
    forget_theme_choice(driver)


# ---------------------------------------------------------------------------------------------
# axe


def inject_axe(driver) -> None:
    if not driver.execute_script("return typeof window.axe === 'object'"):
        assert AXE.is_file(), f"{AXE} is missing: npm ci in ui/ (axe-core is a dev dependency)"
        driver.execute_script(AXE.read_text())
    assert driver.execute_script("return typeof window.axe.run === 'function'"), "axe did not load"


_RUN = """
const [context, done] = arguments;
axe.run(context || document, {resultTypes: ['violations']}).then(
  (r) => done({violations: r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), impact: n.impact,
                                summary: (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 400)}))}))}),
  (e) => done({error: String(e)}));
"""


def axe_violations(driver, context: str | None) -> list[dict]:
    inject_axe(driver)
    driver.set_script_timeout(120)
    out = driver.execute_async_script(_RUN, context)
    assert "error" not in out, f"axe failed: {out['error']}"
    return out["violations"]


def check(driver, what: str, context: str | None = None) -> None:
    """axe over the page (or `context`) in every theme; fails listing the serious and critical
    violations of all themes at once, each once with the themes it shows in."""
    found: dict[tuple[str, str, str, str], list[str]] = {}
    for theme in THEMES:
        apply_theme(driver, theme)
        for v in axe_violations(driver, context):
            for n in v["nodes"]:
                impact = n["impact"] or v["impact"]
                if impact in BLOCKING:
                    found.setdefault((v["id"], impact, n["target"], f"{v['help']}. {n['summary']}"), []).append(theme)
    apply_theme(driver, "light")
    lines = [f"{rule} ({impact}) {target} [{', '.join(themes)}]\n    {summary}"
             for (rule, impact, target, summary), themes in found.items()]
    assert not lines, f"{what}: {len(lines)} serious or critical axe violations\n" + "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Getting there


def close_dialogs(driver) -> None:
    """Escape, as a person would; any dialog still open after that is closed by the page."""
    if driver.execute_script("return document.querySelectorAll('dialog[open]').length"):
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    driver.execute_script("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
    wait_for(lambda: not driver.execute_script("return document.querySelectorAll('dialog[open]').length"),
             10, "every dialog to close")


def settled(driver) -> None:
    wait_for(lambda: driver.execute_script(NO_RUNNING_ANIMATIONS), 10, "animations to finish")
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"), 15, "nothing loading")


def go(driver, ui, route: str, ready: str) -> None:
    close_dialogs(driver)
    driver.execute_script("location.hash = arguments[0]", route)
    ui.find(ready)
    settled(driver)


# ---------------------------------------------------------------------------------------------
# The steps


def test_a_the_themes_differ_and_high_contrast_has_rules(driver):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    by = tokens_by_theme(driver)
    print("themes:", json.dumps(by))
    assert by["light"]["rules"] > 0, "tokens.css has @media (prefers-contrast: more) rules for high contrast"
    assert by["light"]["bg"] != by["dark"]["bg"], f"light and dark draw different backgrounds: {by}"
    assert by["light"]["text"] != by["contrast-light"]["text"], f"high contrast changes the light text: {by}"
    assert by["dark"]["text"] != by["contrast-dark"]["text"], f"high contrast changes the dark text: {by}"


def test_b_first_run_empty_state(driver, ui):
    ui.find("#create-default-collection")
    settled(driver)
    check(driver, "the first-run empty state")


def test_c_data(driver, ui):
    invoke(driver, "create_collection", {"name": COLLECTION, "plan": None})
    start = (clock_now() + timedelta(days=30)).strftime("%Y-%m-%dT08:00:00Z")
    recurrence = {"frequency": "Day", "interval": 1}
    actions = {
        JOB: {"type": "Http", "request": {"method": "GET", "uri": "http://127.0.0.1:9/a11y"}},
        "second-job": {"type": "Http", "request": {"method": "POST", "uri": "http://127.0.0.1:9/second",
                                                   "body": "{}", "headers": {"Content-Type": "application/json"}}},
    }
    for name, action in actions.items():
        invoke(driver, "save_job", {"collection": COLLECTION_ID, "name": name, "create": True, "properties": {
            "startTime": start, "action": action, "recurrence": recurrence}})
    # A failed run (nothing listens on port 9) for the history and the overview.
    invoke(driver, "run_job_now", {"collection": COLLECTION_ID, "name": JOB})
    def recorded():
        jobs = invoke(driver, "list_jobs", {"collection": COLLECTION_ID})
        return next(j for j in jobs if j["name"] == JOB).get("lastStatus")
    wait_for(recorded, 60, "the run now to be recorded")


def _action_kinds(driver) -> list[str]:
    return driver.execute_script(
        "const s = document.querySelector('#action-type');"
        "return s ? [...s.options].map((o) => o.value) : [];")


VIEWS = [
    ("jobs", f"#/c/{ENCODED}", "#jobs-title"),
    ("history", f"#/c/{ENCODED}/j/{JOB}/history", "#history-title"),
    ("overview", "#/overview", "#overview-title"),
    ("settings", "#/settings", "#settings-title"),
    ("new-job", f"#/c/{ENCODED}/new", "#editor-title"),
]


@pytest.mark.parametrize("name,route,ready", VIEWS, ids=[v[0] for v in VIEWS])
def test_d_view(driver, ui, name, route, ready):
    go(driver, ui, route, ready)
    check(driver, f"the {name} view")


@pytest.mark.parametrize("view", ["day", "week", "month", "agenda"])
def test_e_overview_views(driver, ui, view):
    go(driver, ui, "#/overview", "#overview-title")
    ui.click(f"#overview-view-{view}")
    settled(driver)
    check(driver, f"the overview's {view} view")


def test_f_job_editor_every_action_type_and_the_json_tab(driver, ui):
    go(driver, ui, f"#/c/{ENCODED}/j/{JOB}", "#editor-title")
    kinds = _action_kinds(driver)
    assert kinds, "the editor has its action type control #action-type"
    failures = []
    for kind in kinds:
        ui.select("#action-type", kind)
        settled(driver)
        try:
            check(driver, f"the job editor with a {kind} action")
        except AssertionError as e:
            failures.append(str(e))
    ui.click("#tab-json")
    settled(driver)
    try:
        check(driver, "the job editor's JSON tab")
    except AssertionError as e:
        failures.append(str(e))
    assert not failures, "\n\n".join(failures)


# (name, route, its heading, what to click in turn to open the dialog, a row to select first if any).
# The collection's actions are in its page header's "…" menu (#collection-menu).
JOBS = (f"#/c/{ENCODED}", "#jobs-title")
DIALOGS = [
    ("new collection", *JOBS, ("#new-collection",), None),
    ("edit collection", *JOBS, ("#collection-menu", "#collection-edit"), None),
    ("calendars", *JOBS, ("#collection-menu", "#collection-calendars"), None),
    ("delete collection", *JOBS, ("#collection-menu", "#collection-delete"), None),
    ("import", *JOBS, ("#import-collections",), None),
    ("import job", *JOBS, ("#collection-menu", "#import-job"), None),
    ("export", *JOBS, ("#collection-menu", "#export-collection"), None),
    ("delete job", *JOBS, ("#delete-job",), JOB),
    ("duplicate job", *JOBS, ("#duplicate-job",), JOB),
    ("export job", *JOBS, ("#export-job",), JOB),
    ("history export", f"#/c/{ENCODED}/j/{JOB}/history", "#history-title", ("#history-export",), None),
]


@pytest.mark.parametrize("name,route,ready,clicks,row", DIALOGS, ids=[d[0].replace(" ", "-") for d in DIALOGS])
def test_g_dialog(driver, ui, name, route, ready, clicks, row):
    go(driver, ui, route, ready)
    box = ROW.format(row) + " input[data-select]" if row else None
    if box and not ui.find(box).is_selected():
        ui.click(box)
    for css in clicks:
        ui.click(css)
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "dialog[open]"), 10, f"the {name} dialog to open")
    settled(driver)
    try:
        check(driver, f"the {name} dialog", "dialog[open]")
    finally:
        close_dialogs(driver)
        if box and ui.find(box).is_selected():
            ui.click(box)


def test_h_command_palette(driver, ui):
    go(driver, ui, f"#/c/{ENCODED}", "#jobs-title")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("k").key_up(Keys.CONTROL).perform()
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#command-palette[open]"), 10,
             "Ctrl+K to open the command palette (App mounts <CommandPalette/> and usePaletteShortcut)")
    ui.find("#command-palette [role=option]")
    settled(driver)
    try:
        check(driver, "the command palette", "#command-palette")
        ui.type("#palette-input", "zz-no-such-command")
        ui.find("#command-palette .palette-empty")
        check(driver, "the command palette with nothing matching", "#command-palette")
        # Keyboard only: type, the best match is the active row, Enter runs it.
        ui.type("#palette-input", "setings")
        wait_for(lambda: driver.execute_script(
            "const f = document.querySelector('#palette-input');"
            "const a = document.getElementById(f.getAttribute('aria-activedescendant') || '');"
            "return a && a.dataset.command === 'settings'"), 10, "Settings to be the active row")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        wait_for(lambda: ui.hash() == "#/settings", 10, "Enter to run Settings", describe=ui.hash)
        ui.gone("#command-palette[open]")
    finally:
        close_dialogs(driver)
