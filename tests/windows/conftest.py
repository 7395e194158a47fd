"""The Windows build of Kairos under Wine, checked against the Linux build (run through
`bash scripts/wine-e2e.sh`, which builds both and makes the Wine prefix).

KAIROS_WINE (Wine's 64-bit loader) and KAIROS_WINDOWS_DIR (the .exe files) come from the
script; the Linux `kairos` (KAIROS_LINUX_BIN) writes and reads the shared database, so the
Linux server helpers of tests/e2e are used as they are.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))

# Taken out of the environment: tests/e2e's helpers would otherwise run their server under Wine.
WINE = os.environ.pop("KAIROS_WINE", "")
WINDOWS_DIR = Path(os.environ.get("KAIROS_WINDOWS_DIR", ""))
LINUX_BIN = os.environ.get("KAIROS_LINUX_BIN", "")
os.environ["KAIROS_BIN"] = LINUX_BIN

from target_server import Target  # noqa: E402


def windows_path(path) -> str:
    """A Linux path as a Windows program under Wine sees it (drive Z: is /)."""
    return "Z:" + str(path).replace("/", "\\")


def wine_command(program: str, *args: str) -> list[str]:
    return [WINE, str(WINDOWS_DIR / program), *args]


def run_windows(program: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(wine_command(program, *args), capture_output=True, text=True, timeout=60,
                          **kwargs)


def pytest_sessionstart(session):
    missing = [p for p in (WINE, WINDOWS_DIR / "kairos.exe", WINDOWS_DIR / "kairos-tray.exe", LINUX_BIN)
               if not p or not os.path.exists(p)]
    if missing:
        pytest.exit(f"windows tests: missing {missing}; run bash scripts/wine-e2e.sh", returncode=1)


@pytest.fixture(scope="session")
def target():
    t = Target()
    yield t
    t.close()
