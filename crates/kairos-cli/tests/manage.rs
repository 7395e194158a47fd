//! `kairos collections|jobs|history|completions|man` as processes, against the contract in the
//! README ("The `kairos` command"): tables by default, `--json` bodies, exit codes 2/3/4 with
//! the ARM error body on stderr. The same lifecycle runs on the local database (`--data-dir`)
//! and on a real `kairos serve` (`--url`/`--token`); a job made remotely is read locally, and a
//! run queued locally is executed by a `kairos serve` started on the same directory.

mod common;
use common::{kairos, local, remote, Serve, TOKEN};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

/// A secret that must never be printed.
const PASSWORD: &str = "hunter2-never-printed";

enum Expect<'a> {
    /// Exit 0; stdout (a table or a sentence, not JSON) contains every text.
    Text(&'a [&'a str]),
    /// Exit 0; stdout is JSON where each pointer holds the JSON value given as text.
    Json(&'a [(&'a str, &'a str)]),
    /// Exit 0 and nothing on stdout.
    Empty,
    /// This exit code, nothing on stdout, and the ARM error body on stderr with this code, this
    /// target (when given) and a message containing the text.
    Fail {
        exit: i32,
        code: &'a str,
        target: Option<&'a str>,
        contains: &'a str,
    },
}

use Expect::*;

fn fail<'a>(exit: i32, code: &'a str) -> Expect<'a> {
    Fail {
        exit,
        code,
        target: None,
        contains: "",
    }
}

/// Run `kairos ARGS WHERE...` and check the outcome; returns stdout.
fn check(name: &str, args: &[&str], at: &[String], stdin: Option<&str>, expect: Expect) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(at.iter().map(String::as_str));
    let out = kairos(&all, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let context = format!(
        "{name} ({all:?}): exit {:?}, stdout {stdout:?}, stderr {stderr:?}",
        out.status.code()
    );
    assert!(
        !stdout.contains(PASSWORD) && !stderr.contains(PASSWORD),
        "{context}: a secret was printed"
    );
    assert!(!stdout.contains('\x1b'), "{context}: no colors on a pipe");
    match expect {
        Text(texts) => {
            assert_eq!(out.status.code(), Some(0), "{context}");
            assert!(
                serde_json::from_str::<Value>(&stdout).is_err(),
                "{context}: a table, not JSON"
            );
            for text in texts {
                assert!(stdout.contains(text), "{context}: lacks {text:?}");
            }
        }
        Json(pointers) => {
            assert_eq!(out.status.code(), Some(0), "{context}");
            let got: Value =
                serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{context}: {e}"));
            for (pointer, want) in pointers {
                let want: Value = serde_json::from_str(want).unwrap();
                assert_eq!(got.pointer(pointer), Some(&want), "{context}: at {pointer}");
            }
        }
        Empty => {
            assert_eq!(out.status.code(), Some(0), "{context}");
            assert!(stdout.is_empty(), "{context}");
        }
        Fail {
            exit,
            code,
            target,
            contains,
        } => {
            assert_eq!(out.status.code(), Some(exit), "{context}");
            assert!(stdout.is_empty(), "{context}: nothing on stdout");
            let body: Value =
                serde_json::from_str(stderr.trim()).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(body["error"]["code"], code, "{context}");
            if let Some(target) = target {
                assert_eq!(body["error"]["target"], target, "{context}");
            }
            let message = body["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(contains),
                "{context}: message lacks {contains:?}"
            );
        }
    }
    stdout
}

/// A job that runs once, a year from now (so only `run` makes it run during the test), calling
/// `port` with a Basic password that must never come back. `//` comments and a trailing comma,
/// as `kairos validate` reads them.
fn job_document(port: u16) -> String {
    let start = (chrono::Utc::now() + chrono::Duration::days(365)).format("%Y-%m-%dT%H:%M:%SZ");
    format!(
        r#"// pasted from the docs
        {{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"method": "GET",
          "uri": "http://127.0.0.1:{port}/ping", "authentication": {{"type": "Basic", "username": "u", "password": "{PASSWORD}"}}}}}},}}}}"#
    )
}

/// A loopback HTTP target that answers 200 to everything, for as long as the test runs.
fn http_target() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        }
    });
    port
}

/// The whole lifecycle of a collection and a job, on the backend `at` names. Leaves collection
/// `c1` with job `j1`, whose run is queued.
fn lifecycle(at: &[String], target_port: u16) {
    let job = job_document(target_port);
    let job = Some(job.as_str());
    check(
        "create",
        &["collections", "create", "c1"],
        at,
        None,
        Text(&["NAME", "c1", "Enabled", "P20Premium", "1000"]),
    );
    check(
        "create twice",
        &["collections", "create", "c1"],
        at,
        None,
        Fail {
            exit: 4,
            code: "Conflict",
            target: None,
            contains: "already exists",
        },
    );
    check(
        "create a Free one elsewhere",
        &[
            "collections",
            "create",
            "s1/rg1/free1",
            "--plan",
            "free",
            "--json",
        ],
        at,
        None,
        Json(&[
            ("/name", r#""free1""#),
            ("/properties/sku/name", r#""Free""#),
            ("/type", r#""Microsoft.Scheduler/jobCollections""#),
        ]),
    );
    check(
        "a second Free collection in the subscription",
        &["collections", "create", "s1/rg2/free2", "--plan", "Free"],
        at,
        None,
        fail(4, "Conflict"),
    );
    check(
        "an unknown plan",
        &["collections", "create", "c2", "--plan", "Gold"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--plan"),
            contains: "Gold",
        },
    );
    check(
        "a bad name",
        &["collections", "create", "a/b"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("COLLECTION"),
            contains: "",
        },
    );
    check(
        "list",
        &["collections", "list"],
        at,
        None,
        Text(&["c1", "P20Premium"]),
    );
    check(
        "list --json",
        &["collections", "list", "--subscription", "s1", "--json"],
        at,
        None,
        Json(&[
            ("/0/name", r#""free1""#),
            ("/0/properties/state", r#""Enabled""#),
        ]),
    );
    check(
        "show a missing one",
        &["collections", "show", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "update the quota",
        &["collections", "update", "c1", "--max-jobs", "1", "--json"],
        at,
        None,
        Json(&[
            ("/properties/quota/maxJobCount", "1"),
            ("/properties/sku/name", r#""P20Premium""#),
        ]),
    );
    check(
        "update nothing",
        &["collections", "update", "c1"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: None,
            contains: "nothing to change",
        },
    );
    check(
        "update a bad state",
        &["collections", "update", "c1", "--state", "Paused"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--state"),
            contains: "Paused",
        },
    );
    check(
        "update a missing one",
        &["collections", "update", "nope", "--plan", "Standard"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "--max-jobs 0 is a usage error",
        &["collections", "update", "c1", "--max-jobs", "0"],
        at,
        None,
        fail(2, "BadRequest"),
    );

    check(
        "put",
        &["jobs", "put", "c1", "j1", "-"],
        at,
        job,
        Text(&["j1", "Enabled", "GET http://127.0.0.1:"]),
    );
    check(
        "put beyond the quota",
        &["jobs", "put", "c1", "j2", "-"],
        at,
        job,
        Fail {
            exit: 4,
            code: "Conflict",
            target: None,
            contains: "",
        },
    );
    check(
        "put bad JSON",
        &["jobs", "put", "c1", "j2", "-"],
        at,
        Some("{\"properties\": "),
        Fail {
            exit: 2,
            code: "BadRequest",
            target: None,
            contains: "not valid JSON",
        },
    );
    check(
        "put a bad field",
        &["jobs", "put", "c1", "j1", "-"],
        at,
        Some(r#"{"action": {"type": "Http"}}"#),
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("properties.action.request"),
            contains: "required",
        },
    );
    check(
        "put into a missing collection",
        &["jobs", "put", "nope", "j1", "-"],
        at,
        job,
        fail(3, "ResourceNotFound"),
    );
    check(
        "put from a missing file",
        &["jobs", "put", "c1", "j1", "/nonexistent/job.json"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: None,
            contains: "cannot read",
        },
    );
    check(
        "show",
        &["jobs", "show", "c1", "j1"],
        at,
        None,
        Text(&["Job:", "j1", "Collection:", "c1", "Destination:"]),
    );
    check(
        "show --json",
        &["jobs", "show", "c1", "j1", "--json"],
        at,
        None,
        Json(&[
            ("/name", r#""c1/j1""#),
            ("/properties/state", r#""Enabled""#),
            (
                "/properties/action/request/authentication/username",
                r#""u""#,
            ),
        ]),
    );
    check(
        "show a missing job",
        &["jobs", "show", "c1", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "list jobs",
        &["jobs", "list", "c1"],
        at,
        None,
        Text(&["NAME", "STATE", "j1", "Http"]),
    );
    check(
        "list jobs --json",
        &["jobs", "list", "c1", "--json"],
        at,
        None,
        Json(&[("/0/name", r#""c1/j1""#)]),
    );
    check(
        "list jobs of a missing collection",
        &["jobs", "list", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "list by a bad state",
        &["jobs", "list", "c1", "--state", "Sleeping"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--state"),
            contains: "Sleeping",
        },
    );
    check(
        "disable",
        &["jobs", "disable", "c1", "j1", "--json"],
        at,
        None,
        Json(&[("/properties/state", r#""Disabled""#)]),
    );
    check(
        "list disabled",
        &["jobs", "list", "c1", "--state", "disabled", "--json"],
        at,
        None,
        Json(&[("/0/name", r#""c1/j1""#)]),
    );
    check(
        "list enabled",
        &["jobs", "list", "c1", "--state", "Enabled", "--json"],
        at,
        None,
        Json(&[("", "[]")]),
    );
    check(
        "enable",
        &["jobs", "enable", "c1", "j1"],
        at,
        None,
        Text(&["State:", "Enabled"]),
    );
    check(
        "enable a missing job",
        &["jobs", "enable", "c1", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "run a missing job",
        &["jobs", "run", "c1", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "history of a missing job",
        &["history", "c1", "nope"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "history, bad status",
        &["history", "c1", "j1", "--status", "Great"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--status"),
            contains: "Great",
        },
    );
    check(
        "history, bad time",
        &["history", "c1", "j1", "--since", "yesterday"],
        at,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--since"),
            contains: "yesterday",
        },
    );
    check(
        "history, --top 0",
        &["history", "c1", "j1", "--top", "0"],
        at,
        None,
        fail(2, "BadRequest"),
    );

    // A throwaway job to delete, in a collection of its own (c1 is full).
    check(
        "create c3",
        &["collections", "create", "c3", "--json"],
        at,
        None,
        Json(&[("/name", r#""c3""#)]),
    );
    check(
        "put j3",
        &["jobs", "put", "c3", "j3", "-", "--json"],
        at,
        job,
        Json(&[("/name", r#""c3/j3""#)]),
    );
    check(
        "delete the job",
        &["jobs", "delete", "c3", "j3"],
        at,
        None,
        Text(&["deleted job j3"]),
    );
    check(
        "delete it again",
        &["jobs", "delete", "c3", "j3"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "delete the collection",
        &["collections", "delete", "c3", "--json"],
        at,
        None,
        Empty,
    );
    check(
        "delete it again",
        &["collections", "delete", "c3"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );
    check(
        "its jobs are gone with it",
        &["jobs", "list", "c3"],
        at,
        None,
        fail(3, "ResourceNotFound"),
    );

    check(
        "run",
        &["jobs", "run", "c1", "j1"],
        at,
        None,
        Text(&["queued a run of j1"]),
    );
}

/// Poll `kairos history ... --json` until a record shows up (the runner is another process);
/// fails after 30 s.
fn wait_for_history(at: &[String]) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let stdout = check(
            "history",
            &["history", "c1", "j1", "--json"],
            at,
            None,
            Json(&[]),
        );
        let records: Value = serde_json::from_str(&stdout).unwrap();
        if records.as_array().is_some_and(|r| !r.is_empty()) {
            return records;
        }
        assert!(
            Instant::now() < deadline,
            "no history within 30 s: {records}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The run shows in the history (table, JSON, filters).
fn history_after_run(at: &[String]) {
    let records = wait_for_history(at);
    assert_eq!(records[0]["properties"]["status"], "Completed", "{records}");
    assert_eq!(
        records[0]["properties"]["actionName"], "MainAction",
        "{records}"
    );
    check(
        "history table",
        &["history", "c1", "j1"],
        at,
        None,
        Text(&["START", "STATUS", "Completed", "MainAction"]),
    );
    check(
        "history --status",
        &["history", "c1", "j1", "--status", "failed", "--json"],
        at,
        None,
        Json(&[("", "[]")]),
    );
    check(
        "history --since the future",
        &[
            "history",
            "c1",
            "j1",
            "--since",
            "2100-01-01T00:00:00Z",
            "--json",
        ],
        at,
        None,
        Json(&[("", "[]")]),
    );
    check(
        "history --since the past, --top 1",
        &[
            "history",
            "c1",
            "j1",
            "--since",
            "2000-01-01T00:00:00Z",
            "--top",
            "1",
            "--json",
        ],
        at,
        None,
        Json(&[("/0/properties/status", r#""Completed""#)]),
    );
    check(
        "history --csv",
        &["history", "c1", "j1", "--csv"],
        at,
        None,
        Text(&[
            "expectedExecutionTime,startTime,endTime,actionName,status,retryCount,repeatCount,message\r\n",
            ",MainAction,Completed,0,",
        ]),
    );
    check(
        "the job counts its run",
        &["jobs", "show", "c1", "j1", "--json"],
        at,
        None,
        Json(&[("/properties/status/executionCount", "1")]),
    );
}

#[test]
fn local_lifecycle_then_a_server_runs_what_was_queued() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    lifecycle(&at, http_target());
    // The CLI never runs the runner: the run is only queued.
    check(
        "nothing ran yet",
        &["history", "c1", "j1", "--json"],
        &at,
        None,
        Json(&[("", "[]")]),
    );
    check(
        "an empty history is a header",
        &["history", "c1", "j1"],
        &at,
        None,
        Text(&["START"]),
    );
    let _server = Serve::start(tmp.path());
    history_after_run(&at);
}

#[test]
fn remote_lifecycle_on_the_same_database() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Serve::start(tmp.path());
    let at = remote(&server);
    lifecycle(&at, http_target());
    history_after_run(&at);
    // The server and the local backend share one database.
    let here = local(tmp.path());
    check(
        "made remotely, seen locally",
        &["jobs", "show", "c1", "j1", "--json"],
        &here,
        None,
        Json(&[
            ("/name", r#""c1/j1""#),
            ("/properties/status/executionCount", "1"),
        ]),
    );
    check(
        "seen in the local list",
        &["collections", "list", "--subscription", "s1"],
        &here,
        None,
        Text(&["s1/rg1/free1", "Free"]),
    );
    check(
        "local history",
        &["history", "c1", "j1", "--json"],
        &here,
        None,
        Json(&[("/0/properties/status", r#""Completed""#)]),
    );
    // Made locally, seen remotely.
    check(
        "create locally",
        &["collections", "create", "s9/rg/here", "--json"],
        &here,
        None,
        Json(&[("/name", r#""here""#)]),
    );
    check(
        "seen remotely",
        &["collections", "show", "s9/rg/here", "--json"],
        &at,
        None,
        Json(&[(
            "/id",
            r#""/subscriptions/s9/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/here""#,
        )]),
    );
}

#[test]
fn remote_connection_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Serve::start(tmp.path());
    let url = format!("http://127.0.0.1:{}", server.port);
    let none: &[String] = &[];
    check(
        "a wrong token",
        &[
            "collections",
            "list",
            "--url",
            &url,
            "--token",
            "wrong-token-0123456789abcdef0123456789",
        ],
        none,
        None,
        Fail {
            exit: 2,
            code: "AuthenticationFailed",
            target: None,
            contains: "",
        },
    );
    check(
        "no token",
        &["collections", "list", "--url", &url],
        none,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--token"),
            contains: "KAIROS_API_TOKEN",
        },
    );
    check(
        "not a URL",
        &[
            "collections",
            "list",
            "--url",
            "localhost",
            "--token",
            TOKEN,
        ],
        none,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--url"),
            contains: "",
        },
    );
    check(
        "both places",
        &[
            "collections",
            "list",
            "--url",
            &url,
            "--token",
            TOKEN,
            "--data-dir",
            &tmp.path().display().to_string(),
        ],
        none,
        None,
        Fail {
            exit: 2,
            code: "BadRequest",
            target: Some("--url"),
            contains: "--data-dir",
        },
    );
    drop(server);
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    check(
        "nobody listening",
        &[
            "collections",
            "list",
            "--url",
            &format!("http://127.0.0.1:{closed}"),
            "--token",
            TOKEN,
        ],
        none,
        None,
        Fail {
            exit: 1,
            code: "ConnectionFailed",
            target: None,
            contains: "cannot reach",
        },
    );
}

#[test]
fn environment_names_the_server() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Serve::start(tmp.path());
    let out = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["collections", "create", "from-env", "--json"])
        .env("KAIROS_URL", format!("http://127.0.0.1:{}", server.port))
        .env("KAIROS_API_TOKEN", TOKEN)
        .env_remove("KAIROS_DATA_DIR")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(
        "it went to the server's database",
        &["collections", "show", "from-env", "--json"],
        &local(tmp.path()),
        None,
        Json(&[("/name", r#""from-env""#)]),
    );
}

#[test]
fn completions_and_man_page() {
    let none: &[String] = &[];
    let bash = check(
        "bash completions",
        &["completions", "bash"],
        none,
        None,
        Text(&["collections", "history", "--data-dir"]),
    );
    assert!(bash.contains("_kairos"), "{bash}");
    check(
        "zsh completions",
        &["completions", "zsh"],
        none,
        None,
        Text(&["#compdef kairos"]),
    );
    check(
        "an unknown shell",
        &["completions", "tcsh"],
        none,
        None,
        fail(2, "BadRequest"),
    );
    let man = check(
        "man page",
        &["man"],
        none,
        None,
        Text(&["kairos", "collections"]),
    );
    assert!(man.starts_with(".TH"), "{}", &man[..man.len().min(200)]);
}

/// The local backend is the user: it stores a Command job (no --allow-commands needed), and a
/// plain `kairos serve` runs it (the flag guards API writes, not existing jobs).
#[cfg(unix)]
#[test]
fn local_backend_creates_command_jobs_and_a_server_runs_them() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    check(
        "collection",
        &["collections", "create", "c1"],
        &at,
        None,
        Text(&["c1"]),
    );
    // The first run a year away: only the explicit run fires it.
    let start = (chrono::Utc::now() + chrono::Duration::days(365)).format("%Y-%m-%dT%H:%M:%SZ");
    let job = format!(
        r#"{{"properties": {{"startTime": "{start}", "recurrence": {{"frequency": "Day"}},
        "action": {{"type": "Command", "command": {{"program": "printf", "arguments": ["%s", "from the cli"]}}}}}}}}"#
    );
    check(
        "put a Command job",
        &["jobs", "put", "c1", "j1", "-"],
        &at,
        Some(&job),
        Text(&["j1", "Enabled", "run printf %s from the cli"]),
    );
    check(
        "run",
        &["jobs", "run", "c1", "j1"],
        &at,
        None,
        Text(&["queued a run of j1"]),
    );
    let _server = Serve::start(tmp.path());
    let records = wait_for_history(&at);
    assert_eq!(records[0]["properties"]["status"], "Completed", "{records}");
    assert_eq!(
        records[0]["properties"]["message"],
        "exit code 0 (success: 0)\nstdout:\nfrom the cli"
    );
}
