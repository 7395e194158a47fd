"""Import and export through the window's dialogs, step by step on one data directory, then a
second, fresh one: the ARM example (a file with problems first: reported, nothing written; then
with its parameters file: previewed, imported, listed), the Command action's program typed and
saved, a bundle exported with its secrets (and a template with its warnings), and that bundle
imported on a fresh database, where a wrong passphrase shows next to its field. In between, a
crontab is imported through the same dialog (its format chosen, previewed, imported, listed) and
its collection exported as a crontab that gives the same lines back.

Paths are typed into the fields: the "Browse…" buttons open the system's native dialog, which
WebDriver cannot drive. Screenshots only when asked: KAIROS_TRANSFER_SCREENSHOTS=1 saves the
dialogs, light and dark, under KAIROS_SCREENSHOTS_DIR."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from selenium.webdriver.remote.file_detector import UselessFileDetector

from conftest import ROOT, UI, running_tauri_driver, screenshot, wait_for, window_session

pytestmark = pytest.mark.incremental

TEMPLATE = ROOT / "examples/arm/scheduler-jobs.json"
PARAMETERS = ROOT / "examples/arm/scheduler-jobs.parameters.json"
# warmup-*: a copy loop of warmupCount (default 3) over variables('regions'); audit's condition is false.
TEMPLATE_JOBS = ["heartbeat", "nightly-report", "cleanup-queue", "orders-sweep",
                 "warmup-westeurope", "warmup-northeurope", "warmup-eastus"]
PASSPHRASE = "correct horse battery"
ROW = 'tr[data-testid="job-row-{}"]'
REPORT_ROW = '#import-report tr[data-testid="import-row-{}"]'


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("kairos-transfer-files")


def outcomes(ui: UI) -> dict[str, str]:
    return {r.get_attribute("data-testid").removeprefix("import-row-"): r.get_attribute("data-outcome")
            for r in ui.all("#import-report tr[data-testid]")}


def shots(driver, name: str):
    """The window now, in both themes, when KAIROS_TRANSFER_SCREENSHOTS is set."""
    if not os.environ.get("KAIROS_TRANSFER_SCREENSHOTS"):
        return
    for theme in ("light", "dark"):
        driver.execute_script("document.documentElement.dataset.theme = arguments[0]", theme)
        screenshot(driver, f"{name}-{theme}.png")
    driver.execute_script("delete document.documentElement.dataset.theme")


def typing_paths(driver):
    """Typed paths stay text: selenium would otherwise upload a typed path that names a local
    file (LocalFileDetector), which WebKitWebDriver does not support."""
    driver.file_detector = UselessFileDetector()


def open_import(ui: UI, path: Path | str):
    ui.click("#import-collections")
    ui.find("#import-file-dialog[open]")
    ui.type("#import-path", str(path))


def test_a_a_template_with_problems_is_reported_and_nothing_is_written(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    typing_paths(driver)
    open_import(ui, TEMPLATE)
    # Without the parameters file, required parameters have no value: problems of the file.
    ui.click("#import-preview")
    ui.wait_text("#import-summary", lambda t: "refused" in t and "nothing was written" in t,
                 "to count the refused parts of a preview")
    refused = ui.all('#import-report tr[data-outcome="refused"]')
    assert refused, "the file's problems are rows of the report"
    assert any("apiBaseUrl" in r.text for r in refused), [r.text for r in refused]
    assert not ui.find("#import-continue").is_selected()
    ui.click("#import-run")
    ui.wait_text("#import-summary", lambda t: "nothing was written (all or nothing" in t,
                 "to say the all-or-nothing import wrote nothing")
    assert ui.find("#import-report").get_attribute("data-written") == "false"
    ui.click("#import-close")
    ui.gone("#import-file-dialog[open]")
    assert not ui.all('[data-testid^="collection-jobs-"]'), "no collection was made"


def test_b_the_arm_example_with_its_parameters_is_previewed_imported_and_listed(driver, ui):
    open_import(ui, TEMPLATE)
    ui.type("#import-parameters", str(PARAMETERS))
    ui.click("#import-preview")
    ui.wait_text("#import-summary", lambda t: t.startswith(f"Jobs: {len(TEMPLATE_JOBS)} to create; a preview"),
                 f"to preview {len(TEMPLATE_JOBS)} jobs to create")
    assert outcomes(ui) == {job: "would create" for job in TEMPLATE_JOBS}
    ui.click("#import-run")
    ui.wait_text("#import-summary", lambda t: t == f"Jobs: {len(TEMPLATE_JOBS)} created.",
                 f"to count {len(TEMPLATE_JOBS)} jobs created")
    assert outcomes(ui) == {job: "created" for job in TEMPLATE_JOBS}
    shots(driver, "import-report")
    # The report stays shown until the dialog is closed.
    ui.click("#import-close")
    ui.gone("#import-file-dialog[open]")
    wait_for(lambda: ui.hash().startswith("#/c/") and "jobs-" in ui.hash(), 15,
             "the imported collection's page")
    for job in TEMPLATE_JOBS:
        ui.find(ROW.format(job), timeout=15)
    assert ui.text(ROW.format("nightly-report") + " .state") == "Enabled"


def test_c_the_command_forms_program_is_typed_and_saved(driver, ui):
    ui.click("#new-job")
    wait_for(lambda: ui.hash().endswith("/new"), 10, "the new-job editor")
    ui.type("#job-name", "echo-hello")
    ui.select("#action-type", "Command")
    # The pickers are there; the fields stay typeable.
    assert ui.find("#cmd-program-browse").text == "Browse…"
    assert ui.find("#cmd-working-directory-browse").text == "Browse…"
    ui.type("#cmd-program", "/bin/echo")
    ui.type("#cmd-working-directory", "/tmp")
    ui.click("#save-job")
    wait_for(lambda: ui.hash().endswith("/j/echo-hello"), 15, "the saved job's page")
    ui.wait_text("#toast", lambda t: "Saved echo-hello" in t, "to confirm the save")
    saved = ui.hash()
    ui.click('#collections a[href*="jobs-"]')
    ui.find(ROW.format("echo-hello"), timeout=15)
    driver.execute_script("location.hash = arguments[0]", saved)
    wait_for(lambda: ui.find("#cmd-program").get_property("value") == "/bin/echo", 15,
             "the saved program back in the reopened editor")
    assert ui.find("#cmd-working-directory").get_property("value") == "/tmp"


def test_d_a_bundle_with_secrets_and_a_template_are_exported(driver, ui, files):
    ui.click('#collections a[href*="jobs-"]')
    ui.find(ROW.format("nightly-report"), timeout=15)
    ui.click("#collection-menu")  # the collection page's "…" menu
    ui.click("#export-collection")
    ui.find("#export-dialog[open]")
    ui.select("#export-format", "Bundle")
    ui.click("#export-with-secrets")
    ui.type("#export-passphrase", PASSPHRASE)
    ui.type("#export-passphrase-again", PASSPHRASE + "!")
    bundle = files / "bundle.json"
    ui.type("#export-path", str(bundle))
    ui.click("#export-submit")
    ui.wait_text('#export-passphrase-again-error .field-error', lambda t: "differ" in t,
                 "the mismatch next to the second passphrase")
    assert not bundle.exists()
    ui.type("#export-passphrase-again", PASSPHRASE)
    ui.click("#export-submit")
    ui.wait_text("#export-done", lambda t: str(bundle) in t, "to say where the bundle was saved")
    assert stat.S_IMODE(bundle.stat().st_mode) == 0o600, "a file with secrets is owner-only"
    doc = json.loads(bundle.read_text())
    assert doc["kairosBundle"] == 1 and "BEGIN AGE ENCRYPTED FILE" in doc["secrets"]
    assert "correct-horse" not in bundle.read_text(), "the secrets are sealed"

    ui.select("#export-format", "Template")
    template = files / "template.json"
    ui.type("#export-path", str(template))
    ui.click("#export-submit")
    ui.wait_text("#export-warnings", lambda t: "securestring parameter" in t,
                 "the template's warnings (secrets become parameters)")
    shots(driver, "export-warnings")
    assert json.loads(template.read_text())["resources"]
    ui.click("#export-close")
    ui.gone("#export-dialog[open]")


# A crontab in the spelling the export writes (numbers for weekdays; `*/15` for a wildcard line,
# whose Skip/Twice daylight-saving rule keeps that spelling), so the export gives its lines back.
CRONTAB_JOBS = {
    "backup": "30 2 * * * /usr/bin/env true backup",
    "weekly-report": "0 9 * * 1 echo weekly report",
    "ping": "*/15 * * * * echo ping",
}
CRONTAB = "# jobs moved from cron\nCRON_TZ=UTC\n" + "".join(
    f"# kairos job: {name}\n{line}\n" for name, line in CRONTAB_JOBS.items())


def test_d2_a_crontab_is_imported_then_exported_as_a_crontab(driver, ui, files):
    crontab = files / "jobs.txt"  # a name that does not say crontab: the format is chosen
    crontab.write_text(CRONTAB)
    open_import(ui, crontab)
    ui.select("#import-format", "Crontab")
    ui.type("#import-collection", "from-cron")
    ui.click("#import-preview")
    ui.wait_text("#import-summary", lambda t: t.startswith(f"Jobs: {len(CRONTAB_JOBS)} to create; a preview"),
                 f"to preview {len(CRONTAB_JOBS)} crontab jobs to create")
    assert outcomes(ui) == {job: "would create" for job in CRONTAB_JOBS}
    ui.click("#import-run")
    ui.wait_text("#import-summary", lambda t: t == f"Jobs: {len(CRONTAB_JOBS)} created.",
                 f"to count {len(CRONTAB_JOBS)} crontab jobs created")
    assert outcomes(ui) == {job: "created" for job in CRONTAB_JOBS}
    ui.click("#import-close")
    ui.gone("#import-file-dialog[open]")
    wait_for(lambda: ui.hash().startswith("#/c/") and "from-cron" in ui.hash(), 15, "the crontab collection's page")
    for job in CRONTAB_JOBS:
        ui.find(ROW.format(job), timeout=15)
        assert ui.text(ROW.format(job) + " .state") == "Enabled"

    ui.click("#collection-menu")  # the collection page's "…" menu
    ui.click("#export-collection")
    ui.find("#export-dialog[open]")
    ui.select("#export-format", "Crontab")
    exported = files / "exported.crontab"
    ui.type("#export-path", str(exported))
    ui.click("#export-submit")
    ui.wait_text("#export-done", lambda t: str(exported) in t, "to say where the crontab was saved")
    assert not ui.all("#export-warnings"), "cron runs every one of these jobs: nothing left out"
    lines = exported.read_text().splitlines()
    settings = [line for line in lines if line and not line.startswith("#")]
    # One zone line before the jobs, then each job's line right under the comment with its name.
    assert settings[0] == "CRON_TZ=UTC", lines
    assert sorted(settings[1:]) == sorted(CRONTAB_JOBS.values()), lines
    for name, line in CRONTAB_JOBS.items():
        at = lines.index(line)
        assert lines[at - 1] == f"# kairos job: {name}", lines
    ui.click("#export-close")
    ui.gone("#export-dialog[open]")


def test_e_the_bundle_imports_on_a_fresh_database_with_its_passphrase(driver, app, files, tmp_path_factory):
    bundle = files / "bundle.json"
    # One window at a time (a second launch only focuses the first): end this one.
    driver.quit()
    wait_for(lambda: not app.window_pids(), 20, "the first window to exit")
    fresh = tmp_path_factory.mktemp("kairos-data-fresh")
    with running_tauri_driver("test_transfer-fresh", fresh) as (url, app):
        with window_session(url, app) as drv:
            typing_paths(drv)
            ui = UI(drv)
            wait_for(lambda: ui.all("#create-default-collection"), 15, "an empty database's first page")
            open_import(ui, bundle)
            ui.click("#import-preview")
            ui.wait_text("#import-passphrase-error .field-error", lambda t: "passphrase" in t,
                         "the bundle to ask for its passphrase next to the field")
            ui.type("#import-passphrase", "not the one")
            ui.click("#import-run")
            ui.wait_text("#import-passphrase-error .field-error", lambda t: "not the passphrase" in t,
                         "a wrong passphrase next to its field")
            assert ui.find("#import-passphrase").get_attribute("aria-invalid") == "true"
            shots(drv, "import-passphrase")
            assert not ui.all("#import-report")
            ui.type("#import-passphrase", PASSPHRASE)
            ui.click("#import-run")
            jobs = TEMPLATE_JOBS + ["echo-hello"]
            ui.wait_text("#import-summary", lambda t: t == f"Jobs: {len(jobs)} created.",
                         f"{len(jobs)} jobs created from the bundle")
            assert not ui.all("#import-passphrase-error")
            ui.click("#import-close")
            for job in jobs:
                ui.find(ROW.format(job), timeout=15)
