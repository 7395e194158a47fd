//! How collections, jobs and history records look for people: read from their ARM bodies (what
//! both backends return), so a table shows exactly what `--json` would print.

use super::backend::{collection_label, Outcome};
use super::table::{fields, shorten, Table, Tone};
use super::Context;
use kairos_core::describe::describe_job;
use kairos_core::lang::Lang;
use kairos_core::model::{JobCollectionDefinition, JobProperties, NamedCalendars};
use kairos_engine::CollectionKey;
use serde_json::Value;

/// The longest history message shown in a table (`--json` has all of it).
const MESSAGE_WIDTH: usize = 72;

/// A string field of `value` at a JSON pointer, or "-".
fn text(value: &Value, pointer: &str) -> String {
    match value.pointer(pointer) {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "-".to_string(),
    }
}

fn plain(s: String) -> (String, Tone) {
    let tone = if s == "-" { Tone::Dim } else { Tone::Plain };
    (s, tone)
}

fn toned(s: String) -> (String, Tone) {
    let tone = Tone::of(&s);
    (s, tone)
}

/// The collection an ARM id names
/// (`/subscriptions/S/resourceGroups/RG/providers/Microsoft.Scheduler/jobCollections/C...`).
pub fn collection_of(value: &Value) -> Option<CollectionKey> {
    let id = value["id"].as_str()?;
    let segments: Vec<&str> = id.split('/').collect();
    match segments.get(1..9)? {
        [_, sub, _, rg, _, _, _, name] => Some(CollectionKey::new(*sub, *rg, *name)),
        _ => None,
    }
}

/// The last segment of an ARM name (`collection/job` → `job`).
fn short_name(value: &Value) -> String {
    let name = text(value, "/name");
    name.rsplit('/').next().unwrap_or_default().to_string()
}

/// The JSON text of a body or a list of them, or the table `human` makes.
pub fn output(context: &Context, json: &Value, human: impl FnOnce() -> String) -> Outcome<String> {
    Ok(if context.json {
        json.to_string()
    } else {
        human()
    })
}

pub fn collections_table(items: &[Value], color: bool) -> String {
    let mut table = Table::new(&["NAME", "STATE", "PLAN", "MAX JOBS", "MOST OFTEN"]);
    for item in items {
        let name = collection_of(item)
            .map(|k| collection_label(&k))
            .unwrap_or_else(|| text(item, "/name"));
        let (plan, max_jobs, most_often) =
            match serde_json::from_value::<JobCollectionDefinition>(item.clone()) {
                Ok(def) => {
                    let limits = kairos_engine::quota::limits(&def);
                    let (frequency, interval) = limits.max_recurrence;
                    (
                        limits.sku.to_string(),
                        limits.max_job_count.to_string(),
                        format!("every {interval} {frequency}"),
                    )
                }
                Err(_) => ("-".into(), "-".into(), "-".into()),
            };
        table.row(vec![
            plain(name),
            toned(text(item, "/properties/state")),
            plain(plan),
            plain(max_jobs),
            plain(most_often),
        ]);
    }
    table.render(color)
}

pub fn jobs_table(items: &[Value], color: bool) -> String {
    let mut table = Table::new(&[
        "NAME", "STATE", "ACTION", "NEXT RUN", "LAST RUN", "RUNS", "FAILURES",
    ]);
    for item in items {
        table.row(vec![
            plain(short_name(item)),
            toned(text(item, "/properties/state")),
            plain(text(item, "/properties/action/type")),
            plain(text(item, "/properties/status/nextExecutionTime")),
            plain(text(item, "/properties/status/lastExecutionTime")),
            plain(text(item, "/properties/status/executionCount")),
            plain(text(item, "/properties/status/failureCount")),
        ]);
    }
    table.render(color)
}

/// Where an action goes, in a few words.
fn destination(action: &Value) -> String {
    let first = |pointers: &[&str]| {
        pointers
            .iter()
            .map(|p| text(action, p))
            .find(|t| t != "-")
            .unwrap_or_else(|| "-".into())
    };
    match text(action, "/type").to_ascii_lowercase().as_str() {
        "http" | "https" => format!(
            "{} {}",
            text(action, "/request/method"),
            text(action, "/request/uri")
        ),
        "storagequeue" => format!(
            "queue {} of {}",
            text(action, "/queueMessage/queueName"),
            text(action, "/queueMessage/storageAccount")
        ),
        "servicebusqueue" | "servicebustopic" => format!(
            "{} in {}",
            first(&[
                "/serviceBusQueueMessage/queueName",
                "/serviceBusTopicMessage/topicPath"
            ]),
            first(&[
                "/serviceBusQueueMessage/namespace",
                "/serviceBusTopicMessage/namespace"
            ]),
        ),
        "notification" => format!("\"{}\"", text(action, "/notification/title")),
        // The program and its arguments as one line (a shell line is shown as written).
        "command" => {
            let mut line = text(action, "/command/program");
            let arguments = action
                .pointer("/command/arguments")
                .and_then(Value::as_array);
            for a in arguments.into_iter().flatten() {
                line.push(' ');
                line.push_str(a.as_str().unwrap_or_default());
            }
            format!("run {line}")
        }
        _ => "-".into(),
    }
}

/// The schedule as the window says it ("Every day at 02:30 UTC"); the recurrence's fields when
/// it cannot be read as a schedule (a stored job this version no longer accepts).
fn schedule(properties: &Value, calendars: Option<&NamedCalendars>) -> String {
    serde_json::from_value::<JobProperties>(properties.clone())
        .ok()
        .and_then(|props| describe_job(&props, chrono::Utc::now(), calendars, Lang::En))
        .unwrap_or_else(|| recurrence(properties))
}

fn recurrence(properties: &Value) -> String {
    match properties.get("recurrence") {
        Some(r) if r.is_object() => {
            let interval = match text(r, "/interval") {
                none if none == "-" => "1".to_string(),
                n => n,
            };
            let mut s = format!("every {interval} {}", text(r, "/frequency"));
            if let Some(schedule) = r.get("schedule").filter(|s| s.is_object()) {
                s.push_str(&format!(" at {schedule}"));
            }
            for (field, label) in [("count", "count"), ("endTime", "until")] {
                if r.get(field).is_some() {
                    s.push_str(&format!(", {label} {}", text(r, &format!("/{field}"))));
                }
            }
            s
        }
        _ => "once".into(),
    }
}

/// A job as a few lines; `calendars` are its collection's, for the calendars its schedule names.
pub fn job_fields(job: &Value, calendars: Option<&NamedCalendars>, color: bool) -> String {
    let p = &job["properties"];
    let collection = collection_of(job)
        .map(|k| collection_label(&k))
        .unwrap_or_else(|| "-".into());
    let error_action = match p.pointer("/action/errorAction") {
        Some(e) if e.is_object() => format!("{} {}", text(e, "/type"), destination(e)),
        _ => "-".into(),
    };
    fields(
        &[
            ("Job", short_name(job)),
            ("Collection", collection),
            ("State", text(p, "/state")),
            ("Action", text(p, "/action/type")),
            ("Destination", destination(&p["action"])),
            ("Error action", error_action),
            ("Start time", text(p, "/startTime")),
            ("Schedule", schedule(p, calendars)),
            ("Next run", text(p, "/status/nextExecutionTime")),
            ("Last run", text(p, "/status/lastExecutionTime")),
            ("Runs", text(p, "/status/executionCount")),
            ("Failures", text(p, "/status/failureCount")),
            ("Faults", text(p, "/status/faultedCount")),
        ],
        color,
    )
}

pub fn history_table(items: &[Value], color: bool) -> String {
    let mut table = Table::new(&[
        "START", "STATUS", "ACTION", "EXPECTED", "RETRY", "REPEAT", "MESSAGE",
    ]);
    for item in items {
        table.row(vec![
            plain(text(item, "/properties/startTime")),
            toned(text(item, "/properties/status")),
            plain(text(item, "/properties/actionName")),
            plain(text(item, "/properties/expectedExecutionTime")),
            plain(text(item, "/properties/retryCount")),
            plain(text(item, "/properties/repeatCount")),
            plain(shorten(&text(item, "/properties/message"), MESSAGE_WIDTH)),
        ]);
    }
    table.render(color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_name_their_collection() {
        let job = json!({"id": "/subscriptions/local/resourceGroups/desktop/providers/Microsoft.Scheduler/jobCollections/c1/jobs/j1", "name": "c1/j1"});
        assert_eq!(
            collection_of(&job),
            Some(CollectionKey::new("local", "desktop", "c1"))
        );
        assert_eq!(short_name(&job), "j1");
        assert_eq!(collection_of(&json!({"id": "/x"})), None);
    }

    #[test]
    fn a_job_reads_as_a_few_lines() {
        let job = json!({"name": "c/j", "properties": {"state": "Enabled",
            "action": {"type": "Http", "request": {"method": "GET", "uri": "http://e/x"}},
            "recurrence": {"frequency": "Hour", "interval": 2, "count": 3}}});
        let shown = job_fields(&job, None, false);
        assert!(shown.contains("Destination:   GET http://e/x"), "{shown}");
        assert!(
            shown.contains("Schedule:      Once when created, then every 2 hours, 3 times"),
            "{shown}"
        );
    }

    /// The sentence the window shows, data-driven: (job properties, calendars of the
    /// collection, the Schedule line).
    #[test]
    fn the_schedule_reads_as_a_sentence() {
        let check = |properties: Value, calendars: Option<Value>, expected: &str| {
            let calendars: Option<NamedCalendars> =
                calendars.map(|c| serde_json::from_value(c).expect("calendars"));
            let job = json!({"name": "c/j", "properties": properties});
            let shown = job_fields(&job, calendars.as_ref(), false);
            let line = shown
                .lines()
                .find(|l| l.starts_with("Schedule:"))
                .unwrap_or_else(|| panic!("no Schedule line: {shown}"));
            assert_eq!(line.trim_start_matches("Schedule:").trim(), expected);
        };
        let http = json!({"type": "Http", "request": {"method": "GET", "uri": "http://e/x"}});
        check(
            json!({"startTime": "2026-03-02T02:30:00Z", "action": http,
                "recurrence": {"frequency": "Day", "schedule": {"hours": [2], "minutes": [30]}}}),
            None,
            "Every day at 02:30 UTC",
        );
        check(
            json!({"startTime": "2026-03-02T00:00:00Z", "action": http,
                "recurrence": {"frequency": "Month", "timeZone": "Europe/Berlin", "schedule": {
                    "monthlyOccurrences": [{"day": "Friday", "occurrence": -1}],
                    "hours": [5], "minutes": [15]}}}),
            None,
            "Every month on the last Friday at 05:15 Europe/Berlin",
        );
        check(
            json!({"startTime": "2026-03-02T10:00:00Z", "action": http}),
            None,
            "Once at 2026-03-02 10:00 UTC",
        );
        check(
            json!({"startTime": "2026-03-02T02:30:00Z", "state": "Disabled", "action": http,
                "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Monday"]}}}),
            None,
            "Disabled: Every week on Monday at 02:30 UTC",
        );
        // A calendar of the collection, by name.
        let blackout = json!({"startTime": "2026-03-02T02:30:00Z", "action": http,
            "recurrence": {"frequency": "Day", "blackout": ["holidays"]}});
        let holidays = json!({"holidays": {"dates": ["2026-12-25"]}});
        let with_calendar = {
            let calendars: NamedCalendars = serde_json::from_value(holidays).expect("calendars");
            let props: JobProperties = serde_json::from_value(blackout.clone()).expect("props");
            describe_job(&props, chrono::Utc::now(), Some(&calendars), Lang::En)
                .expect("a sentence")
        };
        check(
            blackout.clone(),
            Some(json!({"holidays": {"dates": ["2026-12-25"]}})),
            &with_calendar,
        );
        assert!(with_calendar.contains("holidays"), "{with_calendar}");
        // Without the collection's calendars the name cannot be read: the fields instead.
        check(blackout, None, "every 1 Day");
    }
}
