//! "Start at login" against the system's real store: an XDG autostart file on Linux, the
//! current user's `Run` registry value on Windows (run under Wine by scripts/wine-e2e.sh), a
//! LaunchAgent on macOS.

use kairos_local::autostart::LoginItem;

/// A login item for a program whose path holds a space, and on Linux an entry in a temp dir.
fn item(dir: &std::path::Path) -> LoginItem {
    let program = dir.join("Kairos Apps").join("kairos-tray");
    if cfg!(target_os = "linux") {
        LoginItem::with_file(&program, &dir.join("autostart").join("kairos.desktop"))
    } else {
        LoginItem::new(&program)
    }
}

#[test]
fn a_login_item_is_registered_read_back_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let item = item(dir.path());
    // Windows and macOS have one store per user: leave it as it was found.
    let before = item.is_registered().unwrap();
    item.set(false).unwrap();
    assert!(!item.is_registered().unwrap());

    item.set(true).unwrap();
    assert!(item.is_registered().unwrap(), "registered once set");
    if cfg!(target_os = "linux") {
        let entry =
            std::fs::read_to_string(dir.path().join("autostart").join("kairos.desktop")).unwrap();
        let exec = format!(
            "Exec=\"{}\"",
            dir.path().join("Kairos Apps/kairos-tray").display()
        );
        assert!(entry.contains(&exec), "{entry}");
    }

    item.set(false).unwrap();
    assert!(!item.is_registered().unwrap(), "gone once removed");
    item.set(false).unwrap(); // removing what is not there is fine
    if before {
        LoginItem::tray_runner().set(true).unwrap();
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_entry_removed_outside_kairos_reads_as_not_registered() {
    let dir = tempfile::tempdir().unwrap();
    let item = item(dir.path());
    item.set(true).unwrap();
    std::fs::remove_file(dir.path().join("autostart").join("kairos.desktop")).unwrap();
    assert!(!item.is_registered().unwrap());
}
