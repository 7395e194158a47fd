//! What the process tests share: running the `kairos` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `kairos` with `args`, feeding `stdin` when given. The caller's `KAIROS_URL`,
/// `KAIROS_API_TOKEN` and `KAIROS_DATA_DIR` are removed, so no test reaches a real installation.
pub fn kairos(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(args)
        .env_remove("KAIROS_URL")
        .env_remove("KAIROS_API_TOKEN")
        .env_remove("KAIROS_DATA_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kairos starts");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            // A command that fails on its arguments exits without reading: a broken pipe is fine.
            let _ = input.write_all(text.as_bytes());
        }
    }
    child.wait_with_output().expect("kairos finishes")
}
