//! Jobs written back as a crontab, where cron runs them exactly as Kairos would; the others are
//! listed with why (docs/semantics.md, "crontab").

use super::entry::{entry, Entry};
use super::{NAME_COMMENT, RESERVED_NAMES};
use indexmap::IndexMap;
use serde_json::Value;

/// A crontab, and the jobs it leaves out with why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrontabExport {
    pub text: String,
    /// (job name, why cron cannot run it as Kairos does).
    pub not_exported: Vec<(String, String)>,
}

const HEADER: &str = "# Written by Kairos. Each job is one line, after a '# kairos job:' comment that keeps its name.\n# Cron mails a job's output (MAILTO); Kairos kept it in the job's history.\n";

/// Write `jobs` (name, ARM body as the engine exports it) as a crontab.
pub fn export_crontab(jobs: &[(String, Value)]) -> CrontabExport {
    let mut out = CrontabExport {
        text: HEADER.to_string(),
        not_exported: Vec::new(),
    };
    let mut entries = Vec::new();
    for (name, body) in jobs {
        match entry(body) {
            Ok(e) => entries.push((name, e)),
            Err(why) => out.not_exported.push((name.clone(), why)),
        }
    }
    // A crontab's variables only accumulate: fewer variables first, so each job's environment
    // can extend the one before (a crontab read by Kairos keeps its order this way).
    entries.sort_by_key(|(_, e)| e.environment.len());
    let mut state = State::default();
    for (name, e) in entries {
        match state.write(name, &e) {
            Ok(text) => out.text.push_str(&text),
            Err(why) => out.not_exported.push((name.clone(), why)),
        }
    }
    out
}

#[derive(Default)]
struct State {
    zone: Option<String>,
    environment: IndexMap<String, String>,
    shell: Option<String>,
}

impl State {
    fn write(&mut self, name: &str, e: &Entry) -> Result<String, String> {
        if let Some(missing) = self
            .environment
            .keys()
            .find(|k| !e.environment.contains_key(*k))
        {
            return Err(format!("its environment lacks {missing}, which a job written before it sets; a crontab cannot unset a variable"));
        }
        let mut text = String::from("\n");
        let mut zone_changed = self.zone.as_deref() != Some(e.zone.as_str());
        for (k, v) in &e.environment {
            if self.environment.get(k) != Some(v) {
                text.push_str(&format!("{k}={}\n", env_value(v)));
                self.environment.insert(k.clone(), v.clone());
                // A TZ line sets the zone of the lines after it too: CRON_TZ follows it.
                zone_changed |= k == "TZ";
            }
        }
        if zone_changed {
            text.push_str(&format!("CRON_TZ={}\n", e.zone));
            self.zone = Some(e.zone.clone());
        }
        if self.shell != e.shell {
            let shell = e.shell.as_deref().unwrap_or("/bin/sh");
            text.push_str(&format!("SHELL={shell}\n"));
            self.shell = e.shell.clone();
        }
        text.push_str(&format!("# {NAME_COMMENT} {name}\n"));
        for comment in &e.comments {
            text.push_str(&format!("# {comment}\n"));
        }
        text.push_str(&format!("{} {}\n", e.fields.join(" "), e.command));
        Ok(text)
    }
}

/// A value as the reader gets it back: quoted when it is empty, has blanks at its ends, or
/// would lose quotes of its own.
fn env_value(v: &str) -> String {
    let plain = !v.is_empty()
        && v.trim() == v
        && !(v.len() >= 2 && (v.starts_with('"') || v.starts_with('\'')));
    if plain {
        v.to_string()
    } else {
        format!("\"{v}\"")
    }
}

/// Whether an environment name and value can be written as a crontab line read back the same.
pub fn check_environment(name: &str, value: &str) -> Result<(), String> {
    if RESERVED_NAMES.contains(&name) {
        return Err(format!(
            "its environment sets {name}, which a crontab reads as a setting of cron's"
        ));
    }
    if name.is_empty()
        || name.starts_with('#')
        || name.chars().any(|c| c.is_whitespace() || c == '=')
    {
        return Err(format!(
            "its environment variable '{name}' cannot be written as a crontab line"
        ));
    }
    if value.contains(['\n', '\r']) {
        return Err(format!(
            "its environment variable {name} holds a line break, which a crontab line cannot"
        ));
    }
    Ok(())
}
