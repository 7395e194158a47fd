"""Azurite's queue service for the Storage-queue tests: one `azurite-queue` process on a free
loopback port, with a workspace of its own, stopped by PID; and the Azure Storage SDK
(`azure-storage-queue`) to create queues, sign SAS tokens and read messages back.

The binary is `$KAIROS_AZURITE_QUEUE` (exported by scripts/e2e.sh, which installs Azurite with npm),
else `~/.cache/kairos-npm/node_modules/.bin/azurite-queue`.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import threading
import uuid
from pathlib import Path

from azure.storage.queue import (
    QueueClient,
    QueueSasPermissions,
    QueueServiceClient,
    TextBase64DecodePolicy,
    generate_queue_sas,
)

ACCOUNT = "devstoreaccount1"
# Azurite's well-known development key (public: it is in Azurite's own source and docs).
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
LISTENING = re.compile(r"successfully listens on http://127\.0\.0\.1:(\d+)")
START_TIMEOUT = 30.0


def azurite_bin() -> str:
    return os.environ.get("KAIROS_AZURITE_QUEUE") or os.path.expanduser(
        "~/.cache/kairos-npm/node_modules/.bin/azurite-queue")


class Azurite:
    """`azurite-queue --queueHost 127.0.0.1 --queuePort 0 --location DIR`: Azurite picks the port
    and says which on stdout."""

    def __init__(self, workspace: Path):
        self.workspace = Path(workspace)
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        self.output: list[str] = []

    def start(self) -> "Azurite":
        path = azurite_bin()
        if not os.access(path, os.X_OK):
            raise AssertionError(
                f"no azurite-queue at {path}: run the suite through scripts/e2e.sh, which installs "
                "Azurite with npm, or set KAIROS_AZURITE_QUEUE")
        self.workspace.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [path, "--queueHost", "127.0.0.1", "--queuePort", "0", "--location", str(self.workspace),
             "--silent", "--skipApiVersionCheck", "--disableTelemetry"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=1)
        ready = threading.Event()

        def pump():  # keeps reading, so Azurite never blocks on a full pipe
            for line in self.proc.stdout:
                self.output.append(line.rstrip("\n"))
                found = LISTENING.search(line)
                if found and self.port is None:
                    self.port = int(found.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=pump, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or self.port is None:
            code = self.proc.poll()
            self.stop()
            raise AssertionError(f"azurite-queue did not start within {START_TIMEOUT}s "
                                 f"(exit code {code}): {self.output!r}")
        return self

    def stop(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
            self.proc = None

    # -- what Kairos and the SDK need ------------------------------------------------------------

    @property
    def url_template(self) -> str:
        """The value of KAIROS_STORAGE_QUEUE_URL: Azurite's path style."""
        return f"http://127.0.0.1:{self.port}/{{account}}"

    @property
    def connection_string(self) -> str:
        return (f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};"
                f"QueueEndpoint=http://127.0.0.1:{self.port}/{ACCOUNT};")

    def create_queue(self, prefix: str = "kairos") -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:8]}"
        with QueueServiceClient.from_connection_string(self.connection_string) as svc:
            svc.create_queue(name)
        return name

    def sas(self, queue: str, key: str = KEY) -> str:
        """A queue SAS granting only add (what the Scheduler needs), valid for an hour."""
        now = dt.datetime.now(dt.timezone.utc)
        return generate_queue_sas(ACCOUNT, queue, key, permission=QueueSasPermissions(add=True),
                                  start=now - dt.timedelta(minutes=5), expiry=now + dt.timedelta(hours=1))

    def peek(self, queue: str, base64_text: bool = False) -> list:
        """The queue's messages, left in place. `base64_text=True` decodes as queue triggers do
        (the SDK's TextBase64DecodePolicy); otherwise `content` is the stored text as it is."""
        policy = TextBase64DecodePolicy() if base64_text else None
        with QueueClient.from_connection_string(self.connection_string, queue,
                                                message_decode_policy=policy) as q:
            return list(q.peek_messages(max_messages=32))
