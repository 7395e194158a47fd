//! `kairos export -o FILE` over a file that exists: replaced whole through
//! `kairos_local::write_atomically` (a temporary file beside it, synced, renamed over it), a
//! bundle with secrets owner-only, a plain export keeping the old file's mode; and when the file
//! cannot be written (the path is a directory, the disk is full) the old file stays as it was
//! and no temporary file is left beside it.

mod common;
use common::{kairos_with, local};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

const PASSWORD: &str = "hunter2-never-printed";
const PASSPHRASE: &str = "correct horse battery staple";
const OLD: &str = "the old file, longer than nothing, and still whole afterwards\n";

fn run(args: &[&str], dir: &Path) -> Output {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.extend(local(dir));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    kairos_with(&all, None, &[("KAIROS_BUNDLE_PASSPHRASE", PASSPHRASE)])
}

fn describe(out: &Output) -> String {
    format!(
        "exit {:?}, stdout {}, stderr {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A data directory under `root` holding collection `ops` with a job that has a password.
fn with_collection(root: &Path) -> std::path::PathBuf {
    let data = root.join("data");
    let bundle = json!({"kairosBundle": 1, "collections": [{
        "resourceGroup": "desktop", "name": "ops",
        "collection": {"location": "local", "properties": {"sku": {"name": "Standard"}, "state": "Enabled"}},
        "jobs": [{"name": "report", "properties": {
            "startTime": "2026-01-01T00:00:00Z",
            "action": {"type": "Http", "request": {"uri": "https://example.test/report", "method": "GET",
                "authentication": {"type": "Basic", "username": "me", "password": PASSWORD}}},
            "recurrence": {"frequency": "Day", "interval": 1}, "state": "Enabled"}}]}]});
    let file = root.join("in.json");
    std::fs::write(&file, bundle.to_string()).unwrap();
    let out = run(&["import", file.to_str().unwrap()], &data);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    std::fs::remove_file(file).unwrap();
    data
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(path: &Path, bits: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap();
}

#[test]
fn an_export_over_an_existing_file_replaces_it_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let data = with_collection(tmp.path());
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let file = out_dir.join("ops.json");
    let path = file.to_str().unwrap();

    // With secrets over a file readable by everyone: the bundle, owner-only.
    std::fs::write(&file, OLD.repeat(100)).unwrap();
    #[cfg(unix)]
    set_mode(&file, 0o644);
    let out = run(&["export", "ops", "--with-secrets", "-o", path], &data);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let bundle: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(bundle["secrets"].is_string(), "{text}");
    assert!(!text.contains(PASSWORD));
    #[cfg(unix)]
    assert_eq!(mode(&file), 0o600, "a bundle with secrets is owner-only");
    assert_eq!(names(&out_dir), ["ops.json"], "no temporary file left");

    // A plain export, a template and a crontab over it: each whole, the file's mode kept.
    #[cfg(unix)]
    set_mode(&file, 0o640);
    for format in [None, Some("--arm"), Some("--crontab")] {
        let mut args = vec!["export", "ops", "-o", path];
        args.extend(format);
        let out = run(&args, &data);
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("old file"), "{text}");
        if format != Some("--crontab") {
            serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        }
        #[cfg(unix)]
        assert_eq!(mode(&file), 0o640);
        assert_eq!(names(&out_dir), ["ops.json"]);
    }
}

#[test]
fn an_export_that_cannot_be_written_leaves_what_was_there() {
    let tmp = tempfile::tempdir().unwrap();
    let data = with_collection(tmp.path());
    let out_dir = tmp.path().join("out");
    let target = out_dir.join("ops.json");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("inside"), OLD).unwrap();

    let out = run(&["export", "ops", "-o", target.to_str().unwrap()], &data);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("WriteFailed") && stderr.contains("ops.json"),
        "{stderr}"
    );
    assert_eq!(names(&out_dir), ["ops.json"], "no temporary file left");
    assert_eq!(std::fs::read_to_string(target.join("inside")).unwrap(), OLD);
}

/// A full disk: the output directory on a tmpfs (in a private mount namespace, as
/// `disk_full.rs` does), filled after the old file was written. The export fails with the
/// system's words, the old file is whole and no temporary file is left.
#[cfg(target_os = "linux")]
#[test]
fn an_export_onto_a_full_disk_fails_and_keeps_the_old_file() {
    let tmp = tempfile::tempdir().unwrap();
    let data = with_collection(tmp.path());
    let mount = tmp.path().join("mnt");
    std::fs::create_dir(&mount).unwrap();
    let script = format!(
        "mount -t tmpfs -o size=64k tmpfs '{m}' || exit 99
         printf '%s' '{old}' > '{m}/ops.json'
         dd if=/dev/zero of='{m}/filler' bs=4096 2>/dev/null
         '{kairos}' export ops --with-secrets -o '{m}/ops.json' --data-dir '{data}'
         echo \"exit=$?\"
         ls -A '{m}'
         echo ---
         cat '{m}/ops.json'",
        m = mount.display(),
        old = OLD.trim_end(),
        kairos = env!("CARGO_BIN_EXE_kairos"),
        data = data.display(),
    );
    let out = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", &script])
        .env("KAIROS_BUNDLE_PASSPHRASE", PASSPHRASE)
        .env_remove("KAIROS_URL")
        .env_remove("KAIROS_DATA_DIR")
        .output()
        .expect("unshare (util-linux) runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(99), "no tmpfs: {stderr}");
    let (report, content) = stdout.split_once("---\n").expect(&stdout);
    let mut lines = report.lines();
    assert_eq!(lines.next(), Some("exit=1"), "{stdout}{stderr}");
    let left: Vec<&str> = lines.collect();
    assert_eq!(left, ["filler", "ops.json"], "no temporary file left");
    assert_eq!(content, OLD.trim_end(), "the old file, whole");
    assert!(
        stderr.contains("WriteFailed") && stderr.contains("No space left on device"),
        "{stderr}"
    );
}
