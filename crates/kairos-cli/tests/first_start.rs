//! Two processes starting on a new data directory at the same moment (the desktop window and
//! its tray runner on first run, or two `kairos serve`) both come up: the migrations of the new
//! database are not raced. Before the fix, one of them exited with "table collections already
//! exists" in about 2 of 8 tries.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

const TOKEN: &str = "first-start-test-token-0123456789abcdef";

#[test]
fn two_servers_on_one_new_data_directory_both_start() {
    for round in 0..8 {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let mut children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(env!("CARGO_BIN_EXE_kairos"))
                    .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
                    .arg(&data)
                    .env("KAIROS_API_TOKEN", TOKEN)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in &mut children {
            let mut line = String::new();
            BufReader::new(child.stdout.as_mut().unwrap())
                .read_line(&mut line)
                .unwrap();
            if !line.starts_with("listening on ") {
                let _ = child.kill();
                let mut stderr = String::new();
                child
                    .stderr
                    .as_mut()
                    .unwrap()
                    .read_to_string(&mut stderr)
                    .unwrap();
                panic!("round {round}: a server did not start: {line:?} {stderr}");
            }
        }
        for mut child in children {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }
}
