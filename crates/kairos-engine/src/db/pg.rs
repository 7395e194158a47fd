//! `Db` on a PostgreSQL connection (tokio-postgres): SQLite-spelled statements translated and
//! prepared once per connection, values bound by the type the server expects.
//!
//! The engine's store calls are synchronous (they already block a thread on SQLite), so each
//! call blocks on its future with `futures_executor::block_on`; the connections themselves are
//! driven by the store's own small runtime (`store::postgres`), which is why this works from any
//! thread, a tokio worker included.

use super::value::{FromValue, Param, ValueRef};
use super::Row;
use crate::error::{EngineError, Result};
use bytes::BytesMut;
use futures_executor::block_on;
use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error as StdError;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::{Client, Statement, Transaction};

/// Prepared statements of one connection, by their SQLite spelling.
pub(crate) type Statements = RefCell<HashMap<String, Statement>>;

/// A connection outside a transaction (reads) or a transaction (writes).
pub(crate) enum Handle<'a> {
    Client(&'a Client),
    Tx(&'a Transaction<'a>),
}

impl std::fmt::Debug for Handle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Handle::Client(_) => "Client",
            Handle::Tx(_) => "Transaction",
        })
    }
}

#[derive(Debug)]
pub struct PgDb<'a> {
    pub(crate) handle: Handle<'a>,
    pub(crate) statements: &'a Statements,
    /// Whether a statement changed rows: only then does the commit notify the other servers
    /// (a notification wakes every runner, whose pass must not notify again for nothing).
    pub(crate) changed: std::cell::Cell<bool>,
}

impl From<tokio_postgres::Error> for EngineError {
    fn from(e: tokio_postgres::Error) -> Self {
        tracing::debug!(error = %e, "storage error");
        // The server's own message says what went wrong ("duplicate key value violates ...");
        // tokio-postgres's Display of a server error is only "db error".
        match e.as_db_error() {
            Some(db) => EngineError::Storage(format!("{}: {}", db.code().code(), db.message())),
            None => EngineError::Storage(e.to_string()),
        }
    }
}

impl PgDb<'_> {
    fn statement(&self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.statements.borrow().get(sql) {
            return Ok(s.clone());
        }
        let translated = translate(sql);
        let statement = match &self.handle {
            Handle::Client(c) => block_on(c.prepare(&translated)),
            Handle::Tx(t) => block_on(t.prepare(&translated)),
        }
        .map_err(|e| {
            // A statement the server refuses is a bug of ours: name it (SQL holds no values).
            let e = EngineError::from(e);
            EngineError::Storage(format!("{} in: {translated}", e.message()))
        })?;
        self.statements
            .borrow_mut()
            .insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    pub(super) fn execute(&self, sql: &str, params: &[&dyn Param]) -> Result<usize> {
        let statement = self.statement(sql)?;
        let binds: Vec<Bind<'_>> = params.iter().map(|p| Bind(p.value())).collect();
        let refs: Vec<&(dyn ToSql + Sync)> =
            binds.iter().map(|b| b as &(dyn ToSql + Sync)).collect();
        let changed = match &self.handle {
            Handle::Client(c) => block_on(c.execute(&statement, &refs)),
            Handle::Tx(t) => block_on(t.execute(&statement, &refs)),
        }?;
        if changed > 0 {
            self.changed.set(true);
        }
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    pub(super) fn execute_batch(&self, sql: &str) -> Result<()> {
        self.changed.set(true);
        match &self.handle {
            Handle::Client(c) => block_on(c.batch_execute(sql)),
            Handle::Tx(t) => block_on(t.batch_execute(sql)),
        }?;
        Ok(())
    }

    pub(super) fn query_each(
        &self,
        sql: &str,
        params: &[&dyn Param],
        mut f: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        let statement = self.statement(sql)?;
        let binds: Vec<Bind<'_>> = params.iter().map(|p| Bind(p.value())).collect();
        let refs: Vec<&(dyn ToSql + Sync)> =
            binds.iter().map(|b| b as &(dyn ToSql + Sync)).collect();
        let rows = match &self.handle {
            Handle::Client(c) => block_on(c.query(&statement, &refs)),
            Handle::Tx(t) => block_on(t.query(&statement, &refs)),
        }?;
        // `INSERT ... RETURNING` and the like change rows too.
        let verb = sql.trim_start().get(..6).unwrap_or("").to_ascii_uppercase();
        if !rows.is_empty() && matches!(verb.as_str(), "INSERT" | "UPDATE" | "DELETE") {
            self.changed.set(true);
        }
        for r in &rows {
            f(&Row::Postgres(r))?;
        }
        Ok(())
    }
}

pub(super) fn get<T: FromValue>(row: &tokio_postgres::Row, column: usize) -> Result<T> {
    let Read(value) = row
        .try_get::<_, Read<'_>>(column)
        .map_err(|e| EngineError::damaged(format!("column {column}: cannot be read: {e}")))?;
    T::from_value(value, column)
}

/// SQLite's spelling to PostgreSQL's: `?N` and `?` parameters become `$N`, `instr` becomes
/// `strpos` (same arguments), and a list of ids passed as a JSON array (`SELECT value FROM
/// json_each(?N)`) is unpacked with `json_array_elements_text`. Quoted text is left alone.
pub fn translate(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut next = 1;
    let mut chars = sql.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((_, c)) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                out.push(c);
            }
            '?' => {
                let mut digits = String::new();
                while let Some(&(_, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    digits.push(d);
                    chars.next();
                }
                if digits.is_empty() {
                    digits = next.to_string();
                    next += 1;
                }
                out.push('$');
                out.push_str(&digits);
            }
            _ => out.push(c),
        }
    }
    let out = out.replace("instr(", "strpos(");
    unpack_json_lists(&out)
}

fn unpack_json_lists(sql: &str) -> String {
    const FROM: &str = "SELECT value FROM json_each(";
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(FROM) {
        out.push_str(&rest[..at]);
        let after = &rest[at + FROM.len()..];
        let close = after.find(')').unwrap_or(after.len());
        out.push_str("SELECT value::bigint FROM json_array_elements_text(");
        out.push_str(&after[..close]);
        out.push_str("::json");
        rest = &after[close..];
    }
    out.push_str(rest);
    out
}

/// A parameter, encoded as the type the server inferred for its place.
struct Bind<'a>(ValueRef<'a>);

/// tokio-postgres logs a statement's parameters at debug level: they hold job definitions and
/// their secrets, so a parameter shows only its kind.
impl std::fmt::Debug for Bind<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            ValueRef::Null => "NULL",
            ValueRef::Int(_) => "<integer>",
            ValueRef::Real(_) => "<real>",
            ValueRef::Bool(_) => "<boolean>",
            ValueRef::Text(_) => "<text>",
            ValueRef::Blob(_) => "<blob>",
        })
    }
}

type BoxError = Box<dyn StdError + Sync + Send>;

fn is_text(ty: &Type) -> bool {
    matches!(
        *ty,
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN
    ) || ty.name() == "citext"
}

impl ToSql for Bind<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        match self.0 {
            ValueRef::Null => Ok(IsNull::Yes),
            ValueRef::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                Type::BOOL => (i != 0).to_sql(ty, out),
                Type::FLOAT8 => (i as f64).to_sql(ty, out),
                _ if is_text(ty) => i.to_string().as_str().to_sql(&Type::TEXT, out),
                _ => Err(format!("cannot bind an integer to a {ty} parameter").into()),
            },
            ValueRef::Bool(b) => match *ty {
                Type::BOOL => b.to_sql(ty, out),
                Type::INT8 => i64::from(b).to_sql(ty, out),
                Type::INT4 => i32::from(b).to_sql(ty, out),
                Type::INT2 => i16::from(b).to_sql(ty, out),
                _ => Err(format!("cannot bind a boolean to a {ty} parameter").into()),
            },
            ValueRef::Real(r) => match *ty {
                Type::FLOAT8 => r.to_sql(ty, out),
                Type::FLOAT4 => (r as f32).to_sql(ty, out),
                _ => Err(format!("cannot bind a real to a {ty} parameter").into()),
            },
            ValueRef::Text(t) => match *ty {
                Type::JSON => {
                    out.extend_from_slice(t.as_bytes());
                    Ok(IsNull::No)
                }
                Type::JSONB => {
                    out.extend_from_slice(&[1]);
                    out.extend_from_slice(t.as_bytes());
                    Ok(IsNull::No)
                }
                Type::BYTEA => t.as_bytes().to_sql(ty, out),
                _ if is_text(ty) => {
                    out.extend_from_slice(t.as_bytes());
                    Ok(IsNull::No)
                }
                _ => Err(format!("cannot bind text to a {ty} parameter").into()),
            },
            ValueRef::Blob(b) => match *ty {
                Type::BYTEA => b.to_sql(ty, out),
                _ => Err(format!("cannot bind a blob to a {ty} parameter").into()),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A column, decoded from whatever type it has.
struct Read<'a>(ValueRef<'a>);

impl<'a> FromSql<'a> for Read<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Self, BoxError> {
        let value = match *ty {
            Type::INT8 => ValueRef::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => ValueRef::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => ValueRef::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::OID => ValueRef::Int(i64::from(u32::from_sql(ty, raw)?)),
            Type::BOOL => ValueRef::Bool(bool::from_sql(ty, raw)?),
            Type::FLOAT8 => ValueRef::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => ValueRef::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::BYTEA => ValueRef::Blob(raw),
            Type::JSON => ValueRef::Text(std::str::from_utf8(raw)?),
            Type::JSONB => ValueRef::Text(std::str::from_utf8(raw.get(1..).unwrap_or(&[]))?),
            _ if is_text(ty) => ValueRef::Text(std::str::from_utf8(raw)?),
            _ => return Err(format!("a {ty} column is not one Kairos reads").into()),
        };
        Ok(Read(value))
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Self, BoxError> {
        Ok(Read(ValueRef::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn check() {
        let cases = [
            ("SELECT 1 WHERE a = ?1 AND b = ?12", "SELECT 1 WHERE a = $1 AND b = $12"),
            ("VALUES (?, ?, ?)", "VALUES ($1, $2, $3)"),
            ("SELECT '?1' || \"a?\" || ?2", "SELECT '?1' || \"a?\" || $2"),
            (
                "WHERE instr(lower(message), ?5) > 0",
                "WHERE strpos(lower(message), $5) > 0",
            ),
            (
                "WHERE id IN (SELECT value FROM json_each(?1)) AND x = ?2",
                "WHERE id IN (SELECT value::bigint FROM json_array_elements_text($1::json)) AND x = $2",
            ),
        ];
        for (sqlite, postgres) in cases {
            assert_eq!(translate(sqlite), postgres, "{sqlite}");
        }
    }
}
