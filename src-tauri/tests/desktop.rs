//! The desktop commands over a real temporary database, without a window; and the committed
//! TypeScript bindings against what the commands export now.

use chrono::{TimeZone, Utc};
use kairos_desktop::commands::{self as c, Desktop};
use kairos_desktop::dto::{CommandError, Json, PreviewRequest};
use kairos_engine::{Database, Engine, EngineConfig, ManualClock};
use serde_json::{json, Value};
use std::sync::Arc;

#[path = "desktop/calendars.rs"]
mod calendars;
#[path = "desktop/classic.rs"]
mod classic;
#[path = "desktop/collections.rs"]
mod collections;
#[path = "desktop/history.rs"]
mod history;
#[path = "desktop/overview.rs"]
mod overview;
#[path = "desktop/transfer.rs"]
mod transfer;
#[path = "desktop/undo.rs"]
mod undo;

struct Setup {
    desktop: Desktop,
    _dir: tempfile::TempDir,
}

/// A desktop over a fresh database file, at 2026-11-23 10:00 UTC (a Monday).
fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(
        Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap(),
    ));
    let engine = Engine::open(config).unwrap();
    Setup {
        desktop: Desktop {
            engine,
            data_dir: dir.path().to_path_buf(),
        },
        _dir: dir,
    }
}

fn last_friday_at_0515() -> Value {
    json!({
        "startTime": "2026-11-01T00:00:00Z",
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/hook", "method": "POST"}},
        "recurrence": {"frequency": "Month", "interval": 1,
            "schedule": {"monthlyOccurrences": [{"day": "Friday", "occurrence": -1}], "hours": [5], "minutes": [15]}}
    })
}

fn with_basic_auth(mut props: Value, password: Option<&str>) -> Value {
    let mut auth = json!({"type": "Basic", "username": "ops"});
    if let Some(p) = password {
        auth["password"] = json!(p);
    }
    props["action"]["request"]["authentication"] = auth;
    props
}

#[test]
fn a_job_built_in_the_app_is_saved_listed_and_described() {
    let s = setup();
    let d = &s.desktop;
    let collection = c::create_collection(d, "default").unwrap();
    assert_eq!(collection.id, "local/desktop/default");
    assert_eq!(collection.plan, "P20Premium");
    let saved = c::save_job(d, &collection.id, "report", last_friday_at_0515(), true).unwrap();
    assert_eq!(saved.state, "Enabled");
    assert_eq!(saved.next_run.as_deref(), Some("2026-11-27T05:15:00Z"));
    assert_eq!(
        saved.sentence,
        "Every month on the last Friday at 05:15 UTC"
    );
    let listed = c::list_jobs(d, &collection.id).unwrap();
    assert_eq!(listed, vec![saved]);
    let collections = c::list_collections(d).unwrap();
    assert_eq!(collections[0].job_count, 1);
}

#[test]
fn saving_an_existing_name_as_new_is_refused_and_bad_input_names_the_field() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let again = c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap_err();
    assert_eq!(again.code, "Conflict");
    assert_eq!(again.errors[0].path, "name");

    let mut bad = last_friday_at_0515();
    bad["action"]["request"]["uri"] = json!("not a uri");
    let err: CommandError = c::save_job(d, &id, "bad", bad, true).unwrap_err();
    assert_eq!(err.code, "BadRequest");
    assert!(
        err.errors
            .iter()
            .any(|e| e.path == "properties.action.request.uri"),
        "{err:?}"
    );
    assert!(c::get_job(d, &id, "bad").is_err(), "nothing was saved");
    let unknown = c::list_jobs(d, "no-such-id").unwrap_err();
    assert_eq!(unknown.errors[0].path, "collection");
}

/// The window says a field error in its user's language: each reaches it with the rule the
/// core named and that rule's arguments (numbers as numbers), beside the English sentence.
#[test]
fn field_errors_reach_the_window_with_their_rule_and_arguments() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    let mut long = last_friday_at_0515();
    long["action"]["request"]["uri"] = json!(format!("http://h/{}", "a".repeat(2050)));
    let err = c::save_job(d, &id, "long", long, true).unwrap_err();
    let uri = err
        .errors
        .iter()
        .find(|e| e.path == "properties.action.request.uri")
        .unwrap_or_else(|| panic!("{err:?}"));
    assert_eq!(uri.rule.as_deref(), Some("too_long"));
    assert_eq!(
        serde_json::to_value(uri).unwrap(),
        json!({
            "path": "properties.action.request.uri",
            "code": "BadRequest",
            "message": "may be at most 2048 characters; got 2059",
            "rule": "too_long",
            "args": {"got": 2059.0, "max": 2048.0},
        })
    );

    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let taken = c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap_err();
    assert_eq!(taken.errors[0].rule.as_deref(), Some("job_name_taken"));
    assert_eq!(taken.errors[0].code, "Conflict");
    // Problems found outside the rules keep their English alone.
    let unknown = c::list_jobs(d, "no-such-id").unwrap_err();
    assert_eq!(unknown.errors[0].rule, None);
    assert!(unknown.errors[0].args.is_empty());
}

#[test]
fn secrets_never_come_back_and_survive_an_edit_that_leaves_them_out() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    let props = with_basic_auth(last_friday_at_0515(), Some("hunter2"));
    c::save_job(d, &id, "secured", props, true).unwrap();

    let detail = c::get_job(d, &id, "secured").unwrap();
    assert!(!detail.properties.0.to_string().contains("hunter2"));
    assert_eq!(
        detail.secrets_set,
        vec!["properties.action.request.authentication.password"]
    );
    // The editor sends back what it was given (no password) with another change.
    let mut edited = detail.properties.0.clone();
    edited["action"]["request"]["method"] = json!("PUT");
    c::save_job(d, &id, "secured", edited, false).unwrap();
    let after = c::get_job(d, &id, "secured").unwrap();
    assert_eq!(after.properties.0["action"]["request"]["method"], "PUT");
    assert_eq!(after.secrets_set.len(), 1, "the stored password was kept");

    let export = c::export_job(d, &id, "secured").unwrap();
    assert!(!export.contains("hunter2"), "{export}");
    let copy = c::duplicate_job(d, &id, "secured", "secured-copy").unwrap();
    assert_eq!(copy.name, "secured-copy");
    assert_eq!(
        c::get_job(d, &id, "secured-copy")
            .unwrap()
            .secrets_set
            .len(),
        1,
        "a duplicate keeps the secret without it leaving the engine"
    );
}

#[test]
fn pasted_json_with_comments_fills_the_form() {
    let s = setup();
    let parsed = c::parse_job_text(
        &s.desktop,
        r#"{
        // an Azure job, as exported from the portal
        "name": "nightly",
        "properties": {
            "action": {"type": "Http", "request": {"uri": "http://example.test", "method": "GET"}},
            "recurrence": {"frequency": "Day", "interval": 1, "schedule": {"hours": [2], "minutes": [30]}}, /* trailing comma */
        }
    }"#,
    );
    assert_eq!(parsed.name.as_deref(), Some("nightly"));
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    assert_eq!(
        parsed.properties.unwrap().0["recurrence"]["frequency"],
        "Day"
    );

    let broken = c::parse_job_text(&s.desktop, "{ not json");
    assert!(broken.properties.is_none());
    assert!(!broken.errors.is_empty());
}

/// The 2015 documentation's examples, pasted into the JSON tab exactly as printed (non-breaking
/// spaces, a status block, lower-case values; an action alone).
#[test]
fn the_2015_examples_paste_into_the_json_tab() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/classic");
    let job = std::fs::read_to_string(format!("{examples}/job-2015.json")).unwrap();
    let s = setup();
    let parsed = c::parse_job_text(&s.desktop, &job);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let properties = parsed.properties.unwrap().0;
    assert_eq!(properties["recurrence"]["frequency"], "week");
    assert_eq!(properties["state"], "disabled");
    assert!(
        properties.get("status").is_none(),
        "status is the service's"
    );

    let queue =
        std::fs::read_to_string(format!("{examples}/storage-queue-action-2015.json")).unwrap();
    let parsed = c::parse_job_text(&s.desktop, &queue);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let properties = parsed.properties.unwrap().0;
    assert_eq!(properties["action"]["type"], "storageQueue");
    assert_eq!(properties["action"]["queueMessage"]["queueName"], "myqueue");
}

#[test]
fn the_preview_lists_runs_and_marks_the_month() {
    let s = setup();
    let request = |month: Option<&str>| PreviewRequest {
        properties: Json(last_friday_at_0515()),
        count: 3,
        month: month.map(str::to_string),
        collection: None,
    };
    let p = c::preview_job(&s.desktop, &request(None)).unwrap();
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.sentence, "Every month on the last Friday at 05:15 UTC");
    assert_eq!(
        rfc3339(&p.runs),
        [
            "2026-11-27T05:15:00Z",
            "2026-12-25T05:15:00Z",
            "2027-01-29T05:15:00Z"
        ]
    );
    assert_eq!(
        (p.offsets.as_slice(), p.run_notes.len()),
        (&[(0, 0)][..], 0)
    );
    assert_eq!(
        (p.month.as_str(), p.month_days.as_slice()),
        ("2026-11", &[27][..])
    );
    let january = c::preview_job(&s.desktop, &request(Some("2027-01"))).unwrap();
    assert_eq!(january.month_days, vec![29]);

    let mut bad = last_friday_at_0515();
    bad["recurrence"]["schedule"]["hours"] = json!([25]);
    let p = c::preview_job(
        &s.desktop,
        &PreviewRequest {
            properties: Json(bad),
            count: 3,
            month: None,
            collection: None,
        },
    )
    .unwrap();
    assert!(p.runs.is_empty());
    assert!(
        p.errors[0]
            .path
            .starts_with("properties.recurrence.schedule.hours"),
        "{:?}",
        p.errors
    );
    assert!(!p.schedule_valid);
}

/// The preview's runs as RFC 3339 (the answer carries seconds since the epoch).
fn rfc3339(runs: &[i64]) -> Vec<String> {
    runs.iter()
        .map(|&t| {
            let at = Utc.timestamp_opt(t, 0).unwrap();
            at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        })
        .collect()
}

/// Runs in a zone with daylight saving carry the zone's offset from each change on, and the
/// run that daylight saving moved carries its note (the page writes the wall-clock times).
#[test]
fn the_preview_gives_offsets_at_each_daylight_saving_change() {
    let s = setup();
    let props = json!({"startTime": "2026-11-01T00:00:00Z",
        "recurrence": {"frequency": "Day", "interval": 1, "timeZone": "Europe/Berlin",
                       "schedule": {"hours": [2], "minutes": [30]}}});
    let p = c::preview_job(
        &s.desktop,
        &PreviewRequest {
            properties: Json(props),
            count: 400,
            month: None,
            collection: None,
        },
    )
    .unwrap();
    assert!(p.schedule_valid, "{:?}", p.errors);
    let day = |i: u32| rfc3339(&p.runs[i as usize..=i as usize]).remove(0);
    let changes: Vec<(String, i32)> = p.offsets.iter().map(|&(i, o)| (day(i), o)).collect();
    assert_eq!(
        changes,
        [
            ("2026-11-24T01:30:00Z".to_string(), 3600),
            // 02:30 does not exist that day: the run is moved to 03:00 CEST.
            ("2027-03-28T01:00:00Z".to_string(), 7200),
            // 02:30 happens twice on 31 October: it runs at the first, still CEST.
            ("2027-11-01T01:30:00Z".to_string(), 3600),
        ],
        "{:?}",
        p.offsets
    );
    // 02:30 does not exist on 28 March 2027: that run is moved, and says so.
    let notes: Vec<(String, &str)> = p
        .run_notes
        .iter()
        .map(|(i, n)| (day(*i), n.as_str()))
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].0.starts_with("2027-03-28T"), "{notes:?}");
    assert!(notes[0].1.contains("daylight saving"), "{notes:?}");
}

/// A new job's preview shows its runs before the action is filled in: the runs depend on the
/// schedule alone, and the action's problems are still reported for the form to mark.
#[test]
fn the_preview_shows_runs_while_the_action_is_incomplete() {
    let s = setup();
    let preview = |props: Value| {
        c::preview_job(
            &s.desktop,
            &PreviewRequest {
                properties: Json(props),
                count: 2,
                month: None,
                collection: None,
            },
        )
        .unwrap()
    };
    let mut empty_url = last_friday_at_0515();
    empty_url["action"]["request"]["uri"] = json!("");
    let p = preview(empty_url);
    assert!(p.schedule_valid);
    assert_eq!(
        rfc3339(&p.runs),
        ["2026-11-27T05:15:00Z", "2026-12-25T05:15:00Z"]
    );
    assert_eq!(p.month_days, vec![27]);
    let paths: Vec<&str> = p.errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["properties.action.request.uri"]);

    // A URL of the wrong type fails to parse, but only inside the action.
    let mut wrong_type = last_friday_at_0515();
    wrong_type["action"]["request"]["uri"] = json!(42);
    let p = preview(wrong_type);
    assert!(p.schedule_valid);
    assert_eq!(p.runs.len(), 2);
    assert!(
        p.errors[0].path.starts_with("properties.action"),
        "{:?}",
        p.errors
    );

    // No action at all: the runs, and no problem (the preview does not require one).
    let mut no_action = last_friday_at_0515();
    no_action.as_object_mut().unwrap().remove("action");
    let p = preview(no_action);
    assert!(p.schedule_valid && p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.runs.len(), 2);

    // A bad schedule and a bad action: no runs, and both marked.
    let mut both = last_friday_at_0515();
    both["action"]["request"]["uri"] = json!("");
    both["recurrence"]["interval"] = json!(0);
    let p = preview(both);
    assert!(!p.schedule_valid && p.runs.is_empty());
    let paths: Vec<&str> = p.errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "properties.recurrence.interval",
            "properties.action.request.uri"
        ]
    );
}

#[test]
fn a_job_that_runs_every_minute_marks_every_remaining_day_of_the_month() {
    let s = setup();
    let props = json!({"action": {"type": "Http", "request": {"uri": "http://x.test", "method": "GET"}},
        "recurrence": {"frequency": "Minute", "interval": 1}});
    let p = c::preview_job(
        &s.desktop,
        &PreviewRequest {
            properties: Json(props),
            count: 1000,
            month: None,
            collection: None,
        },
    )
    .unwrap();
    assert_eq!(p.runs.len(), 1000);
    assert_eq!(p.month_days, (23..=30).collect::<Vec<u32>>());
}

/// Linux only: saving the settings always writes "start at login" to the system's own login
/// item. On Linux that is an XDG autostart file, redirected here to a temporary
/// XDG_CONFIG_HOME; on Windows and macOS it is the user's real Run key or LaunchAgent, which a
/// test must not change (kairos-local's login_item tests cover those, leaving it as found).
#[cfg(target_os = "linux")]
#[test]
fn settings_round_trip_and_start_at_login_writes_an_autostart_entry() {
    use kairos_desktop::dto::Settings;
    let s = setup();
    let d = &s.desktop;
    let config_home = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_CONFIG_HOME", config_home.path());
    let defaults = c::get_settings(d).unwrap();
    assert_eq!(
        defaults,
        Settings {
            serve_api: false,
            api_port: 7010,
            allow_commands: false,
            notify_on_fault: false,
            start_at_login: false
        }
    );
    let wanted = Settings {
        serve_api: true,
        api_port: 7123,
        allow_commands: true,
        notify_on_fault: true,
        start_at_login: true,
    };
    assert_eq!(c::set_settings(d, &wanted).unwrap(), wanted);
    let entry =
        std::fs::read_to_string(config_home.path().join("autostart/kairos.desktop")).unwrap();
    assert!(entry.contains("kairos-tray"), "{entry}");
    c::set_settings(
        d,
        &Settings {
            start_at_login: false,
            ..wanted.clone()
        },
    )
    .unwrap();
    assert!(!config_home.path().join("autostart/kairos.desktop").exists());
    let err = c::set_settings(
        d,
        &Settings {
            api_port: 80,
            ..wanted
        },
    )
    .unwrap_err();
    assert_eq!(err.errors[0].path, "apiPort");

    let info = c::api_info(d).unwrap();
    assert_eq!(info.url, "http://127.0.0.1:7123");
    assert_eq!(info.token.len(), 64);
}

#[test]
fn enabling_running_and_deleting_from_the_app() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let disabled = c::set_job_enabled(d, &id, "report", false).unwrap();
    assert_eq!(
        (disabled.state.as_str(), disabled.next_run),
        ("Disabled", None)
    );
    let enabled = c::set_job_enabled(d, &id, "report", true).unwrap();
    assert_eq!(enabled.next_run.as_deref(), Some("2026-11-27T05:15:00Z"));
    c::run_job_now(d, &id, "report").unwrap();
    c::delete_job(d, &id, "report").unwrap();
    assert_eq!(
        c::get_job(d, &id, "report").unwrap_err().code,
        "ResourceNotFound"
    );
    assert_eq!(
        c::resolve_collection(d, "default").as_deref(),
        Some("local/desktop/default")
    );
}

/// The overview lists every job's planned runs in a window, marks the run daylight saving moves
/// and the one it skips, and refuses windows it cannot answer.
#[test]
fn the_overview_lists_runs_across_a_dst_change() {
    use kairos_desktop::overview::{
        self as o, OverviewRequest, KIND_MOVED, KIND_PLANNED, KIND_SKIPPED,
    };
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    let berlin = |gap: &str| {
        json!({"startTime": "2026-11-01T00:00:00Z",
            "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/x", "method": "GET"}},
            "recurrence": {"frequency": "Day", "interval": 1, "timeZone": "Europe/Berlin", "dstGap": gap,
                "schedule": {"hours": [2], "minutes": [30]}}})
    };
    c::save_job(d, &id, "moved", berlin("MoveForward"), true).unwrap();
    c::save_job(d, &id, "skipped", berlin("Skip"), true).unwrap();
    c::save_job(d, &id, "off", berlin("Skip"), true).unwrap();
    c::set_job_enabled(d, &id, "off", false).unwrap();
    let ask = |from: &str, to: &str, collections: Option<Vec<String>>| {
        o::overview(
            d,
            &OverviewRequest {
                from: from.into(),
                to: to.into(),
                collections,
            },
        )
    };
    // Berlin springs forward on Sunday 28 March 2027: 02:30 does not exist.
    let r = ask("2027-03-27T00:00:00Z", "2027-03-30T00:00:00Z", None).unwrap();
    assert_eq!(r.now, "2026-11-23T10:00:00Z");
    let names: Vec<&str> = r.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["moved", "off", "skipped"]);
    assert_eq!(r.from, "2027-03-27T00:00:00Z");
    // Run times are seconds after `from`, in columns.
    let runs_of = |name: &str| -> Vec<(i32, u8)> {
        let job = r.jobs.iter().position(|j| j.name == name).unwrap() as u32;
        (0..r.runs.job.len())
            .filter(|&i| r.runs.job[i] == job)
            .map(|i| (r.runs.at[i], r.runs.kind[i]))
            .collect()
    };
    let hours = |h: i32, m: i32| h * 3600 + m * 60;
    // 01:30Z on the 27th; 03:00 CEST = 01:00Z on the 28th (moved, or skipped and placed there);
    // 00:30Z on the 29th.
    assert_eq!(
        runs_of("moved"),
        [
            (hours(1, 30), KIND_PLANNED),
            (hours(25, 0), KIND_MOVED),
            (hours(48, 30), KIND_PLANNED),
        ]
    );
    assert_eq!(
        runs_of("skipped"),
        [
            (hours(1, 30), KIND_PLANNED),
            (hours(25, 0), KIND_SKIPPED),
            (hours(48, 30), KIND_PLANNED),
        ]
    );
    assert_eq!(r.runs.details, [""]);
    assert!(r.runs.detail.iter().all(|&d| d == 0));
    assert!(runs_of("off").is_empty(), "a disabled job plans nothing");
    assert_eq!(r.jobs[0].collection, id);

    // Only the collections asked for; bad windows and ids are refused on their field.
    let other = c::create_collection(d, "other").unwrap().id;
    let none = ask(
        "2027-03-27T00:00:00Z",
        "2027-03-30T00:00:00Z",
        Some(vec![other]),
    )
    .unwrap();
    assert!(none.jobs.is_empty() && none.runs.job.is_empty());
    let err = ask("2027-03-30T00:00:00Z", "2027-03-27T00:00:00Z", None).unwrap_err();
    assert_eq!(err.errors[0].path, "to");
    let err = ask("2027-01-01T00:00:00Z", "2027-06-01T00:00:00Z", None).unwrap_err();
    assert_eq!(err.errors[0].path, "to");
    let err = ask("yesterday", "2027-03-27T00:00:00Z", None).unwrap_err();
    assert_eq!(err.errors[0].path, "from");
    let err = ask(
        "2027-03-27T00:00:00Z",
        "2027-03-30T00:00:00Z",
        Some(vec!["x".into()]),
    )
    .unwrap_err();
    assert_eq!(err.errors[0].path, "collection");
}

/// The committed `ui/src/ipc/bindings.ts` must be what the commands export now.
/// `KAIROS_UPDATE_BINDINGS=1 cargo test -p kairos-desktop --test desktop bindings` rewrites it.
#[test]
fn bindings_are_current() {
    let committed = std::path::Path::new(kairos_desktop::ipc::BINDINGS);
    if std::env::var_os("KAIROS_UPDATE_BINDINGS").is_some() {
        kairos_desktop::ipc::export_bindings(committed).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("bindings.ts");
    kairos_desktop::ipc::export_bindings(&fresh).unwrap();
    let fresh = std::fs::read_to_string(fresh).unwrap();
    let committed = std::fs::read_to_string(committed).unwrap_or_default();
    assert!(
        fresh == committed,
        "ui/src/ipc/bindings.ts is stale: run KAIROS_UPDATE_BINDINGS=1 cargo test -p kairos-desktop --test desktop bindings"
    );
}

/// Names are checked by the engine, and the form shows the rule next to its name field: a
/// collection named `a/b` (which nothing could address or delete) is refused, as is a name
/// already taken (decided in the engine's write transaction, not checked first).
#[test]
fn a_bad_or_taken_collection_name_is_refused_on_the_name_field() {
    let s = setup();
    let d = &s.desktop;
    let slash: CommandError = c::create_collection(d, "a/b").unwrap_err();
    assert_eq!(slash.code, "BadRequest");
    assert_eq!(slash.errors.len(), 1, "{slash:?}");
    assert_eq!(slash.errors[0].path, "name");
    assert!(slash.errors[0].message.contains('/'), "{slash:?}");
    c::create_collection(d, "ops").unwrap();
    let taken = c::create_collection(d, "OPS").unwrap_err();
    assert_eq!(taken.code, "Conflict");
    assert_eq!(taken.errors[0].path, "name");
    let long = c::create_collection(d, &"x".repeat(101)).unwrap_err();
    assert_eq!(long.errors[0].path, "name", "{long:?}");
}
