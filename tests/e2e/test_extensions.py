"""Kairos's extension fields (time zone and DST policy, catch-up, overlap, exponential retry,
blackout calendars, queue message encoding) through the REST API: echoed as given to clients
that send them, and ignored harmlessly by the Azure SDK, which still reads and lists such jobs."""

from __future__ import annotations

from datetime import timedelta

import helpers
from helpers import whole

JC = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Scheduler/jobCollections/{jc}"


def test_extension_fields_round_trip_and_the_sdk_ignores_them(client, server, sub, rg, jc, target):
    base = JC.format(sub=sub, rg=rg, jc=jc)
    calendars = {"holidays": {"dates": ["2030-12-25"], "weekly": [{"days": ["Sunday"], "start": "00:00", "end": "24:00"}]}}
    patched = server.raw("PATCH", base, {"properties": {"calendars": calendars}})
    assert patched.status == 200, patched
    assert patched.json["properties"]["calendars"]["holidays"]["dates"] == ["2030-12-25"]

    start = whole(helpers.now()) + timedelta(days=1)
    recurrence = {
        "frequency": "Day",
        "schedule": {"hours": [2], "minutes": [30]},
        "timeZone": "Europe/Berlin",
        "dstGap": "Skip",
        "dstOverlap": "Twice",
        "catchUp": {"policy": "All", "maxCount": 3, "maxAge": "PT6H"},
        "overlap": "Queue",
        "blackout": ["holidays"],
    }
    retry = {"retryType": "Exponential", "retryInterval": "PT30S", "retryMultiplier": 3, "maxRetryInterval": "PT10M", "retryCount": 5}
    body = {"properties": {
        "startTime": start.isoformat().replace("+00:00", "Z"),
        "action": {"type": "Http", "request": {"uri": target.url(target.path("ext")), "method": "GET"}, "retryPolicy": retry},
        "recurrence": recurrence,
    }}
    put = server.raw("PUT", base + "/jobs/ext", body)
    assert put.status == 201, put
    props = put.json["properties"]
    for key, value in recurrence.items():
        assert props["recurrence"][key] == value, key
    assert props["action"]["retryPolicy"]["retryType"] == "Exponential"
    assert props["action"]["retryPolicy"]["retryMultiplier"] == 3
    assert props["status"]["nextExecutionTime"].endswith(":30:00Z"), "02:30 Berlin is :30 past a UTC hour"

    # The SDK knows none of these fields: it still reads the job and lists it.
    job = client.jobs.get(rg, jc, "ext")
    assert job.properties.recurrence.frequency.lower() == "day"
    assert job.properties.status.next_execution_time is not None
    assert "ext" in [j.name.split("/")[-1] for j in client.jobs.list(rg, jc)]

    # An unknown zone or calendar is a clear 400 naming the field.
    bad = server.raw("PUT", base + "/jobs/bad", {"properties": {**body["properties"], "recurrence": {**recurrence, "timeZone": "Mars/Base"}}})
    assert bad.status == 400, bad
    assert bad.json["error"]["target"] == "properties.recurrence.timeZone"
    missing = server.raw("PUT", base + "/jobs/bad", {"properties": {**body["properties"], "recurrence": {**recurrence, "blackout": ["nope"]}}})
    assert missing.status == 400, missing
    assert missing.json["error"]["target"] == "properties.recurrence.blackout[0]"
