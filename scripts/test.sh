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

echo "== Rust tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --all-targets --no-fail-fast
else
  cargo test --workspace --all-targets --no-fail-fast
fi

echo "== The ARM export against Azure's schemas (pytest, jsonschema)"
bash scripts/arm-schema-check.sh

echo "== End-to-end: the Azure Python SDK against a real kairos serve"
bash scripts/e2e.sh

echo "== End-to-end: the real desktop window under Xvfb (tauri-driver), tray runner, notifications"
bash scripts/desktop-e2e.sh
