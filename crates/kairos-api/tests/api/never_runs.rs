//! A job whose schedule can never run is refused over the API: 400 with a "never runs" message
//! whose target names the schedule field that rules every run out, and nothing is stored (a new
//! job is not created, an existing one keeps its definition).

use super::*;
use chrono::Datelike;

/// The next 1st of February at 10:00 UTC: a start time in February, within the 18 months a
/// start time may lie ahead.
fn next_february() -> String {
    let now = chrono::Utc::now();
    let year = if now.month() < 2 {
        now.year()
    } else {
        now.year() + 1
    };
    format!("{year}-02-01T10:00:00Z")
}

/// Every 12 months from February, on the days `schedule` lists.
fn yearly_from_february(schedule: Value) -> Value {
    json!({"properties": {
        "startTime": next_february(),
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "Month", "interval": 12, "schedule": schedule}
    }})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schedule_that_never_runs_is_refused_and_nothing_is_stored() {
    let s = Server::start().await;
    s.create_collection_jc().await;
    let jobs = jobs_path("jc");
    let kept = format!("{jobs}/kept");
    let before = s
        .send("PUT", &kept, Some(job_body("http://127.0.0.1:9/")))
        .await;
    assert_eq!(before.status, 201, "{}", before.text);

    for days in [json!([30]), json!([31]), json!([30, 31])] {
        let mut want = expect(400, "BadRequest", "never runs");
        want.target = Some("properties.recurrence.schedule.monthDays");
        let body = yearly_from_february(json!({ "monthDays": days }));
        let new = format!("{jobs}/never");
        check(
            &format!("new job, monthDays {days}"),
            &s.send("PUT", &new, Some(body.clone())).await,
            &want,
        );
        assert_eq!(
            s.get(&new).await.status,
            404,
            "monthDays {days}: not created"
        );
        check(
            &format!("replacing a job, monthDays {days}"),
            &s.send("PUT", &kept, Some(body)).await,
            &want,
        );
    }
    let message = s
        .send(
            "PUT",
            &format!("{jobs}/never"),
            Some(yearly_from_february(json!({"monthDays": [30]}))),
        )
        .await
        .json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.starts_with("properties.recurrence.schedule.monthDays: never runs")
            && message.contains("February"),
        "the message says why, and names the field: {message}"
    );
    eprintln!("MSG {message}");

    let list = s.get(&jobs).await.json();
    let names: Vec<&str> = list["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["jc/kept"], "nothing was stored");
    let after = s.get(&kept).await.json();
    assert_eq!(
        after["properties"]["recurrence"],
        before.json()["properties"]["recurrence"],
        "the existing job kept its schedule"
    );

    // The 29th comes in leap years: that schedule runs, and is stored.
    let leap = s
        .send(
            "PUT",
            &format!("{jobs}/leap"),
            Some(yearly_from_february(json!({"monthDays": [29]}))),
        )
        .await;
    assert_eq!(leap.status, 201, "{}", leap.text);
    s.stop().await;
}
