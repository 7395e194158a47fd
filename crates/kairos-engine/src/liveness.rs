//! Is the runner that claimed some work still alive? Each runner holds an exclusive lock on a
//! file of its own, `<database>-runners/<owner>.lock`, for as long as it runs; the operating
//! system drops the lock when the process ends, however it ends (crash, SIGKILL, power loss).
//! Another process asks by trying to take the same lock.
//!
//! This works the same on Linux, macOS and Windows (`File::try_lock`: flock / LockFileEx), across
//! PID namespaces, containers and sandboxes that share the data directory, where a pid or a host
//! name would lie.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// What a lock file says about its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liveness {
    Alive,
    /// The owner ended without cleaning up, or never existed here.
    Dead,
    /// The lock could not be asked (permissions, an odd file system): assume alive; the
    /// lease still expires by time.
    Unknown,
}

/// The directory of runner lock files for the database at `db_path`.
pub fn lock_dir(db_path: &Path) -> PathBuf {
    let mut name = db_path.file_name().unwrap_or_default().to_os_string();
    name.push("-runners");
    db_path.with_file_name(name)
}

fn lock_path(dir: &Path, owner: &str) -> PathBuf {
    dir.join(format!("{owner}.lock"))
}

/// The lock a running runner holds; dropped (and its file removed) when the runner stops.
#[derive(Debug)]
pub struct OwnerLock {
    file: Option<File>,
    path: PathBuf,
}

impl OwnerLock {
    /// Create and lock the file of `owner`. The lock is taken before the owner's name is
    /// written anywhere, so nobody can see the name without the lock behind it.
    pub fn acquire(dir: &Path, owner: &str) -> std::io::Result<OwnerLock> {
        std::fs::create_dir_all(dir)?;
        let path = lock_path(dir, owner);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        file.try_lock().map_err(|e| match e {
            TryLockError::WouldBlock => std::io::Error::other("lock file already held"),
            TryLockError::Error(e) => e,
        })?;
        Ok(OwnerLock {
            file: Some(file),
            path,
        })
    }
}

impl Drop for OwnerLock {
    fn drop(&mut self) {
        // Close before removing: Windows cannot delete an open file.
        if let Some(file) = self.file.take() {
            let _ = file.unlock();
            drop(file);
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether the runner `owner` still holds its lock. A dead owner's file is removed.
pub fn owner_liveness(dir: &Path, owner: &str) -> Liveness {
    let path = lock_path(dir, owner);
    let file = match OpenOptions::new().read(true).write(true).open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Liveness::Dead,
        Err(_) => return Liveness::Unknown,
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = std::fs::remove_file(&path);
            let _ = file.unlock();
            Liveness::Dead
        }
        Err(TryLockError::WouldBlock) => Liveness::Alive,
        Err(TryLockError::Error(_)) => Liveness::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_is_alive_while_it_holds_its_lock_and_dead_after() {
        let dir = tempfile::tempdir().unwrap();
        let lock = OwnerLock::acquire(dir.path(), "a").unwrap();
        assert_eq!(owner_liveness(dir.path(), "a"), Liveness::Alive);
        assert_eq!(owner_liveness(dir.path(), "nobody"), Liveness::Dead);
        drop(lock);
        assert_eq!(owner_liveness(dir.path(), "a"), Liveness::Dead);
    }

    #[test]
    fn a_lock_file_left_by_a_crash_counts_as_dead_and_is_cleaned_up() {
        let dir = tempfile::tempdir().unwrap();
        // A crashed runner leaves its file behind, unlocked.
        std::fs::write(lock_path(dir.path(), "ghost"), b"").unwrap();
        assert_eq!(owner_liveness(dir.path(), "ghost"), Liveness::Dead);
        assert!(!lock_path(dir.path(), "ghost").exists());
    }

    #[test]
    fn the_lock_dir_sits_beside_the_database() {
        assert_eq!(
            lock_dir(Path::new("/data/kairos.db")),
            PathBuf::from("/data/kairos.db-runners")
        );
    }
}
