//! What the process tests share: running the `kairos` binary, and a `kairos serve` to manage.
//! (Each test binary uses part of it.)
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The API token of the servers the tests start.
pub const TOKEN: &str = "manage-test-token-0123456789abcdef";

/// Run `kairos` with `args`, feeding `stdin` when given. The caller's `KAIROS_URL`,
/// `KAIROS_API_TOKEN` and `KAIROS_DATA_DIR` are removed, so no test reaches a real installation.
pub fn kairos(args: &[&str], stdin: Option<&str>) -> Output {
    kairos_with(args, stdin, &[])
}

/// `kairos` with extra environment variables.
pub fn kairos_with(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(args)
        .envs(env.iter().copied())
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

pub fn local(dir: &Path) -> Vec<String> {
    vec!["--data-dir".into(), dir.display().to_string()]
}

pub fn remote(server: &Serve) -> Vec<String> {
    vec![
        "--url".into(),
        format!("http://127.0.0.1:{}", server.port),
        "--token".into(),
        TOKEN.into(),
    ]
}

/// `kairos serve --listen 127.0.0.1:0 --data-dir DIR`, stopped with SIGTERM when dropped.
pub struct Serve {
    child: Child,
    pub port: u16,
}

impl Serve {
    pub fn start(dir: &Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .env("KAIROS_API_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kairos serve starts");
        let stdout = child.stdout.take().unwrap();
        let (lines, line) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let _ = lines.send(l.unwrap_or_default());
            }
        });
        let first = line
            .recv_timeout(Duration::from_secs(20))
            .expect("a 'listening on' line");
        let port = first
            .strip_prefix("listening on http://")
            .and_then(|a| a.rsplit_once(':'))
            .and_then(|(_, p)| p.parse().ok())
            .unwrap_or_else(|| panic!("first line {first:?}"));
        Serve { child, port }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        // SIGTERM first, so the server stops as a user would stop it; Windows has no `kill`
        // program (nor signals): there the child is ended at once.
        #[cfg(unix)]
        {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            while std::time::Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
