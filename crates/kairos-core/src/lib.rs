//! Kairos core: the Azure Scheduler job model, validation and recurrence math.
//!
//! Pure by design: no IO, and the clock is never read; every "now" is a parameter. The engine,
//! the API, the CLI and the desktop shell all build on these types.

pub mod describe;
pub mod document;
pub mod error;
pub mod iso8601;
pub mod lang;
pub mod lenient_json;
pub mod model;
pub mod preview;
pub mod recurrence;
pub mod valid;
pub mod validate;

pub use error::{arm_error, ArmError, ErrorCode, FieldError, RuleArg, RuleArgs, ValidationErrors};
