//! Unix: the temporary file's mode from its creation on, and `fsync` on the directory, which
//! makes the rename durable (POSIX leaves a rename in the page cache until then).

use super::FileMode;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The mode the temporary file is created with, and the exact one it ends with.
pub struct Permissions {
    initial: u32,
    exact: Option<u32>,
}

impl Permissions {
    /// Private: 0600 from creation (never readable by others, not even empty for a moment).
    /// Normal over an existing file: its permission bits (created with them less the umask, so
    /// never wider than the old file, then set exactly); a new file: 0666 less the umask.
    pub fn for_target(path: &Path, mode: FileMode) -> std::io::Result<Permissions> {
        Ok(match mode {
            FileMode::Private => Permissions {
                initial: 0o600,
                exact: None,
            },
            FileMode::Normal => match std::fs::metadata(path) {
                Ok(m) if m.is_file() => {
                    let bits = m.permissions().mode() & 0o777;
                    Permissions {
                        initial: bits,
                        exact: Some(bits),
                    }
                }
                _ => Permissions {
                    initial: 0o666,
                    exact: None,
                },
            },
        })
    }

    pub fn initial(&self) -> Option<std::fs::Permissions> {
        Some(std::fs::Permissions::from_mode(self.initial))
    }

    /// Undo the umask when the old file's bits are kept.
    pub fn finish(&self, file: &std::fs::File) -> std::io::Result<()> {
        match self.exact {
            Some(bits) => file.set_permissions(std::fs::Permissions::from_mode(bits)),
            None => Ok(()),
        }
    }
}

/// `fsync` the directory, so the new name survives a power loss. A filesystem that cannot sync
/// a directory (EINVAL) has done what it can.
pub fn sync_directory(dir: &Path) -> std::io::Result<()> {
    match std::fs::File::open(dir).and_then(|d| d.sync_all()) {
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => Ok(()),
        done => done,
    }
}
