//! The Command action on Windows: `cmd /C LINE`, a Job object per command (a timeout closes the
//! job, which ends every process in it).

use process_wrap::tokio::{CommandWrap, JobObject, KillOnDrop};
use std::process::ExitStatus;

/// `shell: true`: the line goes to `cmd /C` as it is written. `raw_arg`, because cmd.exe does
/// not undo the quoting that `arg` would add.
pub(super) fn shell_command(line: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new("cmd");
    command.arg("/C").raw_arg(line);
    command
}

/// The program and everything it starts belong to one Job object.
pub(super) fn contain(command: &mut CommandWrap) {
    command.wrap(KillOnDrop).wrap(JobObject);
}

/// Windows processes always have an exit code; this is for completeness.
pub(super) fn abnormal_end(status: ExitStatus) -> String {
    format!("ended without an exit code ({status})")
}

#[cfg(test)]
pub(super) fn status_with_code(code: i32) -> ExitStatus {
    use std::os::windows::process::ExitStatusExt;
    ExitStatus::from_raw(code as u32)
}
