//! Synced data and names survive a power loss; unsynced ones do not.
#![cfg(target_os = "linux")]

mod common;

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;

use common::{sync_dir, Mounted};
use kairos_powerloss::{Loss, PAGE};

#[test]
fn written_and_fsynced_data_survives() {
    let m = Mounted::new();
    let mut file = File::create(m.at("a")).unwrap();
    file.write_all(b"durable").unwrap();
    file.sync_all().unwrap();
    sync_dir(m.mount.path());
    drop(file);
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(report.files, 0, "{report:?}");
    assert_eq!(fs::read(m.at("a")).unwrap(), b"durable");
    assert_eq!(fs::read(m.backing_at("a")).unwrap(), b"durable");
}

#[test]
fn unsynced_writes_are_lost_and_the_old_content_comes_back() {
    let m = Mounted::new();
    fs::write(m.at("a"), b"old content").unwrap();
    m.handle.sync_all().unwrap();
    let file = OpenOptions::new().write(true).open(m.at("a")).unwrap();
    file.write_all_at(b"NEW", 0).unwrap();
    file.set_len(5).unwrap();
    drop(file);
    // Visible through the mount before the loss, but not in the backing directory.
    assert_eq!(fs::read(m.at("a")).unwrap(), b"NEW c");
    assert_eq!(fs::read(m.backing_at("a")).unwrap(), b"old content");
    assert_eq!(m.handle.status().dirty_files, 1);
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(
        (report.files, report.pages_dropped, report.pages_kept),
        (1, 1, 0)
    );
    assert_eq!(fs::read(m.at("a")).unwrap(), b"old content");
}

#[test]
fn fdatasync_makes_a_truncation_durable() {
    let m = Mounted::new();
    fs::write(m.at("a"), vec![9u8; 3 * PAGE as usize]).unwrap();
    m.handle.sync_all().unwrap();
    let file = OpenOptions::new().write(true).open(m.at("a")).unwrap();
    file.set_len(10).unwrap();
    file.write_all_at(b"x", 20).unwrap();
    file.sync_data().unwrap();
    drop(file);
    m.handle.power_loss(Loss::Clean).unwrap();
    let mut expected = vec![9u8; 10];
    expected.extend([0u8; 10]);
    expected.push(b'x');
    assert_eq!(fs::read(m.at("a")).unwrap(), expected);
}

#[test]
fn a_new_file_fsynced_without_its_directory_disappears() {
    let m = Mounted::new();
    fs::create_dir(m.at("d")).unwrap();
    m.handle.sync_all().unwrap();
    let mut file = File::create(m.at("d/new")).unwrap();
    file.write_all(b"data").unwrap();
    file.sync_all().unwrap();
    drop(file);
    assert!(m.backing_at("d/new").exists());
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(report.namespace_changes_undone, 1, "{report:?}");
    assert!(!m.at("d/new").exists());
    assert!(!m.backing_at("d/new").exists());
    assert_eq!(fs::read_dir(m.at("d")).unwrap().count(), 0);
}

#[test]
fn a_new_file_stays_once_its_directory_is_fsynced() {
    let m = Mounted::new();
    fs::create_dir(m.at("d")).unwrap();
    m.handle.sync_all().unwrap();
    let mut file = File::create(m.at("d/new")).unwrap();
    file.write_all(b"data").unwrap();
    file.sync_all().unwrap();
    drop(file);
    sync_dir(&m.at("d"));
    // Written after the syncs: the name stays, these bytes do not.
    fs::OpenOptions::new()
        .append(true)
        .open(m.at("d/new"))
        .unwrap()
        .write_all(b" and more")
        .unwrap();
    assert_eq!(fs::read(m.at("d/new")).unwrap(), b"data and more");
    m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(fs::read(m.at("d/new")).unwrap(), b"data");
}

#[test]
fn a_rename_over_a_file_without_the_directory_fsync_brings_the_old_file_back() {
    let m = Mounted::new();
    fs::write(m.at("settings"), b"old settings").unwrap();
    m.handle.sync_all().unwrap();
    // The atomic-write pattern, minus its last step.
    let mut tmp = File::create(m.at("settings.tmp")).unwrap();
    tmp.write_all(b"new settings").unwrap();
    tmp.sync_all().unwrap();
    drop(tmp);
    fs::rename(m.at("settings.tmp"), m.at("settings")).unwrap();
    assert_eq!(fs::read(m.at("settings")).unwrap(), b"new settings");
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert!(report.undo_errors.is_empty(), "{report:?}");
    assert_eq!(fs::read(m.at("settings")).unwrap(), b"old settings");
    assert!(!m.at("settings.tmp").exists());
}

#[test]
fn a_rename_over_a_file_with_the_directory_fsync_stays() {
    let m = Mounted::new();
    fs::write(m.at("settings"), b"old settings").unwrap();
    m.handle.sync_all().unwrap();
    let mut tmp = File::create(m.at("settings.tmp")).unwrap();
    tmp.write_all(b"new settings").unwrap();
    tmp.sync_all().unwrap();
    drop(tmp);
    fs::rename(m.at("settings.tmp"), m.at("settings")).unwrap();
    sync_dir(m.mount.path());
    m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(fs::read(m.at("settings")).unwrap(), b"new settings");
    // What the rename replaced is gone for good, trash included.
    assert_eq!(fs::read_dir(m.backing.path()).unwrap().count(), 1);
}

#[test]
fn an_unlink_and_an_rmdir_without_the_directory_fsync_are_undone() {
    let m = Mounted::new();
    fs::create_dir(m.at("empty")).unwrap();
    fs::write(m.at("file"), b"kept").unwrap();
    m.handle.sync_all().unwrap();
    fs::remove_file(m.at("file")).unwrap();
    fs::remove_dir(m.at("empty")).unwrap();
    assert!(!m.at("file").exists());
    // The trash in the backing root is not part of the mount.
    assert_eq!(fs::read_dir(m.mount.path()).unwrap().count(), 0);
    m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(fs::read(m.at("file")).unwrap(), b"kept");
    assert!(m.at("empty").is_dir());
    assert_eq!(
        fs::read_dir(m.backing.path()).unwrap().count(),
        2,
        "no trash left behind"
    );
}

/// Writes 16 pages of ones over 16 synced pages of zeros, tears them with `seed`, and returns
/// the first byte of each page after the loss.
fn torn_pages(seed: u64) -> Vec<u8> {
    let m = Mounted::new();
    fs::write(m.at("f"), vec![0u8; 16 * PAGE as usize]).unwrap();
    m.handle.sync_all().unwrap();
    let file = OpenOptions::new().write(true).open(m.at("f")).unwrap();
    file.write_all_at(&vec![1u8; 16 * PAGE as usize], 0)
        .unwrap();
    drop(file);
    let report = m.handle.power_loss(Loss::Tear { seed }).unwrap();
    let bytes = fs::read(m.at("f")).unwrap();
    assert_eq!(bytes.len(), 16 * PAGE as usize);
    let pages: Vec<u8> = bytes.chunks(PAGE as usize).map(|page| page[0]).collect();
    for (index, page) in bytes.chunks(PAGE as usize).enumerate() {
        assert!(
            page.iter().all(|b| *b == page[0]),
            "page {index} was torn inside"
        );
    }
    assert_eq!(report.pages_kept + report.pages_dropped, 16);
    assert_eq!(pages.iter().filter(|p| **p == 1).count(), report.pages_kept);
    pages
}

#[test]
fn tear_keeps_a_subset_of_pages_the_same_for_the_same_seed() {
    let first = torn_pages(7);
    assert!(
        first.contains(&0) && first.contains(&1),
        "some pages kept, some lost: {first:?}"
    );
    assert_eq!(first, torn_pages(7));
    let others: Vec<Vec<u8>> = (8..12).map(torn_pages).collect();
    assert!(
        others.iter().any(|o| *o != first),
        "another seed tears otherwise"
    );
}

#[test]
fn the_mount_is_usable_after_a_power_loss_and_synced_state_is_exact() {
    let m = Mounted::new();
    fs::create_dir_all(m.at("a/b")).unwrap();
    fs::write(m.at("a/b/c"), b"one").unwrap();
    m.handle.sync_all().unwrap();
    fs::write(m.at("a/b/c"), b"two").unwrap();
    fs::rename(m.at("a/b"), m.at("a/moved")).unwrap();
    fs::write(m.at("a/moved/d"), b"new").unwrap();
    assert!(m.handle.status().pending_namespace_changes >= 2);
    m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(fs::read(m.at("a/b/c")).unwrap(), b"one");
    assert!(!m.at("a/moved").exists());
    fs::write(m.at("a/b/c"), b"three").unwrap();
    assert_eq!(fs::read(m.at("a/b/c")).unwrap(), b"three");
    assert_eq!(m.handle.status().dirty_files, 1);
}

#[test]
fn a_rename_between_directories_is_durable_once_either_is_fsynced() {
    for synced in ["from", "to"] {
        let m = Mounted::new();
        fs::create_dir(m.at("from")).unwrap();
        fs::create_dir(m.at("to")).unwrap();
        fs::write(m.at("from/f"), b"moved").unwrap();
        m.handle.sync_all().unwrap();
        fs::rename(m.at("from/f"), m.at("to/f")).unwrap();
        sync_dir(&m.at(synced));
        m.handle.power_loss(Loss::Clean).unwrap();
        assert_eq!(
            fs::read(m.at("to/f")).unwrap(),
            b"moved",
            "{synced} fsynced"
        );
        assert!(!m.at("from/f").exists(), "{synced} fsynced");
    }
}

#[test]
fn links_and_symlinks_without_the_directory_fsync_are_undone() {
    let m = Mounted::new();
    fs::write(m.at("target"), b"t").unwrap();
    m.handle.sync_all().unwrap();
    fs::hard_link(m.at("target"), m.at("hard")).unwrap();
    std::os::unix::fs::symlink("target", m.at("soft")).unwrap();
    assert_eq!(fs::read(m.at("soft")).unwrap(), b"t");
    assert_eq!(
        fs::read_link(m.at("soft")).unwrap(),
        std::path::Path::new("target")
    );
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(report.namespace_changes_undone, 2);
    let names: Vec<_> = fs::read_dir(m.mount.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["target"]);
    assert_eq!(fs::read(m.at("target")).unwrap(), b"t");
}
