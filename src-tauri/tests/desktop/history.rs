//! The history page command over a job with more records than the engine's usual 1,000: paged
//! to its end without cutting an occurrence, filtered in the engine, opened at a run the
//! overview names, exported whole, and the attempts in flight alongside.

use super::*;
use kairos_desktop::history::{self as h, HistoryPage, HistoryPageRequest, HistoryQuery};
use std::collections::HashSet;

const RECORDS: usize = 2_500;
const HOUR_MS: i64 = 3_600_000;
/// 2026-07-01T00:00:00Z, the first occurrence.
const BASE_MS: i64 = 1_782_864_000_000;

/// `RECORDS` history records for `job`, oldest first: every third occurrence fails twice before
/// a retry completes (three records), the others complete at once. Occurrence 6 (three records) says "needle".
/// Returns each occurrence's record count.
fn seed(s: &Setup, job: &str) -> Vec<usize> {
    let db = rusqlite::Connection::open(s._dir.path().join("kairos.db")).unwrap();
    let job_id: i64 = db
        .query_row(
            "SELECT id FROM jobs WHERE name = ?1",
            rusqlite::params![job],
            |r| r.get(0),
        )
        .unwrap();
    let tx = db.unchecked_transaction().unwrap();
    let mut sizes = Vec::new();
    let mut written = 0;
    for i in 0.. {
        let expected = BASE_MS + i as i64 * HOUR_MS;
        let size = if i % 3 == 0 { 3 } else { 1 }.min(RECORDS - written);
        for retry in 0..size {
            let done = retry + 1 == size;
            let message = match (i, done) {
                (6, _) => "found the Needle",
                (_, true) => "HTTP 200 OK",
                _ => "HTTP 500",
            };
            let start = expected + retry as i64 * 60_000;
            tx.execute(
                "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status,
                 message, retry_count, repeat_count) VALUES (?1, ?2, ?3, ?4, 'MainAction', ?5, ?6, ?7, ?8)",
                rusqlite::params![job_id, start, start + 500, expected,
                    if done { "Completed" } else { "Failed" }, message, retry as i64, i as i64 + 1],
            )
            .unwrap();
        }
        sizes.push(size);
        written += size;
        if written == RECORDS {
            break;
        }
    }
    tx.commit().unwrap();
    sizes
}

fn request(id: &str, skip: u32) -> HistoryPageRequest {
    HistoryPageRequest {
        collection: id.to_string(),
        job: "report".into(),
        query: HistoryQuery::default(),
        skip,
        top: Some(100),
        started: None,
    }
}

fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn records(page: &HistoryPage) -> usize {
    page.occurrences.iter().map(|o| o.attempts.len()).sum()
}

#[test]
fn a_history_of_2500_records_pages_to_its_end_without_cutting_a_run() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let sizes = seed(&s, "report");

    let (mut skip, mut seen, mut pages) = (Some(0), Vec::new(), 0);
    while let Some(at) = skip {
        let page = h::history_page(d, &request(&id, at)).unwrap();
        assert_eq!(page.total as usize, RECORDS);
        assert_eq!(page.skip, at);
        assert!(records(&page) <= 100, "a page holds at most `top` records");
        if let Some(next) = page.next {
            assert_eq!(next as usize, at as usize + records(&page));
        }
        for o in &page.occurrences {
            seen.push((o.scheduled_time.clone().unwrap(), o.attempts.len()));
        }
        skip = page.next;
        pages += 1;
    }
    assert!(pages >= 25, "{pages} pages");
    let total: usize = seen.iter().map(|(_, n)| n).sum();
    assert_eq!(total, RECORDS, "every record, once");
    let expected: Vec<_> = sizes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (iso(BASE_MS + i as i64 * HOUR_MS), *n))
        .collect();
    assert_eq!(
        seen, expected,
        "whole occurrences, newest first, to the oldest"
    );
}

#[test]
fn the_engine_filters_the_history_and_opens_the_page_of_a_run() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let sizes = seed(&s, "report");
    let query = |q: HistoryQuery| {
        let mut r = request(&id, 0);
        r.query = q;
        h::history_page(d, &r).unwrap()
    };

    let failed = query(HistoryQuery {
        status: Some("Failed".into()),
        ..HistoryQuery::default()
    });
    let failures: usize = sizes.iter().map(|n| n - 1).sum();
    assert_eq!(failed.total as usize, failures);
    assert!(failed.occurrences.iter().all(|o| o.status == "Failed"));

    let day = query(HistoryQuery {
        from: Some(iso(BASE_MS + 24 * HOUR_MS)),
        to: Some(iso(BASE_MS + 47 * HOUR_MS)),
        ..HistoryQuery::default()
    });
    assert_eq!(day.occurrences.len(), 24, "the second day's 24 hourly runs");
    assert_eq!(day.total as usize, sizes[24..48].iter().sum::<usize>());

    let needle = query(HistoryQuery {
        text: Some("NEEDLE".into()),
        ..HistoryQuery::default()
    });
    assert_eq!(needle.total, 3, "occurrence 6's three records, any case");
    assert_eq!(
        needle.occurrences[0].scheduled_time,
        Some(iso(BASE_MS + 6 * HOUR_MS))
    );

    // The overview names a past run by its start: the retry of occurrence 42, mid-occurrence.
    let mut r = request(&id, 0);
    r.started = Some(iso(BASE_MS + 42 * HOUR_MS + 60_000));
    let page = h::history_page(d, &r).unwrap();
    let newer: usize = sizes[43..].iter().sum();
    assert_eq!(
        page.skip as usize, newer,
        "the page starts at that occurrence"
    );
    assert_eq!(page.found, Some(iso(BASE_MS + 42 * HOUR_MS)));
    assert_eq!(page.occurrences[0].scheduled_time, page.found);
    r.started = Some(iso(BASE_MS - HOUR_MS));
    assert_eq!(h::history_page(d, &r).unwrap().found, None, "no such run");

    let mut r = request(&id, 0);
    r.query.from = Some("yesterday".into());
    let e = h::history_page(d, &r).unwrap_err();
    assert_eq!(e.errors[0].path, "from");
    r.query.from = Some(iso(BASE_MS + HOUR_MS));
    r.query.to = Some(iso(BASE_MS));
    assert_eq!(h::history_page(d, &r).unwrap_err().errors[0].path, "to");
}

#[test]
fn every_record_of_a_long_history_exports_to_csv() {
    use kairos_desktop::dto::HistoryExportRequest;
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    seed(&s, "report");
    let file = s._dir.path().join("all.csv");
    let mut r = HistoryExportRequest {
        collection: id.clone(),
        job: "report".into(),
        status: None,
        from: None,
        to: None,
        text: None,
        path: file.display().to_string(),
    };
    let done = kairos_desktop::transfer::export_history(d, &r).unwrap();
    assert_eq!(done.records as usize, RECORDS);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text.lines().count(),
        RECORDS + 1,
        "a header and every record"
    );
    let lines: HashSet<_> = text.lines().collect();
    assert_eq!(lines.len(), RECORDS + 1, "no record twice");

    r.text = Some("needle".into());
    let done = kairos_desktop::transfer::export_history(d, &r).unwrap();
    assert_eq!(done.records, 3, "the view's filters apply to the file");
    // The date range and the status too: occurrences 0 to 2 (five records), two of them failed.
    r.text = None;
    r.from = Some(iso(BASE_MS));
    r.to = Some(iso(BASE_MS + 2 * HOUR_MS + HOUR_MS / 2));
    let done = kairos_desktop::transfer::export_history(d, &r).unwrap();
    assert_eq!(done.records, 5);
    r.status = Some("Failed".into());
    let done = kairos_desktop::transfer::export_history(d, &r).unwrap();
    assert_eq!(done.records, 2);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text.lines()
            .skip(1)
            .filter(|l| l.contains("Failed"))
            .count(),
        2
    );
}

/// An attempt the runner has claimed and that is due is "running"; a claimed one not yet due
/// (claims are taken a moment early) and an unclaimed one are not.
#[test]
fn a_page_lists_the_attempts_in_flight() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    assert!(h::history_page(d, &request(&id, 0))
        .unwrap()
        .running
        .is_empty());
    let db = rusqlite::Connection::open(s._dir.path().join("kairos.db")).unwrap();
    let now = Utc
        .with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .unwrap()
        .timestamp_millis();
    for (due, claimed, retry) in [(now - 5_000, 1, 1), (now + 500, 1, 0), (now - 1, 0, 0)] {
        db.execute(
            "INSERT INTO attempts (job_id, scheduled_time, repeat_count, action_name, retry_count, due_at,
             is_last, claimed) SELECT id, ?1, 3, 'MainAction', ?2, ?3, 0, ?4 FROM jobs WHERE name = 'report'",
            rusqlite::params![now - 65_000, retry, due, claimed],
        )
        .unwrap();
    }
    let running = h::history_page(d, &request(&id, 0)).unwrap().running;
    assert_eq!(running.len(), 1, "{running:?}");
    assert_eq!(running[0].kind, "Retry");
    assert_eq!(running[0].since, iso(now - 5_000));
    assert_eq!(running[0].scheduled_time, iso(now - 65_000));
}
