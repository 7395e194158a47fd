"""Jobs through the real SDK: create/get/list/patch/delete, quotas and validation
(spec §2 operations 9–14, §5, §6, §8, §9.5, §14)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from azure.core.exceptions import HttpResponseError, ResourceNotFoundError
from azure.mgmt.scheduler import models as m

import helpers
from helpers import same, unique, whole, with_response

JOBS = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Scheduler/jobCollections/{jc}/jobs"


def section16_job(uri: str, secret: str, start):
    """The job of spec §16 without its errorAction."""
    return helpers.http_job(
        uri, method="POST", body="hi", headers={"Content-Type": "text/plain"}, start=start,
        auth=m.BasicAuthentication(username="u", password=secret),
        retry=m.RetryPolicy(retry_type="Fixed", retry_interval=timedelta(minutes=1), retry_count=2),
        recurrence=m.JobRecurrence(frequency="Hour", interval=6, count=10),
        state="Enabled",
    )


def future(days=1):
    return whole(helpers.now()) + timedelta(days=days)


def check_section16(job, jc, name, uri, start):
    p = job.properties
    assert job.name == f"{jc}/{name}", "job name is 'collection/job' (§5)"
    assert job.type == "Microsoft.Scheduler/jobCollections/jobs"
    assert job.id.endswith(f"/providers/Microsoft.Scheduler/jobCollections/{jc}/jobs/{name}")
    assert p.start_time == start
    assert same(p.action.type, "Http")
    assert p.action.request.uri == uri
    assert p.action.request.method == "POST"
    assert p.action.request.body == "hi"
    assert p.action.request.headers == {"Content-Type": "text/plain"}
    auth = p.action.request.authentication
    assert same(auth.type, "Basic") and auth.username == "u"
    assert not auth.password, "secrets are never returned (§8)"
    assert same(p.action.retry_policy.retry_type, "Fixed")
    assert p.action.retry_policy.retry_interval == timedelta(minutes=1)
    assert p.action.retry_policy.retry_count == 2
    assert p.action.error_action is None
    assert same(p.recurrence.frequency, "Hour")
    assert p.recurrence.interval == 6 and p.recurrence.count == 10
    assert same(p.state, "Enabled")
    s = p.status
    assert s is not None, "an Enabled job has a status (§5.6)"
    assert s.next_execution_time == start
    assert (s.execution_count, s.failure_count, s.faulted_count) == (0, 0, 0)
    assert s.last_execution_time is None


def test_create_get_recurring_http_job(client, server, sub, rg, jc, target):
    uri, secret, start = target.url(target.path("ping")), "pw-" + uuid.uuid4().hex, future()
    resp, job = with_response(client.jobs.create_or_update, rg, jc, "ping", section16_job(uri, secret, start))
    assert resp.status_code == 201, resp.text()
    assert secret not in resp.text()
    check_section16(job, jc, "ping", uri, start)

    check_section16(client.jobs.get(rg, jc, "ping"), jc, "ping", uri, start)

    raw = server.raw("GET", JOBS.format(sub=sub, rg=rg, jc=jc) + "/ping")
    assert raw.status == 200, raw
    assert secret not in raw.text, "the Basic password must not appear in any response"
    assert raw.headers.get("x-ms-request-id")
    listed = server.raw("GET", JOBS.format(sub=sub, rg=rg, jc=jc))
    assert listed.status == 200 and secret not in listed.text
    assert [j["name"] for j in listed.json["value"]] == [f"{jc}/ping"]

    resp2, job2 = with_response(client.jobs.create_or_update, rg, jc, "ping", section16_job(uri, secret, start))
    assert resp2.status_code == 200, "PUT on an existing job returns 200"
    check_section16(job2, jc, "ping", uri, start)


def test_list_top_skip_filter_and_next_link(client, server, sub, rg, jc, target):
    start = future()
    enabled = [f"e{i}" for i in range(5)]
    disabled = ["d0", "d1"]
    for name in enabled + disabled:
        client.jobs.create_or_update(rg, jc, name, helpers.http_job(
            target.url(target.path()), start=start, recurrence=m.JobRecurrence(frequency="Day"),
            state="Disabled" if name in disabled else "Enabled"))

    everything = [j.name for j in client.jobs.list(rg, jc)]
    assert sorted(everything) == sorted(f"{jc}/{n}" for n in enabled + disabled)
    assert [j.name for j in client.jobs.list(rg, jc)] == everything, "list order is stable"

    pages = [[j.name for j in page] for page in client.jobs.list(rg, jc, top=3).by_page()]
    assert len(pages[0]) == 3, f"$top=3 gives pages of 3: {pages}"
    assert len(pages) == 3, f"7 jobs in pages of 3 = 3 pages via nextLink: {pages}"
    flat = [n for p in pages for n in p]
    assert flat == everything, "paging through nextLink yields every job once, in order"

    raw = server.raw("GET", JOBS.format(sub=sub, rg=rg, jc=jc) + "?$top=3")
    assert raw.status == 200 and len(raw.json["value"]) == 3
    assert isinstance(raw.json.get("nextLink"), str) and raw.json["nextLink"], raw

    assert [j.name for j in client.jobs.list(rg, jc, skip=2)] == everything[2:]
    first = next(iter(client.jobs.list(rg, jc, top=2, skip=2).by_page()))
    assert [j.name for j in first] == everything[2:4]

    on = [j for j in client.jobs.list(rg, jc, filter="state eq Enabled")]
    assert sorted(j.name for j in on) == sorted(f"{jc}/{n}" for n in enabled)
    assert all(same(j.properties.state, "Enabled") for j in on)
    off = {j.name for j in client.jobs.list(rg, jc, filter="state eq Disabled")}
    assert off == {f"{jc}/{n}" for n in disabled}
    assert {j.name for j in client.jobs.list(rg, jc, filter="state eq disabled")} == off, \
        "filter values compare case-insensitively (§2)"
    assert {j.name for j in client.jobs.list(rg, jc, filter="State EQ 'disabled'")} == off, \
        "docs/semantics.md: field and eq in any case, quoted values"
    assert list(client.jobs.list(rg, jc, filter="state eq Faulted")) == []
    paged = [[j.name for j in p] for p in client.jobs.list(rg, jc, top=2, filter="state eq Enabled").by_page()]
    assert [len(p) for p in paged] == [2, 2, 1], f"nextLink keeps the filter: {paged}"
    assert sorted(n for p in paged for n in p) == sorted(f"{jc}/{n}" for n in enabled)


def test_list_rejects_top_out_of_range(server, sub, rg, jc):
    for top in ("0", "101"):
        r = server.raw("GET", JOBS.format(sub=sub, rg=rg, jc=jc) + f"?$top={top}")
        assert r.status == 400, f"$top={top} is outside 1..100 (§2): {r}"


def test_list_rejects_a_bad_filter(server, sub, rg, jc):
    r = server.raw("GET", JOBS.format(sub=sub, rg=rg, jc=jc) + "?$filter=color%20eq%20Blue")
    assert r.status == 400, r
    assert r.json["error"]["code"] == "BadRequest", r


def test_patch_merges_and_keeps_untouched_fields(client, rg, jc, target):
    uri, start = target.url(target.path()), future()
    client.jobs.create_or_update(rg, jc, "p", section16_job(uri, "pw", start))

    job = client.jobs.patch(rg, jc, "p", m.JobDefinition(properties=m.JobProperties(state="Disabled")))
    p = job.properties
    assert same(p.state, "Disabled")
    assert p.action.request.uri == uri and p.action.request.body == "hi"
    assert p.action.request.authentication.username == "u"
    assert p.action.retry_policy.retry_count == 2
    assert p.recurrence.count == 10 and same(p.recurrence.frequency, "Hour")
    assert p.status is None or p.status.next_execution_time is None, "disabled: no next execution"

    job = client.jobs.patch(rg, jc, "p", m.JobDefinition(properties=m.JobProperties(
        recurrence=m.JobRecurrence(frequency="Day", interval=1), state="Enabled")))
    p = job.properties
    assert same(p.recurrence.frequency, "Day") and p.recurrence.interval == 1
    assert p.recurrence.count == 10, "PATCH merges inside recurrence (§6)"
    assert p.action.request.authentication.username == "u", "PATCH keeps the action"
    assert same(p.action.retry_policy.retry_type, "Fixed")
    assert same(p.state, "Enabled")
    assert p.status.next_execution_time == start

    got = client.jobs.get(rg, jc, "p").properties
    assert same(got.recurrence.frequency, "Day") and got.recurrence.count == 10


def test_patch_with_null_authentication_removes_it(client, server, sub, rg, jc, target):
    uri = target.url(target.path())
    client.jobs.create_or_update(rg, jc, "a", section16_job(uri, "pw", future()))
    path = JOBS.format(sub=sub, rg=rg, jc=jc) + "/a"
    r = server.raw("PATCH", path, body={"properties": {"action": {"request": {"authentication": None}}}})
    assert r.status == 200, r
    req = r.json["properties"]["action"]["request"]
    assert req.get("authentication") is None, f"authentication: null removes it (§6): {req}"
    assert req["uri"] == uri and req["body"] == "hi" and req["method"] == "POST"
    got = client.jobs.get(rg, jc, "a").properties.action.request
    assert got.authentication is None and got.uri == uri


def test_put_replaces_the_whole_definition(client, rg, jc, target):
    uri, start = target.url(target.path()), future()
    client.jobs.create_or_update(rg, jc, "r", section16_job(uri, "pw", start))
    resp, job = with_response(client.jobs.create_or_update, rg, jc, "r",
                              helpers.http_job(uri, method="GET", start=start, state="Disabled"))
    assert resp.status_code == 200
    p = job.properties
    assert p.recurrence is None, "PUT replaces: no recurrence any more (§6)"
    assert p.action.request.authentication is None
    assert p.action.retry_policy is None and p.action.error_action is None
    assert p.action.request.method == "GET" and same(p.state, "Disabled")


def test_delete_job(client, rg, jc, target):
    client.jobs.create_or_update(rg, jc, "gone", helpers.http_job(target.url(target.path()), start=future()))
    client.jobs.create_or_update(rg, jc, "kept", helpers.http_job(target.url(target.path()), start=future()))
    assert client.jobs.delete(rg, jc, "gone") is None
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, jc, "gone")
    with pytest.raises(ResourceNotFoundError):
        client.jobs.delete(rg, jc, "gone")
    assert [j.name for j in client.jobs.list(rg, jc)] == [f"{jc}/kept"]


def test_jobs_under_a_missing_collection_are_404(client, rg, target):
    missing = unique("nope")
    with pytest.raises(ResourceNotFoundError):
        client.jobs.create_or_update(rg, missing, "j", helpers.http_job(target.url("/x"), start=future()))
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, missing, "j")
    with pytest.raises(ResourceNotFoundError):
        list(client.jobs.list(rg, missing))
    with pytest.raises(ResourceNotFoundError):
        client.jobs.run(rg, missing, "j")


def test_missing_job_is_404(client, rg, jc):
    with pytest.raises(ResourceNotFoundError) as e:
        client.jobs.get(rg, jc, "nope")
    assert e.value.error is not None and e.value.error.code
    with pytest.raises(ResourceNotFoundError):
        client.jobs.patch(rg, jc, "nope", m.JobDefinition(properties=m.JobProperties(state="Disabled")))
    with pytest.raises(ResourceNotFoundError):
        list(client.jobs.list_job_history(rg, jc, "nope"))


def test_max_job_count_quota_is_409(client, rg, make_collection, target):
    jc = make_collection(max_job_count=2)
    job = helpers.http_job(target.url(target.path()), start=future())
    client.jobs.create_or_update(rg, jc, "a", job)
    client.jobs.create_or_update(rg, jc, "b", job)
    with pytest.raises(HttpResponseError) as e:
        client.jobs.create_or_update(rg, jc, "c", job)
    assert e.value.status_code == 409, "creating a job beyond maxJobCount is 409 Conflict (§3)"
    assert e.value.error is not None and e.value.error.message
    resp, _ = with_response(client.jobs.create_or_update, rg, jc, "a", job)
    assert resp.status_code == 200, "updating an existing job is not a new job"
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, jc, "c")
    client.jobs.delete(rg, jc, "b")
    resp, _ = with_response(client.jobs.create_or_update, rg, jc, "c", job)
    assert resp.status_code == 201


def test_concurrent_creates_never_exceed_max_job_count(client, rg, make_collection, target):
    """Every state change is one transaction (DESIGN): 12 parallel creates, room for 5."""
    from concurrent.futures import ThreadPoolExecutor

    jc = make_collection(max_job_count=5)
    job = helpers.http_job(target.url(target.path()), start=future())

    def create(i):
        try:
            client.jobs.create_or_update(rg, jc, f"c{i}", job)
            return 201
        except HttpResponseError as e:
            return e.status_code

    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(create, range(12)))
    assert sorted(codes) == [201] * 5 + [409] * 7, codes
    assert len(list(client.jobs.list(rg, jc))) == 5


def test_recurrence_more_frequent_than_quota_is_409(client, rg, make_collection, target):
    jc = make_collection(max_recurrence=("Hour", 1))
    uri = target.url(target.path())
    with pytest.raises(HttpResponseError) as e:
        client.jobs.create_or_update(rg, jc, "fast", helpers.http_job(
            uri, start=future(), recurrence=m.JobRecurrence(frequency="Minute", interval=30)))
    assert e.value.status_code == 409, "recurrence more frequent than maxRecurrence is 409 (§3)"
    client.jobs.create_or_update(rg, jc, "hourly", helpers.http_job(
        uri, start=future(), recurrence=m.JobRecurrence(frequency="Hour", interval=1)))
    client.jobs.create_or_update(rg, jc, "daily", helpers.http_job(
        uri, start=future(), recurrence=m.JobRecurrence(frequency="Day", interval=1)))
    with pytest.raises(HttpResponseError) as e:
        client.jobs.patch(rg, jc, "hourly", m.JobDefinition(properties=m.JobProperties(
            recurrence=m.JobRecurrence(frequency="Minute", interval=1))))
    assert e.value.status_code == 409, "the quota applies to PATCH too"
    assert same(client.jobs.get(rg, jc, "hourly").properties.recurrence.frequency, "Hour")


def test_free_plan_defaults_and_restrictions(server, target):
    c = server.client(str(uuid.uuid4()))  # its own subscription: one Free collection each
    rg, jc = "rg-free", unique("free")
    c.job_collections.create_or_update(rg, jc, helpers.collection(sku="Free"))
    uri = target.url(target.path())
    with pytest.raises(HttpResponseError) as e:
        c.jobs.create_or_update(rg, jc, "minutely", helpers.http_job(
            uri, start=future(), recurrence=m.JobRecurrence(frequency="Minute", interval=1)))
    assert e.value.status_code == 409, "Free: at most once an hour (§4)"
    with pytest.raises(HttpResponseError) as e:
        c.jobs.create_or_update(rg, jc, "auth", helpers.http_job(
            uri, start=future(), auth=m.BasicAuthentication(username="u", password="p")))
    assert e.value.status_code in (400, 409), "Free: no outbound authentication (§4, §14.3)"
    for i in range(5):
        c.jobs.create_or_update(rg, jc, f"j{i}", helpers.http_job(
            uri, start=future(), recurrence=m.JobRecurrence(frequency="Hour", interval=1)))
    with pytest.raises(HttpResponseError) as e:
        c.jobs.create_or_update(rg, jc, "sixth", helpers.http_job(uri, start=future()))
    assert e.value.status_code == 409, "Free: 5 jobs (§4)"


def _recurrence(**kw):
    return m.JobRecurrence(frequency=kw.pop("frequency", "Hour"), **kw)


INVALID = [
    ("minutes", dict(recurrence=_recurrence(schedule=m.JobRecurrenceSchedule(minutes=[60])))),
    ("hours", dict(recurrence=_recurrence(frequency="Day", schedule=m.JobRecurrenceSchedule(hours=[24])))),
    ("interval", dict(recurrence=_recurrence(interval=0))),
    ("interval", dict(recurrence=_recurrence(frequency="Month", interval=19))),
    ("count", dict(recurrence=_recurrence(count=0))),
    ("weekDays", dict(recurrence=_recurrence(frequency="Day",
                                             schedule=m.JobRecurrenceSchedule(week_days=["Monday"])))),
    ("monthDays", dict(recurrence=_recurrence(frequency="Month", schedule=m.JobRecurrenceSchedule(month_days=[32])))),
    ("retryInterval", dict(retry=m.RetryPolicy(retry_type="Fixed", retry_interval=timedelta(seconds=5),
                                               retry_count=1))),
    ("retryCount", dict(retry=m.RetryPolicy(retry_type="Fixed", retry_interval=timedelta(seconds=30),
                                            retry_count=21))),
    ("startTime", dict(start="far")),
]


@pytest.mark.parametrize("field,kw", INVALID, ids=[f"{f}-{i}" for i, (f, _) in enumerate(INVALID)])
def test_invalid_job_is_400_naming_the_field(client, rg, jc, target, field, kw):
    kw = dict(kw)
    if kw.get("start") == "far":
        kw["start"] = helpers.now() + timedelta(days=3 * 365)
    else:
        kw.setdefault("start", future())
    with pytest.raises(HttpResponseError) as e:
        client.jobs.create_or_update(rg, jc, "bad", helpers.http_job(target.url(target.path()), **kw))
    assert e.value.status_code == 400, e.value
    err = e.value.error
    assert err is not None and err.code == "BadRequest", f"ARM error code BadRequest (§14.3): {err}"
    assert field.lower() in (err.message or "").lower(), f"the message names {field}: {err.message!r}"
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, jc, "bad")


@pytest.mark.parametrize("field,properties", [
    ("action", {"state": "Enabled"}),
    ("uri", {"action": {"type": "Http", "request": {"method": "GET"}}}),
    ("uri", {"action": {"type": "Http", "request": {"uri": "not a url", "method": "GET"}}}),
    ("frequency", {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                   "recurrence": {"interval": 2}}),
    ("type", {"action": {"type": "Carrier-Pigeon", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}),
])
def test_invalid_raw_job_is_400_naming_the_field(server, sub, rg, jc, field, properties):
    r = server.raw("PUT", JOBS.format(sub=sub, rg=rg, jc=jc) + "/bad", body={"properties": properties})
    assert r.status == 400, r
    err = r.json["error"]
    assert err["code"] == "BadRequest", r
    assert field.lower() in err["message"].lower(), f"message names {field}: {err['message']!r}"


def test_malformed_job_json_is_400(server, sub, rg, jc):
    r = server.raw("PUT", JOBS.format(sub=sub, rg=rg, jc=jc) + "/bad", body='{"properties": {')
    assert r.status == 400, r
    assert r.json["error"]["code"] == "BadRequest"


def test_job_larger_than_16k_is_400(server, sub, rg, jc):
    request = {"uri": "http://127.0.0.1:9/big", "method": "POST", "body": "x" * 8000,
               "headers": {f"X-H{i}": "v" * 70 for i in range(40)}}
    body = {"properties": {"startTime": future().strftime("%Y-%m-%dT%H:%M:%SZ"), "action": {
        "type": "Http", "request": request,
        "errorAction": {"type": "Http", "request": dict(request, body="y" * 8000)}}}}
    r = server.raw("PUT", JOBS.format(sub=sub, rg=rg, jc=jc) + "/big", body=body)
    assert r.status == 400, f"a job definition over 16K is 400 (§11): {r}"
    assert r.json["error"]["code"] == "BadRequest"
