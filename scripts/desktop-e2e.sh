#!/usr/bin/env bash
# Desktop end-to-end tests: the real kairos-desktop window driven through tauri-driver
# (WebKitWebDriver) under Xvfb, on a private D-Bus session with a mock notification daemon and a
# mock tray (StatusNotifierWatcher). Idempotent set-up, then the run, then a clean-up that leaves
# no process behind. See tests/desktop/README.md.
# Usage: bash scripts/desktop-e2e.sh [pytest args...]      e.g. bash scripts/desktop-e2e.sh -k smoke -x
# Env:   KAIROS_DESKTOP_BIN     test this kairos-desktop (kairos-tray next to it); skips the builds
#        CARGO_TARGET_DIR       default $HOME/.cache/kairos-target
#        KAIROS_TOOLS           where tauri-driver is installed (default $HOME/.cache/kairos-tools)
#        KAIROS_DESKTOP_VENV    default $HOME/.cache/kairos-desktop-venv
#        KAIROS_DESKTOP_E2E_OUT logs (dbusmock, tauri-driver and app output); default a new /tmp dir
#        KAIROS_SCREENSHOTS_DIR where screenshots go (KAIROS_SCREENSHOTS_DIR=docs/screenshots renews the
#                               README's); default a new /tmp dir, so a run leaves the tree clean
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
tools="${KAIROS_TOOLS:-$HOME/.cache/kairos-tools}"
venv="${KAIROS_DESKTOP_VENV:-$HOME/.cache/kairos-desktop-venv}"
req=tests/desktop/requirements.txt
say() { echo "desktop-e2e: $*" >&2; }

# --- Debian packages: build (webkit2gtk, appindicator), run (Xvfb, D-Bus, dbusmock), drive
# (WebKitWebDriver), screenshots (imagemagick); test_shell.py's real keys (xdotool), window manager
# (openbox), window properties (x11-utils: xprop) and menu bar read over AT-SPI (at-spi2-core,
# python3-gi, gir1.2-atspi-2.0). apt runs only when one is missing.
bash scripts/apt-install.sh libwebkit2gtk-4.1-dev build-essential libssl-dev libayatana-appindicator3-dev \
  librsvg2-dev pkg-config xvfb python3-dbusmock webkit2gtk-driver dbus dbus-x11 imagemagick \
  xdotool openbox x11-utils at-spi2-core python3-gi gir1.2-atspi-2.0

# --- tauri-driver 2.x (crates.io's newest is a 3.0 alpha), outside the clone.
tauri_driver="$tools/bin/tauri-driver"
if [ ! -x "$tauri_driver" ]; then
  say "installing tauri-driver 2.x into $tools"
  # Its own temporary target dir, not the project's.
  env -u CARGO_TARGET_DIR cargo install tauri-driver --locked --version '^2' --root "$tools"
fi
export KAIROS_TAURI_DRIVER="$tauri_driver"

# --- The test venv (selenium, pytest), reinstalled only when the pinned requirements change.
bash scripts/python-venv.sh "$venv" "$req"

# --- The app: the window (kairos-desktop) and the tray runner it starts (kairos-tray, found next
# to it). The UI bundle is embedded at compile time, so it is built first.
if [ -z "${KAIROS_DESKTOP_BIN:-}" ]; then
  bash scripts/build-ui.sh
  cargo build -p kairos-desktop -p kairos-tray
  KAIROS_DESKTOP_BIN="$CARGO_TARGET_DIR/debug/kairos-desktop"
fi
export KAIROS_DESKTOP_BIN
for bin in "$KAIROS_DESKTOP_BIN" "$(dirname "$KAIROS_DESKTOP_BIN")/kairos-tray"; do
  if [ ! -x "$bin" ]; then
    say "no $(basename "$bin") binary at $bin"
    exit 1
  fi
done

# --- The run. Every process started from here carries KAIROS_DESKTOP_E2E_RUN in its environment,
# so the clean-up can find exactly those (the tray runner outlives the window on purpose).
out="${KAIROS_DESKTOP_E2E_OUT:-$(mktemp -d /tmp/kairos-desktop-e2e.XXXXXX)}"
mkdir -p "$out"
export KAIROS_DESKTOP_E2E_OUT="$out"
export KAIROS_DESKTOP_E2E_RUN="$$-$(date +%s%N)"
xvfb_pid=""

ours() {
  # Pids (other than this shell) whose environment has this run's marker.
  local marker="KAIROS_DESKTOP_E2E_RUN=$KAIROS_DESKTOP_E2E_RUN" env pid
  for env in /proc/[0-9]*/environ; do
    pid=${env#/proc/}
    pid=${pid%/environ}
    [ "$pid" = "$$" ] || [ "$pid" = "$xvfb_pid" ] && continue
    if { tr '\0' '\n' <"$env"; } 2>/dev/null | grep -qxF "$marker"; then
      echo "$pid"
    fi
  done
}

cleanup() {
  local pids pid left
  pids=$(ours)
  if [ -n "$pids" ]; then
    say "ending leftover processes: $(for p in $pids; do tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | cut -c1-60; echo -n "($p); "; done)"
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null || true
    for _ in $(seq 50); do
      left=""
      for pid in $pids; do
        if [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
          left="$left $pid"
        fi
      done
      [ -z "$left" ] && break
      sleep 0.1
    done
    # shellcheck disable=SC2086
    [ -n "$left" ] && kill -KILL $left 2>/dev/null || true
  fi
  if [ -n "$xvfb_pid" ]; then
    kill -TERM "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Xvfb picks a free display itself and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp 3>"$out/display" >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 200); do
  [ -s "$out/display" ] && break
  if ! kill -0 "$xvfb_pid" 2>/dev/null; then
    say "Xvfb did not start:"; cat "$out/xvfb.log" >&2; exit 1
  fi
  sleep 0.1
done
if [ ! -s "$out/display" ]; then
  say "Xvfb did not report a display within 20 s"; exit 1
fi
export DISPLAY=":$(head -n1 "$out/display")"
say "display $DISPLAY, logs in $out"

# KAIROS_API_TOKEN of the caller must not leak into the app.
unset KAIROS_API_TOKEN
export PYTHONDONTWRITEBYTECODE=1  # leave nothing behind in the work tree
# The whole suite unless the arguments name test files or directories themselves.
paths=(tests/desktop)
for arg in "$@"; do
  case "$arg" in tests/*) paths=() ;; esac
done
# In the background, so that a TERM or INT to this script runs the clean-up at once.
dbus-run-session -- "$venv/bin/python" -m pytest "${paths[@]}" "$@" &
set +e
wait $!
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  say "FAILED (pytest exit $rc); logs in $out"
fi
exit "$rc"
