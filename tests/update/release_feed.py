"""The loopback release server of the self-update tests (tests/update): feeds under
/<case>/latest.json, written by scripts/update-feed.py as the release writes them, and the update
files scripts/update-e2e.sh built and signed."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

FILES = Path(os.environ.get("KAIROS_UPDATE_FILES", "/nonexistent"))
KEYS = Path(os.environ.get("KAIROS_UPDATE_KEYS", "/nonexistent"))
ROOT = Path(__file__).resolve().parents[2]
OLD = os.environ.get("KAIROS_UPDATE_OLD", "")
NEW = os.environ.get("KAIROS_UPDATE_NEW", "")
NOTES = "Kairos {new}\n\n- Fixes the update test's imaginary bug.\n- Line two of the notes."


def installed_version() -> str:
    """The version of the kairos package dpkg shows installed."""
    return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "kairos"],
                          capture_output=True, text=True, check=True).stdout


class Feed:
    """The loopback release server: feeds under /<case>/latest.json and the update files."""

    def __init__(self):
        self.hits: list[str] = []
        feed = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                feed.hits.append(self.path)
                body, kind, cut = feed.answer(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                # A truncated download: the whole length announced, half of it sent, then closed.
                self.wfile.write(body[: len(body) // 2] if cut else body)
                if cut:
                    self.wfile.flush()
                    self.close_connection = True

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def written(self, folder: str, *checks: str) -> bytes:
        """The feed for the file in FILES/<folder>, as the release writes it (scripts/update-feed.py),
        served from /<folder>/."""
        deb = next((FILES / folder).glob("*.deb"))
        return subprocess.run(
            [sys.executable, str(ROOT / "scripts/update-feed.py"), "--version", NEW, "--notes",
             NOTES.format(new=NEW), "--pub-date", "2026-11-20T09:30:00Z", "--base-url",
             f"{self.url}/{folder}", "--out", "-", *checks, str(deb)],
            capture_output=True, check=True).stdout

    def answer(self, path: str):
        json_type = "application/json"
        if path == "/good/latest.json":
            # Checked against the key the old version trusts, as the release's publish job does.
            return self.written("new", "--pubkey", f"@{KEYS / 'trusted.key.pub'}"), json_type, False
        if path == "/badsig/latest.json":
            return self.written("other", "--unchecked-signatures"), json_type, False
        if path == "/truncated/latest.json":
            feed = json.loads(self.written("new"))
            feed["platforms"]["linux-x86_64-deb"]["url"] = feed["platforms"]["linux-x86_64-deb"]["url"].replace("/new/", "/cut/")
            return json.dumps(feed).encode(), json_type, False
        if path == "/older/latest.json":
            feed = json.loads(self.written("new"))
            feed["version"] = "0.0.9"
            return json.dumps(feed).encode(), json_type, False
        if path == "/notjson/latest.json":
            return b"<!doctype html><title>Not Found</title><h1>Not Found</h1>", "text/html", False
        folder, _, name = path.strip("/").partition("/")
        if folder in ("new", "other", "cut") and name.endswith(".deb") and "/" not in name:
            data = (FILES / ("new" if folder == "cut" else folder) / name).read_bytes()
            return data, "application/octet-stream", folder == "cut"
        return None, "", False
