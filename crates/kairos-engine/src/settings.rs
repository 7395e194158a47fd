//! Settings every process on the database shares (the desktop window, its tray runner and
//! `kairos serve`): small named values in the `settings` table, so a change made in one
//! process is seen by the others at their next read.

use crate::engine::Engine;
use crate::error::Result;
use crate::params;
use std::collections::BTreeMap;

/// "true": a job without an error action raises a desktop notification when an occurrence
/// faults (retries exhausted).
pub const NOTIFY_ON_FAULT: &str = "notifyOnFault";
/// "true": the runner fires nothing (the tray's "Pause all jobs"); on resume, what came due
/// meanwhile follows each job's catch-up policy.
pub const PAUSED: &str = "paused";

impl Engine {
    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        self.inner.store.read(|conn| {
            conn.query_opt(
                "SELECT value FROM settings WHERE key = ?1",
                params![key],
                |r| r.get(0),
            )
        })
    }

    pub fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        self.set_settings(&[(key, value)])
    }

    /// Several settings in one transaction: another process, a kill or a power loss sees all
    /// of them changed or none (a Settings page saved as one).
    pub fn set_settings(&self, values: &[(&str, &str)]) -> Result<()> {
        self.inner.store.write(|tx| {
            for (key, value) in values {
                tx.execute(
                    "INSERT INTO settings (key, value) VALUES (?1, ?2)
                     ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    params![key, value],
                )?;
            }
            Ok(())
        })?;
        // A setting may pause or resume the runner: this process's runner looks at once, as it
        // does after every other change made through the engine.
        self.wake_runner();
        Ok(())
    }

    pub fn settings(&self) -> Result<BTreeMap<String, String>> {
        self.inner.store.read(|conn| {
            let rows = conn.query_map("SELECT key, value FROM settings", params![], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
            Ok(rows.into_iter().collect())
        })
    }

    /// A boolean setting; anything but "true" is false.
    pub fn flag(&self, key: &str) -> Result<bool> {
        Ok(self.setting(key)?.as_deref() == Some("true"))
    }
}
