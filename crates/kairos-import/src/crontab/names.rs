//! Job names for crontab lines: deterministic, readable, valid everywhere a job name goes.

/// `line-12-backup-sh`: the line number (unique in the file) and the first words of the command,
/// lower-case letters and digits joined by `-`, at most 60 characters in all.
pub fn derived_name(line: usize, command: &str) -> String {
    let mut name = format!("line-{line}");
    for word in command.split_whitespace().take(3) {
        // A path counts by its last part: `/usr/local/bin/backup.sh` is `backup-sh`.
        let word = word.trim_end_matches('/');
        let word = word.rsplit('/').next().unwrap_or(word);
        for part in word.split(|c: char| !c.is_ascii_alphanumeric()) {
            if part.is_empty() {
                continue;
            }
            if name.len() + 1 + part.len() > 60 {
                return name;
            }
            name.push('-');
            name.push_str(&part.to_ascii_lowercase());
        }
    }
    name
}

/// The rule for a name given with `# kairos job: NAME`: what Azure allows in a job name
/// (letters, digits, `-` and `_`), 1 to 100 characters.
pub fn check_given_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 100 {
        return Err(format!(
            "the job name '{name}' must have 1 to 100 characters"
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "the job name '{name}' may hold only letters, digits, '-' and '_'"
        ));
    }
    Ok(())
}
