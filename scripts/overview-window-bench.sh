#!/usr/bin/env bash
# The overview's month view timed end to end in the real window (issue 16: 1,000 jobs over a
# month in <= 100 ms, no view update over 16 ms), on a release build:
# tests/desktop/bench_overview_window.py under Xvfb through scripts/desktop-e2e.sh. Prints the
# figures (also written to bench-overview-window.md in the run's log directory);
# docs/benchmarks.md ("Schedule overview (window, end to end)") records them.
# Usage: bash scripts/overview-window-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
bash scripts/build-ui.sh
cargo build --release -p kairos-desktop -p kairos-tray
export KAIROS_DESKTOP_BIN="$CARGO_TARGET_DIR/release/kairos-desktop"
exec bash scripts/desktop-e2e.sh tests/desktop/bench_overview_window.py -s
