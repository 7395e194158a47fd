//! The recurrence engine: when a job runs. Pure: every instant comes in as an argument.

mod blackout;
mod calendar;
mod rule;
mod series;
mod zone;

pub use blackout::{BlackoutNote, Covered, MAX_COUNTED_PER_STRETCH};
pub use calendar::{days_in_month, month_day_mask};
pub use rule::{DstAdjustment, DstNote, Periodic, Reach, Rule};
pub use series::{
    Notes, Occurrences, PeriodicSeries, Series, MAX_BLACKED_OUT_IN_A_ROW, MAX_BLACKOUT_NOTES,
};
pub use zone::{DstPolicy, Resolved, Zone};
