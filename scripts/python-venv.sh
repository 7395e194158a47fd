#!/usr/bin/env bash
# Create (if needed) a Python venv and install pinned requirements into it, again only when the
# requirements file changed.
# Usage: bash scripts/python-venv.sh VENV_DIR REQUIREMENTS_FILE
set -euo pipefail
venv="$1"
req="$2"
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv"; then
    # Debian's own python3 needs the venv module from a separate package.
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      rm -rf "$venv"
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv >/dev/null
      python3 -m venv "$venv"
    else
      echo "python-venv: python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
      exit 1
    fi
  fi
fi
stamp="$venv/.kairos-requirements"
if ! cmp -s "$req" "$stamp"; then
  "$venv/bin/python" -m pip install --disable-pip-version-check --quiet -r "$req"
  cp "$req" "$stamp"
fi
