//! Validated job types: what the recurrence math and the engine work with.
//!
//! A value of these types has passed every rule of `crate::validate`; the recurrence engine and
//! the runner never re-check. Sets of hours, minutes and days are bit masks, both because that
//! is what the math wants (next set bit) and because it makes duplicates impossible.

use crate::model::{
    BrokeredMessageProperties, CatchUpPolicy, JobState, OverlapPolicy, QueueMessageEncoding,
    RecurrenceFrequency, Secret,
};
use crate::recurrence::{DstPolicy, Zone};
use chrono::{DateTime, NaiveDate, Utc};
use std::time::Duration;

/// The timing part of a job: enough to compute its occurrences.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidSchedule {
    /// Truncated to whole seconds.
    pub start_time: Option<DateTime<Utc>>,
    pub recurrence: Option<Recurrence>,
    pub state: JobState,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Recurrence {
    pub frequency: RecurrenceFrequency,
    pub interval: u32,
    pub count: Option<u64>,
    pub end_time: Option<DateTime<Utc>>,
    pub schedule: Schedule,
    /// Where wall-clock times are read (UTC unless `timeZone` says otherwise).
    pub zone: Zone,
    pub dst: DstPolicy,
    pub catch_up: CatchUp,
    pub overlap: OverlapPolicy,
    /// Blackout calendars (Kairos extension): occurrences inside them do not happen.
    pub blackout: Blackout,
}

/// The blackout calendars a job observes, resolved and validated (Kairos extension). Their
/// dates and times are wall-clock values in the job's zone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blackout {
    pub calendars: Vec<ValidCalendar>,
}

/// One calendar: whole days, inclusive day ranges and weekly windows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidCalendar {
    /// What the preview calls it: its name in the collection, its inline `name`, or
    /// `blackout[i]` for an unnamed inline calendar.
    pub name: String,
    /// Sorted, without duplicates.
    pub dates: Vec<NaiveDate>,
    /// (first day, last day), both included.
    pub ranges: Vec<(NaiveDate, NaiveDate)>,
    pub weekly: Vec<WeeklyWindow>,
}

/// Every week on `days` (bit 0 = Monday … bit 6 = Sunday), from `start` (included) to `end`
/// (excluded), in seconds since midnight; `end` may be 86,400 (24:00).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WeeklyWindow {
    pub days: u8,
    pub start: u32,
    pub end: u32,
}

/// What the runner does with occurrences it could not run on time (Kairos extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatchUp {
    pub policy: CatchUpPolicy,
    /// With `All`: at most this many missed occurrences run (the latest).
    pub max_count: u32,
    /// With `All`: only missed occurrences at most this old run.
    pub max_age: Duration,
}

impl Default for CatchUp {
    /// Azure's behaviour: missed occurrences are skipped.
    fn default() -> Self {
        CatchUp {
            policy: CatchUpPolicy::None,
            max_count: 10,
            max_age: Duration::from_secs(86_400),
        }
    }
}

/// `JobRecurrenceSchedule` as sets. `None` = the field was not given (defaults apply, §9.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// Bit m set = minute m (0..59).
    pub minutes: Option<u64>,
    /// Bit h set = hour h (0..23).
    pub hours: Option<u32>,
    /// Bit 0 = Monday … bit 6 = Sunday.
    pub week_days: Option<u8>,
    pub month_days: Option<MonthDays>,
    pub monthly_occurrences: Option<MonthlyOccurrences>,
    /// Bit 0 = January … bit 11 = December.
    pub months: Option<u16>,
}

impl Schedule {
    pub fn is_empty(&self) -> bool {
        *self == Schedule::default()
    }
}

/// `monthDays`: bit d of `positive` = day d; bit n of `negative` = the n-th day from the end
/// (`-1` = last day).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MonthDays {
    pub positive: u32,
    pub negative: u32,
}

/// `monthlyOccurrences`, one `u16` per weekday (index 0 = Monday): bit 0 = every such weekday,
/// bits 1..=5 = the 1st..5th, bits 6..=10 = the last..5th from the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MonthlyOccurrences(pub [u16; 7]);

impl MonthlyOccurrences {
    pub const EVERY: u16 = 1;

    pub fn bit_for(occurrence: Option<i8>) -> u16 {
        match occurrence {
            None => Self::EVERY,
            Some(n) if n > 0 => 1 << n,
            Some(n) => 1 << (5 + n.unsigned_abs()),
        }
    }
}

/// A fully validated job.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidJob {
    pub schedule: ValidSchedule,
    pub action: Action,
}

/// An action with its resolved retry policy. An error action's policy is its own when given,
/// otherwise the main action's (spec §7.1).
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub kind: ActionKind,
    pub retry: Retry,
    pub error_action: Option<Box<Action>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ActionKind {
    Http(HttpAction),
    StorageQueue(StorageQueueAction),
    ServiceBusQueue(ServiceBusAction),
    ServiceBusTopic(ServiceBusAction),
    Notification(NotificationAction),
    Command(CommandAction),
}

#[derive(Debug, Clone, PartialEq)]
pub struct HttpAction {
    pub uri: url::Url,
    pub method: String,
    pub body: Option<String>,
    pub headers: Vec<(String, String)>,
    pub authentication: Option<HttpAuth>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum HttpAuth {
    Basic {
        username: String,
        password: Secret,
    },
    ClientCertificate {
        pfx: Secret,
        password: Secret,
    },
    ActiveDirectoryOAuth {
        tenant: String,
        audience: String,
        client_id: String,
        secret: Secret,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct StorageQueueAction {
    pub storage_account: String,
    pub queue_name: String,
    pub sas_token: Secret,
    pub message: String,
    pub encoding: QueueMessageEncoding,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServiceBusAction {
    pub namespace: String,
    /// The queue name or topic path.
    pub entity: String,
    pub sas_key_name: String,
    pub sas_key: Secret,
    pub message: String,
    pub brokered_message_properties: Option<BrokeredMessageProperties>,
    pub custom_message_properties: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NotificationAction {
    pub title: Option<String>,
    pub body: Option<String>,
}

/// A local program to run (Kairos extension). `program` is a command line when `shell` is set.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandAction {
    pub program: String,
    pub arguments: Vec<String>,
    pub working_directory: Option<String>,
    pub environment: Vec<(String, String)>,
    pub timeout: Duration,
    /// Exit codes that mean success (`[0]` unless given). Windows codes are 32-bit unsigned.
    pub success_exit_codes: Vec<i64>,
    pub shell: bool,
}

/// What happens after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Retry {
    None,
    Fixed {
        interval: Duration,
        count: u32,
    },
    /// Kairos extension: `initial`, then × `multiplier` each retry, capped at `max_interval`.
    Exponential {
        initial: Duration,
        multiplier: f64,
        max_interval: Duration,
        count: u32,
    },
}

impl Retry {
    /// Azure's default when no policy is given: four more attempts, 30 seconds apart (§7).
    pub const DEFAULT: Retry = Retry::Fixed {
        interval: Duration::from_secs(30),
        count: 4,
    };

    /// How long to wait before retry number `retry` (1-based), or `None` when no retry is left.
    pub fn delay_before(&self, retry: u32) -> Option<Duration> {
        match *self {
            Retry::None => None,
            Retry::Fixed { interval, count } => (retry <= count).then_some(interval),
            Retry::Exponential {
                initial,
                multiplier,
                max_interval,
                count,
            } => (retry <= count).then(|| {
                let factor = multiplier.powi(retry.saturating_sub(1).min(64) as i32);
                Duration::from_secs_f64(
                    (initial.as_secs_f64() * factor).min(max_interval.as_secs_f64()),
                )
            }),
        }
    }

    /// How many retries follow a failed first attempt.
    pub fn count(&self) -> u32 {
        match self {
            Retry::None => 0,
            Retry::Fixed { count, .. } | Retry::Exponential { count, .. } => *count,
        }
    }
}
