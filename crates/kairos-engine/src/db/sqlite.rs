//! `Db` on a SQLite connection (rusqlite): parameters bound without copying, statements from
//! the connection's cache.

use super::value::{FromValue, Param, ValueRef};
use super::Row;
use crate::error::{EngineError, Result};
use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef as SqlRef};
use rusqlite::{params_from_iter, Connection, ToSql};

struct Bind<'a>(ValueRef<'a>);

impl ToSql for Bind<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self.0 {
            ValueRef::Null => ToSqlOutput::Owned(SqlValue::Null),
            ValueRef::Int(i) => ToSqlOutput::Owned(SqlValue::Integer(i)),
            ValueRef::Bool(b) => ToSqlOutput::Owned(SqlValue::Integer(i64::from(b))),
            ValueRef::Real(r) => ToSqlOutput::Owned(SqlValue::Real(r)),
            ValueRef::Text(t) => ToSqlOutput::Borrowed(SqlRef::Text(t.as_bytes())),
            ValueRef::Blob(b) => ToSqlOutput::Borrowed(SqlRef::Blob(b)),
        })
    }
}

fn binds<'a>(params: &'a [&'a dyn Param]) -> impl Iterator<Item = Bind<'a>> + 'a {
    params.iter().map(|p| Bind(p.value()))
}

pub(super) fn execute(conn: &Connection, sql: &str, params: &[&dyn Param]) -> Result<usize> {
    Ok(conn
        .prepare_cached(sql)?
        .execute(params_from_iter(binds(params)))?)
}

pub(super) fn query_each(
    conn: &Connection,
    sql: &str,
    params: &[&dyn Param],
    mut f: impl FnMut(&Row<'_>) -> Result<()>,
) -> Result<()> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params_from_iter(binds(params)))?;
    while let Some(r) = rows.next()? {
        f(&Row::Sqlite(r))?;
    }
    Ok(())
}

pub(super) fn get<T: FromValue>(row: &rusqlite::Row<'_>, column: usize) -> Result<T> {
    let value = match row.get_ref(column)? {
        SqlRef::Null => ValueRef::Null,
        SqlRef::Integer(i) => ValueRef::Int(i),
        SqlRef::Real(r) => ValueRef::Real(r),
        SqlRef::Text(t) => ValueRef::Text(std::str::from_utf8(t).map_err(|e| {
            EngineError::damaged(format!("column {column}: text that is not UTF-8: {e}"))
        })?),
        SqlRef::Blob(b) => ValueRef::Blob(b),
    };
    T::from_value(value, column)
}
