"""The classic (2015) Scheduler: the Service Management API with cloud services, driven by its real
client, `azure.servicemanagement.SchedulerManagementService` (azure-servicemanagement-legacy
0.20.8), given a `requests` session carrying the bearer token and plain http to 127.0.0.1; raw
HTTP for what the client lacks (PATCH, POST, history and its filters, errors). A cloud service is
the resource group of the same name, so the ARM SDK sees the same jobs (docs/semantics.md,
"Classic API")."""

from __future__ import annotations

import json
from datetime import timedelta
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests
from azure.common import AzureHttpError, AzureMissingResourceHttpError
from azure.core.exceptions import ResourceNotFoundError
from azure.servicemanagement import SchedulerManagementService

import helpers
from helpers import NO_RETRY, wait_until

NS = "{http://schemas.microsoft.com/windowsazure}"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "classic"
RUN_TIMEOUT = 10.0


@pytest.fixture
def sms(server, sub) -> SchedulerManagementService:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {server.token}"
    service = SchedulerManagementService(sub, request_session=session, host=server.base_url.split("//")[1])
    service._httpclient.protocol = "http"  # the client speaks https to Azure; Kairos is on loopback
    return service


@pytest.fixture
def cloud_service(sms) -> str:
    name = helpers.unique("cs")
    sms.create_cloud_service(name, f"label of {name}", "made by the e2e tests", "West Europe")
    return name


class Raw:
    """Plain HTTP against the classic paths, with the token and the client's x-ms-version."""

    def __init__(self, server, sub):
        self.base = server.base_url + "/" + sub
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {server.token}", "x-ms-version": "2014-10-01"})

    def __call__(self, method, path, body=None, **kw):
        data = body if body is None or isinstance(body, str) else json.dumps(body)
        return self.session.request(method, self.base + path, data=data, timeout=30, **kw)

    def jobs(self, cs, jc, rest=""):
        return f"/cloudservices/{cs}/resources/scheduler/~/jobcollections/{jc}/jobs{rest}"


@pytest.fixture
def raw(server, sub) -> Raw:
    return Raw(server, sub)


def xml_error(response) -> tuple[str, str]:
    root = ET.fromstring(response.content)
    assert root.tag == f"{NS}Error", response.text
    return root.findtext(f"{NS}Code"), root.findtext(f"{NS}Message")


def wait_operation(sms, request_id):
    return sms.wait_for_operation_status(request_id, timeout=5, sleep_interval=1, progress_callback=None,
                                         success_callback=None, failure_callback=None)


# ---------------------------------------------------------------------------------------------
# The legacy client's whole surface


def test_cloud_services_with_the_legacy_client(sms):
    name = helpers.unique("cs")
    created = sms.create_cloud_service(name, "My App", "My cloud service", "West Europe")
    assert created.request_id, "asynchronous operations answer with x-ms-request-id"
    status = wait_operation(sms, created.request_id)
    assert (status.status, status.http_status_code) == ("Succeeded", "201")

    listed = {c.name: c for c in sms.list_cloud_services()}
    assert name in listed, list(listed)
    assert (listed[name].label, listed[name].description, listed[name].geo_region) == \
        ("My App", "My cloud service", "West Europe")

    again = sms.create_cloud_service(name, "Renamed", "changed", "West Europe")
    assert sms.get_operation_status(again.request_id).http_status_code == "200", "a second PUT updates"
    got = sms.get_cloud_service(name)
    assert (got.name, got.label, got.description, len(got.resources)) == (name, "Renamed", "changed", 0)

    deleted = sms.delete_cloud_service(name)
    assert wait_operation(sms, deleted.request_id).status == "Succeeded"
    assert name not in {c.name for c in sms.list_cloud_services()}
    with pytest.raises(AzureMissingResourceHttpError) as e:
        sms.get_cloud_service(name)
    assert e.value.status_code == 404
    assert "<Code>ResourceNotFound</Code>" in str(e.value) and name in str(e.value)


def test_job_collections_and_their_names_with_the_legacy_client(sms, cloud_service):
    cs = cloud_service
    assert sms.check_job_collection_name(cs, "jc1").result is True
    created = sms.create_job_collection(cs, "jc1", plan="Free")
    assert wait_operation(sms, created.request_id).status == "Succeeded"
    assert sms.check_job_collection_name(cs, "jc1").result is False
    assert sms.check_job_collection_name(cs, "JC1").result is False, "names are case-insensitive"

    jc = sms.get_job_collection(cs, "jc1")
    assert (jc.name, jc.state, jc.intrinsic_settings.plan) == ("jc1", "Started", "Free")
    assert jc.intrinsic_settings.quota.max_job_count == 5, "the Free plan's quota"
    assert (jc.intrinsic_settings.quota.max_recurrence.frequency,
            jc.intrinsic_settings.quota.max_recurrence.interval) == ("Hour", 1)
    assert jc.operation_status.result == "Succeeded"

    sms.create_job_collection(cs, "jc2")  # Standard, the client's default
    service = sms.get_cloud_service(cs)
    assert sorted(r.name for r in service.resources) == ["jc1", "jc2"]
    assert {r.name: r.intrinsic_settings.plan for r in service.resources} == {"jc1": "Free", "jc2": "Standard"}

    sms.delete_job_collection(cs, "jc1")
    with pytest.raises(AzureMissingResourceHttpError):
        sms.get_job_collection(cs, "jc1")
    assert sms.check_job_collection_name(cs, "jc1").result is True


def test_jobs_with_the_legacy_client_are_the_same_jobs_over_arm(sms, cloud_service, client):
    cs = cloud_service
    sms.create_job_collection(cs, "jobs")
    start = (helpers.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%MZ")
    created = sms.create_job(cs, "jobs", "poll", {
        "startTime": start,
        "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/poll", "method": "GET"}},
        "recurrence": {"frequency": "week", "schedule": {"weekDays": ["monday"], "hours": [10]}},
    })
    assert wait_operation(sms, created.request_id).http_status_code == "201"

    job = sms.get_job(cs, "jobs", "poll")
    assert job["id"] == "poll"
    assert job["action"]["type"] == "http" and job["recurrence"]["frequency"] == "week"
    assert job["recurrence"]["schedule"]["weekDays"] == ["monday"] and job["state"] == "enabled"
    assert job["action"]["retryPolicy"] == {"retryType": "fixed", "retryInterval": "PT1M", "retryCount": 5}, \
        "jobs created through the classic API get its retry defaults"
    assert job["status"]["nextExecutionTime"], job

    # The same job through the ARM door: the cloud service is the resource group.
    arm = client.jobs.get(cs, "jobs", "poll")
    assert arm.properties.action.retry_policy.retry_count == 5
    assert arm.properties.recurrence.schedule.week_days == ["Monday"]
    client.jobs.create_or_update(cs, "jobs", "from-arm", helpers.http_job("http://127.0.0.1:9/arm", retry=NO_RETRY,
                                 start=helpers.now() + timedelta(days=1)))
    every = {j["id"]: j for j in sms.get_all_jobs(cs, "jobs")}
    assert sorted(every) == ["from-arm", "poll"]
    assert every["from-arm"]["action"]["retryPolicy"] == {"retryType": "none"}
    assert every["from-arm"]["action"]["type"] == "http"

    # After a JSON call the client sends XML with Content-Type application/json: still read.
    other = helpers.unique("cs")
    sms.create_cloud_service(other, "after a job call", "", "North Europe")
    assert sms.get_cloud_service(other).geo_region == "North Europe"

    sms.delete_job(cs, "jobs", "poll")
    with pytest.raises(AzureMissingResourceHttpError):
        sms.get_job(cs, "jobs", "poll")
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(cs, "jobs", "poll")


def test_a_cloud_service_delete_takes_its_collections_and_jobs_in_one_go(sms, cloud_service, client):
    cs = cloud_service
    sms.create_job_collection(cs, "a")
    sms.create_job_collection(cs, "b")
    sms.create_job(cs, "a", "j", {"action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                                  "startTime": "2026-01-01T00:00Z", "state": "disabled"})
    sms.delete_cloud_service(cs)
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.get(cs, "a")
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.get(cs, "b")
    assert cs not in {c.name for c in sms.list_cloud_services()}


def test_an_arm_resource_group_with_collections_is_a_cloud_service(sms, client):
    group = helpers.unique("rg")
    client.job_collections.create_or_update(group, "arm-jc", helpers.collection(location="Japan East"))
    service = sms.get_cloud_service(group)
    assert (service.name, service.label, service.geo_region) == (group, group, "Japan East")
    assert [r.name for r in service.resources] == ["arm-jc"]
    assert group in {c.name for c in sms.list_cloud_services()}


# ---------------------------------------------------------------------------------------------
# Raw HTTP: what the client lacks


def test_a_classic_job_runs_once_and_its_history_filters_by_status_and_state(sms, cloud_service, raw, target,
                                                                             client):
    cs = cloud_service
    sms.create_job_collection(cs, "run")
    path = target.path("classic")
    created = raw("POST", raw.jobs(cs, "run") + "?api-version=2014-04-01", {
        "action": {"type": "http", "request": {"uri": target.url(path), "method": "POST", "body": "hi"},
                   "retryPolicy": {"retryType": "none"}},
    })
    assert created.status_code == 201, created.text
    job_id = created.json()["id"]
    uuid.UUID(job_id)  # a generated id
    assert created.headers["Location"].endswith(f"/jobs/{job_id}")

    [request] = target.wait_for(path, 1, RUN_TIMEOUT)
    assert request.body == b"hi"
    assert job_id in request.header("x-ms-scheduler-jobid")

    def history(query=""):
        r = raw("GET", raw.jobs(cs, "run", f"/{job_id}/history?api-version=2014-04-01{query}"))
        assert r.status_code == 200, r.text
        return r.json()

    records = wait_until(lambda: history() or None, timeout=RUN_TIMEOUT, what="a history record")
    [record] = records
    assert record["jobId"] == job_id
    assert (record["status"], record["state"], record["retryCount"], record["repeatCount"]) == \
        ("completed", "completed", 0, 1), record
    assert record["message"] and record["startTime"] and record["endTime"] == record["timestamp"]
    assert history("&$filter=status%20eq%20failed") == []
    assert len(history("&$filter=status%20eq%20completed")) == 1
    assert len(history("&$filter=state%20eq%20completed")) == 1
    assert history("&$filter=state%20eq%20enabled") == []
    assert len(history("&$top=1")) == 1
    bad = raw("GET", raw.jobs(cs, "run", f"/{job_id}/history?$filter=state%20eq%20sleepy"))
    assert bad.status_code == 400 and "sleepy" in bad.json()["error"]["message"], bad.text

    # Once: the ARM history is the same single record.
    assert len(list(client.jobs.list_job_history(cs, "run", job_id))) == 1
    assert len(target.requests(path)) == 1


def test_patch_put_and_the_2015_example_as_printed(sms, cloud_service, raw):
    cs = cloud_service
    sms.create_job_collection(cs, "edit")
    start = (helpers.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%MZ")
    put = raw("PUT", raw.jobs(cs, "edit", "/j?api-version=2014-04-01"), {
        "startTime": start,
        "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"},
                   "retryPolicy": {"retryType": "fixed", "retryInterval": "PT2M"}},
        "recurrence": {"frequency": "day"},
    })
    assert put.status_code == 201, put.text
    assert put.json()["action"]["retryPolicy"] == {"retryType": "fixed", "retryInterval": "PT2M", "retryCount": 5}

    patched = raw("PATCH", raw.jobs(cs, "edit", "/j?api-version=2014-04-01"), {"state": "disabled"})
    assert patched.status_code == 200, patched.text
    assert patched.json()["state"] == "disabled"
    assert patched.json()["recurrence"] == {"frequency": "day"}
    assert sms.get_job(cs, "edit", "j")["state"] == "disabled"

    # The documentation's example job, pasted exactly as printed (comments, trailing commas,
    # non-breaking spaces, a status block, lower-case values).
    example = (EXAMPLES / "job-2015.json").read_text(encoding="utf-8")
    pasted = raw("PUT", raw.jobs(cs, "edit", "/doc-example?api-version=2014-04-01"), example)
    assert pasted.status_code == 201, pasted.text
    job = pasted.json()
    assert job["state"] == "disabled"
    assert job["recurrence"]["schedule"] == {"weekDays": ["monday", "wednesday", "friday"], "hours": [10, 22]}
    assert job["action"]["errorAction"]["request"]["uri"] == "http://contoso.com/notifyError"
    assert job["action"]["retryPolicy"] == {"retryType": "none"}
    assert (job.get("status") or {}).get("executionCount", 0) == 0, "the pasted status block is ignored"

    # The page's storage-queue action, pasted alone: a job with that action; the account name
    # is read in lower case.
    queue_example = (EXAMPLES / "storage-queue-action-2015.json").read_text(encoding="utf-8")
    pasted = raw("PUT", raw.jobs(cs, "edit", "/queue-example?api-version=2014-04-01"), queue_example)
    assert pasted.status_code == 201, pasted.text
    assert pasted.json()["action"]["type"] == "storageQueue"
    assert pasted.json()["action"]["queueMessage"]["storageAccount"] == "mystorageaccount"
    assert "sasToken" not in pasted.text and "TOKEN" not in pasted.text

    # Frequency year with the months the 2015 page lists.
    yearly = raw("PUT", raw.jobs(cs, "edit", "/yearly?api-version=2014-04-01"), {
        "startTime": start,
        "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "year", "schedule": {"months": [1, 7], "monthDays": [1]}},
    })
    assert yearly.status_code == 201, yearly.text
    assert yearly.json()["recurrence"] == {"frequency": "year", "schedule": {"monthDays": [1], "months": [1, 7]}}
    bad = raw("PUT", raw.jobs(cs, "edit", "/yearly2?api-version=2014-04-01"), {
        "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "year", "interval": 2},
    })
    assert bad.status_code == 400 and "recurrence.interval" in bad.text and "must be 1" in bad.text, bad.text


def test_errors_name_the_field_in_the_shape_the_client_expects(sms, cloud_service, raw, server, sub):
    cs = cloud_service
    # XML where the client expects XML.
    r = raw("PUT", f"/cloudservices/{helpers.unique('cs')}",
            '<CloudService xmlns="http://schemas.microsoft.com/windowsazure"><Label>x</Label></CloudService>')
    assert r.status_code == 400
    code, message = xml_error(r)
    assert code == "BadRequest" and "GeoRegion" in message and "required" in message, message
    operation = r.headers["x-ms-request-id"]
    failed = sms.get_operation_status(operation)
    assert (failed.status, failed.http_status_code, failed.error.code) == ("Failed", "400", "BadRequest")

    r = raw("PUT", f"/cloudservices/{cs}", "<CloudService><Label>unclosed</CloudService>")
    assert r.status_code == 400 and "not valid XML" in xml_error(r)[1]
    r = raw("PUT", f"/cloudservices/{cs}/resources/scheduler/jobcollections/p",
            "<Resource><IntrinsicSettings><Plan>Gold</Plan></IntrinsicSettings></Resource>")
    code, message = xml_error(r)
    assert r.status_code == 400 and "IntrinsicSettings.Plan" in message and "Gold" in message, message
    r = raw("PUT", f"/cloudservices/{helpers.unique('none')}/resources/scheduler/jobcollections/p",
            "<Resource><IntrinsicSettings><Plan>Free</Plan></IntrinsicSettings></Resource>")
    assert r.status_code == 404 and "cloud service" in xml_error(r)[1]
    r = raw("GET", f"/operations/{uuid.uuid4()}")
    assert r.status_code == 404 and xml_error(r)[0] == "ResourceNotFound"
    r = raw("POST", f"/cloudservices/{cs}")
    assert r.status_code == 405 and r.headers["Allow"] == "GET, PUT, DELETE"
    r = raw("GET", "/cloudservices", headers={"x-ms-version": "soon"})
    assert r.status_code == 400 and "x-ms-version" in xml_error(r)[1]
    r = requests.get(f"{server.base_url}/{sub}/cloudservices", timeout=10)
    assert r.status_code == 401, "the same token as the ARM routes"

    # JSON for job calls.
    sms.create_job_collection(cs, "err")
    r = raw("PUT", raw.jobs(cs, "err", "/bad?api-version=2014-04-01"),
            {"action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"},
                        "retryPolicy": {"retryType": "fixed", "retryInterval": "PT30S"}}})
    assert r.status_code == 400
    assert r.json()["error"]["target"] == "properties.action.retryPolicy.retryInterval", r.text
    assert "1 minute" in r.json()["error"]["message"]
    r = raw("PUT", raw.jobs(cs, "err", "/bad?api-version=2014-04-01"), {"action": {"type": "http"}})
    assert r.status_code == 400 and r.json()["error"]["target"].startswith("properties.action.request"), r.text
    r = raw("PUT", raw.jobs(cs, "err", "/bad?api-version=2016-03-01"), {})
    assert r.status_code == 400 and r.json()["error"]["target"] == "api-version", r.text
    r = raw("GET", raw.jobs(cs, "err", "/missing?api-version=2014-04-01"))
    assert r.status_code == 404 and r.json()["error"]["code"] == "ResourceNotFound"
    with pytest.raises(AzureHttpError) as e:
        sms.create_job(cs, "err", "quota", {"action": {"type": "http", "request": {"uri": "nope", "method": "GET"}}})
    assert e.value.status_code == 400 and "properties.action.request.uri" in str(e.value)


def test_command_jobs_are_refused_on_the_classic_paths_too(sms, cloud_service, raw):
    """A plain server refuses the Command action through the 2015 routes as through ARM: a create
    (POST), a PUT, and a PATCH that only names a program; nothing is stored."""
    cs = cloud_service
    sms.create_job_collection(cs, "cmd")
    start = (helpers.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%MZ")
    job = {"startTime": start, "recurrence": {"frequency": "day"},
           "action": {"type": "command", "command": {"program": "printf", "arguments": ["hi"]}}}
    for method, path in (("POST", ""), ("PUT", "/c")):
        r = raw(method, raw.jobs(cs, "cmd", path + "?api-version=2014-04-01"), job)
        assert r.status_code == 403, (method, r.text)
        error = r.json()["error"]
        assert error["code"] == "CommandActionNotAllowed" and "--allow-commands" in error["message"], r.text
        assert error["target"] == "properties.action.type", r.text
    assert raw("GET", raw.jobs(cs, "cmd", "?api-version=2014-04-01")).json() == []

    http = {"startTime": start, "recurrence": {"frequency": "day"},
            "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}
    assert raw("PUT", raw.jobs(cs, "cmd", "/h?api-version=2014-04-01"), http).status_code == 201
    r = raw("PATCH", raw.jobs(cs, "cmd", "/h?api-version=2014-04-01"), {"action": {"command": {"program": "rm"}}})
    assert r.status_code == 403 and r.json()["error"]["target"] == "properties.action.command", r.text
    assert sms.get_job(cs, "cmd", "h")["action"]["type"] == "http"


# ---------------------------------------------------------------------------------------------
# Raw HTTP: the job list's $filter, $top and $skip (docs/semantics.md, "Classic API", Answers)


def test_the_job_list_filters_by_state_and_pages_with_top_and_skip(sms, cloud_service, raw, target):
    cs = cloud_service
    sms.create_job_collection(cs, "list")
    start = (helpers.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%MZ")

    def put(job_id, state="enabled"):
        r = raw("PUT", raw.jobs(cs, "list", f"/{job_id}?api-version=2014-04-01"), {
            "startTime": start, "state": state, "recurrence": {"frequency": "day"},
            "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}})
        assert r.status_code == 201, r.text

    enabled, disabled = ["e1", "e2", "e3"], ["d1", "d2"]
    for job_id in enabled:
        put(job_id)
    for job_id in disabled:
        put(job_id, "disabled")
    # Two one-shot jobs that run at once and finish: one Completed, one Faulted (its target
    # answers 500 and it has no retries).
    ok_path, failing_path = target.path("classic-ok"), target.path("classic-fail")
    target.respond(failing_path, 500)
    for job_id, path in (("done", ok_path), ("broken", failing_path)):
        r = raw("PUT", raw.jobs(cs, "list", f"/{job_id}?api-version=2014-04-01"), {
            "action": {"type": "http", "request": {"uri": target.url(path), "method": "GET"},
                       "retryPolicy": {"retryType": "none"}}})
        assert r.status_code == 201, r.text

    def ids(query=""):
        r = raw("GET", raw.jobs(cs, "list", f"?api-version=2014-04-01{query}"))
        assert r.status_code == 200, r.text
        return [job["id"] for job in r.json()]

    def state_of(job_id):
        return raw("GET", raw.jobs(cs, "list", f"/{job_id}?api-version=2014-04-01")).json()["state"]

    wait_until(lambda: state_of("done") == "completed" and state_of("broken") == "faulted",
               timeout=RUN_TIMEOUT, what="the one-shot jobs to finish")

    everything = ids()
    assert sorted(everything) == sorted(enabled + disabled + ["done", "broken"])
    assert ids() == everything, "the list's order is stable, so $skip can page through it"

    # $filter=state eq X: each state in the 2015 page's lower case or ARM's capitalised form,
    # quoted or bare (the value compares without regard to case).
    assert sorted(ids("&$filter=state%20eq%20Enabled")) == enabled
    assert sorted(ids("&$filter=state%20eq%20disabled")) == disabled
    assert ids("&$filter=state%20eq%20'Completed'") == ["done"]
    assert ids("&$filter=State%20EQ%20faulted") == ["broken"]
    r = raw("GET", raw.jobs(cs, "list", "?api-version=2014-04-01&$filter=state%20eq%20disabled"))
    assert {job["state"] for job in r.json()} == {"disabled"}, "answers are classic jobs, in camel case"

    # $top and $skip: a page of the same order, alone or after the filter.
    assert ids("&$top=2") == everything[:2]
    assert ids("&$top=2&$skip=2") == everything[2:4]
    assert ids("&$skip=5") == everything[5:]
    assert ids("&$skip=7") == []
    on = ids("&$filter=state%20eq%20enabled")
    assert ids("&$filter=state%20eq%20enabled&$top=2&$skip=1") == on[1:3]


def test_the_job_list_answers_every_job_without_top_and_at_most_100_with_it(sms, cloud_service, raw,
                                                                           make_collection):
    """ARM pages at 100 with a nextLink; the classic list has no nextLink, so without `$top` it is
    every job (docs/semantics.md, "Classic API": "a JSON array of every job")."""
    cs = cloud_service
    jc = make_collection(sku="P20Premium", max_job_count=None, group=cs)
    start = (helpers.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%MZ")
    for i in range(101):
        r = raw("PUT", raw.jobs(cs, jc, f"/j{i:03}?api-version=2014-04-01"), {
            "startTime": start, "state": "disabled", "recurrence": {"frequency": "day"},
            "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}})
        assert r.status_code == 201, r.text
    every = raw("GET", raw.jobs(cs, jc, "?api-version=2014-04-01"))
    assert every.status_code == 200 and isinstance(every.json(), list), every.text
    assert sorted(job["id"] for job in every.json()) == [f"j{i:03}" for i in range(101)]
    assert len(raw("GET", raw.jobs(cs, jc, "?$top=100")).json()) == 100
    assert [j["id"] for j in raw("GET", raw.jobs(cs, jc, "?$skip=100")).json()] == [every.json()[100]["id"]]


@pytest.mark.parametrize("query, parameter, says", [
    ("$filter=status%20eq%20failed", "$filter", "supports only 'state eq VALUE'"),
    ("$filter=state%20eq%20sleepy", "$filter", "'sleepy' is not a job state"),
    ("$filter=state%20ne%20enabled", "$filter", "supports only 'state eq VALUE'"),
    ("$top=0", "$top", "from 1 to 100"),
    ("$top=101", "$top", "from 1 to 100"),
    ("$skip=-1", "$skip", "whole number"),
])
def test_a_bad_job_list_query_is_400_naming_the_parameter(sms, cloud_service, raw, query, parameter, says):
    cs = cloud_service
    sms.create_job_collection(cs, "q")
    r = raw("GET", raw.jobs(cs, "q", f"?api-version=2014-04-01&{query}"))
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert (error["code"], error["target"]) == ("BadRequest", parameter), r.text
    assert says in error["message"], r.text


def test_a_classic_put_with_21_retries_is_refused_naming_the_field(sms, cloud_service, raw):
    """The 2015 page's maximum retry count is 20; the engine's rule, the same on both APIs."""
    cs = cloud_service
    sms.create_job_collection(cs, "retries")
    job = {"action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"},
                      "retryPolicy": {"retryType": "fixed", "retryInterval": "PT1M", "retryCount": 21}},
           "recurrence": {"frequency": "day"}}
    r = raw("PUT", raw.jobs(cs, "retries", "/many?api-version=2014-04-01"), job)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["target"] == "properties.action.retryPolicy.retryCount", r.text
    assert "between 0 and 20" in error["message"] and "21" in error["message"], r.text
    assert raw("GET", raw.jobs(cs, "retries", "/many?api-version=2014-04-01")).status_code == 404, "nothing stored"

    job["action"]["retryPolicy"]["retryCount"] = 20
    r = raw("PUT", raw.jobs(cs, "retries", "/many?api-version=2014-04-01"), job)
    assert r.status_code == 201 and r.json()["action"]["retryPolicy"]["retryCount"] == 20, r.text
