//! The `Command` action (Kairos extension; docs/semantics.md, "Command action"): a local
//! program, run as the user who runs Kairos.
//!
//! * The program starts directly with its arguments (no shell, so `;` or `$HOME` in an argument
//!   is just text), or with `shell: true` as one line for the system's shell
//!   ([`shell_command`], per OS).
//! * stdin is empty; the environment is the user's, plus the job's `environment`, plus the
//!   occurrence's `KAIROS_*` variables (the same facts the HTTP headers carry, so a program can
//!   de-duplicate the at-least-once deliveries too).
//! * The working directory is the job's, or the user's home directory.
//! * The program runs in a process group (Unix) or a Job object (Windows), through
//!   watchexec's `process-wrap`: a timeout kills the whole tree, so a `sh -c "sleep 100"` leaves
//!   no `sleep` behind holding the output pipe. The workspace denies `unsafe_code`, which
//!   rules out calling `killpg` or the Job object API ourselves.
//! * stdout and stderr are read while the program runs (a chatty program never blocks on a full
//!   pipe) and only their last [`TAIL_BYTES`] are kept, for the history message.

#[cfg(unix)]
use super::command_unix as os;
#[cfg(windows)]
use super::command_windows as os;
use super::{AttemptContext, Outcome};
use kairos_core::valid::CommandAction;
use process_wrap::tokio::{ChildWrapper, CommandWrap};
use std::collections::VecDeque;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

/// How much of each of stdout and stderr the history keeps: the end, where errors are.
pub const TAIL_BYTES: usize = 4096;

/// After the program has exited, how long its output may stay open (a background process it
/// started may hold the pipe) before Kairos stops reading.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

pub(super) async fn execute(c: &CommandAction, ctx: &AttemptContext) -> Outcome {
    let dir = match working_directory(c) {
        Ok(dir) => dir,
        Err(message) => return Outcome::failed(message),
    };
    let mut command = if c.shell {
        os::shell_command(&c.program)
    } else {
        let mut command = tokio::process::Command::new(&c.program);
        command.args(&c.arguments);
        command
    };
    command
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in &c.environment {
        command.env(name, value);
    }
    for (name, value) in context_environment(ctx) {
        command.env(name, value);
    }
    let mut wrapped = CommandWrap::from(command);
    os::contain(&mut wrapped);
    let mut child = match wrapped.spawn() {
        Ok(child) => Tree(Some(child)),
        Err(e) => return Outcome::failed(spawn_failure(c, &e)),
    };
    let child = child.get();
    let stdout = child.stdout().take().map(|o| tokio::spawn(tail(o)));
    let stderr = child.stderr().take().map(|e| tokio::spawn(tail(e)));

    let ended = tokio::time::timeout(c.timeout, child.wait()).await;
    let first_line = match ended {
        Ok(Ok(status)) => Ok(status),
        Ok(Err(e)) => Err(format!("waiting for '{}' failed: {e}", c.program)),
        Err(_) => {
            // The whole group or job goes, so nothing is left holding the pipes.
            if let Err(e) = Box::into_pin(child.kill()).await {
                tracing::warn!(error = %e, program = %c.program, "cannot kill a timed-out command");
            }
            Err(format!(
                "timed out after {}; the program and everything it started were killed",
                human(c.timeout)
            ))
        }
    };
    let out = collect(stdout).await;
    let err = collect(stderr).await;
    let (success, first_line) = match first_line {
        Ok(status) => judge(status, &c.success_exit_codes),
        Err(message) => (false, message),
    };
    Outcome {
        success,
        message: format!(
            "{first_line}{}{}",
            section("stdout", &out),
            section("stderr", &err)
        ),
    }
}

/// The running program, killed with everything it started when the attempt is dropped before
/// the program ends (the runner stopping): tokio's own kill-on-drop kills the leader only.
struct Tree(Option<Box<dyn ChildWrapper>>);

impl Tree {
    fn get(&mut self) -> &mut Box<dyn ChildWrapper> {
        self.0.as_mut().expect("present until dropped")
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            // Nothing to do for a program that has ended and was reaped.
            if matches!(child.try_wait(), Ok(None)) {
                let _ = child.start_kill();
            }
        }
    }
}

/// The job's working directory, or the user's home. Checked before the start, because a
/// missing directory and a missing program are the same error (`ENOENT`) once spawning fails.
fn working_directory(c: &CommandAction) -> Result<std::path::PathBuf, String> {
    match &c.working_directory {
        Some(dir) => {
            let path = std::path::PathBuf::from(dir);
            if path.is_dir() {
                Ok(path)
            } else {
                Err(format!(
                    "the working directory '{dir}' does not exist or is not a directory"
                ))
            }
        }
        None => dirs::home_dir().ok_or_else(|| {
            "the user's home directory is unknown: give the job a workingDirectory".to_string()
        }),
    }
}

fn context_environment(ctx: &AttemptContext) -> Vec<(&'static str, String)> {
    let mut vars = vec![
        ("KAIROS_JOB_ID", ctx.job_id.clone()),
        ("KAIROS_JOB_COLLECTION_ID", ctx.job_collection_id.clone()),
        (
            "KAIROS_EXPECTED_EXECUTION_TIME",
            ctx.expected_execution_time
                .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
        ),
        ("KAIROS_EXECUTION_TAG", ctx.execution_tag.clone()),
    ];
    if let Some(failure) = &ctx.failure {
        vars.push(("KAIROS_FAILURE", failure.clone()));
    }
    vars
}

fn spawn_failure(c: &CommandAction, e: &std::io::Error) -> String {
    let what = if c.shell {
        format!("the shell for '{}'", c.program)
    } else {
        format!("the program '{}'", c.program)
    };
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!("{what} was not found (give a full path, or a name on PATH)")
        }
        std::io::ErrorKind::PermissionDenied => {
            format!("{what} cannot be started: permission denied (is it executable?)")
        }
        _ => format!("{what} could not be started: {e}"),
    }
}

/// Success is an exit code in the list. Windows codes are 32-bit unsigned but std reports them
/// as `i32`, so both readings are compared.
fn judge(status: ExitStatus, success_codes: &[i64]) -> (bool, String) {
    let list = success_codes
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match status.code() {
        Some(code) => {
            let ok = success_codes.contains(&i64::from(code))
                || success_codes.contains(&i64::from(code as u32));
            (ok, format!("exit code {code} (success: {list})"))
        }
        None => (false, os::abnormal_end(status)),
    }
}

/// The last [`TAIL_BYTES`] of a stream, and how many bytes it had in all.
#[derive(Debug, Default)]
struct Tail {
    bytes: VecDeque<u8>,
    total: u64,
}

async fn tail(mut reader: impl AsyncRead + Unpin) -> Tail {
    let mut kept = Tail::default();
    let mut buf = [0u8; 8192];
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.total += n as u64;
                kept.bytes.extend(&buf[..n]);
                let excess = kept.bytes.len().saturating_sub(TAIL_BYTES);
                kept.bytes.drain(..excess);
            }
        }
    }
    kept
}

async fn collect(reader: Option<tokio::task::JoinHandle<Tail>>) -> Option<Tail> {
    let mut reader = reader?;
    match tokio::time::timeout(DRAIN_GRACE, &mut reader).await {
        Ok(tail) => tail.ok(),
        Err(_) => {
            // Something the program left behind still holds the pipe.
            reader.abort();
            None
        }
    }
}

/// `stdout (last 4096 of 10000 bytes):` and the text, or nothing for an empty stream.
fn section(name: &str, tail: &Option<Tail>) -> String {
    let Some(tail) = tail else {
        return format!("\n{name}: (still open when the program ended; not read)");
    };
    if tail.total == 0 {
        return String::new();
    }
    let (text, cut) = tail_text(tail);
    let heading = if cut {
        format!("{name} (last {} of {} bytes)", text.len(), tail.total)
    } else {
        name.to_string()
    };
    format!("\n{heading}:\n{}", text.trim_end())
}

/// The kept bytes as text: a cut tail starts at a character boundary (the first few bytes may
/// be the end of a character), then invalid UTF-8 shows as U+FFFD.
fn tail_text(tail: &Tail) -> (String, bool) {
    let bytes: Vec<u8> = tail.bytes.iter().copied().collect();
    let cut = tail.total > bytes.len() as u64;
    let start = if cut {
        bytes
            .iter()
            .take(3)
            .take_while(|b| (**b & 0b1100_0000) == 0b1000_0000)
            .count()
    } else {
        0
    };
    (String::from_utf8_lossy(&bytes[start..]).into_owned(), cut)
}

fn human(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, 0, 0) => format!("{h} h"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tail_of(bytes: &[u8], total: u64) -> Tail {
        Tail {
            bytes: bytes.iter().copied().collect(),
            total,
        }
    }

    #[test]
    fn a_cut_tail_starts_on_a_character_boundary() {
        // "é" is C3 A9: a tail that starts at A9 drops it rather than show U+FFFD.
        let (text, cut) = tail_text(&tail_of(&[0xA9, b'o', b'k'], 10));
        assert!(cut);
        assert_eq!(text, "ok");
        let (text, cut) = tail_text(&tail_of(&[0xff, b'x'], 2));
        assert!(!cut);
        assert_eq!(text, "\u{fffd}x");
    }

    #[tokio::test]
    async fn only_the_tail_is_kept() {
        let data: Vec<u8> = (0..20_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let kept = tail(&data[..]).await;
        assert_eq!(kept.total, 20_000);
        assert_eq!(kept.bytes.len(), TAIL_BYTES);
        assert_eq!(
            kept.bytes.iter().copied().collect::<Vec<_>>(),
            data[20_000 - TAIL_BYTES..]
        );
        let s = section("stdout", &Some(kept));
        assert!(
            s.starts_with("\nstdout (last 4096 of 20000 bytes):\n"),
            "{s}"
        );
    }

    /// Whether a process runs (a zombie does not: in a container nobody may reap it).
    #[cfg(target_os = "linux")]
    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_attempt_kills_the_whole_tree() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let c = CommandAction {
            program: format!("sleep 100 & echo $! > {}; wait", pidfile.display()),
            arguments: vec![],
            working_directory: None,
            environment: vec![],
            timeout: Duration::from_secs(100),
            success_exit_codes: vec![0],
            shell: true,
        };
        let ctx = AttemptContext {
            job_id: "j".into(),
            job_collection_id: "c".into(),
            expected_execution_time: chrono::DateTime::UNIX_EPOCH,
            execution_tag: "t".into(),
            client_request_id: "r".into(),
            failure: None,
        };
        let task = tokio::spawn(async move { execute(&c, &ctx).await });
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let pid = loop {
            let pid = std::fs::read_to_string(&pidfile).unwrap_or_default();
            if pid.ends_with('\n') {
                break pid.trim().to_string();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the shell started sleep"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert!(alive(&pid));
        task.abort();
        let _ = task.await;
        while alive(&pid) {
            assert!(
                std::time::Instant::now() < deadline,
                "sleep {pid} outlived its attempt"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[test]
    fn durations_read_like_people_write_them() {
        assert_eq!(human(Duration::from_secs(1)), "1 s");
        assert_eq!(human(Duration::from_secs(90)), "1 min 30 s");
        assert_eq!(human(Duration::from_secs(3600)), "1 h");
    }

    #[test]
    fn exit_codes_are_judged_against_the_list() {
        let status = os::status_with_code(3);
        assert_eq!(
            judge(status, &[0, 3]),
            (true, "exit code 3 (success: 0, 3)".into())
        );
        assert!(!judge(status, &[0]).0);
    }
}
