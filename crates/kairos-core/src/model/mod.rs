//! The wire format of Azure Scheduler 2016-03-01, as serde types.
//!
//! These types accept what real clients send (any enum case, `Occurrence`/`occurrence`,
//! TimeSpan or ISO 8601 durations, date-only times) and emit one canonical form. Every field is
//! optional here: "required" is a validation rule (`crate::validate`), so a missing field gets a
//! clear error naming it rather than a serde message.

pub mod action;
pub mod calendar;
pub mod collection;
pub mod enums;
pub mod history;
pub mod job;
pub mod recurrence;
pub mod resource;
pub mod secret;
pub mod serde_helpers;
pub(crate) mod wire_enum;

pub use action::*;
pub use calendar::*;
pub use collection::*;
pub use enums::*;
pub use history::*;
pub use job::*;
pub use recurrence::*;
pub use resource::Resource;
pub use secret::Secret;
