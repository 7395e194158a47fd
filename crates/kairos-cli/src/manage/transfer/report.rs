//! An import's report for people (a table and a summary line) and for scripts (`--json`), and
//! the exit code it means: 0 when nothing failed, 4 when a quota or a conflict was among the
//! failures, else 2 (bad input).

use crate::manage::backend::{EXIT_BAD_INPUT, EXIT_CONFLICT};
use crate::manage::table::{shorten, Table, Tone};
use kairos_engine::import::{ImportOutcome, ImportReport};
use kairos_import::Skipped;
use serde_json::{json, Value};

/// The longest reason shown in a table (`--json` has all of it).
const REASON_WIDTH: usize = 96;

/// What an import did, with what its reader left out.
pub struct Summary<'a> {
    pub report: &'a ImportReport,
    /// Parts of the file that are not jobs and stop an all-or-nothing import.
    pub problems: &'a [Skipped],
    /// Parts of the file left out on purpose.
    pub notes: &'a [Skipped],
    pub dry_run: bool,
}

impl Summary<'_> {
    pub fn json(&self) -> Value {
        json!({
            "written": self.report.written,
            "items": self.report.items,
            "problems": self.problems,
            "notes": self.notes,
        })
    }

    pub fn exit_code(&self) -> u8 {
        let failed: Vec<_> = self.report.failures().collect();
        if failed.is_empty() && self.problems.is_empty() {
            0
        } else if failed.iter().any(|f| f.code.as_deref() == Some("Conflict")) {
            EXIT_CONFLICT
        } else {
            EXIT_BAD_INPUT
        }
    }

    pub fn table(&self, color: bool) -> String {
        let mut table = Table::new(&["OUTCOME", "COLLECTION", "JOB", "FROM", "WHY"]);
        let dim = |s: String| {
            let tone = if s == "-" { Tone::Dim } else { Tone::Plain };
            (s, tone)
        };
        for item in &self.report.items {
            let (word, tone) = match item.outcome {
                ImportOutcome::Created if self.dry_run || !self.report.written => {
                    ("would create", Tone::Plain)
                }
                ImportOutcome::Replaced if self.dry_run || !self.report.written => {
                    ("would replace", Tone::Plain)
                }
                ImportOutcome::Created => ("created", Tone::Good),
                ImportOutcome::Replaced => ("replaced", Tone::Good),
                ImportOutcome::Kept => ("kept", Tone::Dim),
                ImportOutcome::Skipped => ("skipped", Tone::Warning),
                ImportOutcome::Failed => ("failed", Tone::Bad),
            };
            table.row(vec![
                (word.to_string(), tone),
                dim(item.collection.clone()),
                dim(item.job.clone().unwrap_or_else(|| "-".into())),
                dim(item.source.clone().unwrap_or_else(|| "-".into())),
                dim(shorten(item.reason.as_deref().unwrap_or("-"), REASON_WIDTH)),
            ]);
        }
        for (word, tone, list) in [
            ("refused", Tone::Bad, self.problems),
            ("note", Tone::Dim, self.notes),
        ] {
            for s in list {
                table.row(vec![
                    (word.to_string(), tone),
                    dim("-".into()),
                    dim("-".into()),
                    dim(s.source.clone()),
                    dim(shorten(&s.reason, REASON_WIDTH)),
                ]);
            }
        }
        let mut out = table.render(color);
        out.push_str(&self.line());
        out
    }

    /// `3 created, 1 skipped, 1 failed; nothing was written (...)`.
    fn line(&self) -> String {
        let r = self.report;
        let jobs = |o| {
            r.items
                .iter()
                .filter(|i| i.job.is_some() && i.outcome == o)
                .count()
        };
        let mut parts = Vec::new();
        let (created, replaced) = if r.written {
            ("created", "replaced")
        } else {
            ("to create", "to replace")
        };
        for (outcome, word) in [
            (ImportOutcome::Created, created),
            (ImportOutcome::Replaced, replaced),
            (ImportOutcome::Skipped, "skipped"),
            (ImportOutcome::Failed, "failed"),
        ] {
            let n = jobs(outcome);
            if n > 0 || outcome == ImportOutcome::Created {
                parts.push(format!("{n} {word}"));
            }
        }
        if !self.problems.is_empty() {
            parts.push(format!("{} refused", self.problems.len()));
        }
        let jobs_word = "jobs: ";
        let tail = if self.dry_run {
            "; a dry run: nothing was written"
        } else if !r.written && (self.exit_code() != 0) {
            "; nothing was written (all or nothing: fix what failed, or import the rest with --continue-on-error)"
        } else if !r.written {
            "; nothing to write"
        } else {
            ""
        };
        format!("{jobs_word}{}{tail}\n", parts.join(", "))
    }
}
