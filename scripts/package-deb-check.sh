#!/usr/bin/env bash
# Build the .deb and the .rpm (the programs as the tests built them), check what each holds,
# unpack each into a temporary root (dpkg-deb -x; rpm2cpio | cpio) and run kairos from there.
# Usage: bash scripts/package-deb-check.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
profile=debug
cargo_profile=()
if [ "${1:-}" = --release ]; then
  profile=release
  cargo_profile=(--release)
fi
say() { echo "package-deb-check: $*" >&2; }

bash scripts/apt-install.sh dpkg-dev rpm2cpio cpio
[ -f ui/dist/index.html ] || bash scripts/build-ui.sh
cargo build "${cargo_profile[@]}" -p kairos-cli -p kairos-tray -p kairos-desktop
rm -rf "$CARGO_TARGET_DIR/$profile/bundle/deb" "$CARGO_TARGET_DIR/$profile/bundle/rpm"
bash scripts/package.sh ${cargo_profile:+--release} --bundles deb,rpm
version=$(sed -n 's/^ *"version": "\(.*\)",$/\1/p' src-tauri/tauri.conf.json | head -1)
deb=$(ls "$CARGO_TARGET_DIR/$profile/bundle/deb/"*.deb)
say "built $deb ($(du -h "$deb" | cut -f1))"

contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's,^\./,,')
for want in usr/bin/kairos usr/bin/kairos-tray usr/bin/kairos-desktop \
  usr/share/applications/Kairos.desktop usr/share/icons/hicolor/128x128/apps/kairos-desktop.png; do
  if ! grep -qxF "$want" <<<"$contents"; then
    say "the .deb lacks $want; it holds:"
    echo "$contents" >&2
    exit 1
  fi
done
fields=$(dpkg-deb -f "$deb" Package Version Depends)
grep -q "^Version: $version$" <<<"$fields" || { say "wrong version: $fields"; exit 1; }
grep -q "libwebkit2gtk-4.1-0" <<<"$fields" || { say "no WebKitGTK dependency: $fields"; exit 1; }
desktop=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO usr/share/applications/Kairos.desktop)
grep -q '^Exec=kairos-desktop' <<<"$desktop" || { say "menu entry does not start the window: $desktop"; exit 1; }

root=$(mktemp -d)
rpm_root=$(mktemp -d)
trap 'rm -rf "$root" "$rpm_root"' EXIT
dpkg-deb -x "$deb" "$root"
got=$("$root/usr/bin/kairos" --version)
[ "$got" = "kairos $version" ] || { say "kairos --version printed '$got', not 'kairos $version'"; exit 1; }
# The installed CLI works, not just starts: a preview of an example job.
"$root/usr/bin/kairos" preview --now 2026-03-01T00:00:00Z --count 3 examples/last-friday.json \
  | grep -q '2026-03-27T05:15:00Z' || { say "the installed kairos cannot preview"; exit 1; }
say "ok: $(basename "$deb") holds kairos, kairos-tray, kairos-desktop, the menu entry and icons; kairos $version runs from it"

# The .rpm (Fedora, openSUSE): the same files, unpacked without rpm itself.
rpm=$(ls "$CARGO_TARGET_DIR/$profile/bundle/rpm/"*.rpm)
say "built $rpm ($(du -h "$rpm" | cut -f1))"
# Debian's rpm2cpio exits 1 on the Tauri bundler's .rpm although it writes the whole payload
# (seen: every file there, the programs run); the file checks below are what count.
(cd "$rpm_root" && { rpm2cpio "$rpm" || true; } | cpio -idm --quiet)
for want in usr/bin/kairos usr/bin/kairos-tray usr/bin/kairos-desktop \
  usr/share/applications/Kairos.desktop usr/share/icons/hicolor/128x128/apps/kairos-desktop.png; do
  [ -f "$rpm_root/$want" ] || { say "the .rpm lacks $want"; (cd "$rpm_root" && find . -type f) >&2; exit 1; }
done
got=$("$rpm_root/usr/bin/kairos" --version)
[ "$got" = "kairos $version" ] || { say "kairos from the .rpm printed '$got', not 'kairos $version'"; exit 1; }
say "ok: $(basename "$rpm") holds the same programs, menu entry and icons; kairos $version runs from it"
