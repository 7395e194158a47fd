//! The closed enums of the Azure Scheduler 2016-03-01 wire format (OpenAPI definitions).

use super::wire_enum::wire_enum;

wire_enum! {
    /// `JobAction.type`, plus our own `Notification` and `Command` (DESIGN.md).
    ActionType {
        Http = "Http",
        Https = "Https",
        StorageQueue = "StorageQueue",
        ServiceBusQueue = "ServiceBusQueue",
        ServiceBusTopic = "ServiceBusTopic",
        Notification = "Notification",
        Command = "Command",
    }
}

wire_enum! {
    /// `HttpAuthentication.type`.
    HttpAuthenticationType {
        NotSpecified = "NotSpecified",
        ClientCertificate = "ClientCertificate",
        ActiveDirectoryOAuth = "ActiveDirectoryOAuth",
        Basic = "Basic",
    }
}

wire_enum! {
    /// `RetryPolicy.retryType`.
    RetryType {
        None = "None",
        Fixed = "Fixed",
        Exponential = "Exponential",
    }
}

wire_enum! {
    /// `JobRecurrence.frequency`; the docs' adverbs (`monthly`) are accepted as aliases. `Year` is
    /// the 2015 classic API's, expanded by `schedule.months` (docs/semantics.md).
    RecurrenceFrequency {
        Minute = "Minute" | "minutely",
        Hour = "Hour" | "hourly",
        Day = "Day" | "daily",
        Week = "Week" | "weekly",
        Month = "Month" | "monthly",
        Year = "Year" | "yearly",
    }
}

wire_enum! {
    /// `weekDays` items (`DayOfWeek`, Sunday first as in the swagger) and `monthlyOccurrences.day`.
    DayOfWeek {
        Sunday = "Sunday",
        Monday = "Monday",
        Tuesday = "Tuesday",
        Wednesday = "Wednesday",
        Thursday = "Thursday",
        Friday = "Friday",
        Saturday = "Saturday",
    }
}

impl DayOfWeek {
    pub fn to_chrono(self) -> chrono::Weekday {
        match self {
            DayOfWeek::Sunday => chrono::Weekday::Sun,
            DayOfWeek::Monday => chrono::Weekday::Mon,
            DayOfWeek::Tuesday => chrono::Weekday::Tue,
            DayOfWeek::Wednesday => chrono::Weekday::Wed,
            DayOfWeek::Thursday => chrono::Weekday::Thu,
            DayOfWeek::Friday => chrono::Weekday::Fri,
            DayOfWeek::Saturday => chrono::Weekday::Sat,
        }
    }
}

wire_enum! {
    /// `JobProperties.state`.
    JobState {
        Enabled = "Enabled",
        Disabled = "Disabled",
        Faulted = "Faulted",
        Completed = "Completed",
    }
}

wire_enum! {
    /// `JobCollectionProperties.state`.
    JobCollectionState {
        Enabled = "Enabled",
        Disabled = "Disabled",
        Suspended = "Suspended",
        Deleted = "Deleted",
    }
}

wire_enum! {
    /// `Sku.name`: the plan of a job collection.
    SkuName {
        Standard = "Standard",
        Free = "Free",
        P10Premium = "P10Premium",
        P20Premium = "P20Premium",
    }
}

wire_enum! {
    /// `JobHistoryDefinitionProperties.actionName`.
    JobHistoryActionName {
        MainAction = "MainAction",
        ErrorAction = "ErrorAction",
    }
}

wire_enum! {
    /// `JobHistoryDefinitionProperties.status` and the history `$filter`.
    JobExecutionStatus {
        Completed = "Completed",
        Failed = "Failed",
        Postponed = "Postponed",
    }
}

wire_enum! {
    /// `ServiceBusMessage.transportType`: only chose the .NET client's transport; irrelevant over REST.
    ServiceBusTransportType {
        NotSpecified = "NotSpecified",
        NetMessaging = "NetMessaging",
        Amqp = "AMQP",
    }
}

wire_enum! {
    /// `ServiceBusAuthentication.type`.
    ServiceBusAuthenticationType {
        NotSpecified = "NotSpecified",
        SharedAccessKey = "SharedAccessKey",
    }
}

wire_enum! {
    /// `recurrence.dstGap` (Kairos extension): a wall-clock run in the spring gap.
    DstGap {
        MoveForward = "MoveForward" | "move",
        Skip = "Skip",
    }
}

#[allow(clippy::derivable_impls)] // the enum comes from a macro that cannot take #[default]
impl Default for DstGap {
    fn default() -> Self {
        DstGap::MoveForward
    }
}

wire_enum! {
    /// `recurrence.dstOverlap` (Kairos extension): a wall-clock run in the autumn overlap.
    DstOverlap {
        Once = "Once" | "RunOnce",
        Twice = "Twice" | "RunTwice",
    }
}

#[allow(clippy::derivable_impls)] // the enum comes from a macro that cannot take #[default]
impl Default for DstOverlap {
    fn default() -> Self {
        DstOverlap::Once
    }
}

wire_enum! {
    /// `recurrence.catchUp.policy` (Kairos extension): occurrences missed while the machine was
    /// off or asleep or Kairos was not running.
    CatchUpPolicy {
        None = "None",
        Latest = "Latest",
        All = "All",
    }
}

wire_enum! {
    /// `recurrence.overlap` (Kairos extension): an occurrence due while the previous one is still
    /// running or retrying.
    OverlapPolicy {
        Skip = "Skip",
        Queue = "Queue",
        Parallel = "Parallel",
    }
}

wire_enum! {
    /// `queueMessage.encoding` (Kairos extension): how the scheduler's XML document becomes the
    /// queue message's text. Base64 (the default) is what Azure Functions / WebJobs queue
    /// triggers read; Raw puts the XML itself in the queue.
    QueueMessageEncoding {
        Base64 = "Base64",
        Raw = "Raw",
    }
}

#[allow(clippy::derivable_impls)] // the enum comes from a macro that cannot take #[default]
impl Default for QueueMessageEncoding {
    fn default() -> Self {
        QueueMessageEncoding::Base64
    }
}
