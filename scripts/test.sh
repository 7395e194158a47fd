#!/usr/bin/env bash
# Set up and run every test of Kairos on a fresh Debian/Ubuntu machine with Rust, Node and Python.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# One shared target dir outside the clone, so repeated runs (and CI) do not rebuild the world.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"

echo "== Test dependencies (apt: Tauri build packages, D-Bus, dbusmock, Xvfb, WebKitWebDriver)"
bash scripts/setup-test-deps.sh

echo "== UI: build and unit tests (Vitest)"
bash scripts/build-ui.sh
(cd ui && npm test)
bash ui/scripts/i18n-check.sh

echo "== Rust tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --all-targets --no-fail-fast
else
  cargo test --workspace --all-targets --no-fail-fast
fi

echo "== The store contract on PostgreSQL: the runner and API suites again, on a real server"
# Everything but the SQLite-only suites (the lease and lock files, faults injected with PRAGMAs).
if cargo nextest --version >/dev/null 2>&1; then
  bash scripts/with-postgres.sh env KAIROS_TEST_STORE=postgres \
    cargo nextest run -p kairos-engine --test runner -p kairos-api --test api --no-fail-fast \
    -E 'not (test(/^faults::/) | test(/^lease::/))'
else
  bash scripts/with-postgres.sh env KAIROS_TEST_STORE=postgres \
    cargo test -p kairos-engine --test runner -p kairos-api --test api --no-fail-fast -- \
    --skip faults:: --skip lease::
fi

echo "== The ARM export against Azure's schemas (pytest, jsonschema)"
bash scripts/arm-schema-check.sh

echo "== The updater feed writer with real signatures (pytest, the Tauri CLI)"
bash scripts/update-feed-check.sh

echo "== End-to-end: the Azure Python SDK against a real kairos serve"
bash scripts/e2e.sh

echo "== End-to-end: the same suite against a kairos serve on PostgreSQL"
bash scripts/with-postgres.sh env KAIROS_E2E_STORE=postgres KAIROS_E2E_FAST=1 bash scripts/e2e.sh

echo "== End-to-end: the real desktop window under Xvfb (tauri-driver), tray runner, notifications"
bash scripts/desktop-e2e.sh

# The window and the tray runner take their "now" from the suite (KAIROS_TEST_NOW, set by
# tests/desktop/conftest.py), so the date-sensitive modules run again at a fixed awkward instant:
# 29 February 2028 at noon UTC, the last day of a month after its last Friday's 05:15 (the
# builder's preview opens on the next month), away from midnight and any DST change, so it
# changes nothing else. docs/architecture.md, "Time in tests", lists which tests read the clock.
echo "== End-to-end: the date-sensitive desktop tests again, the window's clock at 2028-02-29T12:00:00Z"
KAIROS_E2E_NOW=2028-02-29T12:00:00Z bash scripts/desktop-e2e.sh tests/desktop/test_desktop.py \
  tests/desktop/test_overview.py tests/desktop/test_calendars.py tests/desktop/test_manager.py \
  tests/desktop/test_zoom.py

# Last: it installs the .deb system-wide (and removes it again) and rebuilds this tree's window.
echo "== End-to-end: self-update of the installed .deb from a loopback feed (window and tray runner)"
bash scripts/update-e2e.sh
