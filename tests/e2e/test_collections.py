"""Job collections through the real SDK (spec §2 operations 1–8, §3, §4, §14)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError, ResourceNotFoundError
from azure.mgmt.scheduler import models as m

import helpers
from helpers import same, unique, with_response

PREFIX = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Scheduler/jobCollections"


def test_create_returns_201_then_put_again_returns_200(client, sub, rg):
    name = unique("jc")
    body = helpers.collection(sku="Standard", max_job_count=50, max_recurrence=("Minute", 1),
                              tags={"team": "e2e"})
    resp, jc = with_response(client.job_collections.create_or_update, rg, name, body)
    assert resp.status_code == 201, resp.text()
    assert resp.headers.get("x-ms-request-id"), "every response carries x-ms-request-id (§2)"
    sent = resp.request.headers.get("x-ms-client-request-id")
    assert sent and resp.headers.get("x-ms-client-request-id") == sent, "the client request id is echoed"
    assert jc.id == PREFIX.format(sub=sub, rg=rg) + "/" + name
    assert jc.type == "Microsoft.Scheduler/jobCollections"
    assert jc.name == name
    assert jc.location == "West US"
    assert jc.tags == {"team": "e2e"}
    assert same(jc.properties.state, "Enabled")
    assert same(jc.properties.sku.name, "Standard")
    assert jc.properties.quota.max_job_count == 50
    assert same(jc.properties.quota.max_recurrence.frequency, "Minute")
    assert jc.properties.quota.max_recurrence.interval == 1

    resp2, jc2 = with_response(client.job_collections.create_or_update, rg, name, body)
    assert resp2.status_code == 200, "PUT on an existing collection updates it: 200"
    assert jc2.id == jc.id
    assert resp2.headers.get("x-ms-request-id") != resp.headers.get("x-ms-request-id"), \
        "x-ms-request-id is unique per request"


def test_create_without_state_or_quota_comes_back_enabled(client, rg):
    name = unique("jc")
    jc = client.job_collections.create_or_update(
        rg, name, m.JobCollectionDefinition(location="westus",
                                            properties=m.JobCollectionProperties(sku=m.Sku(name="Standard"))))
    assert same(jc.properties.state, "Enabled")
    assert same(jc.properties.sku.name, "Standard")


def test_get(client, rg, jc, sub):
    got = client.job_collections.get(rg, jc)
    assert got.name == jc
    assert got.id == PREFIX.format(sub=sub, rg=rg) + "/" + jc
    assert same(got.properties.sku.name, "Standard")
    assert got.properties.quota.max_job_count == 50


def test_list_by_resource_group_and_subscription(server):
    sub = str(uuid.uuid4())  # a subscription of this test's own, so the lists are exact
    c = server.client(sub)
    a1, a2, b1 = unique("a1"), unique("a2"), unique("b1")
    for group, name in (("rg-a", a1), ("rg-a", a2), ("rg-b", b1)):
        c.job_collections.create_or_update(group, name, helpers.collection())

    in_a = {x.name for x in c.job_collections.list_by_resource_group("rg-a")}
    assert in_a == {a1, a2}
    in_b = [x for x in c.job_collections.list_by_resource_group("rg-b")]
    assert [x.name for x in in_b] == [b1]
    assert in_b[0].id.endswith(f"/resourceGroups/rg-b/providers/Microsoft.Scheduler/jobCollections/{b1}")
    in_sub = {x.name for x in c.job_collections.list_by_subscription()}
    assert in_sub == {a1, a2, b1}

    other = server.client(str(uuid.uuid4()))
    assert list(other.job_collections.list_by_subscription()) == [], \
        "subscriptions namespace collections"
    assert list(other.job_collections.list_by_resource_group("rg-a")) == []
    with pytest.raises(ResourceNotFoundError):
        other.job_collections.get("rg-a", a1)
    assert list(c.job_collections.list_by_resource_group("rg-empty")) == []


def test_list_body_has_value_and_next_link(server, sub, rg, jc):
    r = server.raw("GET", PREFIX.format(sub=sub, rg=rg))
    assert r.status == 200, r
    assert jc in [x["name"] for x in r.json["value"]]
    assert r.json.get("nextLink") is None


def test_patch_changes_quota_and_keeps_the_rest(client, rg, jc):
    patched = client.job_collections.patch(rg, jc, m.JobCollectionDefinition(
        properties=m.JobCollectionProperties(quota=m.JobCollectionQuota(max_job_count=7))))
    assert patched.properties.quota.max_job_count == 7
    assert same(patched.properties.sku.name, "Standard"), "PATCH keeps the sku"
    assert same(patched.properties.state, "Enabled")
    assert patched.location == "West US"
    got = client.job_collections.get(rg, jc)
    assert got.properties.quota.max_job_count == 7
    assert got.properties.quota.max_recurrence is not None, "PATCH merges inside quota"
    assert same(got.properties.quota.max_recurrence.frequency, "Minute")


def test_patch_missing_collection_is_404(client, rg):
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.patch(rg, unique("nope"), m.JobCollectionDefinition(
            properties=m.JobCollectionProperties(quota=m.JobCollectionQuota(max_job_count=7))))


def test_disable_and_enable_act_on_all_jobs(client, rg, jc, target):
    start = helpers.whole(helpers.now()) + timedelta(days=1)
    for name in ("one", "two"):
        client.jobs.create_or_update(rg, jc, name, helpers.http_job(
            target.url(target.path("never")), start=start,
            recurrence=m.JobRecurrence(frequency="Hour", interval=1)))

    assert client.job_collections.begin_disable(rg, jc).result() is None
    for name in ("one", "two"):
        job = client.jobs.get(rg, jc, name)
        assert same(job.properties.state, "Disabled"), f"{name} after collection disable"
        assert job.properties.status is None or job.properties.status.next_execution_time is None, \
            "a disabled job has no next execution (§5.6)"
    assert same(client.job_collections.get(rg, jc).properties.state, "Disabled")

    assert client.job_collections.begin_enable(rg, jc).result() is None
    for name in ("one", "two"):
        job = client.jobs.get(rg, jc, name)
        assert same(job.properties.state, "Enabled"), f"{name} after collection enable"
        assert job.properties.status.next_execution_time == start
    assert same(client.job_collections.get(rg, jc).properties.state, "Enabled")


def test_enable_disable_missing_collection_is_404(client, rg):
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.begin_disable(rg, unique("nope")).result()
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.begin_enable(rg, unique("nope")).result()


def test_delete_removes_collection_and_its_jobs(client, server, sub, rg, jc, target):
    client.jobs.create_or_update(rg, jc, "j", helpers.http_job(
        target.url(target.path()), start=helpers.now() + timedelta(days=1)))
    assert client.job_collections.begin_delete(rg, jc).result() is None
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.get(rg, jc)
    with pytest.raises(ResourceNotFoundError):
        client.jobs.get(rg, jc, "j")
    assert jc not in {x.name for x in client.job_collections.list_by_resource_group(rg)}
    # Re-creating the name gives an empty collection, not the old jobs.
    client.job_collections.create_or_update(rg, jc, helpers.collection())
    assert list(client.jobs.list(rg, jc)) == []


def test_delete_missing_collection_is_404(client, rg):
    with pytest.raises(ResourceNotFoundError):
        client.job_collections.begin_delete(rg, unique("nope")).result()


def test_missing_collection_is_resource_not_found(client, rg):
    with pytest.raises(ResourceNotFoundError) as e:
        client.job_collections.get(rg, unique("nope"))
    assert e.value.status_code == 404
    assert e.value.error is not None and e.value.error.code, "ARM error body {error:{code,message}}"
    assert e.value.error.message
    assert e.value.response.headers.get("x-ms-request-id"), "errors carry x-ms-request-id too"


def test_wrong_or_missing_token_is_401(server, sub, rg, jc):
    for token in ("wrong-token", None):
        bad = helpers.make_client(server.base_url, sub, token)
        with pytest.raises(ClientAuthenticationError) as e:
            bad.job_collections.get(rg, jc)
        assert e.value.status_code == 401
        assert e.value.error is not None and e.value.error.code, "401 has an ARM error body"
        with pytest.raises(ClientAuthenticationError):
            list(bad.job_collections.list_by_subscription())
        with pytest.raises(ClientAuthenticationError):
            bad.job_collections.create_or_update(rg, unique("jc"), helpers.collection())
    r = server.raw("GET", PREFIX.format(sub=sub, rg=rg) + "/" + jc, token="wrong-token")
    assert r.status == 401 and "error" in r.json, r
    assert r.headers.get("www-authenticate", "").lower().startswith("bearer"), r.headers
    assert r.headers.get("x-ms-request-id")
    # The wrong token changed nothing.
    assert server.client(sub).job_collections.get(rg, jc).name == jc


def test_missing_api_version_is_400(server, sub, rg, jc):
    r = server.raw("GET", PREFIX.format(sub=sub, rg=rg) + "/" + jc, api_version=None)
    assert r.status == 400, r
    assert r.json["error"]["code"], r


def test_malformed_collection_body_is_400(server, sub, rg):
    r = server.raw("PUT", PREFIX.format(sub=sub, rg=rg) + "/" + unique("jc"), body='{"location": ')
    assert r.status == 400, r
    assert r.json["error"]["code"] == "BadRequest", r


def test_second_free_collection_in_a_subscription_is_409(server):
    c = server.client(str(uuid.uuid4()))
    c.job_collections.create_or_update("rg-1", unique("free"), helpers.collection(sku="Free"))
    with pytest.raises(HttpResponseError) as e:
        c.job_collections.create_or_update("rg-2", unique("free"), helpers.collection(sku="Free"))
    assert e.value.status_code == 409, "one Free collection per subscription (§4)"
    c.job_collections.create_or_update("rg-2", unique("std"), helpers.collection(sku="Standard"))


def test_wrong_method_is_405_with_allow(server, sub, rg):
    r = server.raw("DELETE", PREFIX.format(sub=sub, rg=rg))
    assert r.status == 405, r
    assert r.json["error"]["code"], r
    assert "GET" in r.headers.get("allow", ""), r.headers
