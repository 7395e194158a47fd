#!/usr/bin/env bash
# Renew the desktop window's visual baselines (tests/desktop/baselines/*.png) after a deliberate
# change of how it looks: runs tests/desktop/test_visual.py with KAIROS_UPDATE_BASELINES=1, which
# saves each view's picture as its baseline instead of comparing. Review the pictures (git diff
# --stat, an image viewer) and commit them. A plain test run never writes them.
# Usage: bash scripts/update-visual-baselines.sh [pytest args...]   e.g. -k overview
set -euo pipefail
cd "$(dirname "$0")/.."
KAIROS_UPDATE_BASELINES=1 bash scripts/desktop-e2e.sh tests/desktop/test_visual.py "$@"
echo "update-visual-baselines: renewed in tests/desktop/baselines/ (review, then commit them):" >&2
git status --short -- tests/desktop/baselines >&2
