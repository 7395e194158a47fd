//! Every file Kairos writes besides the database (the API token, exported bundles, templates and
//! crontabs, the Linux autostart entry) is replaced whole: written to a temporary file beside
//! it, synced, renamed over the old one, and the directory synced. A crash or a power loss
//! leaves the old file or the new one, never an empty or half-written file, and a failure
//! (a full disk, a target that is a directory) leaves the old file as it was and no temporary
//! file behind.
//!
//! The temporary file and the rename are `tempfile`'s (already the workspace's, and kept up):
//! a uniquely named file created with `O_EXCL` and the mode asked for from the start, removed
//! when dropped, and `persist` (`rename(2)`; `MoveFileExW(MOVEFILE_REPLACE_EXISTING)` on
//! Windows) or `persist_noclobber` (`renameat2(RENAME_NOREPLACE)`, else `link(2)`; on Windows
//! `MoveFileExW` without replace). Syncing the directory is per system (`atomic_unix.rs`,
//! `atomic_windows.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};

#[cfg(unix)]
#[path = "atomic_unix.rs"]
mod platform;
#[cfg(not(unix))]
#[path = "atomic_windows.rs"]
mod platform;

/// Who may read a file Kairos writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// Its owner only (mode 0600 on Unix, from the temporary file's creation on, also when the
    /// old file was readable by others). On Windows the file takes its folder's inherited ACL.
    Private,
    /// As a plain write would make it: a new file gets 0666 less the umask; a replaced file
    /// keeps its old permission bits. On Windows, the folder's inherited ACL.
    Normal,
}

/// Replace `path` with `bytes` atomically and durably (see the module's documentation). A
/// symbolic link at `path` is followed: the file it points to is replaced, as a plain write
/// would change it. Replacing makes a new file, so the owner becomes the writer and other hard
/// links keep the old content.
pub fn write_atomically(path: &Path, bytes: &[u8], mode: FileMode) -> std::io::Result<()> {
    let target = resolve(path);
    let temporary = temporary_beside(&target, bytes, mode)?;
    temporary.persist(&target).map_err(|e| e.error)?;
    sync_parent(&target)
}

/// Like [`write_atomically`], but only when nothing is at `path`: else an `AlreadyExists`
/// error and nothing changed. Of two processes creating the same file at once, the first
/// wins whole and the other gets the error.
pub fn create_atomically(path: &Path, bytes: &[u8], mode: FileMode) -> std::io::Result<()> {
    let temporary = temporary_beside(path, bytes, mode)?;
    temporary.persist_noclobber(path).map_err(|e| e.error)?;
    sync_parent(path)
}

/// The file a symbolic link points to (when it resolves), else `path` itself.
fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// The directory `path` is in (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A new file named `.NAME.XXXXXX.tmp` in `path`'s directory holding `bytes`, synced, with its
/// final permissions. It is removed when dropped, so every early return cleans up.
fn temporary_beside(
    path: &Path,
    bytes: &[u8],
    mode: FileMode,
) -> std::io::Result<tempfile::TempPath> {
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let permissions = platform::Permissions::for_target(path, mode)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(initial) = permissions.initial() {
        builder.permissions(initial);
    }
    let mut file = builder.tempfile_in(parent(path))?;
    file.write_all(bytes)?;
    permissions.finish(file.as_file())?;
    file.as_file().sync_all()?;
    Ok(file.into_temp_path())
}

/// Make the rename itself durable (see `platform::sync_directory`).
pub(crate) fn sync_parent(path: &Path) -> std::io::Result<()> {
    platform::sync_directory(parent(path))
}

#[cfg(test)]
#[path = "atomic_tests.rs"]
mod tests;
