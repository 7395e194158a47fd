//! Crontabs (docs/semantics.md, "crontab"): each job line becomes a job with a Command action and
//! the recurrence that runs at exactly the times cron would, or a problem naming the line and the
//! rule; `export` writes jobs back as a crontab where cron can express them exactly.
//!
//! A line never becomes a job with a different schedule: what no single recurrence expresses is
//! refused, not approximated.

mod entry;
mod export;
mod fields;
mod line;
mod names;
mod schedule;
mod spell;

pub use export::{export_crontab, CrontabExport};

use crate::plan::{ImportPlan, PlannedCollection, PlannedJob, Skipped};
use chrono::{DateTime, Utc};
use indexmap::IndexMap;
use kairos_core::document::from_value_at;
use kairos_core::model::JobProperties;
use kairos_core::recurrence::Zone;
use line::Line;
use serde_json::{json, Map, Value};

/// What reading a crontab needs besides its text.
#[derive(Debug, Clone)]
pub struct CrontabOptions {
    /// The import's time: every job starts now, so its first run is cron's next one.
    pub now: DateTime<Utc>,
    /// The IANA zone of lines before any `CRON_TZ=` (the machine's, where cron would run them).
    pub default_time_zone: String,
}

/// The comment that names the job on the next line (export writes it, so names survive).
pub const NAME_COMMENT: &str = "kairos job:";

/// Cron's time limit is none; a Command's longest is seven days.
pub const COMMAND_TIMEOUT: &str = "P7D";

/// Variables a crontab reads as cron's own settings, never passed to a command as written.
pub const RESERVED_NAMES: [&str; 5] = ["CRON_TZ", "MAILTO", "MAILFROM", "SHELL", "RANDOM_DELAY"];

/// Read a crontab into one collection (the importer's target) of jobs.
pub fn import_crontab(text: &str, options: &CrontabOptions) -> ImportPlan {
    let mut reader = Reader {
        plan: ImportPlan::default(),
        jobs: Vec::new(),
        zone: zone_setting(0, &options.default_time_zone, "the machine's time zone"),
        environment: IndexMap::new(),
        shell: None,
        home: Ok(None),
        given_name: None,
        start: kairos_core::iso8601::format_datetime(&kairos_core::validate::truncate_to_second(
            options.now,
        )),
        now: options.now,
    };
    for (i, text) in text.split('\n').enumerate() {
        reader.line(i + 1, line::read_line(text));
    }
    let mut plan = reader.plan;
    plan.collections.push(PlannedCollection {
        resource_group: None,
        name: None,
        body: None,
        jobs: reader.jobs,
    });
    plan
}

/// A setting from an earlier line, or the line that broke it and why.
type Setting<T> = Result<T, (usize, String)>;

struct Reader {
    plan: ImportPlan,
    jobs: Vec<PlannedJob>,
    zone: Setting<String>,
    environment: IndexMap<String, String>,
    /// `SHELL`, when it is not `sh`.
    shell: Option<String>,
    /// `HOME`, where cron runs the commands.
    home: Setting<Option<String>>,
    /// A `# kairos job: NAME` comment on the line before.
    given_name: Option<String>,
    start: String,
    now: DateTime<Utc>,
}

fn zone_setting(line: usize, name: &str, what: &str) -> Setting<String> {
    match Zone::parse(name.trim()) {
        Some(_) => Ok(name.trim().to_string()),
        None => Err((
            line,
            format!("{what} '{name}' is not an IANA time zone name (such as Europe/Berlin or UTC)"),
        )),
    }
}

fn source(line: usize) -> String {
    format!("line {line}")
}

impl Reader {
    fn problem(&mut self, line: usize, reason: impl Into<String>) {
        self.plan.problems.push(Skipped {
            source: source(line),
            reason: reason.into(),
        });
    }

    fn note(&mut self, line: usize, reason: impl Into<String>) {
        self.plan.notes.push(Skipped {
            source: source(line),
            reason: reason.into(),
        });
    }

    fn line(&mut self, n: usize, line: Line<'_>) {
        let given_name = self.given_name.take();
        match line {
            Line::Blank => {}
            Line::Comment(text) => {
                if let Some(name) = text.trim_start().strip_prefix(NAME_COMMENT) {
                    self.given_name = Some(name.trim().to_string());
                }
            }
            Line::Environment { name, value } => self.environment_line(n, name, value),
            Line::Refused(reason) => self.problem(n, reason),
            Line::Job { fields, command } => {
                if let Err(reason) = self.job(n, &fields, command, given_name) {
                    self.problem(n, reason);
                }
            }
        }
    }

    fn environment_line(&mut self, n: usize, name: &str, value: &str) {
        match name {
            "CRON_TZ" => self.zone = zone_setting(n, value, "CRON_TZ"),
            "TZ" => {
                // Cron passes TZ to the commands too.
                self.zone = zone_setting(n, value, "TZ");
                self.environment.insert(name.into(), value.into());
            }
            "MAILTO" | "MAILFROM" => self.note(n, format!("{name}: Kairos does not mail a job's output; each run's output is in the job's history, and a failure can notify you (an error action, or the desktop's \"Notify me when any job faults\")")),
            "SHELL" => {
                self.shell = match value {
                    "/bin/sh" | "/usr/bin/sh" | "sh" => None,
                    other => Some(other.to_string()),
                }
            }
            "HOME" => {
                self.environment.insert(name.into(), value.into());
                self.home = if value.starts_with('/') {
                    Ok(Some(value.to_string()))
                } else {
                    Err((n, format!("HOME '{value}' is not an absolute path, and cron runs each command in HOME")))
                };
            }
            "RANDOM_DELAY" => self.problem(n, "RANDOM_DELAY delays each job by a random number of minutes; Kairos runs jobs at their exact times (remove the line to import the jobs at their times)"),
            _ => {
                self.environment.insert(name.into(), value.into());
            }
        }
    }

    fn job(
        &mut self,
        n: usize,
        fields: &fields::CronFields,
        command: String,
        given_name: Option<String>,
    ) -> Result<(), String> {
        let zone = match &self.zone {
            Ok(zone) => zone.clone(),
            Err((0, why)) => return Err(format!("{why}; add a CRON_TZ= line above it")),
            Err((line, why)) => return Err(format!("{why} (line {line})")),
        };
        let home = match &self.home {
            Ok(home) => home.clone(),
            Err((line, why)) => return Err(format!("{why} (line {line})")),
        };
        let mut recurrence = schedule::recurrence(fields)?;
        recurrence.insert("timeZone".into(), json!(zone));
        let mut spec = Map::new();
        match &self.shell {
            None => {
                spec.insert("program".into(), json!(command));
                spec.insert("shell".into(), json!(true));
            }
            Some(shell) => {
                spec.insert("program".into(), json!(shell));
                spec.insert("arguments".into(), json!(["-c", command]));
            }
        }
        if let Some(home) = home {
            spec.insert("workingDirectory".into(), json!(home));
        }
        if !self.environment.is_empty() {
            spec.insert("environment".into(), json!(self.environment));
        }
        spec.insert("timeout".into(), json!(COMMAND_TIMEOUT));
        let properties = json!({
            "startTime": self.start,
            "action": {
                "type": "Command",
                "command": spec,
                "retryPolicy": {"retryType": "None"},
            },
            "recurrence": recurrence,
        });
        self.validate(&properties)?;
        let name = match given_name {
            Some(name) => {
                names::check_given_name(&name)?;
                name
            }
            None => names::derived_name(n, &command),
        };
        if let Some(other) = self
            .jobs
            .iter()
            .find(|j| j.name.eq_ignore_ascii_case(&name))
        {
            return Err(format!(
                "the job name '{name}' is already used by {}",
                other.source
            ));
        }
        self.jobs.push(PlannedJob {
            name,
            body: json!({ "properties": properties }),
            source: source(n),
        });
        Ok(())
    }

    /// The job as the engine checks it on write (a day that never comes, such as 30 February,
    /// is refused here, as cron would never run it).
    fn validate(&self, properties: &Value) -> Result<(), String> {
        let sentences = |e: kairos_core::ValidationErrors| {
            e.errors()
                .iter()
                .map(|f| f.sentence())
                .collect::<Vec<_>>()
                .join("; ")
        };
        let props: JobProperties =
            from_value_at(properties.clone(), "properties").map_err(sentences)?;
        kairos_core::validate::validate_job(&props, self.now)
            .map(|_| ())
            .map_err(sentences)
    }
}
