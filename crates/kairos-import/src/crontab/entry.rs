//! One job as a crontab line: its fields, command, zone and environment, or why cron cannot run
//! it as Kairos does.

use super::export::check_environment;
use super::fields::{ALL_HOURS, ALL_MINUTES, ALL_MONTHS};
use super::spell::{plain, starred};
use super::COMMAND_TIMEOUT;
use indexmap::IndexMap;
use kairos_core::document::from_value_at;
use kairos_core::model::{
    ActionType, CommandSpec, DstGap, DstOverlap, JobProperties, JobRecurrence, JobState,
    RecurrenceFrequency, RetryType,
};
use serde_json::Value;

/// A job that cron can run: what the crontab needs to say about it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub fields: [String; 5],
    pub command: String,
    pub zone: String,
    pub environment: IndexMap<String, String>,
    /// `SHELL`, when it is not `sh`.
    pub shell: Option<String>,
    /// Settings of the job that cron does not have (comments above its line).
    pub comments: Vec<String>,
}

pub fn entry(body: &Value) -> Result<Entry, String> {
    let properties = body.get("properties").cloned().unwrap_or(Value::Null);
    let props: JobProperties = from_value_at(properties, "properties")
        .map_err(|e| format!("its definition cannot be read: {}", e.first().sentence()))?;
    if !matches!(props.state, None | Some(JobState::Enabled)) {
        return Err("it is not Enabled, and a crontab line always runs".into());
    }
    let action = props.action.as_ref().ok_or("it has no action")?;
    if action.action_type != Some(ActionType::Command) {
        let kind = action
            .action_type
            .map_or("missing".to_string(), |t| format!("{t:?}"));
        return Err(format!("its action is {kind}; cron runs only commands"));
    }
    if action.error_action.is_some() {
        return Err("it has an error action, which cron does not have".into());
    }
    let spec = action
        .command
        .as_ref()
        .ok_or("its Command action has no command")?;
    let mut comments = Vec::new();
    if action.retry_policy.as_ref().and_then(|r| r.retry_type) != Some(RetryType::None) {
        comments.push("kairos: its retry policy is not kept; cron runs a command once".into());
    }
    if let Some(timeout) = spec.timeout {
        let cron = kairos_core::iso8601::parse_duration(COMMAND_TIMEOUT);
        if Some(timeout) != cron {
            comments.push(format!(
                "kairos: its timeout ({}) is not kept; cron has no time limit",
                kairos_core::iso8601::format_duration(timeout)
            ));
        }
    } else {
        comments.push("kairos: its timeout (PT1H) is not kept; cron has no time limit".into());
    }
    if spec
        .success_exit_codes
        .as_ref()
        .is_some_and(|c| c.as_slice() != [0])
    {
        comments.push(
            "kairos: its success exit codes are not kept; cron does not check exit codes".into(),
        );
    }
    let (command, shell) = command(spec)?;
    let recurrence = props
        .recurrence
        .as_ref()
        .ok_or("it runs once, and cron has no one-time jobs")?;
    let zone = recurrence
        .time_zone
        .clone()
        .filter(|z| !z.trim().is_empty())
        .unwrap_or_else(|| "UTC".into());
    let environment = environment(spec)?;
    Ok(Entry {
        fields: fields(recurrence, &zone)?,
        command,
        zone,
        environment,
        shell,
        comments,
    })
}

/// The command line, and `SHELL` when it is not `sh`.
fn command(spec: &CommandSpec) -> Result<(String, Option<String>), String> {
    let program = spec.program.clone().unwrap_or_default();
    let arguments = spec.arguments.clone().unwrap_or_default();
    let (line, shell) = if spec.shell == Some(true) {
        (program, None)
    } else if arguments.len() == 2 && arguments[0] == "-c" {
        let sh = matches!(program.as_str(), "/bin/sh" | "/usr/bin/sh" | "sh");
        (arguments[1].clone(), (!sh).then_some(program))
    } else {
        let words: Vec<String> = std::iter::once(program)
            .chain(arguments)
            .map(|w| quote(&w))
            .collect();
        (words.join(" "), None)
    };
    if line.trim().is_empty() || line.starts_with(char::is_whitespace) {
        return Err("its command is empty or starts with a blank, which cron drops".into());
    }
    if line.contains(['\n', '\r']) {
        return Err("its command has a line break, and a crontab line cannot".into());
    }
    if line.contains("\\%") {
        return Err("its command has '\\%', which cron always reads as '%'".into());
    }
    Ok((line.replace('%', "\\%"), shell))
}

/// A word for `sh`: as it is when it is plain, else in single quotes.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn environment(spec: &CommandSpec) -> Result<IndexMap<String, String>, String> {
    let environment = spec.environment.clone().unwrap_or_default();
    for (name, value) in &environment {
        check_environment(name, value)?;
    }
    let home = environment.get("HOME");
    if home != spec.working_directory.as_ref() {
        return Err(match &spec.working_directory {
            Some(dir) => format!("it runs in {dir}, and cron runs a command in HOME; that would need HOME={dir} in its environment"),
            None => "its environment sets HOME, and cron would run it in that directory; give it the same working directory".into(),
        });
    }
    Ok(environment)
}

fn bits(values: &[i64], low: i64, high: i64) -> Option<u64> {
    values.iter().try_fold(0u64, |acc, v| {
        (low..=high).contains(v).then(|| acc | (1 << v))
    })
}

/// The five fields, when the recurrence is one cron expresses (see `schedule.rs` for the
/// mapping the other way).
fn fields(r: &JobRecurrence, zone: &str) -> Result<[String; 5], String> {
    if r.count.is_some() || r.end_time.is_some() {
        return Err("it ends (count or endTime), and a crontab line runs forever".into());
    }
    if r.blackout.as_ref().is_some_and(|b| !b.is_empty()) {
        return Err("it has blackout calendars, which cron does not have".into());
    }
    if r.interval.unwrap_or(1) != 1 {
        return Err("its interval is more than 1, which cron cannot count".into());
    }
    let frequency = r.frequency.ok_or("its recurrence has no frequency")?;
    let empty = Default::default();
    let s = r.schedule.as_ref().unwrap_or(&empty);
    let set = |v: &Option<Vec<i64>>| v.as_ref().filter(|v| !v.is_empty()).cloned();
    let minutes = set(&s.minutes)
        .ok_or("its run times come from its start time; cron needs schedule minutes (and hours)")?;
    let minutes = bits(&minutes, 0, 59).ok_or("its minutes are out of range")?;
    let hours = match set(&s.hours) {
        Some(h) => bits(&h, 0, 23).ok_or("its hours are out of range")?,
        None => ALL_HOURS,
    };
    let months = match set(&s.months) {
        Some(m) => bits(&m, 1, 12).ok_or("its months are out of range")?,
        None => ALL_MONTHS,
    };
    let week_days = s
        .week_days
        .as_ref()
        .filter(|w| !w.is_empty())
        .map(|w| w.iter().fold(0u64, |acc, d| acc | (1 << *d as u32)));
    let month_days =
        match set(&s.month_days) {
            Some(d) => Some(bits(&d, 1, 31).ok_or(
                "it runs on days counted from the end of the month, which cron cannot say",
            )?),
            None => None,
        };
    let occurrences = match &s.monthly_occurrences {
        Some(o) if !o.is_empty() => {
            if o.iter().any(|o| o.occurrence.is_some()) {
                return Err("it runs on the n-th weekday of a month, which cron cannot say".into());
            }
            Some(
                o.iter()
                    .filter_map(|o| o.day)
                    .fold(0u64, |acc, d| acc | (1 << d as u32)),
            )
        }
        _ => None,
    };
    let (dom, dow) = match (frequency, week_days, month_days, occurrences) {
        (RecurrenceFrequency::Day, None, None, None) => ("*".to_string(), "*".to_string()),
        (RecurrenceFrequency::Week, Some(w), None, None) => ("*".to_string(), plain(w)),
        (RecurrenceFrequency::Month, None, Some(d), None) => (plain(d), "*".to_string()),
        (RecurrenceFrequency::Month, None, None, Some(w)) => ("*".to_string(), plain(w)),
        // cron runs on days matching either field when neither starts with '*'.
        (RecurrenceFrequency::Month, None, Some(d), Some(w)) => (plain(d), plain(w)),
        (RecurrenceFrequency::Week | RecurrenceFrequency::Month, _, _, _) => {
            return Err("its days come from its start time; cron needs weekDays or monthDays".into())
        }
        _ => return Err(format!("its frequency is {frequency:?}; cron expresses Day, Week and Month recurrences with schedule minutes")),
    };
    let month = if months == ALL_MONTHS {
        "*".to_string()
    } else {
        plain(months)
    };
    let (minute, hour) = times(r, zone, minutes, hours)?;
    Ok([minute, hour, dom, month, dow])
}

/// Minute and hour spelled so cron's daylight-saving rule matches the job's: a field starting
/// with `*` for `dstGap: Skip` with `dstOverlap: Twice`, none for the defaults.
fn times(
    r: &JobRecurrence,
    zone: &str,
    minutes: u64,
    hours: u64,
) -> Result<(String, String), String> {
    let full = |bits: u64, all: u64, star: &str| {
        if bits == all {
            star.to_string()
        } else {
            plain(bits)
        }
    };
    let gap = r.dst_gap.unwrap_or_default();
    let overlap = r.dst_overlap.unwrap_or_default();
    // In UTC the rule changes nothing, but the spelling still says it, so the line reads back
    // as the same job.
    let utc = zone.eq_ignore_ascii_case("UTC");
    let natural = || (full(minutes, ALL_MINUTES, "*"), full(hours, ALL_HOURS, "*"));
    match (gap, overlap) {
        (DstGap::MoveForward, DstOverlap::Once) => Ok((
            full(minutes, ALL_MINUTES, "0-59"),
            full(hours, ALL_HOURS, "0-23"),
        )),
        (DstGap::Skip, DstOverlap::Twice) => {
            if let Some(m) = starred(minutes, 0, 59) {
                Ok((m, full(hours, ALL_HOURS, "*")))
            } else if let Some(h) = starred(hours, 0, 23) {
                Ok((plain(minutes), h))
            } else if utc {
                Ok(natural())
            } else {
                Err("it follows the wall clock through daylight saving (Skip, Twice) as cron does only for a line whose minute or hour is * or */n, and its minutes and hours are neither".into())
            }
        }
        _ if utc => Ok(natural()),
        _ => Err("its daylight-saving rule (dstGap, dstOverlap) is not one cron has: cron skips and repeats lines with * in the minute or hour, and moves and runs once the others".into()),
    }
}
