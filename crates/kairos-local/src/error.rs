//! Why the local installation cannot be used.

/// Why the data directory or the API token cannot be used. The message names the file or the
/// variable and what to do; it never holds the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalError {
    /// The data directory or a file in it cannot be created, read or written.
    #[error("{0}")]
    DataDirectory(String),
    /// The token (from `KAIROS_API_TOKEN` or the token file) is too short.
    #[error("{0}")]
    WeakToken(String),
    /// `KAIROS_TEST_NOW` does not parse.
    #[error("{0}")]
    BadTestClock(String),
}

impl LocalError {
    /// The stable code of this variant.
    pub fn code(&self) -> &'static str {
        match self {
            LocalError::DataDirectory(_) => "DataDirectoryUnusable",
            LocalError::WeakToken(_) => "TokenTooShort",
            LocalError::BadTestClock(_) => "BadTestClock",
        }
    }
}
