//! Rules of the `Command` action (Kairos extension; docs/semantics.md, "Command action").
//!
//! The core cannot know which system will run the program, so a path counts as absolute when it
//! is absolute on any of them (`/usr/bin`, `C:\Tools`, `\\server\share`).

use super::{FieldRule, Problems};
use crate::model::CommandSpec;
use crate::valid::CommandAction;
use std::time::Duration;

/// How long a command may run unless its `timeout` says otherwise.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(3600);
/// The longest `timeout` accepted: a week.
pub const MAX_COMMAND_TIMEOUT: Duration = Duration::from_secs(7 * 86400);
/// Windows' limit on a whole command line, applied everywhere so a job moves between systems.
pub const MAX_COMMAND_LINE: usize = 32_767;
pub const MAX_COMMAND_ARGUMENTS: usize = 1024;
pub const MAX_ENVIRONMENT_VARIABLES: usize = 256;
pub const MAX_SUCCESS_EXIT_CODES: usize = 64;
/// Exit codes: Unix reports 0..=255 (a signal death has no code, so a negative code never
/// matches there); Windows codes are 32-bit unsigned, which std reports as `i32`, so both
/// readings are accepted and the executor compares both.
const EXIT_CODE_RANGE: std::ops::RangeInclusive<i64> = -2_147_483_648..=4_294_967_295;

pub(super) fn check_command(
    c: &CommandSpec,
    path: &str,
    problems: &mut Problems,
) -> Option<CommandAction> {
    let before = problems.0.len();
    let field = |name: &str| format!("{path}.{name}");
    let shell = c.shell.unwrap_or(false);

    let program = c.program.as_deref().unwrap_or("").trim().to_string();
    if program.is_empty() {
        problems.add(
            field("program"),
            if shell {
                FieldRule::CommandLineRequired
            } else {
                FieldRule::ProgramRequired
            },
        );
    } else if program.contains('\0') {
        problems.add(field("program"), FieldRule::ContainsNul);
    }

    let arguments = c.arguments.clone().unwrap_or_default();
    if shell && !arguments.is_empty() {
        problems.add(field("arguments"), FieldRule::ArgumentsWithShell);
    }
    if arguments.len() > MAX_COMMAND_ARGUMENTS {
        problems.add(
            field("arguments"),
            FieldRule::TooManyArguments {
                max: MAX_COMMAND_ARGUMENTS,
            },
        );
    }
    for (i, a) in arguments.iter().enumerate() {
        if a.contains('\0') {
            problems.add(format!("{path}.arguments[{i}]"), FieldRule::ContainsNul);
        }
    }
    let line: usize = program.len() + arguments.iter().map(|a| a.len() + 3).sum::<usize>();
    if line > MAX_COMMAND_LINE {
        problems.add(
            field("arguments"),
            FieldRule::CommandLineTooLong {
                max: MAX_COMMAND_LINE,
                got: line,
            },
        );
    }

    let working_directory = c
        .working_directory
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_string);
    if let Some(dir) = &working_directory {
        if dir.contains('\0') {
            problems.add(field("workingDirectory"), FieldRule::ContainsNul);
        } else if !is_absolute_anywhere(dir) {
            problems.add(
                field("workingDirectory"),
                FieldRule::NotAnAbsolutePath { got: dir.clone() },
            );
        }
    }

    let mut environment = Vec::new();
    if let Some(vars) = &c.environment {
        if vars.len() > MAX_ENVIRONMENT_VARIABLES {
            problems.add(
                field("environment"),
                FieldRule::TooManyVariables {
                    max: MAX_ENVIRONMENT_VARIABLES,
                },
            );
        }
        for (name, value) in vars {
            let at = format!("{path}.environment.{name}");
            if name.is_empty() || name.contains(['=', '\0']) {
                problems.add(
                    field("environment"),
                    FieldRule::NotAVariableName { name: name.clone() },
                );
            } else if value.contains('\0') {
                problems.add(at, FieldRule::ContainsNul);
            } else {
                environment.push((name.clone(), value.clone()));
            }
        }
    }

    let timeout = c.timeout.unwrap_or(DEFAULT_COMMAND_TIMEOUT);
    if timeout < Duration::from_secs(1) || timeout > MAX_COMMAND_TIMEOUT {
        problems.add(field("timeout"), FieldRule::TimeoutOutOfRange);
    }

    let success_exit_codes = c.success_exit_codes.clone().unwrap_or_else(|| vec![0]);
    if success_exit_codes.is_empty() {
        problems.add(field("successExitCodes"), FieldRule::NoExitCodes);
    } else if success_exit_codes.len() > MAX_SUCCESS_EXIT_CODES {
        problems.add(
            field("successExitCodes"),
            FieldRule::TooManyExitCodes {
                max: MAX_SUCCESS_EXIT_CODES,
            },
        );
    }
    for (i, code) in success_exit_codes.iter().enumerate() {
        if !EXIT_CODE_RANGE.contains(code) {
            problems.add(
                format!("{path}.successExitCodes[{i}]"),
                FieldRule::NotAnExitCode { got: *code },
            );
        }
    }

    if problems.0.len() > before {
        return None;
    }
    Some(CommandAction {
        program,
        arguments,
        working_directory,
        environment,
        timeout,
        success_exit_codes,
        shell,
    })
}

/// Absolute on Unix (`/…`) or Windows (`C:\…`, `C:/…`, `\\server\share`).
fn is_absolute_anywhere(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with('/')
        || path.starts_with("\\\\")
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}
