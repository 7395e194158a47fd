#!/usr/bin/env bash
# Set up and start Kairos on a fresh Debian/Ubuntu machine with Rust installed.
# For now Kairos is its command line: this builds `kairos`, puts it in ~/.local/bin and shows the
# next runs of an example job. Pass your own arguments to run something else, e.g.
#   bash scripts/start.sh preview --count 5 my-job.json
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"

cargo build --release -p kairos-cli
mkdir -p "$HOME/.local/bin"
install -m 0755 "$CARGO_TARGET_DIR/release/kairos" "$HOME/.local/bin/kairos"
echo "installed $HOME/.local/bin/kairos" >&2

if [ "$#" -eq 0 ]; then
  set -- preview --count 5 examples/last-friday.json
fi
exec "$HOME/.local/bin/kairos" "$@"
