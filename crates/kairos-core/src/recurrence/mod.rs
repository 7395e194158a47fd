//! The recurrence engine: when a job runs. Pure: every instant comes in as an argument.

mod calendar;
mod rule;
mod series;
mod zone;

pub use calendar::{days_in_month, month_day_mask};
pub use rule::{DstAdjustment, DstNote, Rule};
pub use series::{Occurrences, Series};
pub use zone::{DstPolicy, Resolved, Zone};
