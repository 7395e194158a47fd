#!/usr/bin/env bash
# Set up and start Kairos on a fresh Debian/Ubuntu machine with Rust installed.
# Builds `kairos`, puts it in ~/.local/bin and starts `kairos serve` (the scheduler and the Azure
# Scheduler REST API on 127.0.0.1:7010) until Ctrl-C. Pass your own arguments to run something
# else, e.g.
#   bash scripts/start.sh preview --count 5 examples/last-friday.json
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"

cargo build --release -p kairos-cli
mkdir -p "$HOME/.local/bin"
install -m 0755 "$CARGO_TARGET_DIR/release/kairos" "$HOME/.local/bin/kairos"
echo "installed $HOME/.local/bin/kairos" >&2

if [ "$#" -eq 0 ]; then
  echo "next runs of examples/last-friday.json:" >&2
  "$HOME/.local/bin/kairos" preview --count 3 examples/last-friday.json >&2
  set -- serve
fi
exec "$HOME/.local/bin/kairos" "$@"
