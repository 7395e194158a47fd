//! The `preview` and `validate` commands: read input, call the core, shape the output.

use chrono::{DateTime, Utc};
use clap::Args;
use kairos_core::document::parse_job_document;
use kairos_core::iso8601;
use kairos_core::model::JobState;
use kairos_core::preview::preview_as_enabled;
use kairos_core::recurrence::{BlackoutNote, DstAdjustment, DstNote};
use kairos_core::validate::{validate_job, validate_schedule};
use kairos_core::{FieldError, ValidationErrors};
use serde_json::{json, Value};
use std::io::Read;
use std::process::ExitCode;

/// Exit code for bad input and usage mistakes.
const EXIT_BAD_INPUT: u8 = 2;
/// The most occurrences one preview prints.
const MAX_PREVIEW_COUNT: usize = 100_000;

#[derive(Debug, Args)]
pub struct PreviewArgs {
    /// Current time and the job's creation time (RFC 3339); default: the real current time.
    #[arg(long)]
    now: Option<String>,
    /// How many occurrences to print.
    #[arg(long, default_value = "10")]
    count: String,
    /// A job definition file, or - for standard input.
    file: String,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Current time (RFC 3339), for the "at most 18 months ahead" rule; default: now.
    #[arg(long)]
    now: Option<String>,
    /// A job definition file, or - for standard input.
    file: String,
}

pub fn preview(args: &PreviewArgs) -> Result<String, ValidationErrors> {
    let now = parse_now(args.now.as_deref())?;
    let count = parse_count(&args.count)?;
    let props = parse_job_document(&read_input(&args.file)?)?;
    let schedule = validate_schedule(&props, now)?;
    // A job that is not Enabled runs never; the preview still shows when it would run, and
    // says why it will not (after `occurrences`, so the contract's first key is unchanged).
    let preview = preview_as_enabled(&schedule, now, count);
    let occurrences: Vec<String> = preview
        .occurrences
        .iter()
        .map(iso8601::format_datetime)
        .collect();
    let mut out = json!({ "occurrences": occurrences });
    if schedule.state != JobState::Enabled {
        out["state"] = json!(schedule.state.as_str());
        out["note"] = json!(format!(
            "the job is {}: it does not run; these are the runs it would make if enabled",
            schedule.state
        ));
    }
    // Runs that daylight saving moved, skipped or repeated (named time zones only); absent for
    // UTC jobs, so the output stays exactly the contract's.
    if !preview.dst_notes.is_empty() {
        out["dst"] = preview.dst_notes.iter().map(dst_note_json).collect();
    }
    // Runs blackout calendars skipped; absent when there are none, for the same reason.
    if !preview.blackout_notes.is_empty() {
        out["blackout"] = preview
            .blackout_notes
            .iter()
            .map(blackout_note_json)
            .collect();
    }
    Ok(out.to_string())
}

fn dst_note_json(note: &DstNote) -> Value {
    let adjustment = match note.adjustment {
        DstAdjustment::Moved => "Moved",
        DstAdjustment::Skipped => "Skipped",
        DstAdjustment::Repeated => "Repeated",
    };
    let mut v = json!({
        "wallTime": note.wall_time.format("%Y-%m-%dT%H:%M:%S").to_string(),
        "adjustment": adjustment,
    });
    if let Some(at) = note.at {
        v["at"] = json!(iso8601::format_datetime(&at));
    }
    v
}

/// One skipped run: `{"at", "calendar"}`; a stretch of several also says how many
/// (`skipped`, absent past the count limit) and when it ends (`until`); a blackout that never
/// ends (the series ends there) says `"forever": true`.
fn blackout_note_json(note: &BlackoutNote) -> Value {
    let mut v = json!({"at": iso8601::format_datetime(&note.at), "calendar": note.calendar});
    if note.until.is_none() {
        v["forever"] = json!(true);
    } else if note.skipped != Some(1) {
        if let Some(n) = note.skipped {
            v["skipped"] = json!(n);
        }
        if let Some(until) = note.until {
            v["until"] = json!(iso8601::format_datetime(&until));
        }
    }
    v
}

pub fn validate(args: &ValidateArgs) -> Result<String, ValidationErrors> {
    let now = parse_now(args.now.as_deref())?;
    let props = parse_job_document(&read_input(&args.file)?)?;
    validate_job(&props, now)?;
    // Echo the canonical form: secrets are write-only and never serialized.
    let mut canonical = serde_json::to_value(&props).unwrap_or(Value::Null);
    kairos_core::validate::normalize(&mut canonical);
    Ok(json!({ "valid": true, "properties": canonical }).to_string())
}

fn parse_now(now: Option<&str>) -> Result<DateTime<Utc>, ValidationErrors> {
    match now {
        None => Ok(Utc::now()),
        Some(text) => iso8601::parse_datetime_checked(text).map_err(|e| {
            let message = match e {
                iso8601::DateTimeError::Malformed => format!(
                    "'{text}' is not a date-time; use RFC 3339 such as 2030-01-01T08:00:00Z"
                ),
                iso8601::DateTimeError::OutOfRange => e.describe(text),
            };
            FieldError::bad_request("--now", message).into()
        }),
    }
}

fn parse_count(text: &str) -> Result<usize, ValidationErrors> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MAX_PREVIEW_COUNT => Ok(n),
        _ => Err(FieldError::bad_request(
            "--count",
            format!("must be a whole number between 0 and {MAX_PREVIEW_COUNT}; got '{text}'"),
        )
        .into()),
    }
}

pub fn read_input(file: &str) -> Result<String, ValidationErrors> {
    let mut text = String::new();
    let result = if file == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    result.map_err(|e| {
        let source = if file == "-" {
            "standard input".to_string()
        } else {
            format!("'{file}'")
        };
        ValidationErrors::from(FieldError::bad_request(
            "",
            format!("cannot read {source}: {e}"),
        ))
    })?;
    Ok(text)
}

/// Print the ARM error body on stderr and exit 2.
pub fn report(error: &ValidationErrors) -> ExitCode {
    eprintln!("{}", error.to_arm_error());
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Help and version go to stdout with exit 0; every other usage mistake is bad input.
pub fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            ExitCode::from(EXIT_BAD_INPUT)
        } else {
            ExitCode::SUCCESS
        };
    }
    let message = e.render().to_string();
    let first_line = message
        .lines()
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string();
    report(&FieldError::bad_request("", first_line).into())
}
