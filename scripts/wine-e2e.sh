#!/usr/bin/env bash
# Run the Windows build of Kairos under Wine and check it against the Linux build and the Azure
# Python SDK: `kairos.exe preview` prints what `kairos preview` prints for every file in
# examples/; `kairos.exe serve` passes the SDK end-to-end tests that need no Linux-only part;
# `kairos-tray.exe`, with no window, fires a due job that another process wrote; kairos-local's
# tests (the login item in the registry) pass as Windows programs.
# Usage: bash scripts/wine-e2e.sh [pytest args...]
# Env:   CARGO_TARGET_DIR   default $HOME/.cache/kairos-target
#        KAIROS_WINEPREFIX  the Wine prefix, made once (default $HOME/.cache/kairos-wine)
#        KAIROS_VENV        the SDK test venv (default $HOME/.cache/kairos-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
say() { echo "wine-e2e: $*" >&2; }

bash scripts/apt-install.sh wine64 wine gcc-mingw-w64-x86-64 xvfb xauth
# Debian puts the 64-bit loader here; plain `wine` tries the 32-bit side, which is not installed.
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64)

# The programs: Windows (debug, as the other tests) and the Linux CLI to compare with.
bash scripts/windows-build.sh --no-clippy
cargo build --quiet -p kairos-cli
windir="$CARGO_TARGET_DIR/x86_64-pc-windows-gnu/debug"

# Wine 8 lacks ProcessPrng (bcryptprimitives.dll), which Rust's standard library imports.
shim="$windir/bcryptprimitives.dll"
if [ ! -f "$shim" ] || [ tools/wine/bcryptprimitives.c -nt "$shim" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -o "$shim" tools/wine/bcryptprimitives.c -ladvapi32
fi

# A private prefix, made once (wineboot takes ~20 s); no display: its window errors are harmless.
export WINEPREFIX="${KAIROS_WINEPREFIX:-$HOME/.cache/kairos-wine}"
export WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  say "making the Wine prefix $WINEPREFIX"
  mkdir -p "$WINEPREFIX"
  "$wine" wineboot -u >/dev/null 2>&1 || true
  "$wine" wineserver -w 2>/dev/null || /usr/lib/wine/wineserver -w || true
fi

# One wineserver for the whole run (-p: it stays until killed), ended when the script ends.
# Without it every wine process starts its own, which exits 3 s after its last client, and a
# program started as it exits fails with "wine client error:0: recvmsg: Connection reset by
# peer" (a CI check failed so in test_preview.py).
wineserver=/usr/lib/wine/wineserver64
[ -x "$wineserver" ] || wineserver=/usr/lib/wine/wineserver
"$wineserver" -p
trap '"$wineserver" -k 2>/dev/null || true' EXIT

venv="${KAIROS_VENV:-$HOME/.cache/kairos-venv}"
bash scripts/python-venv.sh "$venv" tests/e2e/requirements.txt

export KAIROS_WINE="$wine"
export KAIROS_WINDOWS_DIR="$windir"
export KAIROS_LINUX_BIN="$CARGO_TARGET_DIR/debug/kairos"
unset KAIROS_API_TOKEN
export PYTHONDONTWRITEBYTECODE=1

say "kairos-local's tests (data directory, login item in the registry) as Windows programs"
# cargo runs each test program through Wine; the shim must sit next to them too.
mkdir -p "$windir/deps"
cp "$shim" "$windir/deps/"
CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$wine" \
  cargo test --quiet --target x86_64-pc-windows-gnu -p kairos-local

say "Windows-only checks: preview, tray runner"
"$venv/bin/python" -m pytest tests/windows "$@"

say "the SDK end-to-end suite against kairos.exe serve"
# The whole suite, as on Linux; Azurite (installed by scripts/e2e.sh's rule) for the queue tests.
export KAIROS_AZURITE_QUEUE="$(bash scripts/install-azurite.sh)"
KAIROS_BIN="$windir/kairos.exe" "$venv/bin/python" -m pytest tests/e2e "$@"
