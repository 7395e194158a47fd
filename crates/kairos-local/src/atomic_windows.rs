//! Windows: no modes (a file takes its folder's inherited ACL) and no directory sync.
//!
//! The rename is `MoveFileExW(MOVEFILE_REPLACE_EXISTING)`, which replaces the old file in one
//! step. `MOVEFILE_WRITE_THROUGH` is not asked for: Microsoft documents it for a move done as a
//! copy and a delete (to another volume), and the temporary file is always in the target's own
//! folder. A folder cannot be flushed as a file can (`FlushFileBuffers` needs a handle opened
//! for writing with `FILE_FLAG_BACKUP_SEMANTICS`); NTFS journals the rename with the folder's
//! metadata, so after a power loss the name holds the old file or the new one, both whole (the
//! new one's data was flushed before the rename), though the rename itself may be lost.

use super::FileMode;
use std::path::Path;

pub struct Permissions;

impl Permissions {
    pub fn for_target(_path: &Path, _mode: FileMode) -> std::io::Result<Permissions> {
        Ok(Permissions)
    }

    pub fn initial(&self) -> Option<std::fs::Permissions> {
        None
    }

    pub fn finish(&self, _file: &std::fs::File) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn sync_directory(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}
