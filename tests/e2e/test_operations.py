"""The operations endpoints of a real `kairos serve`: `GET /healthz` and `/readyz` without a
token, `GET /metrics` behind it (read with the Prometheus project's own parser), and metrics that
move with what the test did: jobs by state, occurrences due and sent, attempts by outcome, the
lateness histogram (docs/semantics.md, "Health, readiness and metrics")."""

from __future__ import annotations

import json
from datetime import timedelta

from azure.mgmt.scheduler import models as m
from prometheus_client.parser import text_string_to_metric_families

import helpers
from helpers import NO_RETRY, KairosServer, wait_until

RUN_TIMEOUT = 15.0

# Every metric docs/semantics.md lists, by family name as the parser gives it (a counter's
# family drops `_total`), with its type.
FAMILIES = {
    "kairos_jobs": "gauge",
    "kairos_occurrences_due": "counter",
    "kairos_occurrences_sent": "counter",
    "kairos_send_lateness_seconds": "histogram",
    "kairos_attempts": "counter",
    "kairos_retries": "counter",
    "kairos_claims_held": "gauge",
    "kairos_takeovers": "counter",
    "kairos_store_errors": "counter",
    "kairos_store_up": "gauge",
    "kairos_runner_running": "gauge",
}


def scrape(server, token="default"):
    r = server.raw("GET", "/metrics", token=token, api_version=None)
    assert r.status == 200, r
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4"), r.headers
    return {f.name: f for f in text_string_to_metric_families(r.text)}


def value(families, sample_name, **labels):
    """The value of one sample (0 when the family has no such sample yet)."""
    family = families[sample_name.removesuffix("_total").removesuffix("_count")]
    for s in family.samples:
        if s.name == sample_name and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return 0.0


def test_health_and_readiness_need_no_token(server):
    health = server.raw("GET", "/healthz", token=None, api_version=None)
    assert health.status == 200, health
    assert health.json == {"status": "ok"}

    ready = server.raw("GET", "/readyz", token=None, api_version=None)
    assert ready.status == 200, ready
    body = ready.json
    assert body["status"] == "ready" and body["failed"] == [], body
    assert {name: c["ok"] for name, c in body["checks"].items()} == \
        {"store": True, "migrations": True, "runner": True}, body


def test_metrics_need_the_token(server):
    for token in (None, "not-the-token"):
        r = server.raw("GET", "/metrics", token=token, api_version=None)
        assert r.status == 401, r
        assert r.json["error"]["code"] == "AuthenticationFailed", r
    families = scrape(server)
    for name, kind in FAMILIES.items():
        assert name in families, f"{name} missing from {sorted(families)}"
        assert families[name].type == kind, (name, families[name].type)
    assert value(families, "kairos_runner_running") == 1
    assert value(families, "kairos_store_up") == 1
    assert {s.labels["outcome"] for s in families["kairos_attempts"].samples} == {"succeeded", "failed"}
    assert {s.labels["state"] for s in families["kairos_jobs"].samples} >= \
        {"Enabled", "Disabled", "Completed", "Faulted"}


def test_metrics_move_with_jobs_runs_and_failures(server, client, rg, jc, target):
    before = scrape(server)
    jobs_before = {state: value(before, "kairos_jobs", state=state)
                   for state in ("Enabled", "Disabled", "Completed", "Faulted")}

    # A job whose first run is a day away, and a disabled one: counted by state, nothing runs.
    later = helpers.now() + timedelta(days=1)
    hourly = m.JobRecurrence(frequency="Hour", interval=1)
    client.jobs.create_or_update(rg, jc, "later", helpers.http_job(
        target.url(target.path("later")), start=later, recurrence=hourly, retry=NO_RETRY))
    client.jobs.create_or_update(rg, jc, "off", helpers.http_job(
        target.url(target.path("off")), start=later, recurrence=hourly, retry=NO_RETRY, state="Disabled"))
    created = scrape(server)
    assert value(created, "kairos_jobs", state="Enabled") == jobs_before["Enabled"] + 1
    assert value(created, "kairos_jobs", state="Disabled") == jobs_before["Disabled"] + 1

    # A one-time job due now that succeeds: due, sent, one lateness observation, Completed.
    ok_path = target.path("ok")
    client.jobs.create_or_update(rg, jc, "ok", helpers.http_job(
        target.url(ok_path), start=helpers.now(), retry=NO_RETRY))
    target.wait_for(ok_path, 1, RUN_TIMEOUT)

    def moved(expect: list):
        """The scrape once every (sample, labels, delta) of `expect` moved by delta since `before`."""
        now = scrape(server)
        if all(value(now, name, **labels) == value(before, name, **labels) + delta
               for name, labels, delta in expect):
            return now
        return None

    after_ok = wait_until(lambda: moved([
        ("kairos_attempts_total", {"outcome": "succeeded"}, 1),
        ("kairos_occurrences_sent_total", {}, 1),
        ("kairos_occurrences_due_total", {}, 1),
        ("kairos_send_lateness_seconds_count", {}, 1),
        ("kairos_jobs", {"state": "Completed"}, 1),
    ]), timeout=RUN_TIMEOUT, what="the successful run in the metrics")
    assert value(after_ok, "kairos_attempts_total", outcome="failed") == \
        value(before, "kairos_attempts_total", outcome="failed")

    # A one-time job whose target answers 500 and that may not retry: a failed attempt, Faulted.
    bad_path = target.path("bad")
    target.respond(bad_path, 500)
    client.jobs.create_or_update(rg, jc, "bad", helpers.http_job(
        target.url(bad_path), start=helpers.now(), retry=NO_RETRY))
    target.wait_for(bad_path, 1, RUN_TIMEOUT)
    after_bad = wait_until(lambda: moved([
        ("kairos_attempts_total", {"outcome": "failed"}, 1),
        ("kairos_attempts_total", {"outcome": "succeeded"}, 1),
        ("kairos_occurrences_sent_total", {}, 2),
        ("kairos_occurrences_due_total", {}, 2),
        ("kairos_jobs", {"state": "Faulted"}, 1),
    ]), timeout=RUN_TIMEOUT, what="the failed run in the metrics")
    assert value(after_bad, "kairos_retries_total") == value(before, "kairos_retries_total"), \
        "retryType None: no retry"
    # Both results are recorded once the jobs ended: no claim is left.
    wait_until(lambda: value(scrape(server), "kairos_claims_held") == 0, timeout=RUN_TIMEOUT,
               what="no claims held")
    assert value(after_bad, "kairos_store_errors_total") == value(before, "kairos_store_errors_total")


def test_metrics_without_token_when_asked(tmp_path):
    srv = KairosServer(tmp_path / "data", extra_args=["--metrics-without-token", "--log-format", "json"]).start()
    try:
        families = scrape(srv, token=None)
        assert value(families, "kairos_runner_running") == 1
        # Only metrics: the API still needs the token.
        r = srv.raw("GET", f"/subscriptions/{helpers.unique('s')}/providers/Microsoft.Scheduler/jobCollections",
                    token=None)
        assert r.status == 401, r
        ready = srv.raw("GET", "/readyz", token=None, api_version=None)
        assert ready.status == 200, ready
    finally:
        code = srv.stop()
    assert code == 0
    # --log-format json: every line of the log is one JSON object with a level and a message.
    lines = [line for line in srv.log_path.read_text().splitlines() if line.strip()]
    assert lines, "the server logged something"
    records = [json.loads(line) for line in lines]
    assert all("level" in r and "timestamp" in r for r in records), records[:3]
    assert any(r.get("message") == "ready" for r in records), records
