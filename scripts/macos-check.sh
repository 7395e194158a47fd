#!/usr/bin/env bash
# Type-check and lint Kairos for macOS (aarch64-apple-darwin) on Linux: `cargo clippy` with
# -D warnings over the whole workspace. Linking needs Apple's SDK, which is not available here,
# so nothing is built for macOS; build scripts that compile C for the target use zig's clang
# (tools/cross/zigcc-macos.sh). See ../shared/notes/cross-building.md and docs/architecture.md.
# Usage: bash scripts/macos-check.sh [extra clippy args...]
# Env:   CARGO_TARGET_DIR  default $HOME/.cache/kairos-target
#        KAIROS_ZIG_VENV   default $HOME/.cache/kairos-cross-venv
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
export KAIROS_ZIG_VENV="${KAIROS_ZIG_VENV:-$HOME/.cache/kairos-cross-venv}"

rustup target add aarch64-apple-darwin >/dev/null 2>&1 || rustup target add aarch64-apple-darwin
bash scripts/python-venv.sh "$KAIROS_ZIG_VENV" tools/cross/requirements.txt
# The desktop crate embeds ui/dist at compile time.
[ -f ui/dist/index.html ] || bash scripts/build-ui.sh

export CC_aarch64_apple_darwin="$PWD/tools/cross/zigcc-macos.sh"
export AR_aarch64_apple_darwin="$PWD/tools/cross/zigar.sh"
cargo clippy --workspace --all-targets --target aarch64-apple-darwin "$@" -- -D warnings
