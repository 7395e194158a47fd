//! Write-only values: passwords, client secrets, PFX blobs, SAS tokens and keys.
//!
//! `Secret` deliberately does not implement `Serialize`: a field holding one must be marked
//! `#[serde(skip_serializing)]`, so no response, export or log can carry it by accident, and
//! `Debug` prints a mask. Code that needs the value (the engine, to authenticate) calls `expose`.

use serde::{Deserialize, Deserializer};

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

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Secret)
    }
}
