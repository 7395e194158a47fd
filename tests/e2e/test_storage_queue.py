"""The Storage-queue action against Azurite (spec §5.3, §12; DESIGN "Where actions go"): a real
`kairos serve` with KAIROS_STORAGE_QUEUE_URL pointing at Azurite's path style, jobs created with
azure-mgmt-scheduler, messages read back with azure-storage-queue."""

from __future__ import annotations

import base64
import datetime as dt
import re
import urllib.parse
import uuid
import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from azure.mgmt.scheduler import models as m

import helpers
from azurite import ACCOUNT, Azurite
from helpers import NO_RETRY, history, same, wait_until, whole

RUN_TIMEOUT = 10.0
FIELDS = ["ExecutionTag", "ClientRequestId", "ExpectedExecutionTime", "SchedulerJobId",
          "SchedulerJobCollectionId", "Region", "Message"]
# Another base64 key of the same length: a SAS signed with it is well formed but wrong.
WRONG_KEY = base64.b64encode(b"not the account key, but 64 bytes long all the same.............").decode()


@pytest.fixture(scope="module")
def azurite(tmp_path_factory):
    a = Azurite(tmp_path_factory.mktemp("azurite")).start()
    yield a
    a.stop()


@pytest.fixture(scope="module")
def server_env(azurite):
    return {"KAIROS_STORAGE_QUEUE_URL": azurite.url_template}


def queue_message(queue: str, sas: str, message: str) -> m.StorageQueueMessage:
    return m.StorageQueueMessage(storage_account=ACCOUNT, queue_name=queue, sas_token=sas, message=message)


def queue_job(queue: str, sas: str, message: str) -> m.JobDefinition:
    return m.JobDefinition(properties=m.JobProperties(
        start_time=helpers.now(),
        action=m.JobAction(type="StorageQueue", queue_message=queue_message(queue, sas, message),
                           retry_policy=NO_RETRY)))


def wait_state(client, rg, jc, name, state):
    return wait_until(
        lambda: (lambda j: j if same(j.properties.state, state) else None)(client.jobs.get(rg, jc, name)),
        timeout=RUN_TIMEOUT, what=f"job {name} to become {state}")


def wait_history(client, rg, jc, name, count):
    return wait_until(lambda: (lambda h: h if len(h) >= count else None)(history(client, rg, jc, name)),
                      timeout=RUN_TIMEOUT, what=f"{count} history record(s) of {name}")


def completed(rec) -> bool:
    return rec.properties.status is None or same(rec.properties.status, "Completed")


def document(text: str) -> dict:
    """The §12.2 document's fields, checking its shape on the way."""
    root = ET.fromstring(text)
    assert root.tag == "StorageQueueMessage", text
    assert [child.tag for child in root] == FIELDS, text
    return {child.tag: child.text or "" for child in root}


def one_message(azurite: Azurite, queue: str) -> dict:
    """The queue's one message: stored as base64 of the XML, which the SDK's base64 policy (what
    queue triggers use) turns back into the document."""
    [raw] = wait_until(lambda: azurite.peek(queue), timeout=RUN_TIMEOUT, what=f"a message in {queue}")
    xml = base64.b64decode(raw.content, validate=True)
    assert xml.startswith(b'<?xml version="1.0" encoding="utf-8"?>'), xml
    fields = document(xml)  # bytes: the parser reads the declared encoding
    [decoded] = azurite.peek(queue, base64_text=True)
    assert decoded.id == raw.id
    assert document(decoded.content) == fields
    return fields


def secrets_of(sas: str) -> list[str]:
    sig = urllib.parse.parse_qs(sas.lstrip("?"))["sig"][0]
    return [sas.lstrip("?"), sig, urllib.parse.quote(sig, safe="")]


def assert_no_secret(text: str, sas: str):
    for secret in secrets_of(sas):
        assert secret not in text, f"the SAS token leaked: {text!r}"


def test_message_arrives_as_base64_of_the_scheduler_document(client, rg, jc, azurite, server):
    queue = azurite.create_queue()
    sas = azurite.sas(queue)
    text = '<order id="42"> & "more" — ünïcode'
    created = helpers.now()
    client.jobs.create_or_update(rg, jc, "sq-main", queue_job(queue, sas, text))

    fields = one_message(azurite, queue)
    assert re.fullmatch(r"[0-9a-f]{32}", fields["ExecutionTag"]), fields
    assert uuid.UUID(fields["ClientRequestId"]), fields
    expected = dt.datetime.fromisoformat(fields["ExpectedExecutionTime"])
    assert expected.tzinfo is None, "no offset, as Azure wrote it (§12.2)"
    assert abs(expected.replace(tzinfo=dt.timezone.utc) - whole(created)) <= timedelta(seconds=2), fields
    assert fields["SchedulerJobId"] == "sq-main"
    assert fields["SchedulerJobCollectionId"] == jc
    assert fields["Region"] == "Kairos"
    assert fields["Message"] == text

    job = wait_state(client, rg, jc, "sq-main", "Completed")
    assert job.properties.action.queue_message.sas_token is None, "the SAS token is never returned"
    s = job.properties.status
    assert (s.execution_count, s.failure_count, s.faulted_count) == (1, 0, 0)
    [rec] = wait_history(client, rg, jc, "sq-main", 1)
    assert same(rec.properties.action_name, "MainAction") and completed(rec), rec.properties.as_dict()
    assert "201" in rec.properties.message, rec.properties.message
    assert_no_secret(rec.properties.message, sas)


def test_wrong_sas_fails_with_403_and_never_shows_the_token(client, rg, jc, azurite, server):
    queue = azurite.create_queue()
    sas = azurite.sas(queue, key=WRONG_KEY)
    client.jobs.create_or_update(rg, jc, "sq-denied", queue_job(queue, sas, "nope"))

    wait_state(client, rg, jc, "sq-denied", "Faulted")
    [rec] = wait_history(client, rg, jc, "sq-denied", 1)
    p = rec.properties
    assert same(p.action_name, "MainAction") and same(p.status, "Failed"), p.as_dict()
    assert "403" in p.message and "AuthenticationFailed" in p.message, p.message
    assert queue in p.message and ACCOUNT in p.message, p.message
    assert_no_secret(p.message, sas)
    assert azurite.peek(queue) == [], "nothing was enqueued"
    assert_no_secret(server.log_path.read_text("utf-8", "replace"), sas)


def test_missing_queue_fails_with_queue_not_found(client, rg, jc, azurite, server):
    queue = f"absent-{uuid.uuid4().hex[:8]}"
    sas = azurite.sas(queue)
    client.jobs.create_or_update(rg, jc, "sq-missing", queue_job(queue, sas, "lost"))

    wait_state(client, rg, jc, "sq-missing", "Faulted")
    [rec] = wait_history(client, rg, jc, "sq-missing", 1)
    assert "404" in rec.properties.message and "QueueNotFound" in rec.properties.message, \
        rec.properties.message
    assert_no_secret(rec.properties.message, sas)


def test_storage_queue_error_action_enqueues_when_the_http_action_fails(client, rg, jc, azurite, target):
    queue = azurite.create_queue("errors")
    sas = "?" + azurite.sas(queue)  # PowerShell's tokens start with '?': one is dropped (§12.1)
    main = target.path("sq-main-fails")
    target.respond(main, 500, body=b"boom")
    job = helpers.http_job(
        target.url(main), method="POST", start=helpers.now(), retry=NO_RETRY,
        error_action=m.JobErrorAction(type="StorageQueue",
                                      queue_message=queue_message(queue, sas, "ping failed")))
    client.jobs.create_or_update(rg, jc, "sq-error", job)

    [req] = target.wait_for(main, 1, RUN_TIMEOUT)
    fields = one_message(azurite, queue)
    assert fields["Message"] == "ping failed"
    assert fields["SchedulerJobId"] == "sq-error" and fields["SchedulerJobCollectionId"] == jc
    assert fields["ExecutionTag"] == req.header("x-ms-execution-tag"), \
        "the error action carries the occurrence's execution tag"
    assert fields["ClientRequestId"] != req.header("x-ms-client-request-id"), "a new id per attempt"

    job = wait_state(client, rg, jc, "sq-error", "Faulted")
    assert job.properties.action.error_action.queue_message.sas_token is None
    newest, oldest = wait_history(client, rg, jc, "sq-error", 2)
    assert same(oldest.properties.action_name, "MainAction") and same(oldest.properties.status, "Failed")
    assert same(newest.properties.action_name, "ErrorAction") and completed(newest), \
        newest.properties.as_dict()
    assert_no_secret(newest.properties.message, sas)
