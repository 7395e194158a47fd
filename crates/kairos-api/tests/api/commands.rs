//! Command actions over the API: refused (403 `CommandActionNotAllowed`) unless the server
//! allows them, on the ARM and classic paths, for PUT and PATCH, as action or error action.

use super::*;

fn command_job() -> Value {
    // A first run a day away: only the explicit run fires it.
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1)).format("%Y-%m-%dT%H:%M:%SZ");
    json!({"properties": {"startTime": start.to_string(), "recurrence": {"frequency": "Day"},
        "action": {"type": "Command", "command": {"program": "printf", "arguments": ["from the api"]}}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_jobs_are_refused_unless_allowed() {
    let s = Server::start().await;
    s.create_collection_jc().await;
    let job = format!("{}/cmd", jobs_path("jc"));
    let mut want = expect(403, "CommandActionNotAllowed", "--allow-commands");
    want.target = Some("properties.action.type");
    check(
        "PUT",
        &s.send("PUT", &job, Some(command_job())).await,
        &want,
    );

    // As the error action of an HTTP job.
    let mut body = job_body("http://127.0.0.1:9/");
    body["properties"]["action"]["errorAction"] =
        json!({"type": "command", "command": {"program": "true"}});
    want.target = Some("properties.action.errorAction.type");
    check(
        "PUT error action",
        &s.send("PUT", &job, Some(body)).await,
        &want,
    );

    // A PATCH that only changes the program of an existing Command job.
    let mut http = job_body("http://127.0.0.1:9/");
    http["properties"]["action"]
        .as_object_mut()
        .unwrap()
        .remove("errorAction");
    assert_eq!(s.send("PUT", &job, Some(http)).await.status, 201);
    let patch = json!({"properties": {"action": {"command": {"program": "rm"}}}});
    want.target = Some("properties.action.command");
    check("PATCH", &s.send("PATCH", &job, Some(patch)).await, &want);
    assert_eq!(
        s.get(&job).await.json()["properties"]["action"]["type"],
        "Http"
    );
    s.stop().await;
}

// Unix only: the job runs `printf`, which Windows does not have (the engine's command tests
// cover what differs there).
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_command_jobs_are_stored_and_run() {
    let s = Server::start_with(kairos_api::ApiOptions {
        allow_commands: true,
    })
    .await;
    s.create_collection_jc().await;
    let job = format!("{}/cmd", jobs_path("jc"));
    let put = s.send("PUT", &job, Some(command_job())).await;
    assert_eq!(put.status, 201, "{}", put.text);
    assert_eq!(
        put.json()["properties"]["action"]["command"]["program"],
        "printf"
    );
    assert_eq!(
        s.send("POST", &format!("{job}/run"), None).await.status,
        200
    );
    let history = format!("{job}/history");
    let message = wait_for("the command's history", async || {
        s.get(&history).await.json()["value"][0]["properties"]["message"]
            .as_str()
            .map(str::to_string)
    })
    .await;
    assert_eq!(message, "exit code 0 (success: 0)\nstdout:\nfrom the api");
    s.stop().await;
}
