//! The window's deletes, which can be undone for a while (docs/semantics.md "Undoable
//! deletion"): deleting a job, a selection of jobs or a collection answers an [`UndoTicket`]
//! for the toast's Undo, and `undo_deletion` brings everything back in one engine operation.
//! The engine decides (`kairos_engine::deletion`); after the window, undo fails with
//! `UndoExpired`.

use crate::commands::{collection_id, collection_key, CommandResult, Desktop};
use chrono::{DateTime, SecondsFormat, Utc};
use kairos_engine::{DeletionKind, EngineError, PendingDeletion};
use serde::{Deserialize, Serialize};
use specta::Type;

/// What a delete answers: the token Undo sends back, and until when it can.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct UndoTicket {
    /// Opaque: hand it back to `undo_deletion` as it is.
    pub token: String,
    /// When undo ends (RFC 3339, the engine's clock, milliseconds).
    pub until: String,
    /// How long undo lasts from the delete, in seconds (10): the toast's time, whatever the
    /// page's own clock says.
    pub undo_seconds: u32,
}

/// A deletion that can still be undone, or one just undone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    pub ticket: UndoTicket,
    /// `true`: the whole collection; `false`: jobs of it.
    pub whole_collection: bool,
    /// The collection's id (`subscription/resourceGroup/name`).
    pub collection: String,
    /// The jobs deleted (a collection's: all of them), by name.
    pub jobs: Vec<String>,
}

/// Delete jobs of `collection` (one, or a selection): all of them or, when one is missing,
/// none. One ticket for them all.
pub fn delete_jobs(d: &Desktop, collection: &str, names: &[String]) -> CommandResult<UndoTicket> {
    let key = collection_key(collection)?;
    Ok(ticket(d.engine.delete_jobs_undoable(&key, names)?))
}

/// Delete the collection with its jobs, their history and its calendars.
pub fn delete_collection(d: &Desktop, collection: &str) -> CommandResult<UndoTicket> {
    let key = collection_key(collection)?;
    Ok(ticket(d.engine.delete_collection_undoable(&key)?))
}

/// Bring back what the delete that answered `token` removed; `UndoExpired` once too late.
pub fn undo_deletion(d: &Desktop, token: &str) -> CommandResult<Deletion> {
    let token = token.parse::<i64>().map_err(|_| {
        EngineError::bad_request("token", format!("'{token}' is not an undo token"))
    })?;
    Ok(deletion(d.engine.undo_deletion(token)?))
}

/// The deletions that can still be undone, oldest first (a window opened again can offer them).
pub fn pending_deletions(d: &Desktop) -> CommandResult<Vec<Deletion>> {
    Ok(d.engine
        .pending_deletions()?
        .into_iter()
        .map(deletion)
        .collect())
}

fn ticket(t: kairos_engine::UndoTicket) -> UndoTicket {
    UndoTicket {
        token: t.token.to_string(),
        until: rfc3339(t.until),
        undo_seconds: kairos_engine::UNDO_WINDOW.as_secs() as u32,
    }
}

fn deletion(p: PendingDeletion) -> Deletion {
    Deletion {
        ticket: ticket(p.ticket),
        whole_collection: p.kind == DeletionKind::Collection,
        collection: collection_id(&p.collection),
        jobs: p.jobs,
    }
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}
