//! One way to speak to either store: statements, parameters and rows that are the same for
//! SQLite and PostgreSQL, so the engine's modules hold their SQL once and never know which
//! database they talk to.
//!
//! SQL is written in SQLite's spelling with numbered parameters (`?1`); for PostgreSQL it is
//! translated once per statement and connection (`pg::translate`) and the prepared statement
//! kept. The few constructs the two spell differently are chosen with `Db::dialect`.

pub(crate) mod json_rows;
pub(crate) mod pg;
mod sqlite;
mod value;

pub use value::{FromValue, Param, Value, ValueRef};

use crate::error::{EngineError, Result};
use std::cell::RefCell;

/// Which database a `Db` speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// Statement parameters: `params![a, b]` binds `a` as `?1` and `b` as `?2`.
#[macro_export]
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::db::Param]
    };
    ($($p:expr),+ $(,)?) => {
        &[$(&$p as &dyn $crate::db::Param),+] as &[&dyn $crate::db::Param]
    };
}
pub use crate::params;

/// A connection (for reads) or a transaction (for writes) on either store.
#[derive(Debug)]
pub enum Db<'a> {
    Sqlite(&'a rusqlite::Connection),
    Postgres(pg::PgDb<'a>),
}

/// One row of a result.
#[derive(Debug)]
pub enum Row<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Postgres(&'a tokio_postgres::Row),
}

impl Row<'_> {
    /// Column `column` (from 0) as `T`.
    pub fn get<T: FromValue>(&self, column: usize) -> Result<T> {
        match self {
            Row::Sqlite(r) => sqlite::get(r, column),
            Row::Postgres(r) => pg::get(r, column),
        }
    }
}

impl Db<'_> {
    pub fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Run one statement; how many rows it changed.
    pub fn execute(&self, sql: &str, params: &[&dyn Param]) -> Result<usize> {
        match self {
            Db::Sqlite(c) => sqlite::execute(c, sql, params),
            Db::Postgres(p) => p.execute(sql, params),
        }
    }

    /// Run several statements without parameters (schema changes, tests).
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match self {
            Db::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Db::Postgres(p) => p.execute_batch(sql),
        }
    }

    /// Call `f` for each row, in order.
    pub fn query_each(
        &self,
        sql: &str,
        params: &[&dyn Param],
        f: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        before_query(sql);
        match self {
            Db::Sqlite(c) => sqlite::query_each(c, sql, params, f),
            Db::Postgres(p) => p.query_each(sql, params, f),
        }
    }

    /// Every row, mapped by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.query_each(sql, params, |r| {
            out.push(f(r)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row mapped by `f`, `None` when there is none.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut f = Some(f);
        let mut out = None;
        self.query_each(sql, params, |r| {
            if let Some(f) = f.take() {
                out = Some(f(r)?);
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row mapped by `f`; no row is an error (the statement always yields one:
    /// an aggregate, or a row the caller just wrote).
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, params, f)?
            .ok_or_else(|| EngineError::Storage("query returned no rows".into()))
    }
}

/// A hook `before_each_query` sets.
type QueryHook = Box<dyn FnMut(&str)>;

thread_local! {
    /// See `before_each_query`.
    static BEFORE_QUERY: RefCell<Option<QueryHook>> = const { RefCell::new(None) };
}

/// For tests: call `hook` with the SQL of each query this thread runs, just before it runs, until
/// the guard is dropped. A test commits a write there, between two statements of one engine read
/// (a write inside the hook runs no hook). Nothing is called on other threads.
#[doc(hidden)]
pub fn before_each_query(hook: impl FnMut(&str) + 'static) -> BeforeQuery {
    BEFORE_QUERY.with(|h| *h.borrow_mut() = Some(Box::new(hook)));
    BeforeQuery(())
}

/// Removes the hook `before_each_query` set when dropped.
#[doc(hidden)]
#[must_use]
#[derive(Debug)]
pub struct BeforeQuery(());

impl Drop for BeforeQuery {
    fn drop(&mut self) {
        BEFORE_QUERY.with(|h| h.borrow_mut().take());
    }
}

fn before_query(sql: &str) {
    // Taken out while it runs, so the queries of a write it makes do not call it again.
    let Some(mut hook) = BEFORE_QUERY.with(|h| h.borrow_mut().take()) else {
        return;
    };
    hook(sql);
    BEFORE_QUERY.with(|h| {
        h.borrow_mut().get_or_insert(hook);
    });
}
