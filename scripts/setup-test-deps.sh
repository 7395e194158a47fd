#!/usr/bin/env bash
# Install the Debian packages the test suite needs beyond the Rust toolchain. Idempotent: apt runs
# only when a package is missing, and through sudo only when not already root.
#   dbus, python3-dbusmock: a private session bus and a mock notification daemon for the
#   Notification action's tests (crates/kairos-engine/tests/notification.rs).
# Usage: bash scripts/setup-test-deps.sh
set -euo pipefail

packages=(dbus python3-dbusmock)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-test-deps: missing ${missing[*]} and no apt-get here; install them by hand" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "setup-test-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet; an old list may name files long gone.
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
