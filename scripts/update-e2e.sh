#!/usr/bin/env bash
# The self-update end-to-end test (issue 32), on Linux with the real .deb:
#   1. a throwaway minisign key pair (made once per machine in the work directory, never in the
#      repository) whose public half is compiled into both versions through TAURI_CONFIG;
#   2. the "old" Kairos: this tree as it is, packed as a .deb and installed with apt;
#   3. the "new" Kairos: a copy of this tree with the next patch version, packed and signed
#      (`tauri signer sign --app-version`, what the release does);
#   4. tests/update (the real window under Xvfb through tauri-driver, the installed programs):
#      "Skip this version" (the start check passes it over, a check on demand still offers it);
#      refusals first (a bad signature, a truncated download, a feed that is not JSON, an older
#      version), then the update itself, checked from outside (dpkg, /proc, the database);
#      and the .rpm's window (unpacked) leaves updates to the package manager;
#   5. the package removed again and this tree's programs rebuilt as they were.
# It installs a package system-wide, so it needs root or sudo (CI and the dev machine have it).
# Usage: bash scripts/update-e2e.sh [pytest args]
# Env:   KAIROS_UPDATE_E2E_WORK  work directory (default $HOME/.cache/kairos-update-e2e): the key,
#                                the copy of the tree (kept, so the next run builds only changes)
#        KAIROS_UPDATE_E2E_REUSE=1  reuse the packages of the last run (while writing the test)
#        CARGO_TARGET_DIR        default $HOME/.cache/kairos-target (shared by both trees: cargo
#                                hashes path crates relative to their workspace, so the copy's
#                                artifacts replace this tree's; the cleanup builds these again)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
work="${KAIROS_UPDATE_E2E_WORK:-$HOME/.cache/kairos-update-e2e}"
say() { echo "update-e2e: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# sudo: the updater's last way to run `dpkg -i` (it tries pkexec, then zenity/kdialog for a
# password, then sudo); as root sudo asks nothing. pkexec, zenity and kdialog are not installed
# here, so the test takes the sudo path; on a desktop pkexec asks for the password.
bash scripts/apt-install.sh dpkg-dev sudo rpm2cpio cpio
if dpkg-query -W -f '${Status}' kairos 2>/dev/null | grep -q 'install ok installed'; then
  say "a kairos package is installed on this machine; this test installs and removes its own, so it stops here"
  exit 1
fi
[ -f ui/dist/index.html ] || bash scripts/build-ui.sh

# The Tauri CLI (its signer).
tauri=$(bash scripts/tauri-cli.sh)

# --- 1. Keys: the one the apps trust, and another whose signatures they must refuse.
mkdir -p "$work/keys"
for name in trusted other; do
  [ -s "$work/keys/$name.key" ] || "$tauri" signer generate --ci -p "" -f -w "$work/keys/$name.key" >/dev/null
done
pubkey=$(cat "$work/keys/trusted.key.pub")
# Compiled into the window (tauri-build reads TAURI_CONFIG), merged over tauri.conf.json.
export TAURI_CONFIG="{\"plugins\":{\"updater\":{\"pubkey\":\"$pubkey\"}}}"

version_of() { sed -n 's/^ *"version": "\(.*\)",$/\1/p' "$1/src-tauri/tauri.conf.json" | head -1; }
old=$(version_of "$root")
new=$(python3 -c 'import sys; a, b, c = sys.argv[1].split("."); print(f"{a}.{b}.{int(c) + 1}")' "$old")
bundle_dir="$CARGO_TARGET_DIR/debug/bundle/deb"
mkdir -p "$work/files"

package() {  # package <tree> <out.deb> [bundles]: build the three programs there and pack them
  (cd "$1" && cargo build -p kairos-cli -p kairos-tray -p kairos-desktop \
    && rm -rf "$bundle_dir" "$(dirname "$bundle_dir")/rpm" && bash scripts/package.sh --bundles "${3:-deb}")
  cp "$bundle_dir"/*.deb "$2"
}

if [ "${KAIROS_UPDATE_E2E_REUSE:-}" = 1 ] && [ -s "$work/files/old.deb" ] && [ -x "$work/rpm-root/usr/bin/kairos-desktop" ] && ls "$work"/files/new/*.deb.sig >/dev/null 2>&1; then
  say "reusing the packages in $work/files"
else
# --- 2. The old version: this tree.
say "building Kairos $old (this tree) with the test key"
package "$root" "$work/files/old.deb" deb,rpm
# The .rpm of the same version, unpacked (no rpm database on Debian): its window must leave
# updates to the package manager.
rm -rf "$work/rpm-root" && mkdir -p "$work/rpm-root"
# Debian's rpm2cpio exits 1 on the bundler's .rpm although it writes it whole (package-deb-check.sh).
(cd "$work/rpm-root" && { rpm2cpio "$(dirname "$bundle_dir")"/rpm/*.rpm || true; } | cpio -idm --quiet)

# --- 3. The new version: a copy of the tree (its sources only) with the next patch version.
say "building Kairos $new (a copy of this tree in $work/next)"
mkdir -p "$work/next"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work/next"
mkdir -p "$work/next/ui/dist" && cp -r ui/dist/. "$work/next/ui/dist/"
sed -i "0,/^version = \"$old\"/s//version = \"$new\"/" "$work/next/Cargo.toml"
sed -i "s/\"version\": \"$old\"/\"version\": \"$new\"/" "$work/next/src-tauri/tauri.conf.json"
grep -q "^version = \"$new\"" "$work/next/Cargo.toml" || { say "could not set version $new in the copy's Cargo.toml"; exit 1; }
# ... and a schema one step newer, as a release that changes the database has: the new version
# must migrate the old database forward once, and the old one, installed again, must refuse it.
python3 - "$work/next/crates/kairos-engine/src/store/migrations.rs" <<'PY'
import sys
path = sys.argv[1]
source = open(path).read()
start = source.index("pub const MIGRATIONS")
end = source.index("\n];", start)
probe = '\n    "CREATE TABLE update_e2e_probe (id INTEGER PRIMARY KEY);",'
open(path, "w").write(source[:end] + probe + source[end:])
PY
# The bundler's file name: scripts/update-feed.py (the release's feed writer, which the test
# uses too) takes the platform from it.
new_deb="Kairos_${new}_amd64.deb"
rm -rf "$work/files/new" "$work/files/other"
mkdir -p "$work/files/new" "$work/files/other"
package "$work/next" "$work/files/new/$new_deb"
"$tauri" signer sign --app-version "$new" -f "$work/keys/trusted.key" -p "" "$work/files/new/$new_deb" >/dev/null
cp "$work/files/new/$new_deb" "$work/files/other/$new_deb"
"$tauri" signer sign --app-version "$new" -f "$work/keys/other.key" -p "" "$work/files/other/$new_deb" >/dev/null
fi

# --- 4. Install the old version and run the tests.
cleanup() {
  as_root dpkg -r kairos >/dev/null 2>&1 || true
  [ "${KAIROS_UPDATE_E2E_REUSE:-}" = 1 ] && return
  # This tree's programs as they were: without the test key, and uplifted again over the copy's.
  (cd "$root" && env -u TAURI_CONFIG cargo build -q -p kairos-cli -p kairos-tray -p kairos-desktop) || true
}
trap cleanup EXIT
say "installing Kairos $old from its .deb"
as_root apt-get install -y -q --allow-downgrades "$work/files/old.deb" >/dev/null
[ "$(dpkg-query -W -f '${Version}' kairos)" = "$old" ] || { say "kairos $old is not installed"; exit 1; }

unset TAURI_CONFIG
export KAIROS_UPDATE_FILES="$work/files" KAIROS_UPDATE_KEYS="$work/keys" KAIROS_UPDATE_OLD="$old" KAIROS_UPDATE_NEW="$new"
KAIROS_DESKTOP_BIN=/usr/bin/kairos-desktop bash scripts/desktop-e2e.sh tests/update/test_skip.py tests/update/test_update.py "$@"
KAIROS_DESKTOP_BIN="$work/rpm-root/usr/bin/kairos-desktop" bash scripts/desktop-e2e.sh tests/update/test_rpm.py "$@"
