"""Visual baselines (issue 30): each main view in light and dark, against the reference PNGs in
tests/desktop/baselines/ (`<view>-<theme>.png`).

The window runs at a fixed instant (FIXED_NOW, whatever KAIROS_E2E_NOW says: this module starts
its own window with that clock) in UTC, with fixed data made through the window's IPC commands:
three jobs whose first runs are a day or more ahead, so nothing fires while the pictures are
taken. A picture is taken once two in a row are the same (nothing still loading or moving), with
the text caret hidden and the API token masked.

Compared with ImageMagick: a pixel differs when its colour is more than FUZZ away from the
baseline's, and a view fails when more than MAX_DIFFERING of its pixels differ (or its size
changed). On a failure the actual picture, the baseline and the difference are saved in the logs
directory (KAIROS_DESKTOP_E2E_OUT/visual). A run never writes the baselines: after a deliberate
change, `bash scripts/update-visual-baselines.sh` (KAIROS_UPDATE_BASELINES=1) renews them."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import conftest
from conftest import HERE, OUT, invoke, wait_for
from window_themes import NO_RUNNING_ANIMATIONS, apply_theme, forget_theme_choice

BASELINES = HERE / "baselines"
UPDATE = os.environ.get("KAIROS_UPDATE_BASELINES") == "1"
FIXED_NOW = "2027-03-10T09:00:00+00:00"
FUZZ = "10%"
MAX_DIFFERING = 0.005  # of the picture's pixels
THEMES = ("light", "dark")
ACTUAL = OUT / "visual"

COLLECTION = "default"
COLLECTION_ID = f"local/desktop/{COLLECTION}"
ENCODED = "local%2Fdesktop%2Fdefault"
JOB = "nightly-report"

# Hidden before a picture: what differs from run to run by design.
MASK = "#api-token, #api-url"
_STILL_STYLE = (
    "let s = document.getElementById('kairos-visual-style');"
    "if (!s) { s = document.createElement('style'); s.id = 'kairos-visual-style'; document.head.append(s); }"
    "s.textContent = `* { caret-color: transparent !important; } ${arguments[0]} { visibility: hidden !important; }`;"
    "document.activeElement && document.activeElement.blur && document.activeElement.blur();"
)


@pytest.fixture(scope="module")
def tauri_driver(request, data_dir):
    """This module's window runs at FIXED_NOW in UTC, whatever the rest of the suite uses."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(conftest, "TEST_NOW", f"{FIXED_NOW}@{time.time():.6f}")
        mp.setenv("TZ", "UTC")
        with conftest.running_tauri_driver(request.module.__name__, data_dir) as started:
            yield started


@pytest.fixture(scope="module", autouse=True)
def _forget_the_theme(driver):
    yield
    forget_theme_choice(driver)


# ---------------------------------------------------------------------------------------------
# Pictures


def window_picture(driver, path: Path) -> bytes:
    """The window as the X server shows it (its native menu bar and the page). Not WebDriver's
    screenshot: WebKitWebDriver's snapshot hung until pytest's timeout once data-theme changed."""
    x, y, width, height = driver.execute_script(
        "return [window.screenX, window.screenY, window.outerWidth, window.outerHeight]")
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", str(path)],
                   check=True, capture_output=True, timeout=30)
    return path.read_bytes()


def still_picture(driver, path: Path) -> None:
    """The window into `path` once two pictures in a row are the same (at most 20 s)."""
    driver.execute_script(_STILL_STYLE, MASK)
    wait_for(lambda: driver.execute_script(NO_RUNNING_ANIMATIONS), 10, "animations to finish")
    last: list[bytes] = []

    def same_twice():
        png = window_picture(driver, path)
        same = bool(last) and last[-1] == png
        last.append(png)
        return same
    wait_for(same_twice, 20, "two identical pictures in a row", interval=0.3)


def _size(path: Path) -> tuple[int, int]:
    w, h = subprocess.run(["identify", "-format", "%w %h", str(path)], capture_output=True, text=True,
                          check=True, timeout=30).stdout.split()
    return int(w), int(h)


def differing_pixels(baseline: Path, actual: Path, diff: Path) -> int:
    """Pixels further than FUZZ apart (ImageMagick `compare -metric AE`), the difference drawn
    into `diff`. Pictures of different sizes raise AssertionError."""
    if _size(baseline) != _size(actual):
        raise AssertionError(f"{actual.name}: {_size(actual)} pixels, the baseline {_size(baseline)}")
    r = subprocess.run(["compare", "-metric", "AE", "-fuzz", FUZZ, str(baseline), str(actual), str(diff)],
                       capture_output=True, text=True, timeout=60)
    if r.returncode not in (0, 1):
        raise AssertionError(f"compare failed ({r.returncode}): {r.stderr.strip()}")
    return int(float(r.stderr.split()[0]))


def matches_baseline(driver, name: str) -> None:
    ACTUAL.mkdir(parents=True, exist_ok=True)
    actual = ACTUAL / f"{name}-actual.png"
    still_picture(driver, actual)
    baseline = BASELINES / f"{name}.png"
    if UPDATE:
        BASELINES.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(actual, baseline)
        print(f"visual: baseline {baseline} renewed")
        return
    assert baseline.is_file(), (f"no baseline {baseline}: take them with bash scripts/update-visual-baselines.sh "
                                f"(the picture is {actual})")
    diff = ACTUAL / f"{name}-diff.png"
    differing = differing_pixels(baseline, actual, diff)
    w, h = _size(actual)
    share = differing / (w * h)
    if share > MAX_DIFFERING:
        shutil.copyfile(baseline, ACTUAL / f"{name}-baseline.png")
        raise AssertionError(
            f"{name}: {differing} pixels ({share:.2%}) differ from {baseline} by more than {FUZZ} "
            f"(at most {MAX_DIFFERING:.1%} may): actual {actual}, difference {diff}. A deliberate change? "
            "bash scripts/update-visual-baselines.sh")
    print(f"visual: {name}: {differing} pixels differ ({share:.3%})")
    actual.unlink()
    diff.unlink(missing_ok=True)


def each_theme(driver, view: str) -> None:
    failures = []
    for theme in THEMES:
        apply_theme(driver, theme)
        try:
            matches_baseline(driver, f"{view}-{theme}")
        except AssertionError as e:
            failures.append(str(e))
    apply_theme(driver, "light")
    assert not failures, "\n".join(failures)


def go(driver, ui, route: str, ready: str) -> None:
    driver.execute_script("location.hash = arguments[0]", route)
    ui.find(ready)
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"), 15, "nothing loading")


# ---------------------------------------------------------------------------------------------
# The views


def test_a_first_run(driver, ui):
    wait_for(lambda: driver.title == "Kairos", 15, "the window title 'Kairos'")
    assert driver.execute_script("return new Date().toISOString()").startswith(FIXED_NOW[:13]), \
        "the window's clock starts at FIXED_NOW"
    ui.find("#create-default-collection")
    each_theme(driver, "first-run")


def test_b_fixed_data(driver, ui):
    invoke(driver, "create_collection", {"name": COLLECTION, "plan": None})
    jobs = {
        JOB: ({"method": "GET", "uri": "https://reports.example.com/nightly"}, "2027-03-11T02:00:00Z",
              {"frequency": "Day", "interval": 1}, "Enabled"),
        "weekly-cleanup": ({"method": "DELETE", "uri": "https://api.example.com/cache"}, "2027-03-15T06:30:00Z",
                           {"frequency": "Week", "interval": 1,
                            "schedule": {"weekDays": ["Monday"], "hours": [6], "minutes": [30]}}, "Enabled"),
        "month-end-invoices": ({"method": "POST", "uri": "https://billing.example.com/close"},
                               "2027-03-31T23:00:00Z",
                               {"frequency": "Month", "interval": 1,
                                "schedule": {"monthDays": [-1], "hours": [23], "minutes": [0]}}, "Disabled"),
    }
    for name, (request, start, recurrence, state) in jobs.items():
        invoke(driver, "save_job", {"collection": COLLECTION_ID, "name": name, "create": True, "properties": {
            "startTime": start, "state": state, "action": {"type": "Http", "request": request},
            "recurrence": recurrence}})
    # A fresh page reads them all (not a reload racing the last save).
    driver.execute_script("location.hash = arguments[0]; location.reload()", f"#/c/{ENCODED}")
    ui.find("#jobs-title")
    for name in jobs:
        ui.find(f'tr[data-testid="job-row-{name}"]')


VIEWS = [
    ("jobs", f"#/c/{ENCODED}", "#jobs-title"),
    ("job-editor", f"#/c/{ENCODED}/j/{JOB}", "#editor-title"),
    ("new-job", f"#/c/{ENCODED}/new", "#editor-title"),
    ("history", f"#/c/{ENCODED}/j/{JOB}/history", "#history-title"),
    ("overview", "#/overview", "#overview-title"),
    ("settings", "#/settings", "#settings-title"),
]


@pytest.mark.parametrize("view,route,ready", VIEWS, ids=[v[0] for v in VIEWS])
def test_c_view(driver, ui, view, route, ready):
    go(driver, ui, route, ready)
    each_theme(driver, view)


def test_d_overview_month(driver, ui):
    go(driver, ui, "#/overview", "#overview-title")
    ui.click("#overview-view-month")
    each_theme(driver, "overview-month")
