#!/usr/bin/env bash
# Make the installers with the Tauri bundler from programs already built: the window
# (kairos-desktop) with `kairos` and `kairos-tray` beside it (bundle.externalBin, added by
# src-tauri/tauri.bundle.conf.json), the menu entry and the icons.
# Usage: bash scripts/package.sh [--release] [--target TRIPLE] --bundles deb,rpm|nsis|app,dmg
#   Builds nothing: run `cargo build [--release] [--target T] -p kairos-cli -p kairos-tray
#   -p kairos-desktop` first (scripts/package-deb-check.sh does both for the .deb).
# Env:   CARGO_TARGET_DIR  default $HOME/.cache/kairos-target
#        KAIROS_TAURI_CLI  where the Tauri CLI is installed (default $HOME/.cache/kairos-tauri-cli)
#        KAIROS_BUNDLE_CONFIG_EXTRA  a further Tauri config (a file or a JSON string) merged after
#                          tauri.bundle.conf.json, e.g. src-tauri/tauri.release.conf.json (the release:
#                          signed updater artifacts; needs TAURI_SIGNING_PRIVATE_KEY[_PASSWORD])
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
profile=debug
target=""
bundles=""
while [ $# -gt 0 ]; do
  case "$1" in
    --release) profile=release ;;
    --target) target="$2"; shift ;;
    --bundles) bundles="$2"; shift ;;
    *) echo "package: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$bundles" ] || { echo "package: --bundles is required" >&2; exit 2; }

tauri=$(bash scripts/tauri-cli.sh)

host=$(rustc -vV | sed -n 's/^host: //p')
triple="${target:-$host}"
built="$CARGO_TARGET_DIR/${target:+$target/}$profile"
exe=""
case "$triple" in *windows*) exe=.exe ;; esac
# externalBin wants each program named for its target triple; the bundler installs it under
# its plain name next to the window's program.
mkdir -p src-tauri/binaries
for program in kairos kairos-tray; do
  cp "$built/$program$exe" "src-tauri/binaries/$program-$triple$exe"
done

args=(bundle --bundles "$bundles" --config src-tauri/tauri.bundle.conf.json)
[ -n "${KAIROS_BUNDLE_CONFIG_EXTRA:-}" ] && args+=(--config "$KAIROS_BUNDLE_CONFIG_EXTRA")
[ "$profile" = debug ] && args+=(--debug)
[ -n "$target" ] && args+=(--target "$target")
# The bundler writes the installer's kind into the window's program in place (what
# tauri::utils::platform::bundle_type reads, and so the updater). Cargo hard-links that file to
# its own copy in deps/, so the mark would stay on every later build and the programs the tests
# run would think they came from a .deb. The bundler gets a copy of its own, and the unmarked
# program is put back afterwards.
window="$built/kairos-desktop$exe"
pristine="$built/.kairos-desktop-unbundled$exe"
cp "$window" "$pristine"
cp "$window" "$window.tmp" && mv -f "$window.tmp" "$window"
restore() { mv -f "$pristine" "$window"; }
trap restore EXIT
"$tauri" "${args[@]}"
echo "package: bundles in $built/bundle"
