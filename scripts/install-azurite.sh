#!/usr/bin/env bash
# Install Azurite (the Storage queue service of the queue tests) from the npm registry into a
# cache outside the clone, if the pinned version is not there; print the azurite-queue path.
# Usage: bash scripts/install-azurite.sh      Env: KAIROS_NPM_PREFIX (default $HOME/.cache/kairos-npm)
set -euo pipefail
azurite_version=3.37.0
npm_prefix="${KAIROS_NPM_PREFIX:-$HOME/.cache/kairos-npm}"
installed=$(node -p "require('$npm_prefix/node_modules/azurite/package.json').version" 2>/dev/null || true)
if [ "$installed" != "$azurite_version" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-azurite: npm is needed to install Azurite (on Debian/Ubuntu: apt-get install nodejs npm)" >&2
    exit 1
  fi
  mkdir -p "$npm_prefix"
  npm install --prefix "$npm_prefix" --save-exact --no-audit --no-fund --loglevel=error \
    "azurite@$azurite_version" >&2
fi
echo "$npm_prefix/node_modules/.bin/azurite-queue"
