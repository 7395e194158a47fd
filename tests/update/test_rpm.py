"""The .rpm's window leaves updates to the package manager (issue 32): the .rpm scripts/update-e2e.sh
built, unpacked (Debian has no rpm database), says so in Settings, checks no feed, and its
"Kairos releases" link opens the system's browser — here a stand-in `xdg-open` first on PATH that
records what it was asked to open, as the `open` crate calls it."""

from __future__ import annotations

import http.server
import os
import tempfile
import threading
from pathlib import Path

import pytest

from kairos_desktop_conftest import wait_for

pytestmark = pytest.mark.incremental

RELEASES = "https://github.com/kairos-scheduler/kairos/releases"
_STANDIN = Path(tempfile.mkdtemp(prefix="kairos-xdg-open-"))
OPENED = _STANDIN / "opened.txt"
(_STANDIN / "xdg-open").write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$KAIROS_OPENED_LOG"\n')
(_STANDIN / "xdg-open").chmod(0o755)
APP_ENV = {"PATH": f"{_STANDIN}:{os.environ.get('PATH', '')}", "KAIROS_OPENED_LOG": str(OPENED)}


@pytest.fixture(scope="module")
def feed_hits():
    """A loopback feed that only counts requests: the .rpm's window must send none."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_error(404)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/latest.json", hits
    server.shutdown()


def open_settings(ui):
    ui.click("#open-settings")
    wait_for(lambda: ui.hash() == "#/settings", 10, "the settings page")


def test_settings_say_the_package_manager_updates_kairos(driver, ui):
    open_settings(ui)
    section = wait_for(lambda: next((e for e in ui.all("p.muted") if "package manager" in e.text), None), 15,
                       "Settings → Updates to name the package manager")
    assert ".rpm" in section.text, section.text


def test_a_check_reads_no_feed_and_links_the_releases(driver, ui, feed_hits):
    url, hits = feed_hits
    ui.type("[data-testid=update-feed-url]", url)
    ui.click("[data-testid=update-save]")
    ui.click("[data-testid=check-updates]")
    status = wait_for(lambda: (el := ui.find("[data-testid=update-status]")) and
                      el.get_attribute("data-kind") == "packageManager" and el, 30,
                      "the check to say the package manager updates Kairos")
    assert "package manager" in status.text, status.text
    assert hits == [], f"the .rpm's window asked the feed: {hits}"
    # The toast says it too, over the status line's end: closed first, as a person would.
    ui.click(".toast-close")
    ui.gone(".toast-close")
    link = status.find_element("css selector", "a")
    assert link.get_attribute("href") == RELEASES
    ui.click("[data-testid=update-status] a")
    wait_for(lambda: OPENED.exists() and OPENED.read_text().strip(), 20,
             "the system's browser (xdg-open) to be asked for the releases page")
    assert OPENED.read_text().split() == [RELEASES]
