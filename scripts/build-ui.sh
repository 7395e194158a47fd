#!/usr/bin/env bash
# Build the desktop UI into ui/dist, which the Tauri app embeds at compile time (so this runs
# before any cargo build of the workspace). `npm ci` only when the lock file changed. The window's
# translation catalogs are compiled first (strict: a missing translation fails the build).
# Usage: bash scripts/build-ui.sh
set -euo pipefail
cd "$(dirname "$0")/../ui"
stamp=node_modules/.kairos-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
npm run i18n:compile
npm run build
