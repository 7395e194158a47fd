"""Shared helpers of the end-to-end suite: the `kairos serve` process, SDK clients, raw HTTP,
polling with a deadline, and builders for job definitions."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from azure.core.pipeline.policies import SansIOHTTPPolicy
from azure.mgmt.scheduler import SchedulerManagementClient
from azure.mgmt.scheduler import models as m

API_VERSION = "2016-03-01"
TOKEN = "e2e-" + uuid.uuid4().hex
UTC = dt.timezone.utc
LISTENING = re.compile(r"^listening on http://127\.0\.0\.1:(\d+)\s*$")
START_TIMEOUT = 20.0
STOP_TIMEOUT = 15.0  # the server may drain an in-flight action for a while


def kairos_bin() -> str:
    path = os.environ.get("KAIROS_BIN")
    if not path:
        target = os.environ.get("CARGO_TARGET_DIR") or os.path.expanduser("~/.cache/kairos-target")
        path = os.path.join(target, "debug", "kairos")
    return path


_databases: dict[str, str] = {}


def postgres_database(data_dir: Path) -> str:
    """The database of a data dir on the server of scripts/with-postgres.sh (made empty on first
    use; servers started on the same data dir share it, as they share a kairos.db); its URL."""
    key = str(Path(data_dir).resolve())
    if key in _databases:
        return _databases[key]
    admin = os.environ.get("KAIROS_TEST_POSTGRES")
    assert admin, "KAIROS_E2E_STORE=postgres needs KAIROS_TEST_POSTGRES (run under scripts/with-postgres.sh)"
    name = "kairos_e2e_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", admin + "/postgres", "-v", "ON_ERROR_STOP=1", "-q", "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True)
    _databases[key] = f"{admin}/{name}"
    return _databases[key]


def under_wine() -> bool:
    """The binary is a Windows build run through Wine (scripts/wine-e2e.sh sets KAIROS_WINE)."""
    return bool(os.environ.get("KAIROS_WINE"))


def kairos_command() -> list[str]:
    """How to start the binary: directly, or through Wine's 64-bit loader."""
    wine = os.environ.get("KAIROS_WINE")
    return [wine, kairos_bin()] if wine else [kairos_bin()]


def host_path(path) -> str:
    """A path as the binary sees it: under Wine, Linux's / is drive Z:."""
    return "Z:" + str(path).replace("/", "\\") if under_wine() else str(path)


# ---------------------------------------------------------------------------------------------
# the server process


class KairosServer:
    """One `kairos serve --listen 127.0.0.1:0 --data-dir DIR` process."""

    def __init__(self, data_dir: Path, token: str | None = TOKEN, extra_env: dict | None = None,
                 extra_args: list[str] | None = None):
        self.data_dir = Path(data_dir)
        self.extra_args = extra_args or []
        self.token = token
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        self.port: int | None = None
        # KAIROS_E2E_STORE=postgres: the server keeps its data in a PostgreSQL database of its
        # own (on the server of scripts/with-postgres.sh), kept across restarts like the data dir.
        self.database_url = (postgres_database(self.data_dir)
                             if os.environ.get("KAIROS_E2E_STORE") == "postgres" else None)
        self.stdout_lines: list[str] = []
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}-serve.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "KairosServer":
        assert self.proc is None, "already running"
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)  # the server creates DIR itself
        env = dict(os.environ)
        env.pop("KAIROS_API_TOKEN", None)
        if self.token is not None:
            env["KAIROS_API_TOKEN"] = self.token
        env.setdefault("RUST_BACKTRACE", "1")
        env.update(self.extra_env)
        self.stdout_lines = []
        self._stderr = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            kairos_command() + ["serve", "--listen", "127.0.0.1:0", "--data-dir", host_path(self.data_dir)]
            + (["--database", self.database_url] if self.database_url else [])
            + self.extra_args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            text=True,
            bufsize=1,
        )
        ready = threading.Event()

        def pump():  # keeps reading stdout so the server never blocks on a full pipe
            for line in self.proc.stdout:
                self.stdout_lines.append(line.rstrip("\n"))
                if self.port is None:
                    found = LISTENING.match(line)
                    if found:
                        self.port = int(found.group(1))
                        ready.set()
            ready.set()

        self.port = None
        threading.Thread(target=pump, daemon=True).start()
        if not ready.wait(START_TIMEOUT) or self.port is None:
            code = self.proc.poll()
            self.kill()
            raise AssertionError(
                f"kairos serve did not print 'listening on http://127.0.0.1:PORT' within "
                f"{START_TIMEOUT}s (exit code {code}); stdout: {self.stdout_lines!r}; "
                f"stderr tail: {self.stderr_tail()!r}"
            )
        return self

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Send `sig`, wait for the exit, return the exit code (kills after STOP_TIMEOUT)."""
        assert self.proc is not None
        if under_wine() and sig == signal.SIGTERM:
            # Windows has no SIGTERM: Wine ends the process at once. Its stop request is the
            # console's Ctrl-C, which Wine raises for SIGINT.
            sig = signal.SIGINT
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"kairos serve did not stop within {STOP_TIMEOUT}s of {sig!r}")
        self.proc = None
        self._stderr.close()
        return code

    def kill(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None
            self._stderr.close()

    def stderr_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_bytes()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    # -- clients -------------------------------------------------------------------------------

    def client(self, subscription_id: str, token: str | None = None) -> SchedulerManagementClient:
        return make_client(self.base_url, subscription_id, token or self.token)

    def raw(self, method: str, path: str, body=None, token: str | None = "default",
            api_version: str | None = API_VERSION, headers: dict | None = None):
        tok = self.token if token == "default" else token
        return raw_request(self.base_url, method, path, body, tok, api_version, headers)


class BearerPolicy(SansIOHTTPPolicy):
    """Sets `Authorization: Bearer TOKEN`; azure-core's BearerTokenCredentialPolicy refuses plain http."""

    def __init__(self, token: str | None):
        super().__init__()
        self.token = token

    def on_request(self, request):
        if self.token is not None:
            request.http_request.headers["Authorization"] = f"Bearer {self.token}"


def make_client(base_url: str, subscription_id: str, token: str | None) -> SchedulerManagementClient:
    return SchedulerManagementClient(
        credential=object(),  # unused: the authentication policy below replaces it
        subscription_id=subscription_id,
        base_url=base_url,
        authentication_policy=BearerPolicy(token),
        retry_total=0,  # a 5xx from the server must surface, not be retried for a minute
        polling_interval=0.1,  # LROs (delete/enable/disable) if the server ever answers 202
        connection_timeout=5,
        read_timeout=30,
    )


class RawResponse:
    def __init__(self, status: int, headers, text: str):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.text = text

    @property
    def json(self):
        return json.loads(self.text) if self.text else None

    def __repr__(self):
        return f"<{self.status} {self.text[:500]!r}>"


def raw_request(base_url, method, path, body=None, token=None, api_version=API_VERSION, headers=None):
    url = base_url + path
    if api_version is not None:
        url += ("&" if "?" in url else "?") + "api-version=" + api_version
    data = None
    hdrs = {"Accept": "application/json"}
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        hdrs["Content-Type"] = "application/json"
    if token is not None:
        hdrs["Authorization"] = f"Bearer {token}"
    hdrs.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return RawResponse(resp.status, resp.headers, resp.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as e:
        return RawResponse(e.code, e.headers, e.read().decode("utf-8", "replace"))


# ---------------------------------------------------------------------------------------------
# SDK call helpers


def with_response(call, *args, **kwargs):
    """Run an SDK operation and return (azure.core HttpResponse, deserialized model)."""
    return call(*args, cls=lambda pipeline_response, deserialized, headers: (
        pipeline_response.http_response, deserialized), **kwargs)


def wait_until(check, timeout: float = 10.0, interval: float = 0.05, what: str = "condition"):
    """Poll `check()` until it returns something truthy; return that value.
    Exceptions from `check` count as "not yet" until the deadline, then the last one is raised."""
    deadline = time.monotonic() + timeout
    last_exc = None
    last_value = None
    while True:
        try:
            last_value = check()
            if last_value:
                return last_value
            last_exc = None
        except AssertionError as e:
            last_exc = e
        except Exception as e:  # noqa: BLE001 - report it if the deadline passes
            last_exc = e
        if time.monotonic() >= deadline:
            if last_exc is not None:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}: {last_exc!r}") from last_exc
            raise AssertionError(f"timed out after {timeout}s waiting for {what}; last value {last_value!r}")
        time.sleep(interval)


def same(a, b) -> bool:
    """Enum values compared case-insensitively (the live service lower-cased some, §5.7)."""
    if a is None or b is None:
        return a is b
    return str(a).lower() == str(b).lower()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def now() -> dt.datetime:
    return dt.datetime.now(UTC)


def whole(t: dt.datetime) -> dt.datetime:
    return t.replace(microsecond=0)


# ---------------------------------------------------------------------------------------------
# builders


def collection(location="West US", sku="Standard", max_job_count=None, max_recurrence=None,
               tags=None) -> m.JobCollectionDefinition:
    quota = None
    if max_job_count is not None or max_recurrence is not None:
        quota = m.JobCollectionQuota(
            max_job_count=max_job_count,
            max_recurrence=m.JobMaxRecurrence(frequency=max_recurrence[0], interval=max_recurrence[1])
            if max_recurrence else None,
        )
    return m.JobCollectionDefinition(
        location=location,
        tags=tags,
        properties=m.JobCollectionProperties(sku=m.Sku(name=sku), quota=quota),
    )


def http_job(uri: str, method: str = "POST", body: str | None = None, headers: dict | None = None,
             start: dt.datetime | None = None, recurrence: m.JobRecurrence | None = None,
             retry: m.RetryPolicy | None = None, error_action: m.JobErrorAction | None = None,
             auth: m.HttpAuthentication | None = None, state: str | None = None) -> m.JobDefinition:
    return m.JobDefinition(properties=m.JobProperties(
        start_time=start,
        action=m.JobAction(
            type="Http",
            request=m.HttpRequest(uri=uri, method=method, body=body, headers=headers, authentication=auth),
            retry_policy=retry,
            error_action=error_action,
        ),
        recurrence=recurrence,
        state=state,
    ))


NO_RETRY = m.RetryPolicy(retry_type="None")


def history(client, rg, jc, job, **kw) -> list:
    return list(client.jobs.list_job_history(rg, jc, job, **kw))
