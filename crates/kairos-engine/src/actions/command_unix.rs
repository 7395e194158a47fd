//! The Command action on Unix: `sh -c LINE`, a process group per command (a timeout kills the
//! group), and signal deaths.

use process_wrap::tokio::{CommandWrap, KillOnDrop, ProcessGroup};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// `shell: true`: the line goes to `sh -c` as one argument.
pub(super) fn shell_command(line: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new("sh");
    command.arg("-c").arg(line);
    command
}

/// The program leads a new process group: killing the group kills what it started.
pub(super) fn contain(command: &mut CommandWrap) {
    command.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
}

/// A status without an exit code: the program died of a signal.
pub(super) fn abnormal_end(status: ExitStatus) -> String {
    match status.signal() {
        Some(signal) => format!("killed by signal {signal}{}", signal_name(signal)),
        None => format!("ended without an exit code ({status})"),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => " (SIGHUP)",
        2 => " (SIGINT)",
        6 => " (SIGABRT)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

#[cfg(test)]
pub(super) fn status_with_code(code: i32) -> ExitStatus {
    ExitStatus::from_raw(code << 8)
}
