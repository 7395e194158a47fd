//! Write-only values: passwords, client secrets, PFX blobs, SAS tokens and keys.
//!
//! `Secret` deliberately does not implement `Serialize`: a field holding one must be marked
//! `#[serde(skip_serializing)]`, so no response, export or log can carry it by accident, and
//! `Debug` prints a mask. Code that needs the value (the engine, to authenticate) calls `expose`.

use serde::{de, Deserialize, Deserializer};

#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself. Call it only where the value is used, never to display or store it
    /// in a place that is read back out.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// Reads a string. Any other JSON value is an error that does not quote it: serde's own message
/// would ("got integer `1234`"), and a numeric password typed without quotes is still a password.
/// Self-describing formats only (JSON), as `deserialize_any` is what lets us see the value's kind.
impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl de::Visitor<'_> for Visit {
            type Value = Secret;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Secret, E> {
                Ok(Secret(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Secret, E> {
                Ok(Secret(v))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Secret, E> {
                Err(hidden("a boolean"))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Secret, E> {
                Err(hidden("a number"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Secret, E> {
                Err(hidden("a number"))
            }
            fn visit_i128<E: de::Error>(self, _: i128) -> Result<Secret, E> {
                Err(hidden("a number"))
            }
            fn visit_u128<E: de::Error>(self, _: u128) -> Result<Secret, E> {
                Err(hidden("a number"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Secret, E> {
                Err(hidden("a number"))
            }
            fn visit_char<E: de::Error>(self, _: char) -> Result<Secret, E> {
                Err(hidden("a character"))
            }
            fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Secret, E> {
                Err(hidden("bytes"))
            }
        }
        fn hidden<E: de::Error>(got: &str) -> E {
            E::custom(format!(
                "expected a string, got {got} (not shown: this field is a secret)"
            ))
        }
        deserializer.deserialize_any(Visit)
    }
}
