#!/usr/bin/env bash
# What building the desktop app needs beyond Rust and Node (Tauri 2 on Linux, see
# ../shared/notes/tauri-on-linux.md): WebKitGTK 4.1, the app-indicator library the tray uses,
# librsvg, OpenSSL headers and a C toolchain.
# Usage: bash scripts/setup-build-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/apt-install.sh build-essential pkg-config libssl-dev \
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev
