//! Windows: files under the user's profile (the default data directory) are private to the user
//! by the profile's ACL; nothing to change per file.

use std::path::Path;

pub fn make_private(_db: &Path) -> std::io::Result<()> {
    Ok(())
}
