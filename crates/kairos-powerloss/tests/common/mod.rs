//! A mounted filesystem over a fresh backing directory, for one test.
// Each test binary uses part of this module.
#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};

use kairos_powerloss::{Handle, PowerLossFs};

pub struct Mounted {
    // Dropped in this order: the handle unmounts before the directories go.
    pub handle: Handle,
    pub backing: tempfile::TempDir,
    pub mount: tempfile::TempDir,
}

impl Mounted {
    pub fn new() -> Mounted {
        let backing = tempfile::tempdir().unwrap();
        let mount = tempfile::tempdir().unwrap();
        let handle = PowerLossFs::mount(backing.path(), mount.path())
            .expect("mounting needs root and /dev/fuse");
        Mounted {
            handle,
            backing,
            mount,
        }
    }

    /// A path on the mount.
    pub fn at(&self, name: &str) -> PathBuf {
        self.mount.path().join(name)
    }

    /// The same path in the backing directory.
    pub fn backing_at(&self, name: &str) -> PathBuf {
        self.backing.path().join(name)
    }
}

/// fsync of a directory, as a program makes its new entries durable.
pub fn sync_dir(path: &Path) {
    File::open(path).unwrap().sync_all().unwrap();
}
