//! Noticing writes made by another process on the same database file.
//!
//! The desktop window, its tray runner and `kairos serve` share one database. SQLite's
//! `PRAGMA data_version` changes on a connection whenever another connection commits, so a
//! connection that only ever asks that question sees every commit, from this process or
//! another. Asking costs one small read of the WAL index: cheap enough to do every second.

use crate::error::Result;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

#[derive(Debug)]
pub struct ChangeWatcher {
    conn: Connection,
    last: i64,
}

impl ChangeWatcher {
    pub fn open(path: &Path) -> Result<ChangeWatcher> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        let last = data_version(&conn)?;
        Ok(ChangeWatcher { conn, last })
    }

    /// True when some connection committed since the last call.
    pub fn changed(&mut self) -> Result<bool> {
        let now = data_version(&self.conn)?;
        let changed = now != self.last;
        self.last = now;
        Ok(changed)
    }
}

fn data_version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
}
