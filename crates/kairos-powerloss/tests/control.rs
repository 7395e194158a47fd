//! The program and its control socket, as a script or another crate's test drives them.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts the program on fresh directories and waits for its `ready` line.
fn start(backing: &Path, mount: &Path, socket: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos-powerloss"))
        .arg("--backing")
        .arg(backing)
        .arg("--mount")
        .arg(mount)
        .arg("--control")
        .arg(socket)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready, "ready\n");
    child
}

/// Waits for the program to exit; one that hangs is killed (so the test fails instead of
/// hanging) and its mount detached.
fn wait(mut child: Child, mount: &Path) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            let _ = nix::mount::umount2(mount, nix::mount::MntFlags::MNT_DETACH);
            panic!("kairos-powerloss did not exit");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn sigterm_syncs_and_unmounts() {
    let (backing, mount, control) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let child = start(
        backing.path(),
        mount.path(),
        &control.path().join("control.sock"),
    );
    std::fs::write(mount.path().join("f"), b"unsynced").unwrap();
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    assert!(wait(child, mount.path()).success());
    assert_eq!(
        std::fs::read(backing.path().join("f")).unwrap(),
        b"unsynced"
    );
    assert!(!mount.path().join("f").exists(), "unmounted");
}

#[test]
fn the_program_loses_unsynced_writes_on_the_power_loss_command() {
    let backing = tempfile::tempdir().unwrap();
    let mount = tempfile::tempdir().unwrap();
    let control_dir = tempfile::tempdir().unwrap();
    let socket = control_dir.path().join("control.sock");
    std::fs::write(backing.path().join("token"), b"old token").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos-powerloss"))
        .arg("--backing")
        .arg(backing.path())
        .arg("--mount")
        .arg(mount.path())
        .arg("--control")
        .arg(&socket)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready, "ready\n");

    let token = mount.path().join("token");
    assert_eq!(std::fs::read(&token).unwrap(), b"old token");
    std::fs::write(&token, b"new token, never synced").unwrap();

    let stream = UnixStream::connect(&socket).unwrap();
    let mut lines = BufReader::new(stream.try_clone().unwrap()).lines();
    let mut ask = |command: &str| {
        writeln!(&stream, "{command}").unwrap();
        lines.next().unwrap().unwrap()
    };
    assert_eq!(ask("status"), "ok dirty_files=1 dirty_pages=1 pending=0");
    assert!(ask("no-such-command").starts_with("error "));
    assert_eq!(
        ask("power-loss"),
        "ok files=1 pages_dropped=1 pages_kept=0 undone=0 undo_errors=0"
    );
    assert_eq!(std::fs::read(&token).unwrap(), b"old token");
    // Written after the loss, synced by the clean unmount.
    std::fs::write(&token, b"after").unwrap();
    assert_eq!(ask("unmount"), "ok");
    assert!(wait(child, mount.path()).success());
    assert_eq!(
        std::fs::read(backing.path().join("token")).unwrap(),
        b"after"
    );
    assert!(
        !token.exists(),
        "unmounted: the mount point is the empty directory again"
    );
}
