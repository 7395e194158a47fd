#!/usr/bin/env bash
# Install the Debian packages the test suite needs beyond the Rust toolchain, Node and Python:
#   the desktop app's build dependencies (scripts/setup-build-deps.sh);
#   dbus, dbus-x11, python3-dbusmock: a private session bus with a mock notification daemon
#     (the Notification action's tests, the desktop end-to-end tests);
#   xvfb, webkit2gtk-driver, imagemagick: the real app window on a virtual display, driven by
#     WebKitWebDriver through tauri-driver;
#   fonts-noto-cjk: Chinese glyphs, so the window in zh-TW draws text, not boxes (the e2e's
#     zh-TW screenshots and the pseudo-locale walk measure real text);
#   postgresql: the server the PostgreSQL store's tests start for themselves (kairos-pgtest,
#     scripts/with-postgres.sh).
# Usage: bash scripts/setup-test-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-build-deps.sh
bash scripts/apt-install.sh dbus dbus-x11 python3-dbusmock xvfb webkit2gtk-driver imagemagick fonts-noto-cjk postgresql
