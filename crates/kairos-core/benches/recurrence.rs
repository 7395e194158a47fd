//! Benchmarks of the recurrence engine (docs/benchmarks.md).
//!
//! Every `next/…` benchmark measures ONE next-occurrence computation, `series.next_after(t)`,
//! with `t` cycling over 1,024 precomputed instants spread over a year, so neither the branch
//! predictor nor anything in the engine sees the same question twice in a row. The `preview/…`
//! benchmarks measure the first 1,000 occurrences of a series, as `kairos preview` computes them.
//!
//! Run with `cargo bench -p kairos-core --bench recurrence`.

use chrono::{DateTime, Datelike, TimeDelta, Timelike, Utc, Weekday};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use kairos_core::document::parse_job_document;
use kairos_core::recurrence::{Series, Zone};
use kairos_core::validate::validate_schedule;
use std::time::Duration;

/// How many query instants each `next/…` benchmark cycles through (a power of two).
const INSTANTS: usize = 1_024;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .expect("a valid RFC 3339 instant")
        .with_timezone(&Utc)
}

/// Parse, validate and compile a job document the way `kairos preview` does.
fn series(json: &str, now: DateTime<Utc>, zone: Zone) -> Series {
    let props = parse_job_document(json).expect("the benchmark job parses");
    let mut schedule = validate_schedule(&props, now).expect("the benchmark job is valid");
    if let Some(r) = schedule.recurrence.as_mut() {
        r.zone = zone;
    }
    Series::new(&schedule, now)
}

/// `INSTANTS` instants at pseudo-random whole seconds within the year after `from`, in random
/// order (a fixed-seed xorshift, so every run asks the same questions).
fn instants(from: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    let year = 365 * 24 * 3600;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..INSTANTS)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            from + TimeDelta::seconds((state % year) as i64)
        })
        .collect()
}

/// Check once, outside the timing, that `series` answers every query with a later run that
/// satisfies `ok`: a benchmark of a rule that silently returns `None` would measure nothing.
fn check(name: &str, series: &Series, ts: &[DateTime<Utc>], ok: impl Fn(DateTime<Utc>) -> bool) {
    for &t in ts {
        let next = series
            .next_after(t)
            .unwrap_or_else(|| panic!("{name}: no run after {t}"));
        assert!(next > t && ok(next), "{name}: next_after({t}) = {next}");
    }
}

/// One `next_after` per iteration, cycling over `ts`.
fn bench_next(c: &mut Criterion, name: &str, series: &Series, ts: &[DateTime<Utc>]) {
    assert_eq!(ts.len(), INSTANTS);
    c.bench_function(name, |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & (INSTANTS - 1);
            black_box(series).next_after(black_box(ts[i]))
        })
    });
}

const DAY: &str = r#"{"properties": {
    "startTime": "2030-01-01T08:30:00Z",
    "recurrence": {"frequency": "Day", "interval": 1}
}}"#;

const HOUR: &str = r#"{"properties": {
    "startTime": "2030-01-01T08:30:00Z",
    "recurrence": {"frequency": "Hour", "interval": 1}
}}"#;

const WEEK: &str = r#"{"properties": {
    "startTime": "2030-01-01T08:30:00Z",
    "recurrence": {"frequency": "Week", "interval": 1,
        "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"], "hours": [10, 22]}}
}}"#;

const MONTH_OCCURRENCES: &str = r#"{"properties": {
    "startTime": "2030-01-01T08:30:00Z",
    "recurrence": {"frequency": "Month", "interval": 1,
        "schedule": {"monthlyOccurrences": [
            {"day": "Friday", "Occurrence": 1}, {"day": "Friday", "Occurrence": -1}],
            "hours": [5], "minutes": [15]}}
}}"#;

const MONTH_NEGATIVE_DAYS: &str = r#"{"properties": {
    "startTime": "2030-01-01T08:30:00Z",
    "recurrence": {"frequency": "Month", "interval": 1, "schedule": {"monthDays": [-1, -3]}}
}}"#;

/// Every quarter hour from 09:00 to 17:45, evaluated minute by minute.
const MINUTE_LIMITED: &str = r#"{"properties": {
    "startTime": "2030-01-01T00:00:00Z",
    "recurrence": {"frequency": "Minute", "interval": 1,
        "schedule": {"hours": [9, 10, 11, 12, 13, 14, 15, 16, 17], "minutes": [0, 15, 30, 45]}}
}}"#;

/// The Day rule, but started 30 years before the job is created.
const DAY_SINCE_2000: &str = r#"{"properties": {
    "startTime": "2000-01-01T08:30:00Z",
    "recurrence": {"frequency": "Day", "interval": 1}
}}"#;

fn at_0830(t: DateTime<Utc>) -> bool {
    (t.hour(), t.minute(), t.second()) == (8, 30, 0)
}

fn mon_wed_fri_10_or_22(t: DateTime<Utc>) -> bool {
    matches!(t.weekday(), Weekday::Mon | Weekday::Wed | Weekday::Fri)
        && matches!(t.hour(), 10 | 22)
        && (t.minute(), t.second()) == (30, 0)
}

fn next_simple(c: &mut Criterion) {
    let now = at("2030-01-01T00:00:00Z");
    let ts = instants(now);

    let day = series(DAY, now, Zone::Utc);
    check("day", &day, &ts, at_0830);
    bench_next(c, "next/simple/day", &day, &ts);

    let hour = series(HOUR, now, Zone::Utc);
    check("hour", &hour, &ts, |t| (t.minute(), t.second()) == (30, 0));
    bench_next(c, "next/simple/hour", &hour, &ts);

    let week = series(WEEK, now, Zone::Utc);
    check("week", &week, &ts, mon_wed_fri_10_or_22);
    bench_next(c, "next/simple/week_mon_wed_fri", &week, &ts);
}

fn next_rich(c: &mut Criterion) {
    let now = at("2030-01-01T00:00:00Z");
    let ts = instants(now);

    let occurrences = series(MONTH_OCCURRENCES, now, Zone::Utc);
    check("month occurrences", &occurrences, &ts, |t| {
        let days_left = t
            .date_naive()
            .with_day(1)
            .and_then(|d| d.checked_add_months(chrono::Months::new(1)));
        let last_friday =
            days_left.is_some_and(|next_month| next_month - t.date_naive() <= TimeDelta::days(7));
        t.weekday() == Weekday::Fri
            && (t.day() <= 7 || last_friday)
            && (t.hour(), t.minute(), t.second()) == (5, 15, 0)
    });
    bench_next(c, "next/rich/month_first_last_friday", &occurrences, &ts);

    let negative = series(MONTH_NEGATIVE_DAYS, now, Zone::Utc);
    check("month negative days", &negative, &ts, |t| {
        let next_month = t
            .date_naive()
            .with_day(1)
            .and_then(|d| d.checked_add_months(chrono::Months::new(1)));
        let from_end = next_month.map(|n| (n - t.date_naive()).num_days());
        matches!(from_end, Some(1 | 3)) && at_0830(t)
    });
    bench_next(c, "next/rich/month_days_minus_1_minus_3", &negative, &ts);
}

fn next_jump_ahead(c: &mut Criterion) {
    let now = at("2030-01-01T00:00:00Z");
    let ts = instants(now);
    let day = series(DAY_SINCE_2000, now, Zone::Utc);
    check("day since 2000", &day, &ts, at_0830);
    bench_next(c, "next/jump_ahead/day_start_2000_now_2030", &day, &ts);
}

fn next_named_zone(c: &mut Criterion) {
    let now = at("2030-01-01T00:00:00Z");
    let ts = instants(now);
    let berlin = Zone::parse("Europe/Berlin").expect("a known zone");
    let week = series(WEEK, now, berlin);
    check("week berlin", &week, &ts, |t| {
        // 10:30 or 22:30 Berlin time: 09:30/21:30 UTC in winter, 08:30/20:30 in summer.
        matches!((t.hour(), t.minute()), (8 | 9 | 20 | 21, 30))
    });
    bench_next(c, "next/zone/week_europe_berlin", &week, &ts);
}

fn preview(c: &mut Criterion) {
    let now = at("2030-01-01T00:00:00Z");
    for (name, json, ok) in [
        (
            "preview/1000/week",
            WEEK,
            mon_wed_fri_10_or_22 as fn(DateTime<Utc>) -> bool,
        ),
        (
            "preview/1000/minute_limited",
            MINUTE_LIMITED,
            |t: DateTime<Utc>| {
                (9..=17).contains(&t.hour())
                    && matches!(t.minute(), 0 | 15 | 30 | 45)
                    && t.second() == 0
            },
        ),
    ] {
        let s = series(json, now, Zone::Utc);
        let runs: Vec<_> = s.iter().take(1000).collect();
        assert_eq!(runs.len(), 1000, "{name}");
        assert!(
            runs.windows(2).all(|w| w[0] < w[1]) && runs.iter().all(|&t| ok(t)),
            "{name}"
        );
        c.bench_function(name, |b| {
            b.iter(|| black_box(&s).iter().take(1000).collect::<Vec<_>>())
        });
    }
}

fn config() -> Criterion {
    // Nine benchmarks at ~4 s each keeps the whole run well under three minutes.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(60)
}

criterion_group! {
    name = benches;
    config = config();
    targets = next_simple, next_rich, next_jump_ahead, next_named_zone, preview
}
criterion_main!(benches);
