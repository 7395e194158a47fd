#!/usr/bin/env bash
# The updater feed writer (scripts/update-feed.py) against real signatures: tests/update_feed
# makes a throwaway key with the Tauri CLI and signs small files with it. The Tauri CLI is the
# one scripts/package.sh uses (tools/bundle/package.json); pytest is in a venv of its own.
# Usage: bash scripts/update-feed-check.sh [pytest args...]
# Env:   KAIROS_TAURI_CLI         default $HOME/.cache/kairos-tauri-cli
#        KAIROS_UPDATE_FEED_VENV  default $HOME/.cache/kairos-update-feed-venv
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests find the CLI's folder from its program (scripts/tauri-cli.sh prints .../node_modules/.bin/tauri).
tauri=$(bash scripts/tauri-cli.sh)
KAIROS_TAURI_CLI=$(dirname "$(dirname "$(dirname "$tauri")")")
export KAIROS_TAURI_CLI
venv="${KAIROS_UPDATE_FEED_VENV:-$HOME/.cache/kairos-update-feed-venv}"
bash scripts/python-venv.sh "$venv" tests/update_feed/requirements.txt
export PYTHONDONTWRITEBYTECODE=1  # leave nothing behind in the work tree
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/update_feed "$@"
