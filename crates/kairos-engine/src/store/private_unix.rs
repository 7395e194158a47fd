//! Unix: the data directory is 0700 and the database files 0600, whoever created them.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// Restrict the database at `db` (and its WAL, shared-memory and lock files, and its directory)
/// to the owner. A shared directory (sticky, like /tmp) or one owned by someone else is left as
/// it is: the database is not its only content.
pub fn make_private(db: &Path) -> std::io::Result<()> {
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        let meta = std::fs::metadata(dir)?;
        let ours = meta.uid() == std::fs::metadata(db)?.uid();
        let sticky = meta.permissions().mode() & 0o1000 != 0;
        if ours && !sticky {
            restrict(dir, 0o700)?;
        }
    }
    let name = db
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let path = db.with_file_name(format!("{name}{suffix}"));
        match restrict(&path, 0o600) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            other => other?,
        }
    }
    Ok(())
}

fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    let current = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if current & !mode != 0 {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(current & mode))?;
    }
    Ok(())
}
