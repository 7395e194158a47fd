//! The values that cross the database boundary, the same for both stores: SQLite's five storage
//! classes plus a boolean (PostgreSQL has one; SQLite stores it as 0/1).

use crate::error::{EngineError, Result};

/// A parameter's value, borrowed from the caller (no copy of a job's JSON to bind it).
#[derive(Debug, Clone, Copy)]
pub enum ValueRef<'a> {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A column's value as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Int(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Bool(b) => ValueRef::Bool(*b),
            Value::Text(t) => ValueRef::Text(t),
            Value::Blob(b) => ValueRef::Blob(b),
        }
    }
}

/// Something that can be bound as a statement parameter.
pub trait Param {
    fn value(&self) -> ValueRef<'_>;
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> ValueRef<'_> {
        (**self).value()
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> ValueRef<'_> {
        match self {
            Some(v) => v.value(),
            None => ValueRef::Null,
        }
    }
}

impl Param for str {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl Param for String {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl Param for [u8] {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl Param for Vec<u8> {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl Param for bool {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Bool(*self)
    }
}

impl Param for f64 {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Real(*self)
    }
}

impl Param for Value {
    fn value(&self) -> ValueRef<'_> {
        self.as_ref()
    }
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn value(&self) -> ValueRef<'_> {
                ValueRef::Int(*self as i64)
            }
        }
    )*};
}
int_param!(i64, i32, i16, u32, u16, u8);

impl Param for u64 {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl Param for usize {
    fn value(&self) -> ValueRef<'_> {
        ValueRef::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

/// Something a column can be read as. Conversions are strict where a wrong type means damaged
/// data (text read as a number is an error), lenient where both stores differ by design (a
/// PostgreSQL boolean and a SQLite 0/1 are both booleans and both integers).
pub trait FromValue: Sized {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self>;
}

fn mismatch(column: usize, wanted: &str, found: ValueRef<'_>) -> EngineError {
    let found = match found {
        ValueRef::Null => "NULL",
        ValueRef::Int(_) => "an integer",
        ValueRef::Real(_) => "a real",
        ValueRef::Bool(_) => "a boolean",
        ValueRef::Text(_) => "text",
        ValueRef::Blob(_) => "a blob",
    };
    EngineError::damaged(format!(
        "column {column}: expected {wanted}, the database holds {found}"
    ))
}

impl FromValue for i64 {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Int(i) => Ok(i),
            ValueRef::Bool(b) => Ok(i64::from(b)),
            other => Err(mismatch(column, "an integer", other)),
        }
    }
}

macro_rules! narrow_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
                let wide = i64::from_value(value, column)?;
                <$t>::try_from(wide).map_err(|_| {
                    EngineError::damaged(format!(
                        "column {column}: {wide} is out of range for {}",
                        stringify!($t)
                    ))
                })
            }
        }
    )*};
}
narrow_int!(i32, u32, u64, usize, u16, u8);

impl FromValue for bool {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Bool(b) => Ok(b),
            ValueRef::Int(i) => Ok(i != 0),
            other => Err(mismatch(column, "a boolean", other)),
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Real(r) => Ok(r),
            ValueRef::Int(i) => Ok(i as f64),
            other => Err(mismatch(column, "a number", other)),
        }
    }
}

impl FromValue for String {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Text(t) => Ok(t.to_owned()),
            other => Err(mismatch(column, "text", other)),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Blob(b) => Ok(b.to_vec()),
            ValueRef::Text(t) => Ok(t.as_bytes().to_vec()),
            other => Err(mismatch(column, "a blob", other)),
        }
    }
}

impl FromValue for Value {
    fn from_value(value: ValueRef<'_>, _column: usize) -> Result<Self> {
        Ok(match value {
            ValueRef::Null => Value::Null,
            ValueRef::Int(i) => Value::Int(i),
            ValueRef::Real(r) => Value::Real(r),
            ValueRef::Bool(b) => Value::Bool(b),
            ValueRef::Text(t) => Value::Text(t.to_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        })
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: ValueRef<'_>, column: usize) -> Result<Self> {
        match value {
            ValueRef::Null => Ok(None),
            other => T::from_value(other, column).map(Some),
        }
    }
}
