#!/usr/bin/env bash
# The window's catalogs are what `lingui extract --clean` makes of the sources: every message in
# the code is in them (and translated: `i18n:compile --strict` in build-ui.sh fails otherwise), and
# none is left that the code no longer uses. Fails with the diff when a message was added,
# changed or removed without running `npm run i18n:extract`. Only the extraction date may differ.
# Usage: bash ui/scripts/i18n-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent i18n:extract >/dev/null
if ! git diff --exit-code -I '^"POT-Creation-Date' -- src/locales; then
  echo "i18n-check: the catalogs differ from the sources; run 'npm run i18n:extract' in ui/, translate what is new, and commit src/locales" >&2
  exit 1
fi
# Leave the tree as it was (only the extraction dates changed).
git checkout -- src/locales
echo "i18n-check: the catalogs match the sources"
