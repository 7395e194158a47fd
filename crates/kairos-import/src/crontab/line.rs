//! One line of a crontab: blank, comment, environment setting or job, read as cronie reads it.

use super::fields::{parse_fields, shorthand, CronFields};

/// What a line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'a> {
    Blank,
    /// A comment; `# kairos job: NAME` names the job on the next line.
    Comment(&'a str),
    /// `NAME=value` (spaces around `=` allowed; a value in matching quotes loses them).
    Environment {
        name: &'a str,
        value: &'a str,
    },
    /// A job: its time fields and its command, as cron passes it to the shell.
    Job {
        fields: CronFields,
        command: String,
    },
    /// A line cron would not run, and why.
    Refused(String),
}

/// Read one line (without its line break).
pub fn read_line(text: &str) -> Line<'_> {
    let text = text.strip_suffix('\r').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.trim_end().is_empty() {
        return Line::Blank;
    }
    if let Some(comment) = trimmed.strip_prefix('#') {
        return Line::Comment(comment);
    }
    if let Some(env) = environment(trimmed) {
        return env;
    }
    match job(trimmed) {
        Ok(line) => line,
        Err(reason) => Line::Refused(reason),
    }
}

/// `NAME=value` when the first word is followed by `=`, as cronie's `load_env` decides.
fn environment(text: &str) -> Option<Line<'_>> {
    let end = text
        .find(|c: char| c == '=' || c.is_whitespace())
        .unwrap_or(text.len());
    let name = &text[..end];
    let rest = text[end..].trim_start().strip_prefix('=')?;
    if name.is_empty() {
        return None;
    }
    let value = rest.trim();
    let value = ['"', '\'']
        .iter()
        .find_map(|q| {
            value
                .strip_prefix(*q)
                .and_then(|v| v.strip_suffix(*q))
                .filter(|_| value.len() >= 2)
        })
        .unwrap_or(value);
    Some(Line::Environment { name, value })
}

fn job(text: &str) -> Result<Line<'_>, String> {
    let (fields, rest) = if text.starts_with('@') {
        let (word, rest) = split_word(text);
        if word.eq_ignore_ascii_case("@reboot") {
            return Err("@reboot runs when cron starts; Kairos schedules by time only, so it has no equivalent (run the command from your session's autostart instead)".into());
        }
        let fields = shorthand(word).ok_or_else(|| {
            format!("'{word}' is not a cron shorthand (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)")
        })?;
        (parse_fields(fields)?, rest)
    } else {
        let mut words = [""; 5];
        let mut rest = text;
        for word in &mut words {
            let (w, r) = split_word(rest);
            if w.is_empty() {
                return Err("a job line needs five time fields and a command (or an @ shorthand and a command)".into());
            }
            *word = w;
            rest = r;
        }
        (parse_fields(words)?, rest)
    };
    if rest.trim().is_empty() {
        return Err("the line has its time fields but no command".into());
    }
    Ok(Line::Job {
        fields,
        command: command(rest)?,
    })
}

/// The first word and what follows it, leading blanks skipped.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    (&text[..end], text[end..].trim_start())
}

/// The command as cron gives it to the shell: `\%` is a `%`, other backslashes stay; an
/// unescaped `%` would end the command and feed the rest as standard input, which a Kairos
/// command does not have, so the line is refused.
fn command(text: &str) -> Result<String, String> {
    if text.contains('\r') {
        // Only a line's last carriage return is a line ending (Windows); one inside is data
        // cron would pass on, and no crontab written back could hold it.
        return Err("the command holds a carriage return inside the line".into());
    }
    let mut out = String::with_capacity(text.len());
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            if c != '%' {
                out.push('\\');
            }
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '%' {
            return Err("an unescaped '%' in the command: cron turns it into a line break and feeds what follows as standard input; Kairos commands have no standard input (write '\\%' for a literal '%', or use a here-document or printf in the command)".into());
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    Ok(out)
}
