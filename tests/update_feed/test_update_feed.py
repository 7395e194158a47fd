"""scripts/update-feed.py with real files and real signatures: a throwaway key made by the Tauri
CLI (`tauri signer generate`), small files signed with it (`tauri signer sign --app-version`).
Run: bash scripts/update-feed-check.sh (installs the Tauri CLI and pytest first).
Env: KAIROS_TAURI_CLI, where the Tauri CLI is installed (default ~/.cache/kairos-tauri-cli).
"""

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "update-feed.py"
TAURI = Path(os.environ.get("KAIROS_TAURI_CLI", Path.home() / ".cache" / "kairos-tauri-cli")) \
    / "node_modules" / ".bin" / "tauri"
VERSION = "0.2.0"
PUB_DATE = "2026-03-01T12:00:00Z"
BASE = "https://github.com/kairos-scheduler/kairos/releases/download/v0.2.0"

# What the plugin (tauri-plugin-updater 2.14.1, updater.rs get_urls) looks up for each kind of
# installation: "<os>-<arch>-<installer>", then "<os>-<arch>".
RELEASE_FILES = {
    "Kairos_0.2.0_amd64.deb": ["linux-x86_64-deb"],
    "Kairos_0.2.0_amd64.AppImage": ["linux-x86_64-appimage", "linux-x86_64"],
    "Kairos_0.2.0_x64-setup.exe": ["windows-x86_64-nsis", "windows-x86_64"],
    "Kairos_0.2.0_aarch64.app.tar.gz": ["darwin-aarch64-app", "darwin-aarch64"],
    "Kairos_0.2.0_x64.app.tar.gz": ["darwin-x86_64-app", "darwin-x86_64"],
}


def tauri(*args, cwd):
    assert TAURI.exists(), f"no Tauri CLI at {TAURI}: run bash scripts/update-feed-check.sh"
    done = subprocess.run([str(TAURI), *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"tauri {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """Two throwaway key pairs (no password): the release's and a stranger's."""
    folder = tmp_path_factory.mktemp("keys")
    for name in ("release", "stranger"):
        tauri("signer", "generate", "--ci", "-p", "", "-w", str(folder / f"{name}.key"), cwd=folder)
    return folder


def sign(keys, path, version=VERSION, key="release"):
    args = ["signer", "sign", "-f", str(keys / f"{key}.key"), "-p", ""]
    if version is not None:
        args += ["--app-version", version]
    tauri(*args, str(path), cwd=path.parent)
    return (path.parent / (path.name + ".sig")).read_text().strip()


def make(folder, name, keys=None, **how):
    """A small file with this name (a different body for each name), signed unless keys is None."""
    path = folder / name
    path.write_bytes(b"update file " + name.encode() + b"\n")
    if keys is not None:
        sign(keys, path, **how)
    return path


def feed(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def written(tmp_path, files, *extra):
    out = tmp_path / "latest.json"
    done = feed("--version", VERSION, "--pub-date", PUB_DATE, "--base-url", BASE, "--out", out, *extra, *files)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def refused(args, *words):
    """Runs the script, which must exit 2 with a message holding each of words."""
    done = feed(*args)
    assert done.returncode == 2, f"exit {done.returncode}, stdout {done.stdout!r}, stderr {done.stderr!r}"
    assert done.stderr.startswith("update-feed: error: "), done.stderr
    for word in words:
        assert word in done.stderr, f"{word!r} not in {done.stderr!r}"
    return done.stderr


def base_args(tmp_path, version=VERSION):
    return ["--version", version, "--pub-date", PUB_DATE, "--base-url", BASE, "--out", tmp_path / "latest.json"]


def test_the_feed_names_each_file_under_every_key_the_plugin_looks_up(tmp_path, keys):
    files = [make(tmp_path, name, keys) for name in RELEASE_FILES]
    got = written(tmp_path, files, "--notes", "Faster previews.\n\nFixes the tray icon.")

    assert got["version"] == VERSION
    assert got["notes"] == "Faster previews.\n\nFixes the tray icon."
    assert got["pub_date"] == PUB_DATE
    assert sorted(got["platforms"]) == sorted(k for ks in RELEASE_FILES.values() for k in ks)
    for path in files:
        for key in RELEASE_FILES[path.name]:
            entry = got["platforms"][key]
            assert entry == {
                "signature": (tmp_path / (path.name + ".sig")).read_text().strip(),
                "url": f"{BASE}/{path.name}",
            }, key
    # Nothing for an .rpm (its package manager updates it): the plugin on an .rpm finds no
    # linux-x86_64-rpm and falls back to linux-x86_64, the AppImage, which it then refuses to
    # install as an .rpm; the window never asks (src-tauri/src/update/kind.rs).
    assert "linux-x86_64-rpm" not in got["platforms"]


def test_each_signature_is_the_tauri_signature_of_its_file_for_this_version(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    got = written(tmp_path, [deb])
    text = base64.b64decode(got["platforms"]["linux-x86_64-deb"]["signature"]).decode()
    lines = text.splitlines()
    assert lines[0] == "untrusted comment: signature from tauri secret key"
    assert re.fullmatch(r"trusted comment: timestamp:\d+\tfile:Kairos_0\.2\.0_amd64\.deb\tversion:0\.2\.0", lines[2])
    # The key id in the signature is the release key's (minisign: 2 bytes algorithm, 8 bytes id).
    public = base64.b64decode((keys / "release.key.pub").read_text()).decode().splitlines()
    assert base64.b64decode(lines[1])[2:10] == base64.b64decode(public[1])[2:10]


def test_the_plain_linux_key_is_the_appimage_even_with_the_deb_first(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    appimage = make(tmp_path, "Kairos_0.2.0_amd64.AppImage", keys)
    got = written(tmp_path, [deb, appimage])
    assert got["platforms"]["linux-x86_64"]["url"] == f"{BASE}/Kairos_0.2.0_amd64.AppImage"
    assert got["platforms"]["linux-x86_64-deb"]["url"] == f"{BASE}/Kairos_0.2.0_amd64.deb"
    # A .deb alone gives no plain key: the plugin would install what it names as an AppImage.
    assert sorted(written(tmp_path, [deb])["platforms"]) == ["linux-x86_64-deb"]


def test_other_architectures_and_a_universal_mac_build(tmp_path, keys):
    files = [make(tmp_path, name, keys) for name in (
        "Kairos_0.2.0_arm64.deb", "Kairos_0.2.0_aarch64.AppImage", "Kairos_0.2.0_arm64-setup.exe",
        "Kairos_0.2.0_x64_en-US.msi", "Kairos_0.2.0_universal.app.tar.gz")]
    got = written(tmp_path, files)
    assert sorted(got["platforms"]) == [
        "darwin-aarch64", "darwin-aarch64-app", "darwin-x86_64", "darwin-x86_64-app",
        "linux-aarch64", "linux-aarch64-appimage", "linux-aarch64-deb",
        "windows-aarch64", "windows-aarch64-nsis", "windows-x86_64-msi",
    ]
    assert got["platforms"]["darwin-x86_64-app"]["url"] == f"{BASE}/Kairos_0.2.0_universal.app.tar.gz"


def test_notes_from_a_file_a_v_prefix_a_base_url_with_a_slash_and_standard_output(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    notes = tmp_path / "notes.md"
    notes.write_text("## 0.2.0\n\n- Über-fast previews\n", encoding="utf-8")
    done = feed("--version", "v0.2.0", "--notes", f"@{notes}", "--pub-date", "2026-03-01T13:00:00.5+01:00",
                "--base-url", "http://127.0.0.1:8123/files/", "--out", "-", deb)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["version"] == "0.2.0"
    assert got["notes"] == "## 0.2.0\n\n- Über-fast previews"
    assert got["pub_date"] == "2026-03-01T13:00:00.5+01:00"
    assert got["platforms"]["linux-x86_64-deb"]["url"] == "http://127.0.0.1:8123/files/Kairos_0.2.0_amd64.deb"
    # @@ is a literal @.
    done = feed(*base_args(tmp_path)[:-2], "--out", "-", "--notes", "@@home", deb)
    assert json.loads(done.stdout)["notes"] == "@home"


def test_a_name_with_a_space_is_escaped_in_its_url(tmp_path, keys):
    deb = make(tmp_path, "Kairos Beta_0.2.0_amd64.deb", keys)
    got = written(tmp_path, [deb])
    assert got["platforms"]["linux-x86_64-deb"]["url"] == f"{BASE}/Kairos%20Beta_0.2.0_amd64.deb"


def test_without_a_pub_date_the_feed_carries_the_current_time(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    done = feed("--version", VERSION, "--base-url", BASE, "--out", "-", deb)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", json.loads(done.stdout)["pub_date"])


def test_pubkey_accepts_the_release_key_as_value_pub_file_or_tauri_config(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    pub = (keys / "release.key.pub").read_text().strip()
    config = tmp_path / "tauri.conf.json"
    config.write_text(json.dumps({"plugins": {"updater": {"pubkey": pub}}}))
    for value in (pub, f"@{keys / 'release.key.pub'}", f"@{config}"):
        assert written(tmp_path, [deb], "--pubkey", value)["platforms"]["linux-x86_64-deb"]


def test_a_signature_by_another_key_is_refused_with_pubkey(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys, key="stranger")
    refused([*base_args(tmp_path), "--pubkey", f"@{keys / 'release.key.pub'}", deb],
            "Kairos_0.2.0_amd64.deb.sig was made by key", "not by the key of --pubkey")
    refused([*base_args(tmp_path), "--pubkey", "not-a-key", deb], "--pubkey is not a Tauri public key")


def test_a_missing_sig_is_refused(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb")
    refused([*base_args(tmp_path), deb], "Kairos_0.2.0_amd64.deb: no signature beside it", "amd64.deb.sig is missing")


def test_a_missing_file_is_refused(tmp_path):
    refused([*base_args(tmp_path), tmp_path / "Kairos_0.2.0_amd64.deb"], "no such file")


@pytest.mark.parametrize("name, words", [
    ("Kairos_0.2.0_amd64.zip", ["Kairos_0.2.0_amd64.zip: unknown kind of update file", "_<arch>.deb"]),
    ("Kairos_0.2.0_amd64.snap", ["unknown kind of update file"]),
    ("Kairos-0.2.0-1.x86_64.rpm", ["Kairos-0.2.0-1.x86_64.rpm is an .rpm", "package manager"]),
    ("Kairos_0.2.0_aarch64.dmg", ["is a disk image", ".app.tar.gz"]),
    ("Kairos_0.2.0_amd64.AppImage.tar.gz", ["compressed update file of the v1 format", "zip"]),
    ("Kairos_0.2.0_x64-setup.nsis.zip", ["compressed update file of the v1 format"]),
    ("Kairos.app.tar.gz", ["Kairos.app.tar.gz: no architecture in the name"]),
    ("Kairos_0.2.0_sparc.deb", ["unknown architecture 'sparc' for a .deb"]),
    ("Kairos_0.2.0_amd64.deb.sig", ["is a signature; pass the update file it signs"]),
])
def test_an_unknown_or_unusable_kind_of_file_is_refused(tmp_path, keys, name, words):
    path = make(tmp_path, name, keys)
    refused([*base_args(tmp_path), path], *words)


@pytest.mark.parametrize("version", ["0.2", "latest", "01.2.3", "1.2.3.4", ""])
def test_a_version_that_is_not_semver_is_refused(tmp_path, keys, version):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    refused([*base_args(tmp_path, version), deb], f"--version '{version}' is not a semantic version")


def test_a_prerelease_version_is_semver(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.3.0-beta.1_amd64.deb", keys, version="0.3.0-beta.1")
    assert written_version(tmp_path, deb, "0.3.0-beta.1") == "0.3.0-beta.1"


def written_version(tmp_path, path, version):
    done = feed("--version", version, "--pub-date", PUB_DATE, "--base-url", BASE, "--out", "-", path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["version"]


def test_two_files_for_one_key_are_refused(tmp_path, keys):
    one = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    other = make(tmp_path, "kairos-nightly_0.2.0_amd64.deb", keys)
    refused([*base_args(tmp_path), one, other],
            "two files for linux-x86_64-deb: Kairos_0.2.0_amd64.deb and kairos-nightly_0.2.0_amd64.deb")
    # A universal mac build and an arm one both claim darwin-aarch64-app.
    arm = make(tmp_path, "Kairos_0.2.0_aarch64.app.tar.gz", keys)
    universal = make(tmp_path, "Kairos_0.2.0_universal.app.tar.gz", keys)
    refused([*base_args(tmp_path), arm, universal], "two files for darwin-aarch64")


def test_a_signature_for_another_version_or_none_is_refused_unless_told(tmp_path, keys):
    old = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys, version="0.1.0")
    refused([*base_args(tmp_path), old], "Kairos_0.2.0_amd64.deb.sig is signed for version 0.1.0, not 0.2.0")
    bare = make(tmp_path, "Kairos_0.2.0_amd64.AppImage", keys, version=None)
    refused([*base_args(tmp_path), bare], "Kairos_0.2.0_amd64.AppImage.sig names no version")
    # A test feed that announces a version other than the signed one (the app must refuse it).
    got = written(tmp_path, [old, bare], "--unchecked-signatures")
    assert sorted(got["platforms"]) == ["linux-x86_64", "linux-x86_64-appimage", "linux-x86_64-deb"]
    assert got["platforms"]["linux-x86_64-deb"]["signature"] == (tmp_path / (old.name + ".sig")).read_text().strip()


def test_a_sig_that_is_not_a_signature_is_refused(tmp_path):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb")
    (tmp_path / "Kairos_0.2.0_amd64.deb.sig").write_text("not base64 at all!")
    refused([*base_args(tmp_path), deb], "Kairos_0.2.0_amd64.deb.sig is not a Tauri signature")
    (tmp_path / "Kairos_0.2.0_amd64.deb.sig").write_text(base64.b64encode(b"hello\n").decode())
    refused([*base_args(tmp_path), deb], "is not a Tauri signature")
    # A test feed may carry it as it is (the app must refuse it), but not while checking a key.
    got = written(tmp_path, [deb], "--unchecked-signatures")
    assert got["platforms"]["linux-x86_64-deb"]["signature"] == base64.b64encode(b"hello\n").decode()
    refused([*base_args(tmp_path), "--unchecked-signatures", "--pubkey", "x", deb],
            "--pubkey checks the signatures, --unchecked-signatures does not")


@pytest.mark.parametrize("args, words", [
    (["--pub-date", "2026-03-01 12:00"], ["--pub-date '2026-03-01 12:00' is not an RFC 3339 date-time"]),
    (["--pub-date", "2026-02-30T12:00:00Z"], ["is not an RFC 3339 date-time"]),
    (["--base-url", "ftp://example.com/x"], ["--base-url 'ftp://example.com/x' is not an http(s) URL"]),
    (["--base-url", "releases/v0.2.0"], ["is not an http(s) URL"]),
    (["--notes", "@/nonexistent/notes.md"], ["--notes: cannot read /nonexistent/notes.md"]),
])
def test_bad_options_are_refused(tmp_path, keys, args, words):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb", keys)
    refused([*base_args(tmp_path), *args, deb], *words)


def test_nothing_is_written_when_refused(tmp_path, keys):
    deb = make(tmp_path, "Kairos_0.2.0_amd64.deb")
    refused([*base_args(tmp_path), deb], "no signature")
    assert not (tmp_path / "latest.json").exists()


def test_help_documents_the_command_line(tmp_path):
    done = feed("--help")
    assert done.returncode == 0
    for option in ("--version", "--notes", "--pub-date", "--base-url", "--out", "--pubkey",
                   "--unchecked-signatures", "UPDATE_FILE"):
        assert option in done.stdout, option
    # A missing required option is a usage error, status 2 as well.
    assert feed("--version", VERSION).returncode == 2


def test_the_release_config_makes_uncompressed_updater_artifacts():
    config = json.loads((ROOT / "src-tauri" / "tauri.release.conf.json").read_text())
    assert config["bundle"]["createUpdaterArtifacts"] is True


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_no_private_key_is_in_the_repository():
    # A Tauri private key file is base64 of "untrusted comment: rsign encrypted secret key\n...".
    needle = base64.b64encode(b"untrusted comment: rsign encrypted secret key")
    assert len(needle) == 60 and not needle.endswith(b"=")  # a prefix of the whole file's base64
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in tracked.splitlines():
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 1_000_000:
            continue
        assert needle not in path.read_bytes(), name
