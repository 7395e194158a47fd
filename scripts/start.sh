#!/usr/bin/env bash
# Set up and start Kairos on a fresh Debian/Ubuntu machine with Rust and Node installed.
# Installs the build packages (apt), builds the UI and, in release mode, `kairos-desktop` (the
# desktop window), `kairos-tray` (the tray runner it starts) and `kairos` (the CLI and
# `kairos serve`) into ~/.local/bin, adds Kairos to the
# application menu, and starts the desktop app. Without a display it starts `kairos serve` (the
# scheduler and the Azure Scheduler REST API on 127.0.0.1:7010) instead. Pass arguments to run a
# `kairos` command instead, e.g.
#   bash scripts/start.sh preview --count 5 examples/last-friday.json
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"

bash scripts/setup-build-deps.sh
# The tray icon library is loaded at run time.
bash scripts/apt-install.sh libayatana-appindicator3-1
bash scripts/build-ui.sh
cargo build --release -p kairos-cli -p kairos-desktop -p kairos-tray
mkdir -p "$HOME/.local/bin" "$HOME/.local/share/applications"
install -m 0755 "$CARGO_TARGET_DIR/release/kairos" "$HOME/.local/bin/kairos"
install -m 0755 "$CARGO_TARGET_DIR/release/kairos-desktop" "$HOME/.local/bin/kairos-desktop"
install -m 0755 "$CARGO_TARGET_DIR/release/kairos-tray" "$HOME/.local/bin/kairos-tray"
cat > "$HOME/.local/share/applications/kairos.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=Kairos
Comment=Job scheduler: Azure Scheduler on your own machine
Exec=$HOME/.local/bin/kairos-desktop
Categories=Utility;
Terminal=false
DESKTOP
echo "installed kairos, kairos-desktop and kairos-tray in $HOME/.local/bin" >&2

if [ "$#" -gt 0 ]; then
  exec "$HOME/.local/bin/kairos" "$@"
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$HOME/.local/bin/kairos-desktop"
fi
echo "no display: starting kairos serve (the desktop app needs a graphical session)" >&2
echo "next runs of examples/last-friday.json:" >&2
"$HOME/.local/bin/kairos" preview --count 3 examples/last-friday.json >&2
exec "$HOME/.local/bin/kairos" serve
