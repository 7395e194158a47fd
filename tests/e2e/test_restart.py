"""The `kairos serve` process contract: ready line, clean stop on SIGTERM/SIGINT, state kept on
disk across restarts, the generated API token (DESIGN "kairos serve")."""

from __future__ import annotations

import base64
import os
import signal
import socket
import stat
import time
import uuid
from datetime import timedelta

import pytest
from azure.core.exceptions import ClientAuthenticationError
from azure.mgmt.scheduler import models as m

import helpers
from helpers import NO_RETRY, KairosServer, history, same, wait_until, whole

RG = "rg-restart"


def test_prints_one_ready_line_and_stops_cleanly_on_sigterm(fresh_server):
    fresh_server.start()
    assert fresh_server.stdout_lines[0] == f"listening on http://127.0.0.1:{fresh_server.port}"
    assert fresh_server.port != 0
    r = fresh_server.raw("GET", f"/subscriptions/{uuid.uuid4()}/providers/Microsoft.Scheduler/jobCollections")
    assert r.status == 200, r
    assert fresh_server.stop(signal.SIGTERM) == 0
    assert sum(1 for line in fresh_server.stdout_lines if line.startswith("listening on")) == 1


def test_stops_cleanly_on_sigint(fresh_server):
    fresh_server.start()
    assert fresh_server.stop(signal.SIGINT) == 0


def test_state_survives_a_restart(fresh_server, target):
    sub = str(uuid.uuid4())
    srv = fresh_server.start()
    c = srv.client(sub)
    jc = helpers.unique("jc")
    c.job_collections.create_or_update(RG, jc, helpers.collection(max_job_count=9, max_recurrence=("Hour", 1)))
    start = whole(helpers.now()) + timedelta(days=1)
    later = target.path("later")
    c.jobs.create_or_update(RG, jc, "later", helpers.http_job(
        target.url(later), body="after restart", start=start,
        auth=m.BasicAuthentication(username="u", password="kept-secret"),
        recurrence=m.JobRecurrence(frequency="Hour", interval=2, count=5)))
    c.jobs.create_or_update(RG, jc, "off", helpers.http_job(target.url(target.path()), start=start,
                                                          state="Disabled"))
    done = target.path("done")
    c.jobs.create_or_update(RG, jc, "done", helpers.http_job(target.url(done), start=helpers.now(),
                                                           retry=NO_RETRY))
    target.wait_for(done, 1)
    wait_until(lambda: same(c.jobs.get(RG, jc, "done").properties.state, "Completed"), what="done completes")
    before = {j.name: j.as_dict() for j in c.jobs.list(RG, jc)}
    old_port = srv.port
    c.close()

    assert srv.stop(signal.SIGTERM) == 0
    srv.start()
    c = srv.client(sub)
    assert [x.name for x in c.job_collections.list_by_subscription()] == [jc]
    got = c.job_collections.get(RG, jc)
    assert got.properties.quota.max_job_count == 9
    assert same(got.properties.quota.max_recurrence.frequency, "Hour")
    after = {j.name: j.as_dict() for j in c.jobs.list(RG, jc)}
    assert after == before, f"jobs changed across a restart (port {old_port} -> {srv.port})"
    assert same(after[f"{jc}/off"]["properties"]["state"], "Disabled")
    assert c.jobs.get(RG, jc, "later").properties.status.next_execution_time == start
    [rec] = history(c, RG, jc, "done")
    assert same(rec.properties.action_name, "MainAction")

    # The stored secret still works after the restart (it is kept, only never shown).
    c.jobs.run(RG, jc, "later")
    [req] = target.wait_for(later, 1)
    assert req.header("authorization") == "Basic " + base64.b64encode(b"u:kept-secret").decode()
    assert req.body == b"after restart"
    assert srv.stop(signal.SIGTERM) == 0


def one_time_job_soon(srv, target, sub: str, name: str):
    """A collection and a one-time job due in 2 s that posts to the target: (collection, path, due)."""
    c = srv.client(sub)
    jc = helpers.unique("jc")
    c.job_collections.create_or_update(RG, jc, helpers.collection())
    path = target.path(name)
    due = helpers.now() + timedelta(seconds=2)
    c.jobs.create_or_update(RG, jc, name, helpers.http_job(target.url(path), start=due, retry=NO_RETRY))
    return jc, path, due


def runs_once_after_restart(srv, target, sub: str, jc: str, name: str, path: str) -> None:
    """Start the stopped server again: the job runs once, completes, and the server stops cleanly."""
    srv.start()
    target.wait_for(path, 1, 10)
    c = srv.client(sub)
    wait_until(lambda: same(c.jobs.get(RG, jc, name).properties.state, "Completed"),
               what=f"the job {name} to complete after the restart")
    assert len(target.requests(path)) == 1
    assert srv.stop(signal.SIGTERM) == 0


def test_a_one_time_job_due_while_stopped_runs_after_restart(fresh_server, target):
    sub = str(uuid.uuid4())
    srv = fresh_server.start()
    jc, path, due = one_time_job_soon(srv, target, sub, "missed")
    assert srv.stop(signal.SIGTERM) == 0
    time.sleep(max(0.0, (due - helpers.now()).total_seconds()) + 1.0)
    assert target.requests(path) == [], "nothing fires while the server is stopped"
    runs_once_after_restart(srv, target, sub, jc, "missed", path)


def test_the_runner_stops_at_the_stop_request_while_requests_drain(fresh_server, target):
    """docs/semantics.md: a stop request stops the runner at once, together with the drain of
    requests in flight (at most 5 s); work due during the drain runs at the next start."""
    sub = str(uuid.uuid4())
    srv = fresh_server.start()
    jc, path, due = one_time_job_soon(srv, target, sub, "drained")
    # A request held in flight, so the drain waits for it until its 5 s are up, past the job's
    # due time. "100 Continue" comes back once the handler reads the body: from then on the
    # request is in flight for sure (before it, the stop could close the connection unserved).
    held = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    held.sendall(
        (f"PUT /subscriptions/{sub}/resourceGroups/{RG}/providers/Microsoft.Scheduler/jobCollections/"
         f"{jc}/jobs/held?api-version={helpers.API_VERSION} HTTP/1.1\r\n"
         f"Host: 127.0.0.1:{srv.port}\r\nAuthorization: Bearer {srv.token}\r\n"
         "Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n").encode()
    )
    interim = held.recv(100)
    assert interim.startswith(b"HTTP/1.1 100 Continue"), interim
    held.sendall(b"{")
    try:
        assert srv.stop(signal.SIGTERM) == 0
        stopped = helpers.now()
    finally:
        held.close()
    assert stopped > due + timedelta(seconds=1), (
        f"the drain ended at {stopped}, before the job was due at {due}: the test proves nothing")
    assert target.requests(path) == [], "a stopping server sends nothing that comes due while it drains"
    runs_once_after_restart(srv, target, sub, jc, "drained", path)


def test_generated_token_is_kept_in_the_data_dir(tmp_path):
    srv = KairosServer(tmp_path / "data", token=None)  # no KAIROS_API_TOKEN in its environment
    try:
        srv.start()
        token_file = tmp_path / "data" / "api-token"
        assert token_file.is_file(), "the token is generated on first start into DIR/api-token"
        dbs = [f for f in (tmp_path / "data").iterdir() if f.name != "api-token" and f.is_file()]
        assert dbs or srv.database_url, "a database in the data dir (unless it is on PostgreSQL)"
        # docs/semantics.md: the data dir is 0700 and the database 0600, since it holds the secrets.
        # A Windows build has no Unix modes to set (the profile's ACL keeps others out), and Wine
        # shows its files with the Linux default: only the Linux build is checked here.
        if not helpers.under_wine():
            assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
            assert stat.S_IMODE(os.stat(tmp_path / "data").st_mode) == 0o700
            for f in dbs:
                assert stat.S_IMODE(os.stat(f).st_mode) & 0o077 == 0, f"{f.name} is readable by others"
        token = token_file.read_text().strip()
        assert token
        sub = str(uuid.uuid4())
        assert list(helpers.make_client(srv.base_url, sub, token).job_collections.list_by_subscription()) == []
        with pytest.raises(ClientAuthenticationError):
            list(helpers.make_client(srv.base_url, sub, helpers.TOKEN).job_collections.list_by_subscription())
        assert srv.stop(signal.SIGTERM) == 0

        srv.start()
        assert token_file.read_text().strip() == token, "the token is kept across restarts"
        assert list(helpers.make_client(srv.base_url, sub, token).job_collections.list_by_subscription()) == []
        assert srv.stop(signal.SIGTERM) == 0
    finally:
        srv.kill()


def test_env_token_wins_over_the_token_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "api-token").write_text("file-token-0123456789abcdef0123456789\n")
    os.chmod(data / "api-token", 0o600)
    srv = KairosServer(data, token="env-token-0123456789abcdef0123456789")
    try:
        srv.start()
        sub = str(uuid.uuid4())
        assert list(helpers.make_client(srv.base_url, sub, "env-token-0123456789abcdef0123456789").job_collections.list_by_subscription()) == []
        with pytest.raises(ClientAuthenticationError):
            list(helpers.make_client(srv.base_url, sub, "file-token-0123456789abcdef0123456789").job_collections.list_by_subscription())
        assert srv.stop(signal.SIGTERM) == 0
    finally:
        srv.kill()


def test_two_servers_on_one_data_dir_never_both_fire(tmp_path, target):
    """DESIGN: two processes on one database never both fire a job (a runner lease)."""
    first = KairosServer(tmp_path / "data").start()
    second = KairosServer(tmp_path / "data")
    try:
        second.start()
        sub = str(uuid.uuid4())
        c1, c2 = first.client(sub), second.client(sub)
        jc = helpers.unique("jc")
        c1.job_collections.create_or_update(RG, jc, helpers.collection())
        assert c2.job_collections.get(RG, jc).name == jc, "both serve the same database"
        paths = [target.path(f"lease{i}") for i in range(4)]
        for i, path in enumerate(paths):
            (c1 if i % 2 else c2).jobs.create_or_update(
                RG, jc, f"j{i}", helpers.http_job(target.url(path), start=helpers.now(), retry=NO_RETRY))
        for path in paths:
            target.wait_for(path, 1)
        for i in range(len(paths)):
            wait_until(lambda: same(c2.jobs.get(RG, jc, f"j{i}").properties.state, "Completed"),
                       what=f"j{i} to complete")
        time.sleep(1.0)
        assert [len(target.requests(p)) for p in paths] == [1] * len(paths), "each job fired exactly once"

        # Whichever process held the lease, the other one fires once it is alone.
        assert first.stop(signal.SIGTERM) == 0
        path = target.path("takeover")
        c2.jobs.create_or_update(RG, jc, "takeover", helpers.http_job(target.url(path), start=helpers.now(),
                                                                     retry=NO_RETRY))
        target.wait_for(path, 1, 20)
        assert second.stop(signal.SIGTERM) == 0
    finally:
        first.kill()
        second.kill()


@pytest.mark.slow
def test_an_attempt_cut_off_by_sigterm_is_made_again_after_restart(fresh_server, target):
    """DESIGN: execution is at-least-once, with one execution tag per occurrence."""
    sub = str(uuid.uuid4())
    srv = fresh_server.start()
    c = srv.client(sub)
    jc = helpers.unique("jc")
    c.job_collections.create_or_update(RG, jc, helpers.collection())
    path = target.path("cut")
    target.respond(path, 200, delay=25)  # longer than any sensible shutdown grace
    c.jobs.create_or_update(RG, jc, "cut", helpers.http_job(target.url(path), start=helpers.now(), retry=NO_RETRY))
    target.wait_for(path, 1)
    assert srv.stop(signal.SIGTERM) == 0, "stops cleanly with an action in flight"

    target.respond(path, 200)
    srv.start()
    c = srv.client(sub)
    job = wait_until(lambda: (lambda j: j if same(j.properties.state, "Completed") else None)(
        c.jobs.get(RG, jc, "cut")), timeout=15, what="the cut-off job to complete after restart")
    reqs = target.requests(path)
    assert len(reqs) == 2, f"the interrupted attempt is made again: {len(reqs)} request(s)"
    assert reqs[0].header("x-ms-execution-tag") == reqs[1].header("x-ms-execution-tag"), \
        "the same occurrence keeps its execution tag, so targets can de-duplicate"
    assert job.properties.status.failure_count == 0
    newest = history(c, RG, jc, "cut")[0]
    assert same(newest.properties.action_name, "MainAction") and \
        (newest.properties.status is None or same(newest.properties.status, "Completed"))
    assert srv.stop(signal.SIGTERM) == 0


def test_secrets_stay_out_of_responses_and_logs_even_at_trace_level(tmp_path, target):
    """DESIGN: secrets are never returned by any interface and never written to logs."""
    srv = KairosServer(tmp_path / "data", extra_env={"RUST_LOG": "trace"})
    try:
        srv.start()
        sub, secret = str(uuid.uuid4()), "s3cret-" + uuid.uuid4().hex
        c = srv.client(sub)
        jc = helpers.unique("jc")
        c.job_collections.create_or_update(RG, jc, helpers.collection())
        jobs = f"/subscriptions/{sub}/resourceGroups/{RG}/providers/Microsoft.Scheduler/jobCollections/{jc}/jobs"
        path = target.path("secret")
        auth = {"type": "Basic", "username": "u", "password": secret}
        later = (helpers.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        action = {"type": "Http", "request": {"uri": target.url(path), "method": "GET", "authentication": auth},
                  "retryPolicy": {"retryType": "None"}}
        responses = [
            srv.raw("PUT", jobs + "/ok", body={"properties": {"action": action, "startTime": later}}),
            srv.raw("PUT", jobs + "/bad1", body={"properties": {"action": dict(action, retryPolicy={"retryType": "Bogus"})}}),
            srv.raw("PUT", jobs + "/bad2", body={"properties": {"action": {"type": "Http", "request": {
                "uri": "nope", "method": "GET", "authentication": dict(auth, username=5)}}}}),
            srv.raw("PUT", jobs + "/bad3", body='{"properties": {"action": {"request": {"authentication": '
                                                '{"password": "%s", ' % secret),
            srv.raw("PATCH", jobs + "/ok", body={"properties": {"action": {"request": {"authentication": auth}}}}),
            srv.raw("GET", jobs + "/ok"),
            srv.raw("GET", jobs),
        ]
        assert [r.status for r in responses] == [201, 400, 400, 400, 200, 200, 200], responses
        for r in responses:
            assert secret not in r.text, r
        c.jobs.run(RG, jc, "ok")
        [req] = target.wait_for(path, 1)
        assert req.header("authorization") == "Basic " + base64.b64encode(f"u:{secret}".encode()).decode()
        wait_until(lambda: history(c, RG, jc, "ok"), what="a history record")
        for h in history(c, RG, jc, "ok"):
            assert secret not in (h.properties.message or "")
        assert srv.stop(signal.SIGTERM) == 0
        log = srv.log_path.read_text(errors="replace")
        assert log, "RUST_LOG=trace produced no log at all"
        assert secret not in log, "the secret was written to the server log"
    finally:
        srv.kill()
