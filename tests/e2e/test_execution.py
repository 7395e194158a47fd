"""Jobs that really run against a loopback target: headers, history, counters, the state machine,
`jobs.run`, retries and the error action (spec §7, §8, §10, DESIGN "Invariants")."""

from __future__ import annotations

import base64
import datetime as dt
import time
from datetime import timedelta

import pytest
from azure.core.exceptions import HttpResponseError, ResourceNotFoundError
from azure.mgmt.scheduler import models as m

import helpers
from helpers import NO_RETRY, history, same, wait_until, whole

RUN_TIMEOUT = 10.0  # a job due now must reach the target within this


def wait_state(client, rg, jc, name, state, timeout=RUN_TIMEOUT):
    return wait_until(
        lambda: (lambda j: j if same(j.properties.state, state) else None)(client.jobs.get(rg, jc, name)),
        timeout=timeout, what=f"job {name} to become {state}")


def wait_history(client, rg, jc, name, count, timeout=RUN_TIMEOUT):
    return wait_until(lambda: (lambda h: h if len(h) >= count else None)(history(client, rg, jc, name)),
                      timeout=timeout, what=f"{count} history record(s) of {name}")


def completed(rec) -> bool:
    """A missing status means Completed (§10.2: the live service omitted it)."""
    return rec.properties.status is None or same(rec.properties.status, "Completed")


def parse_time(text: str) -> dt.datetime:
    t = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=dt.timezone.utc)


def test_one_time_job_runs_now_with_scheduler_headers(client, rg, jc, target):
    path = target.path("once")
    created = helpers.now()
    client.jobs.create_or_update(rg, jc, "once", helpers.http_job(
        target.url(path), method="PUT", body='{"hello": "world"}',
        headers={"Content-Type": "application/json", "X-Custom": "e2e"},
        auth=m.BasicAuthentication(username="user", password="pa:ss"), start=created, retry=NO_RETRY))

    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.method == "PUT"
    assert req.body == b'{"hello": "world"}'
    assert req.header("content-type") == "application/json"
    assert req.header("x-custom") == "e2e"
    assert req.header("authorization") == "Basic " + base64.b64encode(b"user:pa:ss").decode(), \
        "Basic authentication is sent (§8)"
    assert "once" in (req.header("x-ms-scheduler-jobid") or ""), req.headers
    assert jc in (req.header("x-ms-scheduler-jobcollectionid") or ""), req.headers
    assert req.header("x-ms-execution-tag"), req.headers
    assert req.header("x-ms-client-request-id"), req.headers
    expected = req.header("x-ms-scheduler-expected-execution-time")
    assert expected, req.headers
    assert abs(parse_time(expected) - whole(created)) <= timedelta(seconds=2), expected
    assert req.at - created.timestamp() < 5, "a job due now runs within seconds"

    job = wait_state(client, rg, jc, "once", "Completed")
    s = job.properties.status
    assert (s.execution_count, s.failure_count, s.faulted_count) == (1, 0, 0)
    assert s.last_execution_time is not None
    assert abs(s.last_execution_time - whole(created)) <= timedelta(seconds=5)
    assert s.next_execution_time is None, "a completed job has no next execution"

    [rec] = wait_history(client, rg, jc, "once", 1)
    p = rec.properties
    assert same(p.action_name, "MainAction")
    assert completed(rec), p.status
    assert p.retry_count == 0 and p.repeat_count == 1
    assert p.expected_execution_time is not None
    assert abs(p.expected_execution_time - whole(created)) <= timedelta(seconds=2)
    assert p.start_time is not None and p.end_time is not None and p.end_time >= p.start_time
    assert p.message, "the history record says what happened"
    assert rec.type == "Microsoft.Scheduler/jobCollections/jobs/history"
    assert rec.name.startswith(f"{jc}/once/"), rec.name
    assert rec.id.endswith("/jobs/once/history/" + rec.name.split("/", 2)[2]), rec.id

    assert len(target.requests(path)) == 1, "a one-time job runs once"


def test_one_time_job_without_start_time_runs_immediately(client, server, sub, rg, jc, target):
    path = target.path("nostart")
    before = helpers.now()
    r = server.raw("PUT", f"/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Scheduler/"
                          f"jobCollections/{jc}/jobs/nostart",
                   body={"properties": {"action": {"type": "Http", "request": {"uri": target.url(path), "method": "GET"},
                                                   "retryPolicy": {"retryType": "None"}}}})
    assert r.status == 201, r
    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.at - before.timestamp() < 5, "no startTime: run once immediately (§9.2)"
    wait_state(client, rg, jc, "nostart", "Completed")


def test_one_time_job_with_past_start_time_runs_immediately(client, rg, jc, target):
    path = target.path("past")
    before = helpers.now()
    client.jobs.create_or_update(rg, jc, "past", helpers.http_job(
        target.url(path), start=before - timedelta(hours=3), retry=NO_RETRY))
    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.at - before.timestamp() < 5, "startTime in the past: run once immediately (§9.2)"
    job = wait_state(client, rg, jc, "past", "Completed")
    assert job.properties.status.execution_count == 1


def test_job_does_not_run_before_its_start_time(client, rg, jc, target):
    path = target.path("soon")
    due = whole(helpers.now()) + timedelta(seconds=3)
    job = client.jobs.create_or_update(rg, jc, "soon", helpers.http_job(target.url(path), start=due, retry=NO_RETRY))
    assert job.properties.status.next_execution_time == due
    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.at >= due.timestamp() - 0.05, f"fired {due.timestamp() - req.at:.2f}s before startTime"
    assert req.at - due.timestamp() < 3, f"fired {req.at - due.timestamp():.2f}s late"
    assert req.header("x-ms-scheduler-expected-execution-time") and \
        parse_time(req.header("x-ms-scheduler-expected-execution-time")) == due


def test_lower_case_method_is_sent_and_stored_upper_case(client, rg, jc, target):
    path = target.path("method")
    job = client.jobs.create_or_update(rg, jc, "lower", helpers.http_job(
        target.url(path), method="post", body="b", start=helpers.now(), retry=NO_RETRY))
    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.method == "POST", "HTTP methods are case-sensitive on the wire"
    assert job.properties.action.request.method == "POST", \
        "docs/semantics.md: method is stored upper-case"


def test_history_filter_by_status(client, rg, jc, target):
    path = target.path("filter")
    client.jobs.create_or_update(rg, jc, "f", helpers.http_job(target.url(path), start=helpers.now(),
                                                               retry=NO_RETRY))
    wait_state(client, rg, jc, "f", "Completed")
    assert len(history(client, rg, jc, "f", filter="status eq Completed")) == 1
    assert history(client, rg, jc, "f", filter="status eq Failed") == []


def test_completed_job_state_cannot_be_changed_but_can_be_deleted(client, rg, jc, target):
    path = target.path("final")
    client.jobs.create_or_update(rg, jc, "final", helpers.http_job(target.url(path), start=helpers.now(),
                                                                   retry=NO_RETRY))
    wait_state(client, rg, jc, "final", "Completed")
    with pytest.raises(HttpResponseError) as e:
        client.jobs.patch(rg, jc, "final", m.JobDefinition(properties=m.JobProperties(state="Enabled")))
    assert e.value.status_code == 409, "Completed is final (§10.4, §14.3)"
    assert same(client.jobs.get(rg, jc, "final").properties.state, "Completed")
    client.jobs.delete(rg, jc, "final")
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, jc, "final")


def test_collection_disable_enable_leaves_finished_jobs_alone(client, rg, jc, target):
    path = target.path("finished")
    client.jobs.create_or_update(rg, jc, "finished", helpers.http_job(target.url(path), start=helpers.now(),
                                                                      retry=NO_RETRY))
    wait_state(client, rg, jc, "finished", "Completed")
    client.job_collections.begin_disable(rg, jc).result()
    assert same(client.jobs.get(rg, jc, "finished").properties.state, "Completed"), \
        "Completed is final: collection disable leaves it (§10.4)"
    client.job_collections.begin_enable(rg, jc).result()
    job = client.jobs.get(rg, jc, "finished")
    assert same(job.properties.state, "Completed"), "collection enable does not revive a finished job"
    assert job.properties.status.next_execution_time is None
    time.sleep(1.0)
    assert len(target.requests(path)) == 1


def test_run_executes_a_job_now_outside_its_schedule(client, rg, jc, target):
    path = target.path("run")
    start = whole(helpers.now()) + timedelta(days=1)
    client.jobs.create_or_update(rg, jc, "later", helpers.http_job(
        target.url(path), method="POST", body="run!", start=start,
        recurrence=m.JobRecurrence(frequency="Day", interval=1)))
    assert target.requests(path) == []

    assert client.jobs.run(rg, jc, "later") is None
    [req] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert req.method == "POST" and req.body == b"run!"
    assert req.header("x-ms-scheduler-jobid") and req.header("x-ms-execution-tag")

    job = wait_until(lambda: (lambda j: j if j.properties.status.execution_count == 1 else None)(
        client.jobs.get(rg, jc, "later")), what="executionCount 1 after run")
    assert same(job.properties.state, "Enabled"), "a run does not end a recurring job"
    assert job.properties.status.next_execution_time == start, "the schedule is unchanged"
    assert job.properties.status.last_execution_time is not None
    [rec] = wait_history(client, rg, jc, "later", 1)
    assert same(rec.properties.action_name, "MainAction") and completed(rec)


def test_run_missing_job_is_404(client, rg, jc):
    with pytest.raises(ResourceNotFoundError):
        client.jobs.run(rg, jc, "nope")


def test_disabled_job_does_not_run(client, rg, jc, target):
    path = target.path("disabled")
    client.jobs.create_or_update(rg, jc, "off", helpers.http_job(
        target.url(path), start=helpers.now(), state="Disabled", retry=NO_RETRY))
    control = target.path("control")
    client.jobs.create_or_update(rg, jc, "on", helpers.http_job(
        target.url(control), start=helpers.now(), retry=NO_RETRY))
    target.wait_for(control, 1, RUN_TIMEOUT)
    wait_state(client, rg, jc, "on", "Completed")
    assert target.requests(path) == [], "a Disabled job never fires"
    assert history(client, rg, jc, "off") == []


def test_failure_runs_error_action_and_faults_the_job(client, rg, jc, target):
    main, err = target.path("main"), target.path("err")
    target.respond(main, 503, body=b"down for maintenance")
    job = helpers.http_job(
        target.url(main), method="POST", body="payload", start=helpers.now(), retry=NO_RETRY,
        error_action=m.JobErrorAction(type="Http", request=m.HttpRequest(
            uri=target.url(err), method="POST", body="it failed", headers={"X-Err": "1"})))
    client.jobs.create_or_update(rg, jc, "fails", job)

    [req] = target.wait_for(main, 1, RUN_TIMEOUT)
    [ereq] = target.wait_for(err, 1, RUN_TIMEOUT)
    assert ereq.method == "POST" and ereq.body == b"it failed" and ereq.header("x-err") == "1"
    assert ereq.at >= req.at

    job = wait_state(client, rg, jc, "fails", "Faulted")
    s = job.properties.status
    assert s.faulted_count == 1, s
    assert s.failure_count == 1, s
    assert s.execution_count == 1, "error-action attempts are not executions (§10.3)"
    assert s.next_execution_time is None

    recs = wait_history(client, rg, jc, "fails", 2)
    assert len(recs) == 2, [r.properties.as_dict() for r in recs]
    newest, oldest = recs
    assert same(oldest.properties.action_name, "MainAction")
    assert same(oldest.properties.status, "Failed")
    assert oldest.properties.retry_count == 0 and oldest.properties.repeat_count == 1
    msg = oldest.properties.message or ""
    assert "503" in msg or "unavailable" in msg.lower(), f"the failure says why: {msg!r}"
    assert same(newest.properties.action_name, "ErrorAction"), "history is newest first (§2)"
    assert completed(newest), newest.properties.status

    pages = [list(p) for p in client.jobs.list_job_history(rg, jc, "fails", top=1).by_page()]
    assert [[r.name for r in p] for p in pages] == [[newest.name], [oldest.name]], \
        "history pages follow nextLink"
    failed = history(client, rg, jc, "fails", filter="status eq Failed")
    assert [r.properties.action_name for r in failed] == ["MainAction"]
    assert len(target.requests(main)) == 1, "retryType None: no retries"


def test_failed_job_without_error_action_is_faulted(client, rg, jc, target):
    main = target.path("refused")
    target.respond(main, 500)
    client.jobs.create_or_update(rg, jc, "f", helpers.http_job(target.url(main), start=helpers.now(),
                                                               retry=NO_RETRY))
    job = wait_state(client, rg, jc, "f", "Faulted")
    assert job.properties.status.failure_count == 1 and job.properties.status.faulted_count == 1
    [rec] = history(client, rg, jc, "f")
    assert same(rec.properties.status, "Failed")


def test_unreachable_target_is_a_failure(client, rg, jc):
    # Port 9 (discard) on loopback: nothing listens there in the test environment.
    client.jobs.create_or_update(rg, jc, "u", helpers.http_job("http://127.0.0.1:9/nothing",
                                                               start=helpers.now(), retry=NO_RETRY))
    job = wait_state(client, rg, jc, "u", "Faulted")
    assert job.properties.status.failure_count == 1
    [rec] = history(client, rg, jc, "u")
    assert same(rec.properties.status, "Failed") and rec.properties.message


@pytest.mark.slow
def test_fixed_retry_policy_retries_with_the_same_execution_tag(client, rg, jc, target):
    """Two jobs at once (one real 15-s wait): one recovers on its retry, one fails both attempts."""
    flaky, broken, err = target.path("flaky"), target.path("broken"), target.path("broken-err")
    target.respond(flaky, 503, 200)
    target.respond(broken, 503)
    retry = m.RetryPolicy(retry_type="Fixed", retry_interval=timedelta(seconds=15), retry_count=1)
    start = helpers.now()
    client.jobs.create_or_update(rg, jc, "flaky", helpers.http_job(target.url(flaky), start=start, retry=retry))
    client.jobs.create_or_update(rg, jc, "broken", helpers.http_job(
        target.url(broken), start=start, retry=retry,
        error_action=m.JobErrorAction(type="Http", request=m.HttpRequest(uri=target.url(err), method="GET"))))

    first, second = target.wait_for(flaky, 2, 30)
    b1, b2 = target.wait_for(broken, 2, 30)
    target.wait_for(err, 1, RUN_TIMEOUT)

    for a, b in ((first, second), (b1, b2)):
        assert 14.0 <= b.at - a.at <= 20.0, f"retry after retryInterval 15 s, got {b.at - a.at:.1f}s"
        assert a.header("x-ms-execution-tag") == b.header("x-ms-execution-tag"), \
            "one occurrence, one execution tag across retries (DESIGN: at-least-once)"
        assert a.header("x-ms-client-request-id") != b.header("x-ms-client-request-id"), \
            "one x-ms-client-request-id per attempt"
        assert a.header("x-ms-scheduler-expected-execution-time") == \
            b.header("x-ms-scheduler-expected-execution-time")

    ok = wait_state(client, rg, jc, "flaky", "Completed")
    s = ok.properties.status
    assert (s.execution_count, s.failure_count, s.faulted_count) == (2, 1, 0), s
    h = history(client, rg, jc, "flaky")
    assert [(r.properties.action_name, r.properties.retry_count, completed(r)) for r in h] == \
        [("MainAction", 1, True), ("MainAction", 0, False)], [r.properties.as_dict() for r in h]
    assert all(r.properties.repeat_count == 1 for r in h)

    bad = wait_state(client, rg, jc, "broken", "Faulted")
    s = bad.properties.status
    assert (s.execution_count, s.failure_count, s.faulted_count) == (2, 2, 1), s
    h = wait_history(client, rg, jc, "broken", 3)
    assert [(r.properties.action_name, r.properties.retry_count) for r in h] == \
        [("ErrorAction", 0), ("MainAction", 1), ("MainAction", 0)], [r.properties.as_dict() for r in h]
    assert len(target.requests(broken)) == 2, "retryCount 1 = one retry"
