#!/usr/bin/env python3
"""Write the updater feed (latest.json) of a release, in the static JSON format of
tauri-plugin-updater 2.14, from the update files and the .sig beside each.

usage: update-feed.py --version VERSION --base-url URL --out FILE
                      [--notes TEXT|@FILE] [--pub-date RFC3339] [--pubkey KEY|@FILE]
                      [--unchecked-signatures] UPDATE_FILE...

The feed:
  {"version": "0.2.0", "notes": "...", "pub_date": "2026-03-01T12:00:00Z",
   "platforms": {"linux-x86_64-deb": {"signature": "<the .sig file>", "url": "<base-url>/<name>"},
                 ...}}

The platform key comes from the file name, as the Tauri bundler writes it:
  *_amd64.deb            linux-x86_64-deb        (also _arm64, _i386, _armhf, _riscv64)
  *_amd64.AppImage       linux-x86_64-appimage   and linux-x86_64 (also _aarch64, _i386, _armhf)
  *_x64-setup.exe        windows-x86_64-nsis     and windows-x86_64 (also _arm64, _x86)
  *_x64_en-US.msi        windows-x86_64-msi
  *_aarch64.app.tar.gz   darwin-aarch64-app      and darwin-aarch64 (also _x64; _universal gives both)
The plugin looks up "<os>-<arch>-<installer>" first and then "<os>-<arch>", and installs what the
plain key names as an AppImage on Linux, an .exe on Windows and an app bundle on macOS, so the
plain key names the AppImage, the NSIS setup and the .app.tar.gz. An .rpm is refused (the system's
package manager updates it), as are the zip/tar.gz update files of the v1 format (the updater is
built without its `zip` feature) and a .dmg.

Each .sig must be the minisign signature the Tauri CLI writes (`tauri signer sign --app-version`,
or the bundler with createUpdaterArtifacts), carrying `version:VERSION` in its trusted comment:
the app requires it (plugins.updater.requireSignedVersion). --unchecked-signatures copies each
.sig as it is, unchecked (a test feed that must carry a bad signature or announce a version
other than the signed one). --pubkey checks that
every signature was made by the key whose public half is given: the base64 value of
tauri.conf.json `plugins.updater.pubkey` (or of a .key.pub file), or @FILE naming such a .pub file
or a Tauri config holding plugins.updater.pubkey.

--notes @FILE reads the notes from FILE (@@text is the literal text "@text"). --pub-date defaults
to the current time. --out - writes to standard output.

Exit status: 0 written; 2 bad input (a missing .sig, an unknown file kind, a version that is not
semver, two files for one platform key, ...), with a message naming the problem.
"""

import argparse
import base64
import binascii
import datetime
import json
import os
import re
import sys
import urllib.parse

PROG = "update-feed"

# https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string
SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)
RFC3339 = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$"
)

# Architecture spellings of the bundler's file names -> the plugin's (updater_arch()).
DEB_ARCH = {"amd64": "x86_64", "arm64": "aarch64", "i386": "i686", "armhf": "armv7", "riscv64": "riscv64"}
APPIMAGE_ARCH = {"amd64": "x86_64", "x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64",
                 "i386": "i686", "i686": "i686", "armhf": "armv7", "riscv64": "riscv64"}
WINDOWS_ARCH = {"x64": "x86_64", "arm64": "aarch64", "x86": "i686"}
MAC_ARCH = {"aarch64": "aarch64", "x64": "x86_64", "x86_64": "x86_64",
            "universal": "aarch64 x86_64"}

# (pattern on the file name, os, installer, arch table, whether the plain "<os>-<arch>" key
# names this kind too)
KINDS = [
    (re.compile(r"_([A-Za-z0-9]+)\.deb$"), "linux", "deb", DEB_ARCH, False),
    (re.compile(r"_([A-Za-z0-9_]+?)\.AppImage$"), "linux", "appimage", APPIMAGE_ARCH, True),
    (re.compile(r"_([A-Za-z0-9]+)-setup\.exe$"), "windows", "nsis", WINDOWS_ARCH, True),
    (re.compile(r"_([A-Za-z0-9]+)_[A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*\.msi$"), "windows", "msi", WINDOWS_ARCH, False),
    (re.compile(r"_([A-Za-z0-9_]+?)\.app\.tar\.gz$"), "darwin", "app", MAC_ARCH, True),
]
REFUSED = [
    (re.compile(r"\.sig$"), "is a signature; pass the update file it signs (its .sig is read from beside it)"),
    (re.compile(r"\.rpm$"), "is an .rpm, which is not an update file: the system's package manager updates an .rpm installation"),
    (re.compile(r"\.(AppImage\.tar\.gz|nsis\.zip|msi\.zip)$"),
     "is a compressed update file of the v1 format; the updater is built without its `zip` feature, so "
     "build the uncompressed ones (bundle.createUpdaterArtifacts: true, not \"v1Compatible\")"),
    (re.compile(r"\.dmg$"), "is a disk image, which is not an update file: macOS updates from the .app.tar.gz"),
]
KNOWN = "_<arch>.deb, _<arch>.AppImage, _<arch>-setup.exe, _<arch>_<lang>.msi, _<arch>.app.tar.gz"


class Refused(Exception):
    """Bad input: reported on standard error, exit status 2."""


def platform_keys(name):
    """The feed keys a file of this name serves, the installer's key first."""
    for why in REFUSED:
        if why[0].search(name):
            raise Refused(f"{name} {why[1]}")
    for pattern, os_name, installer, arches, plain in KINDS:
        match = pattern.search(name)
        if not match:
            continue
        arch = match.group(1)
        if arch not in arches:
            raise Refused(f"{name}: unknown architecture '{arch}' for a .{installer} "
                          f"(known: {', '.join(sorted(arches))})")
        keys = []
        for plugin_arch in arches[arch].split():
            keys.append(f"{os_name}-{plugin_arch}-{installer}")
            if plain:
                keys.append(f"{os_name}-{plugin_arch}")
        return keys
    if name.endswith(".app.tar.gz"):
        raise Refused(f"{name}: no architecture in the name; rename it <name>_<arch>.app.tar.gz "
                      f"(aarch64, x64 or universal), and its .sig with it")
    raise Refused(f"{name}: unknown kind of update file (known: {KNOWN})")


def read_signature(path, version, check, key_id):
    """The contents of the .sig beside path, after checking it is a Tauri minisign signature."""
    sig_path = path + ".sig"
    name = os.path.basename(path)
    if not os.path.isfile(sig_path):
        raise Refused(f"{name}: no signature beside it ({sig_path} is missing); "
                      f"sign it with `tauri signer sign --app-version {version}`")
    with open(sig_path, "r", encoding="utf-8", errors="replace") as f:
        signature = f.read().strip()
    if not check:
        return signature
    try:
        text = base64.b64decode(signature, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise Refused(f"{os.path.basename(sig_path)} is not a Tauri signature (not base64 of a minisign signature)")
    lines = text.splitlines()
    if len(lines) < 4 or not lines[0].startswith("untrusted comment:") \
            or not lines[2].startswith("trusted comment:"):
        raise Refused(f"{os.path.basename(sig_path)} is not a Tauri signature (not a minisign signature)")
    if key_id is not None:
        try:
            raw = base64.b64decode(lines[1], validate=True)
        except binascii.Error:
            raw = b""
        if len(raw) != 74 or raw[2:10] != key_id:
            made_by = raw[2:10][::-1].hex().upper() if len(raw) == 74 else "?"
            raise Refused(f"{os.path.basename(sig_path)} was made by key {made_by}, not by the key of "
                          f"--pubkey ({key_id[::-1].hex().upper()}); the app would refuse the update")
    fields = lines[2][len("trusted comment:"):].strip().split("\t")
    signed = [f[len("version:"):] for f in fields if f.startswith("version:")]
    if not signed:
        raise Refused(f"{os.path.basename(sig_path)} names no version (signed without --app-version); "
                      f"the app requires one (requireSignedVersion)")
    if signed[0].lstrip("v") != version:
        raise Refused(f"{os.path.basename(sig_path)} is signed for version {signed[0]}, "
                      f"not {version}; the app would refuse the update")
    return signature


def public_key_id(value):
    """The 8-byte key id of a Tauri public key (base64 of a minisign .pub), given as the value
    itself or @FILE (a .pub file, or a JSON config with plugins.updater.pubkey)."""
    if value.startswith("@"):
        path = value[1:]
        try:
            with open(path, "r", encoding="utf-8") as f:
                value = f.read().strip()
        except OSError as e:
            raise Refused(f"--pubkey: cannot read {path}: {e.strerror}")
        if value.startswith("{"):
            try:
                value = json.loads(value)["plugins"]["updater"]["pubkey"]
            except (ValueError, KeyError, TypeError):
                raise Refused(f"--pubkey: {path} has no plugins.updater.pubkey")
    try:
        lines = base64.b64decode(value, validate=True).decode("utf-8").splitlines()
        raw = base64.b64decode(lines[1], validate=True)
    except (binascii.Error, UnicodeDecodeError, IndexError):
        raise Refused("--pubkey is not a Tauri public key (base64 of a minisign public key)")
    if len(raw) != 42:
        raise Refused("--pubkey is not a Tauri public key (base64 of a minisign public key)")
    return raw[2:10]


def read_notes(value):
    if value is None:
        return ""
    if value.startswith("@@"):
        return value[1:]
    if value.startswith("@"):
        try:
            with open(value[1:], "r", encoding="utf-8") as f:
                return f.read().strip()
        except OSError as e:
            raise Refused(f"--notes: cannot read {value[1:]}: {e.strerror}")
    return value


def build_feed(args):
    version = args.version[1:] if args.version.startswith("v") else args.version
    if not SEMVER.match(version):
        raise Refused(f"--version '{args.version}' is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.2.3)")
    if args.pub_date is None:
        pub_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    else:
        pub_date = args.pub_date
        try:
            ok = RFC3339.match(pub_date) and datetime.datetime.fromisoformat(pub_date.upper().replace("Z", "+00:00"))
        except ValueError:
            ok = False
        if not ok:
            raise Refused(f"--pub-date '{pub_date}' is not an RFC 3339 date-time (e.g. 2026-03-01T12:00:00Z)")
    base = urllib.parse.urlsplit(args.base_url)
    if base.scheme not in ("http", "https") or not base.netloc or base.query or base.fragment:
        raise Refused(f"--base-url '{args.base_url}' is not an http(s) URL of a folder")
    base_url = args.base_url.rstrip("/")
    if args.pubkey is not None and args.unchecked_signatures:
        raise Refused("--pubkey checks the signatures, --unchecked-signatures does not: give one of them")
    key_id = public_key_id(args.pubkey) if args.pubkey is not None else None
    notes = read_notes(args.notes)

    platforms = {}
    owner = {}
    for path in args.files:
        name = os.path.basename(path)
        keys = platform_keys(name)
        if not os.path.isfile(path):
            raise Refused(f"{path}: no such file")
        signature = read_signature(path, version, not args.unchecked_signatures, key_id)
        entry = {"signature": signature, "url": f"{base_url}/{urllib.parse.quote(name)}"}
        for key in keys:
            if key in owner:
                raise Refused(f"two files for {key}: {owner[key]} and {name}")
            owner[key] = name
            platforms[key] = entry
    return {
        "version": version,
        "notes": notes,
        "pub_date": pub_date,
        "platforms": dict(sorted(platforms.items())),
    }


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="update-feed.py",
        description="Write the updater feed (latest.json) of a release, in tauri-plugin-updater's "
                    "static JSON format, from the update files and the .sig beside each.",
        epilog="Platform keys from file names: _amd64.deb -> linux-x86_64-deb; _amd64.AppImage -> "
               "linux-x86_64-appimage and linux-x86_64; _x64-setup.exe -> windows-x86_64-nsis and "
               "windows-x86_64; _x64_en-US.msi -> windows-x86_64-msi; _aarch64.app.tar.gz / "
               "_x64.app.tar.gz -> darwin-<arch>-app and darwin-<arch> (_universal: both). "
               ".rpm, .dmg and v1 .zip/.tar.gz update files are refused. Exit status 2 on bad input.",
    )
    parser.add_argument("--version", required=True,
                        help="the release's version, semver (a leading v is dropped: v1.2.3 -> 1.2.3)")
    parser.add_argument("--notes", help="release notes: the text, or @FILE to read them from FILE (default: none)")
    parser.add_argument("--pub-date", help="publication date-time, RFC 3339 (default: now, UTC)")
    parser.add_argument("--base-url", required=True,
                        help="http(s) URL of the folder the update files are served from; each url is BASE-URL/<file name>")
    parser.add_argument("--out", required=True, help="where to write the feed (- for standard output)")
    parser.add_argument("--pubkey", metavar="KEY|@FILE",
                        help="check every signature was made by this key: tauri.conf.json's plugins.updater.pubkey "
                             "value, or @FILE (a .pub file or a Tauri config)")
    parser.add_argument("--unchecked-signatures", action="store_true",
                        help="copy each .sig as it is, without checking that it is a Tauri signature made "
                             "for --version (test feeds only; not with --pubkey)")
    parser.add_argument("files", nargs="+", metavar="UPDATE_FILE",
                        help="an update file (NSIS setup .exe, .deb, .AppImage, .app.tar.gz) with FILE.sig beside it")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        feed = build_feed(args)
    except Refused as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    text = json.dumps(feed, indent=2, ensure_ascii=False) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        tmp = args.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.out)
        print(f"{PROG}: wrote {args.out}: {feed['version']}, {', '.join(feed['platforms'])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
