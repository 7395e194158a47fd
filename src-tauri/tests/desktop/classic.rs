//! One system, two doors (docs/semantics.md, "Classic API"): a cloud service, job collection and
//! jobs made through the classic (2015) routes of the real `kairos_api` router, over HTTP on
//! loopback and the desktop's own database, are what the window's collection and job lists show;
//! and a job saved in the window reads back through the classic API.

use super::{last_friday_at_0515, setup};
use kairos_desktop::commands as c;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

const TOKEN: &str = "desktop-classic-test-token";
const SUB: &str = "6b8a5a04-1c3e-4f6e-9a55-0d1f2e3c4b5a";

/// The classic API served over the desktop's engine on a port of its own, for the test's life.
struct Server {
    addr: SocketAddr,
    _rt: tokio::runtime::Runtime,
}

impl Server {
    fn start(engine: kairos_engine::Engine) -> Server {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let app = kairos_api::router(engine, TOKEN.into());
        rt.spawn(async move { axum::serve(listener, app).await });
        Server { addr, _rt: rt }
    }

    /// One request; (status, body). HTTP/1.0, so the answer is never chunked and ends when the
    /// server closes the connection: no HTTP client crate needed.
    fn call(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        write!(
            stream,
            "{method} /{SUB}{path} HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\
             x-ms-version: 2014-10-01\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }

    fn json(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.call(method, path, &body.to_string());
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }
}

fn jobs(cs: &str, jc: &str, rest: &str) -> String {
    format!("/cloudservices/{cs}/resources/scheduler/~/jobcollections/{jc}/jobs{rest}")
}

#[test]
fn a_job_made_through_the_classic_api_shows_in_the_window_and_back() {
    let s = setup(); // 2026-11-23 10:00 UTC, a Monday
    let d = &s.desktop;
    let server = Server::start(d.engine.clone());
    let (cs, jc) = ("my-service", "nightly");

    let (status, body) = server.call(
        "PUT",
        &format!("/cloudservices/{cs}"),
        r#"<CloudService xmlns="http://schemas.microsoft.com/windowsazure"><Label>My App</Label>
           <Description>made the 2015 way</Description><GeoRegion>West Europe</GeoRegion></CloudService>"#,
    );
    assert_eq!(status, 201, "{body}");
    let (status, body) = server.call(
        "PUT",
        &format!("/cloudservices/{cs}/resources/scheduler/jobcollections/{jc}"),
        "<Resource xmlns=\"http://schemas.microsoft.com/windowsazure\"><IntrinsicSettings>\
         <plan>Standard</plan></IntrinsicSettings></Resource>",
    );
    assert_eq!(status, 201, "{body}");

    // The 2015 page's spelling: no `properties`, lower-case enumerations, no seconds.
    let (status, put) = server.json(
        "PUT",
        &jobs(cs, jc, "/poll?api-version=2014-04-01"),
        &json!({
            "startTime": "2026-11-24T00:00Z",
            "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/poll", "method": "GET"}},
            "recurrence": {"frequency": "week",
                           "schedule": {"weekDays": ["monday"], "hours": [10], "minutes": [0]}}
        }),
    );
    assert_eq!(status, 201, "{put}");
    let (status, posted) = server.json(
        "POST",
        &jobs(cs, jc, "?api-version=2014-04-01"),
        &json!({"startTime": "2026-12-01T08:00Z", "state": "disabled",
                "action": {"type": "http", "request": {"uri": "http://127.0.0.1:9/once", "method": "POST"}}}),
    );
    assert_eq!(status, 201, "{posted}");
    let generated = posted["id"].as_str().unwrap().to_string();

    // The window's sidebar: the cloud service is the collection's resource group.
    let id = format!("{SUB}/{cs}/{jc}");
    let listed = c::list_collections(d).unwrap();
    let summary = listed
        .iter()
        .find(|x| x.id == id)
        .unwrap_or_else(|| panic!("{id} not in {listed:?}"));
    assert_eq!(
        (
            summary.name.as_str(),
            summary.subscription.as_str(),
            summary.resource_group.as_str()
        ),
        (jc, SUB, cs)
    );
    assert_eq!((summary.plan.as_str(), summary.job_count), ("Standard", 2));
    assert_eq!(summary.state, "Enabled");

    // The window's job table.
    let mut table = c::list_jobs(d, &id).unwrap();
    table.sort_by(|a, b| a.name.cmp(&b.name));
    let mut names: Vec<_> = table.iter().map(|j| j.name.clone()).collect();
    let mut expected = vec!["poll".to_string(), generated.clone()];
    names.sort();
    expected.sort();
    assert_eq!(names, expected);
    let poll = table.iter().find(|j| j.name == "poll").unwrap();
    assert_eq!(
        (poll.state.as_str(), poll.action_type.as_str()),
        ("Enabled", "Http")
    );
    assert_eq!(poll.next_run.as_deref(), Some("2026-11-30T10:00:00Z"));
    assert!(
        poll.sentence.contains("Monday") && poll.sentence.contains("10:00"),
        "{}",
        poll.sentence
    );
    let once = table.iter().find(|j| j.name == generated).unwrap();
    assert_eq!(once.state, "Disabled");

    // The window's editor gets the ARM form, with the classic retry defaults written in.
    let detail = c::get_job(d, &id, "poll").unwrap();
    assert_eq!(
        detail.properties.0["action"]["retryPolicy"],
        json!({"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 5})
    );
    assert_eq!(detail.properties.0["recurrence"]["frequency"], "Week");

    // The other way: a job saved in the window reads through the classic API in its spelling.
    c::save_job(d, &id, "from-app", last_friday_at_0515(), true).unwrap();
    let (status, text) = server.call("GET", &jobs(cs, jc, "?api-version=2014-04-01"), "");
    assert_eq!(status, 200, "{text}");
    let all: Value = serde_json::from_str(&text).unwrap();
    let from_app = all
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == "from-app")
        .unwrap_or_else(|| panic!("from-app not listed: {all}"));
    assert_eq!(from_app["action"]["type"], "http");
    assert_eq!(from_app["recurrence"]["frequency"], "month");
    assert_eq!(all.as_array().unwrap().len(), 3);
}
