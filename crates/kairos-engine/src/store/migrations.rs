//! The schema, as an append-only list of migrations keyed on `PRAGMA user_version`.
//!
//! Never edit, reorder or delete an entry: add a new one. All pending migrations run in one
//! transaction, so a failure leaves the database as it was.

use rusqlite::Connection;

/// Migration `i` brings the schema from version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: collections, jobs, history, attempts in flight, the runner lease.
    r#"
    CREATE TABLE collections (
        id             INTEGER PRIMARY KEY,
        subscription   TEXT NOT NULL COLLATE NOCASE,
        resource_group TEXT NOT NULL COLLATE NOCASE,
        name           TEXT NOT NULL COLLATE NOCASE,
        definition     TEXT NOT NULL,            -- JobCollectionDefinition JSON without id/type/name
        created_at     INTEGER NOT NULL,         -- ms since the epoch
        UNIQUE (subscription, resource_group, name)
    );
    CREATE TABLE jobs (
        id              INTEGER PRIMARY KEY,
        collection_id   INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
        name            TEXT NOT NULL COLLATE NOCASE,
        properties      TEXT NOT NULL,           -- JobProperties JSON as given (secrets kept, never returned), no status
        state           TEXT NOT NULL,           -- Enabled | Disabled | Completed | Faulted
        series_anchor   INTEGER NOT NULL,        -- ms: the "creation time" of the current schedule
        series_runs     INTEGER NOT NULL DEFAULT 0, -- occurrences started since the schedule was set (for count)
        next_run        INTEGER,                 -- ms: next scheduled occurrence, NULL when none
        repeat_count    INTEGER NOT NULL DEFAULT 0, -- occurrences started ever (history repeatCount)
        execution_count INTEGER NOT NULL DEFAULT 0,
        failure_count   INTEGER NOT NULL DEFAULT 0,
        faulted_count   INTEGER NOT NULL DEFAULT 0,
        last_execution  INTEGER,                 -- ms
        finished_at     INTEGER,                 -- ms: when it became Completed or Faulted
        version         INTEGER NOT NULL DEFAULT 0, -- bumped on every definition change
        UNIQUE (collection_id, name)
    );
    CREATE INDEX jobs_due ON jobs(next_run) WHERE next_run IS NOT NULL AND state = 'Enabled';
    CREATE TABLE history (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id        INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        start_time    INTEGER NOT NULL,          -- ms
        end_time      INTEGER NOT NULL,          -- ms
        expected_time INTEGER NOT NULL,          -- ms
        action_name   TEXT NOT NULL,             -- MainAction | ErrorAction
        status        TEXT NOT NULL,             -- Completed | Failed | Postponed
        message       TEXT NOT NULL,
        retry_count   INTEGER NOT NULL,
        repeat_count  INTEGER NOT NULL
    );
    CREATE INDEX history_by_job ON history(job_id, id);
    CREATE TABLE attempts (
        id             INTEGER PRIMARY KEY,
        job_id         INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        scheduled_time INTEGER NOT NULL,         -- ms: the occurrence's expected execution time
        repeat_count   INTEGER NOT NULL,
        action_name    TEXT NOT NULL,            -- MainAction | ErrorAction
        retry_count    INTEGER NOT NULL,
        due_at         INTEGER NOT NULL,         -- ms
        is_last        INTEGER NOT NULL          -- 1 when this is the job's final occurrence
    );
    CREATE INDEX attempts_due ON attempts(due_at);
    CREATE TABLE runner_lease (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        owner      TEXT NOT NULL,
        pid        INTEGER NOT NULL,
        host       TEXT NOT NULL,
        expires_at INTEGER NOT NULL              -- ms
    );
    "#,
    // 2: claims of attempts by the running runner (reset when a runner takes the lease), so
    //    finding unclaimed due work is an index lookup; history by end time for retention.
    r#"
    ALTER TABLE attempts ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX attempts_unclaimed ON attempts(due_at) WHERE claimed = 0;
    CREATE INDEX history_by_end ON history(end_time);
    "#,
    // 3: "is an occurrence of this job still running?" (overlap policy) is asked for every due
    //    occurrence; without this index it scanned all attempts.
    r#"
    CREATE INDEX attempts_by_job ON attempts(job_id);
    "#,
    // 4: settings shared by every process on the database (the desktop app, `kairos serve`).
    r#"
    CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    "#,
    // 5: claims name their runner (owner + lease epoch), so only an ended runner's claims are
    //    handed back; the lease counts its epochs; the database gets an id of its own, which
    //    salts execution tags so two databases (a reinstall) never send the same tag.
    r#"
    ALTER TABLE attempts ADD COLUMN claim_owner TEXT;
    ALTER TABLE attempts ADD COLUMN claim_epoch INTEGER;
    ALTER TABLE runner_lease ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO meta (key, value) VALUES ('databaseId', lower(hex(randomblob(16))));
    "#,
    // 6: the classic (2015) API: cloud services (a cloud service is the resource group of the
    //    same name; this row holds what the classic API says about it) and the status of its
    //    asynchronous operations, kept a week.
    r#"
    CREATE TABLE cloud_services (
        id           INTEGER PRIMARY KEY,
        subscription TEXT NOT NULL COLLATE NOCASE,
        name         TEXT NOT NULL COLLATE NOCASE,
        label        TEXT NOT NULL,
        description  TEXT NOT NULL,
        geo_region   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,           -- ms
        UNIQUE (subscription, name)
    );
    CREATE TABLE classic_operations (
        id            TEXT PRIMARY KEY,          -- the x-ms-request-id that answered the request
        subscription  TEXT NOT NULL COLLATE NOCASE,
        http_status   INTEGER NOT NULL,
        error_code    TEXT,
        error_message TEXT,
        created_at    INTEGER NOT NULL           -- ms
    );
    CREATE INDEX classic_operations_by_time ON classic_operations(created_at);
    "#,
    // 7: each collection's job count, kept by triggers in the transaction that adds or removes
    //    a job, so the maxJobCount check reads one row instead of counting 100,000.
    r#"
    ALTER TABLE collections ADD COLUMN job_count INTEGER NOT NULL DEFAULT 0;
    UPDATE collections SET job_count = (SELECT count(*) FROM jobs WHERE jobs.collection_id = collections.id);
    CREATE TRIGGER jobs_count_in AFTER INSERT ON jobs BEGIN
        UPDATE collections SET job_count = job_count + 1 WHERE id = NEW.collection_id;
    END;
    CREATE TRIGGER jobs_count_out AFTER DELETE ON jobs BEGIN
        UPDATE collections SET job_count = job_count - 1 WHERE id = OLD.collection_id;
    END;
    CREATE TRIGGER jobs_count_move AFTER UPDATE OF collection_id ON jobs BEGIN
        UPDATE collections SET job_count = job_count - 1 WHERE id = OLD.collection_id;
        UPDATE collections SET job_count = job_count + 1 WHERE id = NEW.collection_id;
    END;
    "#,
    // 8: deletions the window can still undo (docs/semantics.md "Undoable deletion"): the rows
    //    a deletion took out of `collections`, `jobs`, `history` and `attempts`, kept aside
    //    until its undo window ends. Same columns as the live tables (`deletion/trash.rs`).
    r#"
    CREATE TABLE deletions (
        id             INTEGER PRIMARY KEY AUTOINCREMENT, -- the undo token; never reused
        kind           TEXT NOT NULL,             -- Jobs | Collection
        subscription   TEXT NOT NULL,             -- the collection the deleted items were in
        resource_group TEXT NOT NULL,
        collection     TEXT NOT NULL,
        deleted_at     INTEGER NOT NULL,          -- ms
        undo_until     INTEGER NOT NULL           -- ms: the end of the undo window
    );
    CREATE INDEX deletions_by_end ON deletions(undo_until);
    CREATE TABLE deleted_collections (
        deletion_id    INTEGER NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
        id             INTEGER NOT NULL,
        subscription   TEXT NOT NULL COLLATE NOCASE,
        resource_group TEXT NOT NULL COLLATE NOCASE,
        name           TEXT NOT NULL COLLATE NOCASE,
        definition     TEXT NOT NULL,
        created_at     INTEGER NOT NULL
    );
    CREATE INDEX deleted_collections_by_deletion ON deleted_collections(deletion_id);
    CREATE TABLE deleted_jobs (
        deletion_id     INTEGER NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
        id              INTEGER NOT NULL,
        collection_id   INTEGER NOT NULL,
        name            TEXT NOT NULL COLLATE NOCASE,
        properties      TEXT NOT NULL,
        state           TEXT NOT NULL,
        series_anchor   INTEGER NOT NULL,
        series_runs     INTEGER NOT NULL,
        next_run        INTEGER,
        repeat_count    INTEGER NOT NULL,
        execution_count INTEGER NOT NULL,
        failure_count   INTEGER NOT NULL,
        faulted_count   INTEGER NOT NULL,
        last_execution  INTEGER,
        finished_at     INTEGER,
        version         INTEGER NOT NULL
    );
    CREATE INDEX deleted_jobs_by_deletion ON deleted_jobs(deletion_id);
    CREATE TABLE deleted_history (
        deletion_id   INTEGER NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
        id            INTEGER NOT NULL,
        job_id        INTEGER NOT NULL,
        start_time    INTEGER NOT NULL,
        end_time      INTEGER NOT NULL,
        expected_time INTEGER NOT NULL,
        action_name   TEXT NOT NULL,
        status        TEXT NOT NULL,
        message       TEXT NOT NULL,
        retry_count   INTEGER NOT NULL,
        repeat_count  INTEGER NOT NULL
    );
    CREATE INDEX deleted_history_by_deletion ON deleted_history(deletion_id);
    CREATE TABLE deleted_attempts (
        deletion_id    INTEGER NOT NULL REFERENCES deletions(id) ON DELETE CASCADE,
        job_id         INTEGER NOT NULL,
        scheduled_time INTEGER NOT NULL,
        repeat_count   INTEGER NOT NULL,
        action_name    TEXT NOT NULL,
        retry_count    INTEGER NOT NULL,
        due_at         INTEGER NOT NULL,
        is_last        INTEGER NOT NULL
    );
    CREATE INDEX deleted_attempts_by_deletion ON deleted_attempts(deletion_id);
    "#,
];

/// Bring `conn` to the newest schema. Refuses a database written by a newer Kairos, or one
/// whose schema version no Kairos wrote.
///
/// Two processes may open a new database at the same moment (the window and the tray runner
/// on first start): the version is read again inside a write transaction, which only one of
/// them holds at a time, so the second finds the work done.
pub fn migrate(conn: &mut Connection) -> Result<(), MigrationError> {
    let newest = MIGRATIONS.len() as i64;
    if check_version(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)? == newest {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let version = check_version(tx.query_row("PRAGMA user_version", [], |r| r.get(0))?)?;
    for sql in &MIGRATIONS[version as usize..] {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", newest)?;
    tx.commit()?;
    Ok(())
}

/// Refuse a database written by a newer Kairos before anything else touches it (not even the
/// switch to WAL, which rewrites the header of a file in another journal mode). Errors reading
/// the version are left to the checks that follow, which say them better.
pub fn refuse_newer(conn: &Connection) -> Result<(), MigrationError> {
    match conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0)) {
        Ok(version) => check_version(version).map(|_| ()),
        Err(_) => Ok(()),
    }
}

fn check_version(version: i64) -> Result<i64, MigrationError> {
    let newest = MIGRATIONS.len() as i64;
    if version < 0 {
        return Err(MigrationError::Unknown { found: version });
    }
    if version > newest {
        return Err(MigrationError::TooNew {
            found: version,
            supported: newest,
        });
    }
    Ok(version)
}

#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    #[error(
        "this database was written by a newer version of Kairos (schema {found}; this version knows up to {supported}); upgrade Kairos to open it"
    )]
    TooNew { found: i64, supported: i64 },
    #[error("this database has schema version {found}, which no version of Kairos writes; it is not a Kairos database or it is damaged")]
    Unknown { found: i64 },
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
}
