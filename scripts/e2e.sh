#!/usr/bin/env bash
# End-to-end tests: a real `kairos serve` driven through the real Azure SDK (azure-mgmt-scheduler 7.0.0).
# Usage: bash scripts/e2e.sh [pytest args...]      e.g. bash scripts/e2e.sh -k restart -x
# Env:   KAIROS_BIN        the binary to test (default: $CARGO_TARGET_DIR/debug/kairos, built here first)
#        CARGO_TARGET_DIR  default $HOME/.cache/kairos-target
#        KAIROS_VENV       default $HOME/.cache/kairos-venv
#        KAIROS_NPM_PREFIX where Azurite is installed (default $HOME/.cache/kairos-npm)
#        KAIROS_E2E_FAST=1 skip the test that waits for a real 15-second retry interval
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
venv="${KAIROS_VENV:-$HOME/.cache/kairos-venv}"
req=tests/e2e/requirements.txt

if [ -z "${KAIROS_BIN:-}" ]; then
  # Test what the working tree builds, never a stale binary.
  cargo build --quiet -p kairos-cli
  KAIROS_BIN="$CARGO_TARGET_DIR/debug/kairos"
fi
export KAIROS_BIN
if [ ! -x "$KAIROS_BIN" ]; then
  echo "e2e: no kairos binary at $KAIROS_BIN" >&2
  exit 1
fi

bash scripts/python-venv.sh "$venv" "$req"

# Azurite, the queue service of the Storage-queue tests (installed once, outside the clone).
export KAIROS_AZURITE_QUEUE="$(bash scripts/install-azurite.sh)"

# KAIROS_API_TOKEN of the caller must not leak into the servers the tests start.
unset KAIROS_API_TOKEN
export PYTHONDONTWRITEBYTECODE=1  # leave nothing behind in the work tree
exec "$venv/bin/python" -m pytest tests/e2e "$@"
