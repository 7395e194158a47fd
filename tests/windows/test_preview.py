"""`kairos.exe preview` (Windows build, under Wine) prints exactly what the Linux build prints,
for every example job: recurrence, time zones and their daylight-saving rules are compiled in,
so nothing may depend on the system."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import LINUX_BIN, run_windows, windows_path

ROOT = Path(__file__).resolve().parents[2] / "examples"
# Job documents; the import examples (ARM templates, crontabs) are compared by import below.
IMPORTS = ("arm", "crontab")
EXAMPLES = sorted(p for p in ROOT.rglob("*") if p.is_file() and p.relative_to(ROOT).parts[0] not in IMPORTS)
# Before the year's daylight-saving changes, so the previews cross them; weekly-mwf starts in 2030
# (the 18-month rule needs a "now" close to it); the 2015 page's job ran in 2012.
NOW = {"weekly-mwf.jsonc": "2030-07-01T00:00:00Z", "job-2015.json": "2012-08-01T00:00:00Z"}
DEFAULT_NOW = "2026-03-01T00:00:00Z"


def test_there_are_examples_to_compare():
    assert len(EXAMPLES) >= 4, EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_preview_matches_the_linux_build(example):
    args = ["preview", "--now", NOW.get(example.name, DEFAULT_NOW), "--count", "40"]
    linux = subprocess.run([LINUX_BIN, *args, str(example)], capture_output=True, text=True, timeout=30)
    assert linux.returncode == 0, linux.stderr
    assert linux.stdout.strip(), "the Linux build printed no occurrences"
    windows = run_windows("kairos.exe", *args, windows_path(example))
    assert windows.returncode == 0, windows.stderr
    # Windows programs end lines with CRLF when they print through the console: compare lines.
    assert windows.stdout.splitlines() == linux.stdout.splitlines()


def test_bad_input_is_exit_2_naming_the_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"recurrence": {"frequency": "fortnight", "interval": 1}, "action": {"type": "http", '
                   '"request": {"uri": "http://127.0.0.1/", "method": "GET"}}}')
    windows = run_windows("kairos.exe", "preview", "--now", DEFAULT_NOW, windows_path(bad))
    linux = subprocess.run([LINUX_BIN, "preview", "--now", DEFAULT_NOW, str(bad)], capture_output=True, text=True)
    assert windows.returncode == linux.returncode == 2, (windows, linux)
    assert "frequency" in windows.stderr
    assert windows.stderr.splitlines() == linux.stderr.splitlines()


def test_a_template_import_reports_as_on_linux(tmp_path):
    """`kairos.exe import --what-if` of the ARM example reads the template and checks its jobs as
    the Linux build does (the report is the same, line for line)."""
    template, parameters = ROOT / "arm" / "scheduler-jobs.json", ROOT / "arm" / "scheduler-jobs.parameters.json"
    linux = subprocess.run([LINUX_BIN, "import", str(template), "--parameters", str(parameters), "--what-if", "--json",
                            "--data-dir", str(tmp_path / "linux")], capture_output=True, text=True, timeout=60)
    assert linux.returncode == 0, linux.stderr
    windows = run_windows("kairos.exe", "import", windows_path(template), "--parameters", windows_path(parameters),
                          "--what-if", "--json", "--data-dir", windows_path(tmp_path / "windows"))
    assert windows.returncode == 0, windows.stderr
    assert windows.stdout.splitlines() == linux.stdout.splitlines()
    assert '"outcome":"Created"' in linux.stdout
