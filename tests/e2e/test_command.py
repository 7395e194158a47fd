"""The Command action over the REST API: refused (403 CommandActionNotAllowed) by a plain
`kairos serve`, accepted and run by `kairos serve --allow-commands`."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

import helpers
from helpers import KairosServer, whole

JC = "/subscriptions/{sub}/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc"
COLLECTION = {"location": "West US", "properties": {"sku": {"name": "Standard"}}}


def command_job(program: str, arguments: list[str]) -> dict:
    start = whole(helpers.now()) + timedelta(days=1)
    return {"properties": {
        "startTime": start.isoformat().replace("+00:00", "Z"),
        "recurrence": {"frequency": "Day"},
        "action": {"type": "Command", "command": {"program": program, "arguments": arguments}},
    }}


@pytest.mark.skipif(helpers.under_wine(), reason="the programs below are Unix ones")
def test_a_plain_server_refuses_command_jobs(server, sub):
    base = JC.format(sub=sub)
    assert server.raw("PUT", base, COLLECTION).status in (200, 201)
    refused = server.raw("PUT", base + "/jobs/cmd", command_job("printf", ["hi"]))
    assert refused.status == 403, refused
    error = refused.json["error"]
    assert error["code"] == "CommandActionNotAllowed"
    assert error["target"] == "properties.action.type"
    assert "--allow-commands" in error["message"]
    assert server.raw("GET", base + "/jobs/cmd").status == 404


@pytest.mark.skipif(helpers.under_wine(), reason="the programs below are Unix ones")
def test_allow_commands_accepts_and_runs_them(tmp_path, sub):
    srv = KairosServer(tmp_path / "data", extra_args=["--allow-commands"]).start()
    try:
        base = JC.format(sub=sub)
        assert srv.raw("PUT", base, COLLECTION).status in (200, 201)
        put = srv.raw("PUT", base + "/jobs/cmd", command_job("printf", ["%s", "ran; not a shell"]))
        assert put.status == 201, put
        assert srv.raw("POST", base + "/jobs/cmd/run").status == 200
        deadline = time.monotonic() + 10
        while True:
            records = srv.raw("GET", base + "/jobs/cmd/history").json["value"]
            if records or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert records, "no history within 10 s"
        props = records[0]["properties"]
        assert props["status"] == "Completed", props
        assert props["message"] == "exit code 0 (success: 0)\nstdout:\nran; not a shell"
    finally:
        srv.stop()
