"""Fixtures: a real `kairos serve` per test module (fresh data dir), SDK clients for it,
a loopback HTTP target, and fresh job collections.

The binary is `$KAIROS_BIN`, else `$CARGO_TARGET_DIR/debug/kairos` (default target dir
`~/.cache/kairos-target`). Run through `bash scripts/e2e.sh`.
"""

from __future__ import annotations

import os
import signal
import uuid

import pytest

import helpers
from helpers import KairosServer
from target_server import Target


def pytest_sessionstart(session):
    path = helpers.kairos_bin()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.exit(f"e2e: no kairos binary at {path} (set KAIROS_BIN or build: cargo build -p kairos-cli)",
                    returncode=1)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("KAIROS_E2E_FAST") == "1":
        skip = pytest.mark.skip(reason="KAIROS_E2E_FAST=1 skips tests that wait for real retry intervals")
        for item in items:
            if "slow" in item.keywords:
                item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for name in ("server", "fresh_server"):
            srv = item.funcargs.get(name) if hasattr(item, "funcargs") else None
            if isinstance(srv, KairosServer):
                report.sections.append((f"kairos serve stderr ({name}, tail)", srv.stderr_tail()))


@pytest.fixture(scope="session")
def target():
    t = Target()
    yield t
    t.close()


@pytest.fixture(scope="module")
def server_env():
    """Extra environment for the module's server; a test module may override it
    (test_storage_queue.py points KAIROS_STORAGE_QUEUE_URL at its Azurite)."""
    return {}


@pytest.fixture(scope="module")
def server(tmp_path_factory, server_env):
    srv = KairosServer(tmp_path_factory.mktemp("kairos") / "data", extra_env=server_env).start()
    yield srv
    if srv.proc is not None:
        crashed = srv.proc.poll()
        code = srv.stop(signal.SIGTERM) if crashed is None else crashed
        srv.proc = None
        assert crashed is None, f"kairos serve died during the module (exit {crashed}): {srv.stderr_tail()}"
        assert code == 0, f"kairos serve exited {code} on SIGTERM: {srv.stderr_tail()}"


@pytest.fixture
def fresh_server(tmp_path):
    """A server of the test's own, for tests that stop and restart it."""
    srv = KairosServer(tmp_path / "data")
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def sub():
    return str(uuid.uuid4())


@pytest.fixture(scope="module")
def rg():
    return "rg-e2e"


@pytest.fixture(scope="module")
def client(server, sub):
    c = server.client(sub)
    yield c
    c.close()


@pytest.fixture
def make_collection(client, rg):
    """make_collection(**kw) -> name of a new collection (Standard, 50 jobs, every minute by default)."""

    def make(sku="Standard", max_job_count=50, max_recurrence=("Minute", 1), name=None, group=None):
        name = name or helpers.unique("jc")
        client.job_collections.create_or_update(
            group or rg, name,
            helpers.collection(sku=sku, max_job_count=max_job_count, max_recurrence=max_recurrence))
        return name

    return make


@pytest.fixture
def jc(make_collection):
    return make_collection()
