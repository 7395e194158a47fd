#!/usr/bin/env bash
# The Tauri CLI, prebuilt from the npm registry (cargo install tauri-cli would compile ~500
# crates), installed outside the clone and again only when tools/bundle/package.json changes.
# Prints the path of its `tauri` program. Used by package.sh (the bundler), update-e2e.sh and
# update-feed-check.sh (the signer).
# Env:   KAIROS_TAURI_CLI  where it is installed (default $HOME/.cache/kairos-tauri-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
cli="${KAIROS_TAURI_CLI:-$HOME/.cache/kairos-tauri-cli}"
if ! cmp -s tools/bundle/package.json "$cli/package.json"; then
  mkdir -p "$cli"
  cp tools/bundle/package.json "$cli/package.json"
  npm install --prefix "$cli" --no-audit --no-fund --loglevel=error >&2
fi
echo "$cli/node_modules/.bin/tauri"
