"""The self-update test reuses the desktop suite's fixtures (tests/desktop/conftest.py: Xvfb, the
D-Bus mocks, tauri-driver, the loopback target, the DOM helpers), loaded under another name so the
two conftest modules do not collide. Run through scripts/update-e2e.sh."""

import importlib.util
import sys
from pathlib import Path

_path = Path(__file__).resolve().parents[1] / "desktop" / "conftest.py"
_spec = importlib.util.spec_from_file_location("kairos_desktop_conftest", _path)
_desktop = importlib.util.module_from_spec(_spec)
sys.modules["kairos_desktop_conftest"] = _desktop
_spec.loader.exec_module(_desktop)

from kairos_desktop_conftest import *  # noqa: E402,F401,F403 - the fixtures and helpers
from kairos_desktop_conftest import pytest_runtest_makereport, pytest_runtest_setup  # noqa: E402,F401
