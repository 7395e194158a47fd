#!/usr/bin/env bash
# Build Kairos for Windows (x86_64-pc-windows-gnu) on Linux with Debian's mingw-w64, and lint the
# workspace for that target. The programs land in $CARGO_TARGET_DIR/x86_64-pc-windows-gnu/PROFILE.
# See ../shared/notes/cross-building.md; scripts/wine-e2e.sh runs them under Wine.
# Usage: bash scripts/windows-build.sh [--release] [--no-clippy]
# Env:   CARGO_TARGET_DIR  default $HOME/.cache/kairos-target
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
target=x86_64-pc-windows-gnu
profile_args=()
clippy=1
for a in "$@"; do
  case "$a" in
    --release) profile_args=(--release) ;;
    --no-clippy) clippy=0 ;;
    *) echo "windows-build: unknown argument $a" >&2; exit 2 ;;
  esac
done

rustup target add "$target" >/dev/null 2>&1 || rustup target add "$target"
bash scripts/apt-install.sh gcc-mingw-w64-x86-64
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
# The desktop crate embeds ui/dist at compile time.
[ -f ui/dist/index.html ] || bash scripts/build-ui.sh

if [ "$clippy" = 1 ]; then
  echo "windows-build: cargo clippy --target $target"
  cargo clippy --workspace --all-targets --target "$target" -- -D warnings
fi
echo "windows-build: kairos.exe, kairos-tray.exe, kairos-desktop.exe"
cargo build "${profile_args[@]}" --target "$target" -p kairos-cli -p kairos-tray -p kairos-desktop
