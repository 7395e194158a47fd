//! Import and export formats. Each reader turns a document into a [`plan::ImportPlan`] (the
//! collections and jobs to write, as ARM bodies, and what was left out and why); each writer
//! turns stored collections and jobs back into a document. No IO and no clock: the CLI and the
//! desktop read the files, the engine writes the plan (all or nothing, or what it can).

pub mod arm;
pub mod bundle;
pub mod crontab;
pub mod format;
pub mod plan;
pub mod read;

pub use format::Format;
pub use plan::{ImportPlan, PlannedCollection, PlannedJob, Skipped};
pub use read::{read, ReadError, ReadOptions};
