"""Skip this version, for real (issue 32): the installed old Kairos (the .deb scripts/update-e2e.sh
installed) offers the new version by itself at start; after "Skip this version" the next start's
automatic check reads the feed and offers nothing, while "Check for updates" still offers it. The
feed comes from KAIROS_UPDATE_URL, the variable people who mirror releases set."""

from __future__ import annotations

import pytest
from release_feed import NEW, OLD, Feed, installed_version

from kairos_desktop_conftest import invoke, wait_for, window_session

pytestmark = pytest.mark.incremental

FEED = Feed()  # started here: the window's environment names its URL
FEED_URL = f"{FEED.url}/good/latest.json"
APP_ENV = {"KAIROS_UPDATE_URL": FEED_URL}
SKIPPED_LOG = "automatic update check: skipped version, not offered"


def skipped_lines(app) -> list[str]:
    return [line for line in app.log.read_text(errors="replace").splitlines() if SKIPPED_LOG in line]


def feed_reads() -> int:
    return FEED.hits.count("/good/latest.json")


def test_the_start_check_offers_the_new_version_by_itself(driver, ui, app):
    assert installed_version() == OLD, "scripts/update-e2e.sh installs the old .deb first"
    dialog = ui.find("[data-testid=update-dialog]", timeout=90)
    assert NEW in dialog.text and "Line two of the notes." in dialog.text, dialog.text
    assert feed_reads() == 1, FEED.hits


def test_skip_this_version_is_saved(driver, ui, app):
    ui.click("[data-testid=update-skip]")
    ui.gone("[data-testid=update-dialog]")
    settings = invoke(driver, "get_update_settings", {})
    assert settings["skipped"] == NEW, settings
    assert settings["effectiveFeed"] == FEED_URL and settings["feedFromEnvironment"], settings


def test_the_next_start_reads_the_feed_and_offers_nothing(tauri_driver, driver, app):
    driver.quit()  # the module's window ends; the tray runner it started keeps running
    wait_for(lambda: not app.window_pids(), 20, "the first window to exit")
    url, _ = tauri_driver
    with window_session(url, app) as second:
        [line] = wait_for(lambda: skipped_lines(app), 90, f"the start check to pass over {NEW} (log {app.log})")
        assert NEW in line, line
        assert feed_reads() == 2, f"the second start read the feed once more: {FEED.hits}"
        assert invoke(second, "take_update_offer", {}) is None, "a skipped version was kept as an offer"
        assert not second.find_elements("css selector", "[data-testid=update-dialog]"), \
            "a skipped version was offered at start"

        # Asked for, the skipped version is still offered (and can be installed from there).
        second.execute_script("location.hash = '#/settings'")
        wait_for(lambda: second.find_elements("css selector", "[data-testid=check-updates]"), 20,
                 "the settings page")
        second.find_element("css selector", "[data-testid=check-updates]").click()
        dialog = wait_for(lambda: second.find_elements("css selector", "[data-testid=update-dialog]"), 60,
                          "the dialog a check on demand opens")[0]
        assert NEW in dialog.text, dialog.text
        assert feed_reads() == 3
        second.find_element("css selector", "[data-testid=update-later]").click()
        wait_for(lambda: not second.find_elements("css selector", "[data-testid=update-dialog]"), 10,
                 "Later to close the dialog")
        assert installed_version() == OLD, "nothing was installed"
