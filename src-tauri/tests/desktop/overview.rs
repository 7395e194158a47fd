//! The month view's command: runs counted per quarter hour and category by the engine, with the
//! overview's filters applied there, as flat numbers.

use super::*;
use kairos_desktop::overview::{self as o, OverviewCountsRequest, COUNT_CATEGORIES};

/// Column of a category in a bucket's counts (the order of `Category::ALL`).
const PLANNED: usize = 4;
const MOVED: usize = 5;
const DST_SKIPPED: usize = 6;

fn berlin(gap: &str) -> Value {
    json!({"startTime": "2026-11-01T00:00:00Z",
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/x", "method": "GET"}},
        "recurrence": {"frequency": "Day", "interval": 1, "timeZone": "Europe/Berlin", "dstGap": gap,
            "schedule": {"hours": [2], "minutes": [30]}}})
}

/// Three days around Berlin's spring change, counted: each run in its quarter hour and
/// category, the filters choosing the jobs in the engine, bad filters refused on their field.
#[test]
fn the_month_view_gets_counts_per_quarter_hour_filtered_in_the_engine() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "moved", berlin("MoveForward"), true).unwrap();
    c::save_job(d, &id, "skipped", berlin("Skip"), true).unwrap();
    c::save_job(d, &id, "off", berlin("Skip"), true).unwrap();
    c::set_job_enabled(d, &id, "off", false).unwrap();
    let ask =
        |search: &str, state: Option<&str>, action: Option<&str>, cols: Option<Vec<String>>| {
            o::overview_counts(
                d,
                &OverviewCountsRequest {
                    from: "2027-03-27T00:00:00Z".into(),
                    to: "2027-03-30T00:00:00Z".into(),
                    collections: cols,
                    search: search.into(),
                    state: state.map(str::to_string),
                    action: action.map(str::to_string),
                },
            )
        };
    let total = |counts: &[u32]| counts.iter().map(|&c| u64::from(c)).sum::<u64>();
    let r = ask("", None, None, None).unwrap();
    assert_eq!(
        (r.from.as_str(), r.bucket_seconds),
        ("2027-03-27T00:00:00Z", 900)
    );
    assert_eq!(r.now, "2026-11-23T10:00:00Z");
    assert_eq!(r.counts.len(), 3 * 96 * COUNT_CATEGORIES);
    let at = |bucket: usize, category: usize| r.counts[bucket * COUNT_CATEGORIES + category];
    // 01:30Z on the 27th (bucket 6), 01:00Z on the 28th (bucket 100: 03:00 CEST, moved or
    // skipped there), 00:30Z on the 29th (bucket 194).
    assert_eq!((at(6, PLANNED), at(194, PLANNED)), (2, 2));
    assert_eq!((at(100, MOVED), at(100, DST_SKIPPED)), (1, 1));
    assert_eq!(total(&r.counts), 6, "the disabled job plans nothing");
    let names: Vec<&str> = r.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["moved", "off", "skipped"]);

    // The filters choose the counted jobs; every job is still listed for the filters' choices.
    let moved = ask("MOV", None, None, None).unwrap();
    assert_eq!(total(&moved.counts), 3);
    assert_eq!(moved.jobs.len(), 3);
    assert_eq!(
        total(&ask("", Some("Disabled"), None, None).unwrap().counts),
        0
    );
    assert_eq!(
        total(
            &ask("", Some("Enabled"), Some("Https"), None)
                .unwrap()
                .counts
        ),
        6
    );
    assert_eq!(
        total(&ask("", None, Some("StorageQueue"), None).unwrap().counts),
        0
    );
    assert_eq!(
        total(&ask(" ", Some(""), Some(""), None).unwrap().counts),
        6,
        "blank: all"
    );
    let other = c::create_collection(d, "other").unwrap().id;
    let none = ask("", None, None, Some(vec![other])).unwrap();
    assert!(none.jobs.is_empty() && total(&none.counts) == 0);
    let err = ask("", Some("Sleeping"), None, None).unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.errors[0].path.as_str()),
        ("BadRequest", "state")
    );
    let err = ask("", None, None, Some(vec!["x".into()])).unwrap_err();
    assert_eq!(err.errors[0].path, "collection");
}

/// Busy minutes: the earliest few of each host are listed, and every host says how many it has,
/// for both the counts (month) and the runs (day, week) answers.
#[test]
fn busy_minutes_are_listed_a_few_per_host_and_counted_per_host() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "busy").unwrap().id;
    let hourly = |host: &str| {
        json!({"startTime": "2026-11-24T00:00:00Z",
            "action": {"type": "Http", "request": {"uri": format!("http://{host}/x"), "method": "GET"}},
            "recurrence": {"frequency": "Hour", "interval": 1, "schedule": {"minutes": [0]}}})
    };
    for i in 0..10 {
        c::save_job(d, &id, &format!("a-{i}"), hourly("a.example.test"), true).unwrap();
    }
    for i in 0..10 {
        // The same ten on b only for the first six hours of the day.
        let mut props = hourly("b.example.test");
        props["recurrence"]["endTime"] = json!("2026-11-24T05:30:00Z");
        c::save_job(d, &id, &format!("b-{i}"), props, true).unwrap();
    }
    let (from, to) = ("2026-11-24T00:00:00Z", "2026-11-25T00:00:00Z");
    let counts = o::overview_counts(
        d,
        &OverviewCountsRequest {
            from: from.into(),
            to: to.into(),
            collections: None,
            search: String::new(),
            state: None,
            action: None,
        },
    )
    .unwrap();
    let runs = o::overview(
        d,
        &o::OverviewRequest {
            from: from.into(),
            to: to.into(),
            collections: None,
        },
    )
    .unwrap();
    for (minutes, hosts) in [
        (&counts.busy_minutes, &counts.busy_hosts),
        (&runs.busy_minutes, &runs.busy_hosts),
    ] {
        let hosts: Vec<(&str, u32)> = hosts.iter().map(|h| (h.host.as_str(), h.minutes)).collect();
        assert_eq!(hosts, [("a.example.test", 24), ("b.example.test", 6)]);
        let listed: Vec<(&str, &str)> = (minutes.iter())
            .filter(|m| m.host == "a.example.test")
            .map(|m| (m.minute.as_str(), m.host.as_str()))
            .collect();
        assert_eq!(listed.len(), o::BUSY_MINUTES_PER_HOST);
        assert_eq!(listed[0].0, "2026-11-24T00:00:00Z");
        assert_eq!(listed[4].0, "2026-11-24T04:00:00Z");
        assert_eq!(minutes.len(), 2 * o::BUSY_MINUTES_PER_HOST);
        assert!(minutes.iter().all(|m| m.jobs == 10), "{minutes:?}");
    }
}
