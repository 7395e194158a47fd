//! A brute-force cron matcher, written apart from the importer: it reads the five fields its own
//! way and tests every local minute, so the two can only agree by both being right.

use chrono::{Datelike, NaiveDateTime, TimeDelta, Timelike};

pub struct Matcher {
    sets: [Vec<bool>; 5],
    dom_star: bool,
    dow_star: bool,
    /// cron's daylight-saving rule treats lines with `*` first in minute or hour as wildcards.
    pub wildcard: bool,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

fn number(text: &str, names: &[&str], offset: usize) -> usize {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(text))
        .map(|i| i + offset)
        .unwrap_or_else(|| text.parse().expect("a number"))
}

fn set(text: &str, low: usize, high: usize, names: &[&str], offset: usize) -> Vec<bool> {
    let mut out = vec![false; high + 1];
    for item in text.split(',') {
        let (range, step) = match item.split_once('/') {
            Some((r, s)) => (r, s.parse::<usize>().unwrap()),
            None => (item, 1),
        };
        let (a, b) = match range {
            "*" => (low, high),
            r => match r.split_once('-') {
                Some((a, b)) => (number(a, names, offset), number(b, names, offset)),
                None => (number(r, names, offset), number(r, names, offset)),
            },
        };
        let mut v = a;
        while v <= b {
            out[v] = true;
            v += step;
        }
    }
    out
}

impl Matcher {
    pub fn new(line: &str) -> Matcher {
        let expanded = match line {
            "@yearly" | "@annually" => "0 0 1 1 *",
            "@monthly" => "0 0 1 * *",
            "@weekly" => "0 0 * * 0",
            "@daily" | "@midnight" => "0 0 * * *",
            "@hourly" => "0 * * * *",
            other => other,
        };
        let f: Vec<&str> = expanded.split_whitespace().collect();
        let mut dow = set(f[4], 0, 7, &DAYS, 0);
        if dow[7] {
            dow[0] = true;
        }
        Matcher {
            sets: [
                set(f[0], 0, 59, &[], 0),
                set(f[1], 0, 23, &[], 0),
                set(f[2], 1, 31, &[], 0),
                set(f[3], 1, 12, &MONTHS, 1),
                dow,
            ],
            dom_star: f[2].starts_with('*'),
            dow_star: f[4].starts_with('*'),
            wildcard: f[0].starts_with('*') || f[1].starts_with('*'),
        }
    }

    /// cronie's test for one minute of local time.
    pub fn matches(&self, t: NaiveDateTime) -> bool {
        let [minute, hour, dom, month, dow] = &self.sets;
        let d = dom[t.day() as usize];
        let w = dow[t.weekday().num_days_from_sunday() as usize];
        let day = if self.dom_star || self.dow_star {
            d && w
        } else {
            d || w
        };
        minute[t.minute() as usize] && hour[t.hour() as usize] && month[t.month() as usize] && day
    }

    /// Every local minute in [from, to) that matches.
    pub fn local_matches(&self, from: NaiveDateTime, to: NaiveDateTime) -> Vec<NaiveDateTime> {
        let mut out = Vec::new();
        let mut t = from;
        while t < to {
            if self.matches(t) {
                out.push(t);
            }
            t += TimeDelta::minutes(1);
        }
        out
    }
}
