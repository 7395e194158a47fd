//! Where Kairos keeps its files: one data directory per user, in each system's standard place
//! (`dirs`): `%APPDATA%\\Kairos` on Windows, `~/Library/Application Support/Kairos` on macOS,
//! `$XDG_DATA_HOME/kairos` (~/.local/share/kairos) on Linux.

use crate::LocalError;
use std::path::{Path, PathBuf};

pub const DATABASE_FILE: &str = "kairos.db";

/// Overrides the data directory for the desktop processes (tests, several installations);
/// `kairos serve` takes `--data-dir`.
pub const DATA_DIR_VARIABLE: &str = "KAIROS_DATA_DIR";

/// The folder's name under the system's data directory: Linux names per-user data folders in
/// lower case, Windows and macOS after the application.
#[cfg(target_os = "linux")]
const APP_FOLDER: &str = "kairos";
#[cfg(not(target_os = "linux"))]
const APP_FOLDER: &str = "Kairos";

/// The data directory, created if needed. On Unix it is made mode 0700 (the database holds the
/// jobs' secrets); on Windows the folder under `%APPDATA%` inherits the profile's ACL, which
/// grants only the user (and SYSTEM and Administrators).
pub fn data_dir(given: Option<&Path>) -> Result<PathBuf, LocalError> {
    find_data_dir(given).map_err(LocalError::DataDirectory)
}

/// `KAIROS_DATA_DIR` when set and not empty, else the system's standard place.
pub fn data_dir_from_env() -> Result<PathBuf, LocalError> {
    let given = std::env::var_os(DATA_DIR_VARIABLE)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    data_dir(given.as_deref())
}

fn find_data_dir(given: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match given {
        Some(dir) => dir.to_path_buf(),
        None => dirs::data_dir()
            .map(|d| d.join(APP_FOLDER))
            .ok_or("this platform has no data directory; pass --data-dir")?,
    };
    // The folders about to be made, so their names can be synced once they are.
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(&dir)
        .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
    // A new folder is only a name in its parent until the parent is synced: after a power loss
    // the data directory, and the database made in it, would be gone (shown on the power-loss
    // filesystem, crates/kairos-powerloss).
    for made in &missing {
        crate::atomic::sync_parent(made)
            .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
    }
    Ok(dir)
}

/// Create an empty file readable by its owner only, unless it exists. A new file's name is
/// synced into its folder (SQLite syncs the folder for its journal and WAL, never for the
/// database file itself).
pub fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(file) => {
            file.sync_all()?;
            crate::atomic::sync_parent(path)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_directory_is_created_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = data_dir(Some(&tmp.path().join("a/b"))).unwrap();
        assert!(dir.is_dir());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "mode {mode:o}");
        }
    }

    #[test]
    fn an_unusable_directory_is_an_error_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, "").unwrap();
        let err = data_dir(Some(&file.join("sub"))).unwrap_err();
        assert_eq!(err.code(), "DataDirectoryUnusable");
        assert!(err.to_string().contains("sub"), "{err}");
    }
}
