//! The rules a field can break, each with a stable id and its arguments.
//!
//! The REST API and the CLI say a problem in English (`message`, unchanged since the API was
//! first served); the window says it in its user's language, from its own catalog, by the rule's
//! id (`too_long`) and arguments (`max`, `got`). Both come from one [`FieldRule`] value, so the
//! English sentence and the window's message cannot disagree about what was wrong.
//!
//! Adding a rule is one place: a line in `rules!` (id and arguments), an arm in
//! [`FieldRule::english`], and one message per language in the window's "jobs" catalog
//! (`ui/src/logic/fieldErrorMessages.ts`).

use crate::error::{FieldError, RuleArg, RuleArgs};

/// How a rule's field becomes an argument: numbers stay numbers (the window formats them per
/// locale), lists are joined with ", " (the window splits and formats them as a list).
trait ToArg {
    fn to_arg(&self) -> RuleArg;
}

impl ToArg for i64 {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Number(*self)
    }
}

impl ToArg for u32 {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Number(i64::from(*self))
    }
}

impl ToArg for usize {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Number(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToArg for String {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Text(self.clone())
    }
}

impl ToArg for &'static str {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Text((*self).to_string())
    }
}

impl<T: ToString> ToArg for Vec<T> {
    fn to_arg(&self) -> RuleArg {
        RuleArg::Text(
            self.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        )
    }
}

/// Declares [`FieldRule`]: each variant's fields are its arguments, named as the fields are.
macro_rules! rules {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $({ $($field:ident: $ty:ty),* $(,)? })? => $id:literal,
    )*) => {
        /// One rule a field broke, with what the sentence about it needs.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum FieldRule {
            $( $(#[doc = $doc])* $variant $({ $($field: $ty),* })?, )*
        }

        impl FieldRule {
            /// Every rule's id, in declaration order.
            pub const IDS: &'static [&'static str] = &[$($id),*];

            /// The stable snake_case id the window finds the rule's message by.
            pub fn id(&self) -> &'static str {
                match self { $( FieldRule::$variant { .. } => $id, )* }
            }

            /// The values the message's placeholders take, named as the variant's fields.
            pub fn args(&self) -> RuleArgs {
                match self {
                    $( FieldRule::$variant $({ $($field),* })? => vec![
                        $($( (stringify!($field), $field.to_arg()) ),*)?
                    ], )*
                }
            }
        }
    };
}

rules! {
    Required => "required",
    /// A wire enum's member is missing; `expected` lists its values.
    RequiredOneOf { expected: Vec<&'static str> } => "required_one_of",
    FrequencyRequired { expected: Vec<&'static str> } => "frequency_required",
    /// Validation found nothing to say but had no value either (never expected).
    JobInvalid => "job_invalid",
    /// The last entry of a long list of problems.
    MoreProblems { count: usize } => "more_problems",
    /// `latest` and `got` are RFC 3339 instants.
    StartTimeTooFar { max_months: u32, latest: String, got: String } => "start_time_too_far",
    IntervalMustBeOne { frequency: &'static str, got: i64 } => "interval_must_be_one",
    IntervalOutOfRange { max: i64, frequency: &'static str, got: i64 } => "interval_out_of_range",
    TooSmall { min: i64, got: i64 } => "too_small",
    /// `got` is text: it may be a fraction (a retry multiplier).
    OutOfRange { min: i64, max: i64, got: String } => "out_of_range",
    NotATimeZone { name: String } => "not_a_time_zone",
    OnlyWithFrequencyWeek { frequency: &'static str } => "only_with_frequency_week",
    TooManyWeekDays { max: usize, got: usize } => "too_many_week_days",
    OnlyWithFrequencyMonthOrYear { frequency: &'static str } => "only_with_frequency_month_or_year",
    NotAMonthDay { got: i64 } => "not_a_month_day",
    WeekDayRequired => "week_day_required",
    /// `day` is the wire name of a weekday (`Friday`).
    NotAnOccurrence { day: &'static str, got: i64 } => "not_an_occurrence",
    /// `unit` is `minutes`, `hours` or `months`.
    ListValueOutOfRange { unit: &'static str, min: i64, max: i64, got: i64 } => "list_value_out_of_range",
    /// `got` is an ISO 8601 duration.
    CatchUpMaxAgeOutOfRange { got: String } => "catch_up_max_age_out_of_range",
    /// `from_month` is `YYYY-MM`, the month the series starts in.
    NeverRunsMonthsUnreached { interval: u32, from_month: String } => "never_runs_months_unreached",
    /// Every run falls in `months` (numbers 1-12), none of which has the day `day` of the month.
    /// `frequency` is `Month` or `Year`.
    NeverRunsDayOfMonth {
        frequency: &'static str,
        interval: u32,
        from_month: String,
        months: Vec<u32>,
        month_count: usize,
        day: u32,
    } => "never_runs_day_of_month",
    NeverRunsDaysSelected {
        frequency: &'static str,
        interval: u32,
        from_month: String,
        months: Vec<u32>,
        month_count: usize,
    } => "never_runs_days_selected",
    /// `frequency` is `Hour` or `Minute`; `from` is `HH:MM` in `zone`.
    NeverRunsHours { frequency: &'static str, interval: u32, from: String, zone: String, hours: Vec<u32> } => "never_runs_hours",
    NeverRunsMinutes { frequency: &'static str, interval: u32, from: String, zone: String } => "never_runs_minutes",
    NeverRunsMinutesInHours { frequency: &'static str, interval: u32, from: String, zone: String } => "never_runs_minutes_in_hours",
    NestedErrorAction => "nested_error_action",
    RequiredForActionType { action_type: &'static str } => "required_for_action_type",
    /// Durations in ISO 8601.
    MaxRetryIntervalOutOfRange { min: String, got: String } => "max_retry_interval_out_of_range",
    RetryIntervalOutOfRange { got: String } => "retry_interval_out_of_range",
    TooLong { max: usize, got: usize } => "too_long",
    NotAnHttpUrl { got: String } => "not_an_http_url",
    HttpsRequired { got: String } => "https_required",
    /// `reason` is the URL parser's own (English) words.
    NotAUrl { reason: String, got: String } => "not_a_url",
    MethodRequired => "method_required",
    NotAMethod { got: String } => "not_a_method",
    TooManyHeaders { max: usize, got: usize } => "too_many_headers",
    HeadersTooLong { max: usize, got: usize } => "headers_too_long",
    NotAHeaderName { name: String } => "not_a_header_name",
    HeaderValueLineBreak => "header_value_line_break",
    /// `kind` is the authentication type's wire name (`Basic`).
    RequiredForAuthentication { kind: &'static str } => "required_for_authentication",
    PfxRequired => "pfx_required",
    NotAPfx => "not_a_pfx",
    NotAStorageAccount { got: String } => "not_a_storage_account",
    NotAQueueName { got: String } => "not_a_queue_name",
    SasTokenRequired => "sas_token_required",
    NotAServiceBusNamespace { got: String } => "not_a_service_bus_namespace",
    NotAnEntityPath { got: String } => "not_an_entity_path",
    ServiceBusAuthenticationRequired => "service_bus_authentication_required",
    NotAPropertyName { name: String } => "not_a_property_name",
    ValueLineBreak => "value_line_break",
    TooManyCalendars { max: usize, got: usize } => "too_many_calendars",
    CalendarNameClash { name: String, other: String } => "calendar_name_clash",
    CalendarNameBlank => "calendar_name_blank",
    CalendarNameTooLong { max: usize } => "calendar_name_too_long",
    CalendarNameControlCharacters => "calendar_name_control_characters",
    TooManyBlackouts { max: usize, got: usize } => "too_many_blackouts",
    CalendarNameOutsideCollection { name: String } => "calendar_name_outside_collection",
    /// `known` lists the collection's calendars (`known_count` of them, maybe none).
    UnknownCalendar { name: String, known: Vec<String>, known_count: usize } => "unknown_calendar",
    TooManyDates { max: usize, got: usize } => "too_many_dates",
    TooManyRanges { max: usize, got: usize } => "too_many_ranges",
    /// Dates as `YYYY-MM-DD`.
    EndBeforeStart { start: String, got: String } => "end_before_start",
    TooManyWindows { max: usize, got: usize } => "too_many_windows",
    WindowDaysRequired => "window_days_required",
    WindowEndEqualsStart => "window_end_equals_start",
    DateRequired => "date_required",
    NotADate { got: String } => "not_a_date",
    /// `latest` is `23:59` for a start, `24:00` for an end.
    NotATime { got: String, latest: &'static str } => "not_a_time",
    CommandLineRequired => "command_line_required",
    ProgramRequired => "program_required",
    ContainsNul => "contains_nul",
    ArgumentsWithShell => "arguments_with_shell",
    TooManyArguments { max: usize } => "too_many_arguments",
    CommandLineTooLong { max: usize, got: usize } => "command_line_too_long",
    NotAnAbsolutePath { got: String } => "not_an_absolute_path",
    TooManyVariables { max: usize } => "too_many_variables",
    NotAVariableName { name: String } => "not_a_variable_name",
    TimeoutOutOfRange => "timeout_out_of_range",
    NoExitCodes => "no_exit_codes",
    TooManyExitCodes { max: usize } => "too_many_exit_codes",
    NotAnExitCode { got: i64 } => "not_an_exit_code",
    /// The window's own forms: a name taken when creating, a file to choose.
    JobNameTaken => "job_name_taken",
    CollectionNameTaken => "collection_name_taken",
    FileRequired => "file_required",
    PathNotAbsolute { got: String } => "path_not_absolute",
    PassphraseRequired => "passphrase_required",
}

impl FieldRule {
    /// The sentence the REST API and the CLI report (after "path: "), word for word as before
    /// rules had ids.
    pub fn english(&self) -> String {
        use FieldRule::*;
        match self {
            Required => "is required".into(),
            RequiredOneOf { expected } => format!("is required; use {}", one_of(expected)),
            FrequencyRequired { expected } => format!(
                "is required when recurrence is given; use {}",
                one_of(expected)
            ),
            JobInvalid => "the job definition is invalid".into(),
            MoreProblems { count } => format!("and {count} more problems"),
            StartTimeTooFar {
                max_months,
                latest,
                got,
            } => format!(
                "must be at most {max_months} months ahead (no later than {latest}); got {got}"
            ),
            IntervalMustBeOne { frequency, got } => format!(
                "must be 1 for frequency {frequency} (a recurrence spans at most 18 months); got {got}"
            ),
            IntervalOutOfRange {
                max,
                frequency,
                got,
            } => format!("must be between 1 and {max} for frequency {frequency}; got {got}"),
            TooSmall { min, got } => format!("must be at least {min}; got {got}"),
            OutOfRange { min, max, got } => format!("must be between {min} and {max}; got {got}"),
            NotATimeZone { name } => format!(
                "'{name}' is not an IANA time zone name; use one such as Europe/Berlin, America/New_York or UTC"
            ),
            OnlyWithFrequencyWeek { frequency } => {
                format!("can only be used with frequency Week; the frequency is {frequency}")
            }
            TooManyWeekDays { max, got } => format!("may list at most {max} days; got {got}"),
            OnlyWithFrequencyMonthOrYear { frequency } => format!(
                "can only be used with frequency Month or Year; the frequency is {frequency}"
            ),
            NotAMonthDay { got } => format!(
                "must be between 1 and 31, or between -31 and -1 to count from the month's end (-1 = last day); got {got}"
            ),
            WeekDayRequired => "is required (Monday … Sunday)".into(),
            NotAnOccurrence { day, got } => format!(
                "must be 1 to 5 (first … fifth) or -1 to -5 (last … fifth from the end), or omitted for every {day}; got {got}"
            ),
            ListValueOutOfRange {
                unit,
                min,
                max,
                got,
            } => format!("{unit} must be between {min} and {max}; got {got}"),
            CatchUpMaxAgeOutOfRange { got } => {
                format!("must be longer than zero and at most 18 months (P548D); got {got}")
            }
            NeverRunsMonthsUnreached {
                interval,
                from_month,
            } => format!(
                "never runs: every {interval} month(s) from {} never reaches one of the months listed",
                month_and_year(from_month)
            ),
            NeverRunsDayOfMonth {
                frequency,
                interval,
                from_month,
                months,
                day,
                ..
            } => never_runs_in_months(
                frequency,
                *interval,
                from_month,
                months,
                &format!("the {}", ordinal(*day)),
            ),
            NeverRunsDaysSelected {
                frequency,
                interval,
                from_month,
                months,
                ..
            } => never_runs_in_months(
                frequency,
                *interval,
                from_month,
                months,
                "one of the days selected",
            ),
            NeverRunsHours {
                frequency,
                interval,
                from,
                zone,
                hours,
            } => format!(
                "never runs: every {interval} {}(s) from {from} ({zone}) reaches only the hours {}, and none of them is listed",
                frequency.to_ascii_lowercase(),
                join(hours, ", ")
            ),
            NeverRunsMinutes {
                frequency,
                interval,
                from,
                zone,
            } => format!(
                "never runs: every {interval} {}(s) from {from} ({zone}) never reaches one of the minutes listed",
                frequency.to_ascii_lowercase()
            ),
            NeverRunsMinutesInHours {
                frequency,
                interval,
                from,
                zone,
            } => format!(
                "never runs: every {interval} {}(s) from {from} ({zone}) never reaches one of the minutes listed within the hours listed",
                frequency.to_ascii_lowercase()
            ),
            NestedErrorAction => "an error action cannot have an error action of its own".into(),
            RequiredForActionType { action_type } => {
                format!("is required for an action of type {action_type}")
            }
            MaxRetryIntervalOutOfRange { min, got } => format!(
                "must be at least the retryInterval ({min}) and at most 18 months (P548D); got {got}"
            ),
            RetryIntervalOutOfRange { got } => format!(
                "must be between 15 seconds (PT15S) and 18 months (P548D); got {got}"
            ),
            TooLong { max, got } => format!("may be at most {max} characters; got {got}"),
            NotAnHttpUrl { got } => {
                format!("must be an absolute http:// or https:// URL; got '{got}'")
            }
            HttpsRequired { got } => {
                format!("must start with https:// for an action of type Https; got '{got}'")
            }
            NotAUrl { reason, got } => format!("is not a valid URL ({reason}); got '{got}'"),
            MethodRequired => "is required (for example GET, POST, PUT or DELETE)".into(),
            NotAMethod { got } => format!("'{got}' is not an HTTP method name"),
            TooManyHeaders { max, got } => {
                format!("at most {max} headers are allowed; got {got}")
            }
            HeadersTooLong { max, got } => format!(
                "names and values may total at most {max} characters; got {got}"
            ),
            NotAHeaderName { name } => format!("'{name}' is not a valid header name"),
            HeaderValueLineBreak => "a header value may not contain line breaks".into(),
            RequiredForAuthentication { kind } => format!("is required for {kind} authentication"),
            PfxRequired => {
                "is required for ClientCertificate authentication (the base64 of a PFX file)".into()
            }
            NotAPfx => "must be the base64 encoding of a PFX (PKCS #12) file".into(),
            NotAStorageAccount { got } => format!(
                "must be a storage account name: 3 to 24 lowercase letters and digits (upper case is read as lower case); got '{got}'"
            ),
            NotAQueueName { got } => format!(
                "must be a queue name: 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit; got '{got}'"
            ),
            SasTokenRequired => {
                "is required (a SAS query string that grants add permission)".into()
            }
            NotAServiceBusNamespace { got } => format!(
                "must be a Service Bus namespace name (letters, digits and hyphens, at most 50); got '{got}'"
            ),
            NotAnEntityPath { got } => format!(
                "must be an entity path of at most 260 characters, not starting or ending with '/'; got '{got}'"
            ),
            ServiceBusAuthenticationRequired => "is required (sasKeyName and sasKey)".into(),
            NotAPropertyName { name } => format!("'{name}' cannot be sent as an HTTP header name"),
            ValueLineBreak => "a value may not contain line breaks".into(),
            TooManyCalendars { max, got } => {
                format!("may define at most {max} calendars; got {got}")
            }
            CalendarNameClash { name, other } => format!(
                "the calendar '{name}' differs from the calendar '{other}' only in case; calendar names are case-insensitive: rename or remove one"
            ),
            CalendarNameBlank => "a calendar name may not be blank".into(),
            CalendarNameTooLong { max } => {
                format!("a calendar name may have at most {max} characters")
            }
            CalendarNameControlCharacters => {
                "a calendar name may not contain control characters".into()
            }
            TooManyBlackouts { max, got } => format!("may list at most {max} calendars; got {got}"),
            CalendarNameOutsideCollection { name } => format!(
                "names the calendar '{name}', but only a job in a job collection can refer to a calendar by name \
                 (the collection's properties.calendars); here, write the calendar inline instead: \
                 {{\"name\": \"{name}\", \"dates\": [\"2030-12-25\"]}}"
            ),
            UnknownCalendar { name, known, .. } => {
                let known = if known.is_empty() {
                    "it defines none".to_string()
                } else {
                    format!("it defines {}", known.join(", "))
                };
                format!("the job collection has no calendar named '{name}' in properties.calendars; {known}")
            }
            TooManyDates { max, got } => format!(
                "may list at most {max} dates (use ranges for longer spans); got {got}"
            ),
            TooManyRanges { max, got } => format!("may list at most {max} ranges; got {got}"),
            EndBeforeStart { start, got } => {
                format!("must be on or after start ({start}); got {got}")
            }
            TooManyWindows { max, got } => format!("may list at most {max} windows; got {got}"),
            WindowDaysRequired => "is required: the days of the week the window applies to, such as [\"Saturday\", \"Sunday\"]".into(),
            WindowEndEqualsStart => "must differ from start: a window from 22:00 to 06:00 crosses midnight, one from 00:00 to 24:00 is the whole day".into(),
            DateRequired => "is required (a date such as 2030-12-24)".into(),
            NotADate { got } => format!("'{got}' is not a date; use YYYY-MM-DD such as 2030-12-25"),
            NotATime { got, latest } => {
                format!("'{got}' is not a time of day; use HH:MM from 00:00 to {latest}")
            }
            CommandLineRequired => "is required: the command line to run".into(),
            ProgramRequired => {
                "is required: the program to run (a path, or a name found on PATH)".into()
            }
            ContainsNul => "must not contain a NUL character".into(),
            ArgumentsWithShell => "must be empty when shell is true: write the arguments into the command line in program".into(),
            TooManyArguments { max } => format!("may have at most {max} entries"),
            CommandLineTooLong { max, got } => {
                format!("the command line is {got} characters; it may be at most {max}")
            }
            NotAnAbsolutePath { got } => format!(
                "must be an absolute path such as /home/me or C:\\Users\\me, not '{got}'"
            ),
            TooManyVariables { max } => format!("may have at most {max} variables"),
            NotAVariableName { name } => format!(
                "'{name}' is not a variable name: it must be non-empty, without '=' or NUL"
            ),
            TimeoutOutOfRange => "must be between PT1S and P7D (a week); the default is PT1H".into(),
            NoExitCodes => "must list at least one exit code (leave it out for [0])".into(),
            TooManyExitCodes { max } => format!("may list at most {max} exit codes"),
            NotAnExitCode { got } => format!(
                "{got} is not an exit code: it must be between -2147483648 and 4294967295"
            ),
            JobNameTaken => "a job with this name already exists".into(),
            CollectionNameTaken => "a collection with this name already exists".into(),
            FileRequired => "choose a file".into(),
            PathNotAbsolute { got } => format!("give the full path ({got} is relative)"),
            PassphraseRequired => "give a passphrase to seal the secrets with".into(),
        }
    }

    /// This rule broken at `path`: its English sentence, id and arguments.
    pub fn at(&self, path: impl Into<String>) -> FieldError {
        FieldError::broke(path, self.id(), self.args(), self.english())
    }
}

/// "A, B or C".
fn one_of(values: &[&str]) -> String {
    match values {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn join(values: &[u32], separator: &str) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

fn month_name(month: u32) -> &'static str {
    u8::try_from(month)
        .ok()
        .and_then(|m| chrono::Month::try_from(m).ok())
        .map_or("?", |m| m.name())
}

/// `2030-01` → "January 2030".
fn month_and_year(year_month: &str) -> String {
    match year_month.split_once('-') {
        Some((year, month)) => format!("{} {year}", month_name(month.parse().unwrap_or(0))),
        None => year_month.to_string(),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn never_runs_in_months(
    frequency: &str,
    interval: u32,
    from_month: &str,
    months: &[u32],
    days: &str,
) -> String {
    let every = if frequency == "Year" {
        "every year".to_string()
    } else {
        format!("every {interval} month(s)")
    };
    let names: Vec<&str> = months.iter().map(|&m| month_name(m)).collect();
    format!(
        "never runs: {every} from {} reaches only {}, and {} never has {days}",
        month_and_year(from_month),
        names.join(", "),
        if months.len() == 1 {
            "that month"
        } else {
            "none of these months"
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_is_unique_and_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for id in FieldRule::IDS {
            assert!(seen.insert(id), "{id} is the id of two rules");
            let snake = !id.is_empty()
                && id.starts_with(|c: char| c.is_ascii_lowercase())
                && !id.ends_with('_')
                && !id.contains("__")
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            assert!(snake, "{id} is not snake_case");
        }
        assert!(FieldRule::IDS.len() > 70, "{}", FieldRule::IDS.len());
    }

    #[test]
    fn a_rule_becomes_its_id_args_and_english_sentence() {
        let e = FieldRule::TooLong {
            max: 2048,
            got: 3000,
        }
        .at("properties.action.request.uri");
        assert_eq!(e.rule, Some("too_long"));
        assert_eq!(
            e.args,
            vec![
                ("max", RuleArg::Number(2048)),
                ("got", RuleArg::Number(3000))
            ]
        );
        assert_eq!(e.message, "may be at most 2048 characters; got 3000");
        assert_eq!(
            e.sentence(),
            "properties.action.request.uri: may be at most 2048 characters; got 3000"
        );
    }

    #[test]
    fn lists_are_joined_and_english_names_months() {
        let rule = FieldRule::NeverRunsDayOfMonth {
            frequency: "Month",
            interval: 12,
            from_month: "2030-02".into(),
            months: vec![2],
            month_count: 1,
            day: 30,
        };
        assert_eq!(
            rule.english(),
            "never runs: every 12 month(s) from February 2030 reaches only February, and that month never has the 30th"
        );
        assert!(rule.args().contains(&("months", RuleArg::Text("2".into()))));
        let known = FieldRule::UnknownCalendar {
            name: "x".into(),
            known: vec!["Holidays".into(), "Weekends".into()],
            known_count: 2,
        };
        assert_eq!(
            known.args()[1],
            ("known", RuleArg::Text("Holidays, Weekends".into()))
        );
    }
}
