//! The passphrase that seals or opens a bundle's secrets: `--passphrase-file FILE` (its first
//! line), else `KAIROS_BUNDLE_PASSPHRASE`, else asked on the terminal (twice when sealing, so a
//! typo does not lock the secrets away). Never an argument: it would sit in the shell history
//! and the process list.

use crate::manage::backend::{Failure, Outcome};
use std::io::IsTerminal;
use std::path::Path;

pub const ENV: &str = "KAIROS_BUNDLE_PASSPHRASE";

pub fn read(file: Option<&Path>, confirm: bool) -> Outcome<String> {
    if let Some(file) = file {
        let text = std::fs::read_to_string(file).map_err(|e| {
            Failure::bad_input(
                "--passphrase-file",
                format!("cannot read {}: {e}", file.display()),
            )
        })?;
        let line = text.lines().next().unwrap_or_default().to_string();
        if line.is_empty() {
            return Err(Failure::bad_input(
                "--passphrase-file",
                format!(
                    "{} is empty; its first line is the passphrase",
                    file.display()
                ),
            ));
        }
        return Ok(line);
    }
    if let Some(value) = std::env::var(ENV).ok().filter(|v| !v.is_empty()) {
        return Ok(value);
    }
    if !std::io::stdin().is_terminal() {
        return Err(Failure::bad_input(
            "--passphrase-file",
            format!("a passphrase is needed: give --passphrase-file FILE or set {ENV}"),
        ));
    }
    let ask = |prompt: &str| {
        rpassword::prompt_password(prompt).map_err(|e| {
            Failure::bad_input(
                "--passphrase-file",
                format!("cannot read the passphrase: {e}"),
            )
        })
    };
    let first = ask("Passphrase for the bundle's secrets: ")?;
    if first.is_empty() {
        return Err(Failure::bad_input(
            "--passphrase-file",
            "the passphrase is empty",
        ));
    }
    if confirm && ask("Again: ")? != first {
        return Err(Failure::bad_input(
            "--passphrase-file",
            "the two passphrases differ",
        ));
    }
    Ok(first)
}
