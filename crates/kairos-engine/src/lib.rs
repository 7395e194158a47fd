//! Kairos engine: the store (SQLite, or PostgreSQL for several servers), the runner, the actions;
//! everything that makes jobs run.
//!
//! Knows nothing about Tauri, windows or HTTP routing: the API crate and the desktop shell call
//! the `Engine` facade.

pub mod actions;
pub mod allocator;
pub mod calendar_preview;
pub mod changes;
pub mod classic;
pub mod clock;
pub mod collections;
pub mod db;
pub mod deletion;
pub mod engine;
pub mod error;
pub mod export;
pub mod health;
pub mod import;
pub mod jobs;
pub mod keys;
pub mod lease;
pub mod liveness;
mod merge;
pub mod metrics;
mod outcome;
pub mod overview;
mod plan;
pub mod promote;
pub mod quota;
mod rows;
pub mod runner;
pub mod runners;
pub mod secrets;
pub mod settings;
pub mod store;
mod stored;
mod time;

pub use actions::{ExecutorConfig, Note, Notifier, NotifyError};
pub use changes::ChangeWatcher;
pub use clock::{Clock, ManualClock, ShiftedClock, SystemClock};
pub use collections::Put;
pub use deletion::{DeletionKind, PendingDeletion, UndoTicket, UNDO_WINDOW};
pub use engine::{Database, Engine, EngineConfig};
pub use error::{EngineError, ErrorKind};
pub use health::{Check, Readiness};
pub use jobs::Page;
pub use keys::{CollectionKey, JobKey};
pub use runner::RunnerHandle;
