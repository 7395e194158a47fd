#!/usr/bin/env bash
# Power losses under Kairos, many more than CI runs: crates/kairos-cli/tests/power_loss.rs and
# crates/kairos-tray/tests/power_loss.rs on the power-loss filesystem (crates/kairos-powerloss),
# with every scenario's cycles multiplied.
# Needs root and /dev/fuse, as the CI run does. Prints each scenario's losses and durations.
# Usage: bash scripts/power-loss.sh [FACTOR] [SEED]   (default 10: about 2,100 power losses)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
export KAIROS_POWER_LOSS_CYCLES="${1:-10}"
export KAIROS_POWER_LOSS_SEED="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "power-loss: cycles x$KAIROS_POWER_LOSS_CYCLES, seed $KAIROS_POWER_LOSS_SEED"
# One scenario at a time with its output shown (--no-capture): the counts and durations.
cargo nextest run -p kairos-cli -p kairos-tray --test power_loss --no-capture --no-fail-fast
