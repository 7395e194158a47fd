#!/usr/bin/env bash
# The ARM export against Azure's own deployment template and Scheduler schemas
# (crates/kairos-import/tests/schemas/README.md), with pytest and jsonschema in a venv of its own.
# Usage: bash scripts/arm-schema-check.sh [pytest args...]
# Env:   KAIROS_SCHEMA_VENV  default $HOME/.cache/kairos-schema-venv
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${KAIROS_SCHEMA_VENV:-$HOME/.cache/kairos-schema-venv}"
bash scripts/python-venv.sh "$venv" crates/kairos-import/tests/schemas/requirements.txt
export PYTHONDONTWRITEBYTECODE=1  # leave nothing behind in the work tree
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/kairos-import/tests/schemas "$@"
