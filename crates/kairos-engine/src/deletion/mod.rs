//! Deletions the window can undo (docs/semantics.md "Undoable deletion").
//!
//! The window's deletes (a job, a selection of jobs, a collection) are pending for
//! `UNDO_WINDOW`: in one transaction their rows are set aside (`trash`), so every read and the
//! runner stop seeing them at once, and the call answers a token and the end of the window.
//! `undo_deletion` brings everything back as it was in one transaction; after the window it
//! fails with `UndoExpired` and changes nothing. What is set aside is deleted for good by the
//! runner when the window ends, at every engine open (a window closed meanwhile leaves nothing
//! behind) and before every new pending deletion.
//!
//! The REST API keeps Azure's immediate delete (`delete_job`, `delete_collection`).

mod trash;

use crate::db::Db;
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::keys::CollectionKey;
use crate::params;
use crate::rows::{collection_id, count_jobs, job_not_found, load_job, require_collection};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use std::time::Duration;

/// How long a deletion can be undone: the window's toast shows Undo at least 8 s.
pub const UNDO_WINDOW: Duration = Duration::from_secs(10);

/// What a pending deletion answers: the token `undo_deletion` takes, and when undo ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoTicket {
    pub token: i64,
    pub until: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeletionKind {
    /// Jobs of one collection (one or a selection).
    Jobs,
    /// A collection with all its jobs.
    Collection,
}

impl DeletionKind {
    fn as_str(self) -> &'static str {
        match self {
            DeletionKind::Jobs => "Jobs",
            DeletionKind::Collection => "Collection",
        }
    }
}

/// A deletion that can still be undone (or, from `undo_deletion`, one that was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDeletion {
    pub ticket: UndoTicket,
    pub kind: DeletionKind,
    /// The collection deleted, or the one the jobs were in.
    pub collection: CollectionKey,
    /// The jobs deleted (a collection's: all of them), by name.
    pub jobs: Vec<String>,
}

impl Engine {
    /// Delete jobs of `collection` (one or a selection) so that `undo_deletion` can bring them
    /// back until the ticket's `until`: all of them or, when one is missing, none (404 naming
    /// it). Names may repeat.
    pub fn delete_jobs_undoable(
        &self,
        collection: &CollectionKey,
        names: &[String],
    ) -> Result<UndoTicket> {
        if names.is_empty() {
            return Err(EngineError::bad_request(
                "names",
                "name at least one job to delete",
            ));
        }
        self.pending_deletion(DeletionKind::Jobs, collection, |tx| {
            let collection_id = require_collection(tx, collection)?;
            let mut ids = Vec::with_capacity(names.len());
            for name in names {
                let row = load_job(tx, collection_id, name)?
                    .ok_or_else(|| job_not_found(&collection.job(name.clone())))?;
                if !ids.contains(&row.id) {
                    ids.push(row.id);
                }
            }
            Ok((None, ids))
        })
    }

    /// Delete a collection with its jobs, their history and their calendars so that
    /// `undo_deletion` can bring them back until the ticket's `until`.
    pub fn delete_collection_undoable(&self, key: &CollectionKey) -> Result<UndoTicket> {
        self.pending_deletion(DeletionKind::Collection, key, |tx| {
            let id = require_collection(tx, key)?;
            let ids = tx.query_map(
                "SELECT id FROM jobs WHERE collection_id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            Ok((Some(id), ids))
        })
    }

    /// Bring back what the deletion `token` set aside, as it was (definitions, secrets, state,
    /// counters, history, queued retries), in one transaction. Fails, changing nothing, with
    /// `UndoExpired` once its window has ended (or when it was undone already), and with
    /// `Conflict` when a collection or job of the same name was made meanwhile, the jobs'
    /// collection is gone, or the jobs would pass the collection's `maxJobCount`.
    pub fn undo_deletion(&self, token: i64) -> Result<PendingDeletion> {
        let now_ms = to_ms(self.inner.clock.now());
        let (deletion, ids) = self.inner.store.write(|tx| {
            let deletion = load_deletion(tx, token)?
                .filter(|d| to_ms(d.ticket.until) > now_ms)
                .ok_or_else(|| undo_expired(token))?;
            check_restorable(tx, &deletion)?;
            if deletion.kind == DeletionKind::Collection {
                trash::bring_collection_back(tx, token)?;
            }
            let ids = trash::bring_jobs_back(tx, token)?;
            tx.execute("DELETE FROM deletions WHERE id = ?1", params![token])?;
            Ok((deletion, ids))
        })?;
        // A job created and deleted meanwhile may have had the same id: compile afresh.
        for id in ids {
            self.inner.plans.forget(id);
        }
        self.wake_runner();
        Ok(deletion)
    }

    /// Deletions that can still be undone, oldest first (a window opened again can offer them).
    pub fn pending_deletions(&self) -> Result<Vec<PendingDeletion>> {
        let now_ms = to_ms(self.inner.clock.now());
        self.inner.store.read_snapshot(|conn| {
            let tokens: Vec<i64> = conn.query_map(
                "SELECT id FROM deletions WHERE undo_until > ?1 ORDER BY id",
                params![now_ms],
                |r| r.get(0),
            )?;
            let mut pending = Vec::with_capacity(tokens.len());
            for token in tokens {
                pending.extend(load_deletion(conn, token)?);
            }
            Ok(pending)
        })
    }

    /// Delete for good what deletions whose window ended at `now_ms` set aside. Returns when
    /// the next pending one ends, so the runner can wake then.
    pub fn finalize_deletions(&self, now_ms: i64) -> Result<Option<i64>> {
        let ends = |conn: &Db<'_>| -> Result<(Option<i64>, Option<i64>)> {
            conn.query_row(
                "SELECT min(undo_until), max(CASE WHEN undo_until <= ?1 THEN 1 END) FROM deletions",
                params![now_ms],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        };
        let (mut next, expired) = self.inner.store.read(ends)?;
        if expired.is_some() {
            // Everything a deletion set aside goes with its row (ON DELETE CASCADE).
            next = self.inner.store.write(|tx| {
                tx.execute(
                    "DELETE FROM deletions WHERE undo_until <= ?1",
                    params![now_ms],
                )?;
                Ok(ends(tx)?.0)
            })?;
        }
        Ok(next)
    }

    /// One pending deletion: what `select` names (the collection's id when the collection goes,
    /// the jobs' ids) is set aside in one transaction.
    fn pending_deletion(
        &self,
        kind: DeletionKind,
        collection: &CollectionKey,
        select: impl Fn(&Db<'_>) -> Result<(Option<i64>, Vec<i64>)>,
    ) -> Result<UndoTicket> {
        let now_ms = to_ms(self.inner.clock.now());
        // Deletions whose window ended go first, so they never pile up where no runner runs.
        self.finalize_deletions(now_ms)?;
        let until = now_ms + UNDO_WINDOW.as_millis() as i64;
        let (token, ids) = self.inner.store.write(|tx| {
            let (collection_id, ids) = select(tx)?;
            let token: i64 = tx.query_row(
                "INSERT INTO deletions (kind, subscription, resource_group, collection, deleted_at, undo_until)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                params![kind.as_str(), collection.subscription, collection.resource_group, collection.name, now_ms, until],
                |r| r.get(0),
            )?;
            trash::set_jobs_aside(tx, token, &ids)?;
            if let Some(id) = collection_id {
                trash::set_collection_aside(tx, token, id)?;
            }
            Ok((token, ids))
        })?;
        for id in ids {
            self.inner.plans.forget(id);
        }
        self.wake_runner();
        Ok(UndoTicket {
            token,
            until: from_ms(until),
        })
    }
}

fn undo_expired(token: i64) -> EngineError {
    EngineError::UndoExpired(format!(
        "deletion {token} can no longer be undone: its undo window has ended (or it was undone already), and what it deleted is gone"
    ))
}

fn load_deletion(conn: &Db<'_>, token: i64) -> Result<Option<PendingDeletion>> {
    let Some((kind, collection, until)) = conn.query_opt(
        "SELECT kind, subscription, resource_group, collection, undo_until FROM deletions WHERE id = ?1",
        params![token],
        |r| {
            let kind: String = r.get(0)?;
            let key = CollectionKey::new(r.get::<String>(1)?, r.get::<String>(2)?, r.get::<String>(3)?);
            Ok((kind, key, r.get::<i64>(4)?))
        },
    )?
    else {
        return Ok(None);
    };
    let kind = match kind.as_str() {
        "Jobs" => DeletionKind::Jobs,
        "Collection" => DeletionKind::Collection,
        other => {
            return Err(EngineError::damaged(format!(
                "deletion {token} has an unknown kind '{other}'"
            )))
        }
    };
    let jobs = conn.query_map(
        "SELECT name FROM deleted_jobs WHERE deletion_id = ?1 ORDER BY name",
        params![token],
        |r| r.get(0),
    )?;
    Ok(Some(PendingDeletion {
        ticket: UndoTicket {
            token,
            until: from_ms(until),
        },
        kind,
        collection,
        jobs,
    }))
}

/// What undo needs to hold before it writes anything: the collection's name free (a collection
/// deleted) or the collection still there (jobs deleted), the jobs' names free, and room for
/// them under the collection's job quota.
fn check_restorable(tx: &Db<'_>, deletion: &PendingDeletion) -> Result<()> {
    let key = &deletion.collection;
    let live = collection_id(tx, key)?;
    match deletion.kind {
        DeletionKind::Collection => {
            if live.is_some() {
                return Err(EngineError::conflict(format!(
                    "a job collection named '{}' was created since this one was deleted; nothing was restored",
                    key.name
                )));
            }
            Ok(())
        }
        DeletionKind::Jobs => {
            let was_in: Option<i64> = tx.query_opt(
                "SELECT collection_id FROM deleted_jobs WHERE deletion_id = ?1 LIMIT 1",
                params![deletion.ticket.token],
                |r| r.get(0),
            )?;
            let Some(id) = live.filter(|id| Some(*id) == was_in) else {
                return Err(EngineError::conflict(format!(
                    "the job collection '{}' was deleted since these jobs were; nothing was restored",
                    key.name
                )));
            };
            let taken: Vec<String> = tx.query_map(
                "SELECT d.name FROM deleted_jobs d JOIN jobs j ON j.collection_id = d.collection_id AND j.name = d.name
                 WHERE d.deletion_id = ?1 ORDER BY d.name",
                params![deletion.ticket.token],
                |r| r.get(0),
            )?;
            if !taken.is_empty() {
                return Err(EngineError::conflict(format!(
                    "a job named '{}' was created in job collection '{}' since the deletion; nothing was restored",
                    taken.join("', '"),
                    key.name
                )));
            }
            let (_, definition) = crate::collections::read_collection(tx, key)?;
            let max = crate::quota::limits(&definition).max_job_count;
            let count = count_jobs(tx, id)? as u64 + deletion.jobs.len() as u64;
            if count > max {
                return Err(EngineError::conflict(format!(
                    "the job collection '{}' would hold {count} jobs, more than its maximum (quota.maxJobCount {max}); nothing was restored",
                    key.name
                )));
            }
            Ok(())
        }
    }
}
