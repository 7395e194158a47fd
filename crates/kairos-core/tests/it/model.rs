//! The wire model's serde (spec §3, §5, §7, §8, §10.2, §16): what real clients send is read, one
//! canonical form is written, and secrets never come back out.

use kairos_core::document::parse_job_document;
use kairos_core::model::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt::Debug;

/// Secret values used in the documents below; none may appear in any output.
const SECRETS: &[&str] = &[
    "basic-pw-1",
    "pfx-pw-2",
    "TUlJQ0lqQU5CZ2txaGtpRzl3MEJBUUVGQUFP",
    "oauth-secret-3",
    "sv=2019&sig=sas-token-4",
    "sas-key-5",
];

/// Parse a job document (ARM or bare form) and check its canonical serialization, which must be
/// stable: parsing the output again gives the same output.
fn check(input: &str, expected: Value) -> JobProperties {
    let props =
        parse_job_document(input).unwrap_or_else(|e| panic!("{input}\n  does not parse: {e}"));
    let out = serde_json::to_value(&props).unwrap();
    assert_eq!(out, expected, "canonical form of {input}");
    let text = out.to_string();
    for secret in SECRETS {
        assert!(
            !text.contains(secret),
            "secret {secret:?} leaked into {text}"
        );
    }
    let again =
        parse_job_document(&text).unwrap_or_else(|e| panic!("output {text} does not parse: {e}"));
    assert_eq!(
        serde_json::to_value(&again).unwrap(),
        out,
        "output of {input} is not stable"
    );
    props
}

/// A wire enum: `input` (a JSON string's content) reads as the value whose canonical spelling is
/// `expected`, or is rejected with a message listing the accepted values.
fn check_enum<T>(input: &str, expected: Option<&str>)
where
    T: DeserializeOwned + Serialize + Debug,
{
    let parsed = serde_json::from_value::<T>(json!(input));
    match (parsed, expected) {
        (Ok(v), Some(want)) => {
            assert_eq!(
                serde_json::to_value(&v).unwrap(),
                json!(want),
                "{input:?} as {}",
                std::any::type_name::<T>()
            )
        }
        (Ok(v), None) => panic!("{input:?} should be rejected, read as {v:?}"),
        (Err(e), Some(want)) => panic!("{input:?} should read as {want}: {e}"),
        (Err(e), None) => {
            let message = e.to_string();
            assert!(
                message.contains(&format!("'{input}' is not a valid value; expected ")),
                "{message}"
            );
        }
    }
}

/// `check_enum` for one enum type.
type EnumCheck = fn(&str, Option<&str>);

/// Minimal job around one action, bare form.
fn with_action(action: Value) -> String {
    json!({ "action": action }).to_string()
}

fn http(request: Value) -> Value {
    json!({"type": "Http", "request": request})
}

// ---- enums --------------------------------------------------------------------------------

#[test]
fn enums_read_in_any_case_and_write_pascal_case() {
    for input in ["Week", "week", "WEEK", "wEeK", " Week ", "weekly", "Weekly"] {
        check_enum::<RecurrenceFrequency>(input, Some("Week"));
    }
    for (input, want) in [
        ("monthly", "Month"),
        ("MONTH", "Month"),
        ("daily", "Day"),
        ("hourly", "Hour"),
        ("minutely", "Minute"),
        ("minute", "Minute"),
    ] {
        check_enum::<RecurrenceFrequency>(input, Some(want));
    }
    // Year is the 2015 classic API's frequency.
    for (input, want) in [("year", "Year"), ("yearly", "Year"), ("YEAR", "Year")] {
        check_enum::<RecurrenceFrequency>(input, Some(want));
    }
    for bad in ["Years", "annually", "", "Weeks", "W"] {
        check_enum::<RecurrenceFrequency>(bad, None);
    }
    let msg = serde_json::from_value::<RecurrenceFrequency>(json!("Fortnight"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "'Fortnight' is not a valid value; expected Minute, Hour, Day, Week, Month or Year"
    );
    assert!(serde_json::from_value::<RecurrenceFrequency>(json!(1)).is_err());

    let cases: &[(&str, &str, EnumCheck)] = &[
        ("http", "Http", check_enum::<ActionType>),
        ("HTTPS", "Https", check_enum::<ActionType>),
        ("storageQueue", "StorageQueue", check_enum::<ActionType>),
        (
            "servicebusqueue",
            "ServiceBusQueue",
            check_enum::<ActionType>,
        ),
        (
            "SERVICEBUSTOPIC",
            "ServiceBusTopic",
            check_enum::<ActionType>,
        ),
        (
            "clientcertificate",
            "ClientCertificate",
            check_enum::<HttpAuthenticationType>,
        ),
        ("basic", "Basic", check_enum::<HttpAuthenticationType>),
        (
            "activeDirectoryOAuth",
            "ActiveDirectoryOAuth",
            check_enum::<HttpAuthenticationType>,
        ),
        (
            "notspecified",
            "NotSpecified",
            check_enum::<HttpAuthenticationType>,
        ),
        ("fixed", "Fixed", check_enum::<RetryType>),
        ("none", "None", check_enum::<RetryType>),
        ("monday", "Monday", check_enum::<DayOfWeek>),
        ("SUNDAY", "Sunday", check_enum::<DayOfWeek>),
        ("enabled", "Enabled", check_enum::<JobState>),
        ("faulted", "Faulted", check_enum::<JobState>),
        ("suspended", "Suspended", check_enum::<JobCollectionState>),
        ("free", "Free", check_enum::<SkuName>),
        ("p20premium", "P20Premium", check_enum::<SkuName>),
        (
            "netMessaging",
            "NetMessaging",
            check_enum::<ServiceBusTransportType>,
        ),
        ("amqp", "AMQP", check_enum::<ServiceBusTransportType>),
        (
            "sharedAccessKey",
            "SharedAccessKey",
            check_enum::<ServiceBusAuthenticationType>,
        ),
        (
            "erroraction",
            "ErrorAction",
            check_enum::<JobHistoryActionName>,
        ),
        ("postponed", "Postponed", check_enum::<JobExecutionStatus>),
    ];
    for (input, want, check) in cases {
        check(input, Some(*want));
    }
    check_enum::<ActionType>("Ftp", None);
    check_enum::<RetryType>("exponential", Some("Exponential"));
    check_enum::<RetryType>("Linear", None);
    check_enum::<DayOfWeek>("Mon", None);
    check_enum::<SkuName>("Premium", None);

    // Every value reads back from its own spelling, in any case.
    for f in RecurrenceFrequency::ALL {
        assert_eq!(RecurrenceFrequency::parse(f.as_str()), Some(*f));
        assert_eq!(
            RecurrenceFrequency::parse(&f.as_str().to_lowercase()),
            Some(*f)
        );
        assert_eq!(
            RecurrenceFrequency::parse(&f.as_str().to_uppercase()),
            Some(*f)
        );
        assert_eq!(f.to_string(), f.as_str());
    }
    for d in DayOfWeek::ALL {
        assert_eq!(DayOfWeek::parse(&d.as_str().to_lowercase()), Some(*d));
    }
    assert_eq!(DayOfWeek::ALL.len(), 7);
}

#[test]
fn enums_in_a_job_as_the_live_service_echoed_them() {
    // Spec §5.7: the service lowercased several enums in responses; clients send those back.
    let input = r#"{"properties":{
        "action":{"type":"serviceBusQueue","serviceBusQueueMessage":{"namespace":"ns","queueName":"q",
            "transportType":"netMessaging","authentication":{"sasKeyName":"k","sasKey":"sas-key-5","type":"sharedAccessKey"}},
            "retryPolicy":{"retryType":"fixed","retryInterval":"00:00:30","retryCount":4}},
        "recurrence":{"frequency":"week","interval":1,"schedule":{"weekDays":["monday","FRIDAY"]}},
        "state":"enabled"}}"#;
    check(
        input,
        json!({
            "action": {
                "serviceBusQueueMessage": {"queueName": "q", "authentication": {"sasKeyName": "k", "type": "SharedAccessKey"},
                                           "namespace": "ns", "transportType": "NetMessaging"},
                "type": "ServiceBusQueue",
                "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT30S", "retryCount": 4}
            },
            "recurrence": {"frequency": "Week", "interval": 1, "schedule": {"weekDays": ["Monday", "Friday"]}},
            "state": "Enabled"
        }),
    );
    // The docs' adverbs.
    check(
        r#"{"recurrence":{"frequency":"monthly","schedule":{"monthDays":[1]}}}"#,
        json!({"recurrence": {"frequency": "Month", "schedule": {"monthDays": [1]}}}),
    );
}

// ---- schedule fields ----------------------------------------------------------------------

#[test]
fn monthly_occurrence_spellings() {
    let occurrences = |items: Value| {
        json!({"recurrence": {"frequency": "Month", "schedule": {"monthlyOccurrences": items}}})
            .to_string()
    };
    let expected = |items: Value| json!({"recurrence": {"frequency": "Month", "schedule": {"monthlyOccurrences": items}}});
    check(
        &occurrences(json!([{"day": "Monday", "Occurrence": 1}])),
        expected(json!([{"day": "Monday", "Occurrence": 1}])),
    );
    check(
        &occurrences(json!([{"day": "tuesday", "occurrence": -1}])),
        expected(json!([{"day": "Tuesday", "Occurrence": -1}])),
    );
    check(
        &occurrences(json!([{"day": "Friday"}])),
        expected(json!([{"day": "Friday"}])),
    );
    check(
        &occurrences(json!([{"day": "Friday", "Occurrence": null}])),
        expected(json!([{"day": "Friday"}])),
    );
    let props = check(
        &occurrences(
            json!([{"day": "Sunday", "occurrence": 5}, {"day": "Sunday", "Occurrence": -5}]),
        ),
        expected(json!([{"day": "Sunday", "Occurrence": 5}, {"day": "Sunday", "Occurrence": -5}])),
    );
    let schedule = props.recurrence.unwrap().schedule.unwrap();
    assert_eq!(
        schedule.monthly_occurrences.unwrap(),
        [
            MonthlyOccurrence {
                day: Some(DayOfWeek::Sunday),
                occurrence: Some(5)
            },
            MonthlyOccurrence {
                day: Some(DayOfWeek::Sunday),
                occurrence: Some(-5)
            },
        ]
    );
    // The struct serializes with the capital O directly, too.
    let one = MonthlyOccurrence {
        day: Some(DayOfWeek::Wednesday),
        occurrence: Some(2),
    };
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        r#"{"day":"Wednesday","Occurrence":2}"#
    );
}

#[test]
fn single_values_where_lists_are_expected() {
    let schedule =
        |s: Value| json!({"recurrence": {"frequency": "Week", "schedule": s}}).to_string();
    let expected = |s: Value| json!({"recurrence": {"frequency": "Week", "schedule": s}});
    check(
        &schedule(json!({"hours": 5})),
        expected(json!({"hours": [5]})),
    );
    check(
        &schedule(json!({"minutes": 0})),
        expected(json!({"minutes": [0]})),
    );
    check(
        &schedule(json!({"hours": [5, 17], "minutes": [0, 30]})),
        expected(json!({"hours": [5, 17], "minutes": [0, 30]})),
    );
    check(
        &schedule(json!({"weekDays": "friday"})),
        expected(json!({"weekDays": ["Friday"]})),
    );
    check(
        &schedule(json!({"weekDays": ["saturday", "Sunday"]})),
        expected(json!({"weekDays": ["Saturday", "Sunday"]})),
    );
    check(
        &schedule(json!({"monthDays": -1})),
        expected(json!({"monthDays": [-1]})),
    );
    // The docs' singular names.
    check(
        &schedule(json!({"hour": 6, "minute": [15]})),
        expected(json!({"hours": [6], "minutes": [15]})),
    );
    // null is absent; an empty list is kept as given.
    check(
        &schedule(json!({"hours": null, "minutes": null, "weekDays": null, "monthDays": null})),
        expected(json!({})),
    );
    check(
        &schedule(json!({"hours": []})),
        expected(json!({"hours": []})),
    );
    // Field order on output: weekDays, hours, minutes, monthDays, monthlyOccurrences.
    let props = parse_job_document(&schedule(
        json!({"monthDays": 1, "minutes": 2, "hours": 3, "weekDays": "monday"}),
    ))
    .unwrap();
    let out = serde_json::to_string(&props.recurrence.unwrap().schedule.unwrap()).unwrap();
    assert_eq!(
        out,
        r#"{"weekDays":["Monday"],"hours":[3],"minutes":[2],"monthDays":[1]}"#
    );
}

// ---- durations and dates ------------------------------------------------------------------

#[test]
fn durations_read_as_timespan_or_iso_and_write_iso() {
    let policy = |interval: &str| {
        with_action(
            json!({"type": "Notification", "retryPolicy": {"retryType": "Fixed", "retryInterval": interval}}),
        )
    };
    let expected = |interval: &str| json!({"action": {"type": "Notification", "retryPolicy": {"retryType": "Fixed", "retryInterval": interval}}});
    for (input, output) in [
        ("00:01:00", "PT1M"),
        ("PT1M", "PT1M"),
        ("PT30S", "PT30S"),
        ("00:00:30", "PT30S"),
        ("pt30s", "PT30S"),
        ("PT60S", "PT1M"),
        ("PT90S", "PT1M30S"),
        ("01:30:00", "PT1H30M"),
        ("1.00:00:00", "P1D"),
        ("548.00:00:00", "P548D"),
        ("PT1D", "P1D"),
        ("P1DT2H3M4S", "P1DT2H3M4S"),
        ("P2W", "P14D"),
        ("00:00:15.5", "PT15.5S"),
        ("PT0.25S", "PT0.25S"),
    ] {
        check(&policy(input), expected(output));
    }
    let props = check(&policy("00:01:00"), expected("PT1M"));
    let retry = props.action.unwrap().retry_policy.unwrap();
    assert_eq!(
        retry.retry_interval,
        Some(std::time::Duration::from_secs(60))
    );
    for bad in [
        "1 minute",
        "P",
        "PT",
        "00:60:00",
        "-PT1M",
        "60",
        "213503982334602.00:00:00",
    ] {
        let err = parse_job_document(&policy(bad)).unwrap_err();
        assert_eq!(
            err.first().path,
            "properties.action.retryPolicy.retryInterval",
            "{bad}"
        );
        assert!(
            err.first().message.contains("is not a duration"),
            "{bad}: {err}"
        );
    }
    // Brokered message time-to-live is a duration too.
    let bus = with_action(
        json!({"type": "ServiceBusTopic", "serviceBusTopicMessage": {
        "topicPath": "t", "namespace": "ns",
        "brokeredMessageProperties": {"timeToLive": "00:01:30", "scheduledEnqueueTimeUtc": "2030-01-01T10:00", "label": "l", "forcePersistence": true}}}),
    );
    check(
        &bus,
        json!({"action": {"serviceBusTopicMessage": {"topicPath": "t",
            "brokeredMessageProperties": {"forcePersistence": true, "label": "l", "scheduledEnqueueTimeUtc": "2030-01-01T10:00:00Z", "timeToLive": "PT1M30S"},
            "namespace": "ns"}, "type": "ServiceBusTopic"}}),
    );
}

#[test]
fn dates_read_leniently_and_write_rfc3339_utc() {
    let start = |t: &str| json!({"startTime": t}).to_string();
    for (input, output) in [
        ("2030-01-01T08:00:00Z", "2030-01-01T08:00:00Z"),
        ("2030-01-01T08:00Z", "2030-01-01T08:00:00Z"),
        ("2030-01-01T08:00", "2030-01-01T08:00:00Z"),
        ("2030-01-01T08:00:00", "2030-01-01T08:00:00Z"),
        ("2030-01-01", "2030-01-01T00:00:00Z"),
        ("2030-01-01T08:00:00-08:00", "2030-01-01T16:00:00Z"),
        ("2030-01-01T01:00:00+02:00", "2029-12-31T23:00:00Z"),
        ("2030-01-01T08:00:00+0530", "2030-01-01T02:30:00Z"),
        ("2030-01-01 08:00:00", "2030-01-01T08:00:00Z"),
        ("2030-01-01t08:00:00z", "2030-01-01T08:00:00Z"),
        ("2030-01-01T08:00:00.250+01:00", "2030-01-01T07:00:00.250Z"),
    ] {
        check(&start(input), json!({"startTime": output}));
    }
    for bad in [
        "2030-13-01",
        "01/02/2030",
        "2030-01-01T24:00:00Z",
        "now",
        "",
    ] {
        let err = parse_job_document(&start(bad)).unwrap_err();
        assert_eq!(err.first().path, "properties.startTime", "{bad:?}");
        assert!(
            err.first().message.contains("is not a date-time"),
            "{bad:?}: {err}"
        );
    }
    // Years 0001 to 9999 only, as written and once in UTC: beyond them date arithmetic would
    // overflow (`+262142-…` used to panic the parser).
    for far in [
        "+262142-12-31T23:00-05:00",
        "-262143-01-01T00:00:00Z",
        "+10000-01-01",
        "0000-12-31T23:00:00Z",
        "9999-12-31T23:00-05:00",
        "0001-01-01T00:30:00+01:00",
    ] {
        let err = parse_job_document(&start(far)).unwrap_err();
        assert_eq!(err.first().path, "properties.startTime", "{far:?}");
        assert!(
            err.first()
                .message
                .contains("is out of range; a date-time must lie in the years 0001 to 9999"),
            "{far:?}: {err}"
        );
    }
    check(
        &start("9999-12-31T23:59:59Z"),
        json!({"startTime": "9999-12-31T23:59:59Z"}),
    );
    check(
        &start("0001-01-01T00:00:00Z"),
        json!({"startTime": "0001-01-01T00:00:00Z"}),
    );
    // The other date-time fields share the treatment.
    check(
        r#"{"recurrence":{"frequency":"Day","endTime":"2035-06-30"}}"#,
        json!({"recurrence": {"frequency": "Day", "endTime": "2035-06-30T00:00:00Z"}}),
    );
    let status: JobStatus = serde_json::from_value(json!({
        "lastExecutionTime": "2030-01-01T08:00:00.1234567",
        "nextExecutionTime": "2030-01-01T09:00-01:00"
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_value(&status).unwrap(),
        json!({"executionCount": 0, "failureCount": 0, "faultedCount": 0,
               "lastExecutionTime": "2030-01-01T08:00:00.123456700Z", "nextExecutionTime": "2030-01-01T10:00:00Z"})
    );
    // In a job document the status is the service's: dropped on input whatever it holds, even
    // when it would not parse (the 2015 page's example has a time with a trailing space).
    for status in [
        json!({"lastExecutionTime": "2030-01-01T08:00:00Z", "executionCount": 3}),
        json!({"nextExecutionTime": "2007-03-01T14:00:00Z ", "executionCount": "three"}),
        json!("not even an object"),
    ] {
        check(
            &json!({"recurrence": {"frequency": "Day"}, "status": status}).to_string(),
            json!({"recurrence": {"frequency": "Day"}}),
        );
        check(
            &json!({"properties": {"status": status}}).to_string(),
            json!({}),
        );
    }
    // startTime: null is no start time.
    let props = check(r#"{"startTime":null}"#, json!({}));
    assert_eq!(props.start_time, None);
}

// ---- secrets ------------------------------------------------------------------------------

#[test]
fn secrets_are_read_but_never_written() {
    let input = json!({"properties": {"action": {
        "type": "Https",
        "request": {"uri": "https://h/", "method": "GET",
                    "authentication": {"type": "ActiveDirectoryOAuth", "tenant": "contoso.com", "audience": "https://management.core.windows.net/",
                                       "clientId": "client-1", "secret": "oauth-secret-3"}},
        "errorAction": {"type": "StorageQueue",
                        "queueMessage": {"storageAccount": "acct", "queueName": "errors", "sasToken": "sv=2019&sig=sas-token-4", "message": "m"}}
    }}})
    .to_string();
    let props = check(
        &input,
        json!({"action": {
            "request": {"authentication": {"type": "ActiveDirectoryOAuth", "tenant": "contoso.com",
                                           "audience": "https://management.core.windows.net/", "clientId": "client-1"},
                        "uri": "https://h/", "method": "GET"},
            "type": "Https",
            "errorAction": {"queueMessage": {"storageAccount": "acct", "queueName": "errors", "message": "m"}, "type": "StorageQueue"}
        }}),
    );
    // The engine can still read them.
    let action = props.action.as_ref().unwrap();
    let auth = action
        .request
        .as_ref()
        .unwrap()
        .authentication
        .as_ref()
        .unwrap();
    assert_eq!(
        auth.secret.as_ref().map(Secret::expose),
        Some("oauth-secret-3")
    );
    let queue = action
        .error_action
        .as_ref()
        .unwrap()
        .queue_message
        .as_ref()
        .unwrap();
    assert_eq!(
        queue.sas_token.as_ref().map(Secret::expose),
        Some("sv=2019&sig=sas-token-4")
    );
    // Debug output is masked all the way down.
    let debug = format!("{props:?} {:#?}", props);
    for secret in SECRETS {
        assert!(!debug.contains(secret), "secret {secret:?} in Debug output");
    }
    assert!(debug.contains("Secret(***)"));

    // Basic: username stays, password goes.
    check(
        &with_action(http(
            json!({"uri": "http://h/", "method": "GET", "authentication": {"type": "Basic", "username": "alice", "password": "basic-pw-1"}}),
        )),
        json!({"action": {"request": {"authentication": {"type": "Basic", "username": "alice"}, "uri": "http://h/", "method": "GET"}, "type": "Http"}}),
    );
    // ClientCertificate: pfx and password go; the public certificate facts stay, the docs'
    // `certificateExpiration` is read as the swagger's `certificateExpirationDate`.
    check(
        &with_action(http(
            json!({"uri": "http://h/", "method": "GET", "authentication": {
            "type": "clientcertificate", "pfx": "TUlJQ0lqQU5CZ2txaGtpRzl3MEJBUUVGQUFP", "password": "pfx-pw-2",
            "certificateThumbprint": "88D7F7A8F3F8B14E1C3B8C31F0CC8C1E3F5D9A3B", "certificateSubjectName": "CN=Scheduler Mgmt",
            "certificateExpiration": "2034-01-01T00:00:00"}}),
        )),
        json!({"action": {"request": {"authentication": {
            "type": "ClientCertificate", "certificateThumbprint": "88D7F7A8F3F8B14E1C3B8C31F0CC8C1E3F5D9A3B",
            "certificateExpirationDate": "2034-01-01T00:00:00Z", "certificateSubjectName": "CN=Scheduler Mgmt"},
            "uri": "http://h/", "method": "GET"}, "type": "Http"}}),
    );
    // Service Bus: sasKey goes, sasKeyName and type stay.
    check(
        &with_action(
            json!({"type": "ServiceBusQueue", "serviceBusQueueMessage": {"queueName": "q", "namespace": "ns",
            "authentication": {"sasKeyName": "RootManageSharedAccessKey", "sasKey": "sas-key-5", "type": "SharedAccessKey"}}}),
        ),
        json!({"action": {"serviceBusQueueMessage": {"queueName": "q",
            "authentication": {"sasKeyName": "RootManageSharedAccessKey", "type": "SharedAccessKey"}, "namespace": "ns"},
            "type": "ServiceBusQueue"}}),
    );
    // A struct built in code serializes the same way.
    let built = HttpAuthentication {
        auth_type: Some(HttpAuthenticationType::Basic),
        username: Some("bob".into()),
        password: Some(Secret::new("basic-pw-1")),
        pfx: Some(Secret::new("TUlJQ0lqQU5CZ2txaGtpRzl3MEJBUUVGQUFP")),
        secret: Some(Secret::new("oauth-secret-3")),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        r#"{"type":"Basic","username":"bob"}"#
    );
    let sb = ServiceBusAuthentication {
        sas_key: Some(Secret::new("sas-key-5")),
        sas_key_name: None,
        auth_type: None,
    };
    assert_eq!(serde_json::to_string(&sb).unwrap(), "{}");
    let sq = StorageQueueMessage {
        sas_token: Some(Secret::new("sv=2019&sig=sas-token-4")),
        ..Default::default()
    };
    assert_eq!(serde_json::to_string(&sq).unwrap(), "{}");
}

#[test]
fn secret_debug_is_masked() {
    let s = Secret::new("hunter2");
    assert_eq!(format!("{s:?}"), "Secret(***)");
    assert_eq!(format!("{s:#?}"), "Secret(***)");
    assert!(!format!("{:?}", Some(&s)).contains("hunter2"));
    assert_eq!(s.expose(), "hunter2");
    assert!(!s.is_empty());
    assert!(Secret::new("").is_empty());
    let read: Secret = serde_json::from_value(json!("hunter2")).unwrap();
    assert_eq!(read, s);
    // A secret of the wrong type is rejected without quoting it.
    for wrong in [
        json!(86753091),
        json!(-4.5),
        json!(true),
        json!(["hunter2"]),
        json!({"v": "hunter2"}),
    ] {
        let message = serde_json::from_value::<Secret>(wrong.clone())
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("expected a string") || message.contains("expected a string"),
            "{message}"
        );
        for shown in ["86753091", "4.5", "true", "hunter2"] {
            assert!(!message.contains(shown), "{wrong} quoted in {message:?}");
        }
    }
}

#[test]
fn null_authentication_is_none() {
    let props = check(
        &with_action(http(
            json!({"uri": "http://h/", "method": "GET", "authentication": null}),
        )),
        json!({"action": {"request": {"uri": "http://h/", "method": "GET"}, "type": "Http"}}),
    );
    assert_eq!(props.action.unwrap().request.unwrap().authentication, None);
    let props = check(
        &with_action(
            json!({"type": "ServiceBusQueue", "serviceBusQueueMessage": {"queueName": "q", "authentication": null}, "retryPolicy": null, "errorAction": null}),
        ),
        json!({"action": {"serviceBusQueueMessage": {"queueName": "q"}, "type": "ServiceBusQueue"}}),
    );
    let action = props.action.unwrap();
    assert_eq!(
        action.service_bus_queue_message.unwrap().authentication,
        None
    );
    assert_eq!((action.retry_policy, action.error_action), (None, None));
}

// ---- whole documents (spec §16) -----------------------------------------------------------

const SPEC_JOB_REQUEST: &str = r#"{"properties":{"startTime":"2030-01-01T08:00:00Z",
  "action":{"type":"Http","request":{"uri":"http://127.0.0.1:8080/ping","method":"POST","body":"hi",
            "headers":{"Content-Type":"text/plain"},
            "authentication":{"type":"Basic","username":"u","password":"p"}},
            "retryPolicy":{"retryType":"Fixed","retryInterval":"PT1M","retryCount":2},
            "errorAction":{"type":"StorageQueue","queueMessage":{"storageAccount":"devstoreaccount1",
               "queueName":"errors","sasToken":"sv=…&sig=…","message":"ping failed"}}},
  "recurrence":{"frequency":"Hour","interval":6,"count":10},
  "state":"Enabled"}}"#;

/// The §16 job as the service returns it: the request minus password and sasToken.
fn spec_job_properties() -> Value {
    json!({
        "startTime": "2030-01-01T08:00:00Z",
        "action": {
            "request": {"authentication": {"type": "Basic", "username": "u"},
                        "uri": "http://127.0.0.1:8080/ping", "method": "POST", "body": "hi",
                        "headers": {"Content-Type": "text/plain"}},
            "type": "Http",
            "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 2},
            "errorAction": {"queueMessage": {"storageAccount": "devstoreaccount1", "queueName": "errors", "message": "ping failed"},
                            "type": "StorageQueue"}
        },
        "recurrence": {"frequency": "Hour", "interval": 6, "count": 10},
        "state": "Enabled"
    })
}

#[test]
fn spec_example_job_round_trips() {
    let props = check(SPEC_JOB_REQUEST, spec_job_properties());
    // Secrets were read.
    let action = props.action.as_ref().unwrap();
    let auth = action
        .request
        .as_ref()
        .unwrap()
        .authentication
        .as_ref()
        .unwrap();
    assert_eq!(auth.password.as_ref().map(Secret::expose), Some("p"));
    let sas = action
        .error_action
        .as_ref()
        .unwrap()
        .queue_message
        .as_ref()
        .unwrap()
        .sas_token
        .as_ref();
    assert_eq!(sas.map(Secret::expose), Some("sv=…&sig=…"));
    // Property order as the live service sent it (§5.7): payload, type, retryPolicy, errorAction.
    let out = serde_json::to_value(&props).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&out), ["startTime", "action", "recurrence", "state"]);
    assert_eq!(
        keys(&out["action"]),
        ["request", "type", "retryPolicy", "errorAction"]
    );
    assert_eq!(
        keys(&out["action"]["errorAction"]),
        ["queueMessage", "type"]
    );
    let text = out.to_string();
    assert!(
        !text.contains("password") && !text.contains("sasToken"),
        "{text}"
    );

    // The 201 response: resource envelope plus the service-owned status.
    let mut properties = spec_job_properties();
    properties["status"] = json!({"nextExecutionTime": "2030-01-01T08:00:00Z", "executionCount": 0, "failureCount": 0, "faultedCount": 0});
    let response = json!({
        "id": "/subscriptions/0000…/resourceGroups/rg1/providers/Microsoft.Scheduler/jobCollections/jc1/jobs/ping",
        "type": "Microsoft.Scheduler/jobCollections/jobs",
        "name": "jc1/ping",
        "properties": properties
    });
    let job: JobDefinition = serde_json::from_value(response.clone()).unwrap();
    assert_eq!(job.name.as_deref(), Some("jc1/ping"));
    let status = job.properties.status.as_ref().unwrap();
    assert_eq!(
        (
            status.execution_count,
            status.failure_count,
            status.faulted_count
        ),
        (0, 0, 0)
    );
    assert_eq!(status.last_execution_time, None);
    assert_eq!(serde_json::to_value(&job).unwrap(), response);
    // A status with a run: lastExecutionTime appears.
    let ran = JobStatus {
        execution_count: 5,
        failure_count: 5,
        faulted_count: 1,
        last_execution_time: Some("2030-01-01T08:02:00.5Z".parse().unwrap()),
        next_execution_time: None,
    };
    assert_eq!(
        serde_json::to_value(&ran).unwrap(),
        json!({"executionCount": 5, "failureCount": 5, "faultedCount": 1, "lastExecutionTime": "2030-01-01T08:02:00.500Z"})
    );
    // The bare properties form reads the same.
    let bare = serde_json::to_string(
        &serde_json::from_str::<Value>(SPEC_JOB_REQUEST).unwrap()["properties"],
    )
    .unwrap();
    assert_eq!(parse_job_document(&bare).unwrap(), props);
}

/// A job collection definition: read, then written canonically.
fn check_collection(input: Value, expected: Value) -> JobCollectionDefinition {
    let jc: JobCollectionDefinition =
        serde_json::from_value(input.clone()).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert_eq!(
        serde_json::to_value(&jc).unwrap(),
        expected,
        "canonical form of {input}"
    );
    jc
}

#[test]
fn spec_example_job_collection_round_trips() {
    let request = json!({"location": "West US", "properties": {"sku": {"name": "Standard"},
        "quota": {"maxJobCount": 50, "maxRecurrence": {"frequency": "Minute", "interval": 1}}}});
    let jc = check_collection(request.clone(), request);
    let quota = jc.properties.quota.unwrap();
    assert_eq!(quota.max_job_count, Some(50));
    let max = quota.max_recurrence.unwrap();
    assert_eq!(
        (max.frequency, max.interval),
        (Some(RecurrenceFrequency::Minute), Some(1))
    );

    let response = json!({
        "id": "/subscriptions/0000…/resourceGroups/rg1/providers/Microsoft.Scheduler/jobCollections/jc1",
        "type": "Microsoft.Scheduler/jobCollections", "name": "jc1", "location": "West US",
        "properties": {"sku": {"name": "Standard"}, "state": "Enabled",
                       "quota": {"maxJobCount": 50, "maxRecurrence": {"frequency": "Minute", "interval": 1}}}});
    let jc = check_collection(response.clone(), response);
    assert_eq!(jc.properties.state, Some(JobCollectionState::Enabled));
    assert_eq!(
        jc.properties.sku.and_then(|s| s.name),
        Some(SkuName::Standard)
    );

    // As the service echoed it: lowercased frequency, undocumented maxJobOccurrence kept, tags.
    check_collection(
        json!({"location": "westus", "tags": {"env": "dev", "a": "b"}, "properties": {"sku": {"name": "p10premium"}, "state": "disabled",
               "quota": {"maxJobCount": 10, "maxJobOccurrence": 0, "maxRecurrence": {"frequency": "minute", "interval": 5}}}}),
        json!({"location": "westus", "tags": {"env": "dev", "a": "b"}, "properties": {"sku": {"name": "P10Premium"}, "state": "Disabled",
               "quota": {"maxJobCount": 10, "maxJobOccurrence": 0, "maxRecurrence": {"frequency": "Minute", "interval": 5}}}}),
    );
    // No quota sent, none echoed (§3).
    let free = check_collection(
        json!({"location": "westus", "properties": {"sku": {"name": "Free"}}}),
        json!({"location": "westus", "properties": {"sku": {"name": "Free"}}}),
    );
    assert_eq!(free.properties.quota, None);
    // Plan defaults (§4).
    let free = SkuName::Free.limits();
    assert_eq!(
        (
            free.max_job_count,
            free.max_recurrence,
            free.outbound_authentication
        ),
        (5, (RecurrenceFrequency::Hour, 1), false)
    );
    let standard = SkuName::Standard.limits();
    assert_eq!(
        (
            standard.max_job_count,
            standard.max_recurrence,
            standard.outbound_authentication
        ),
        (50, (RecurrenceFrequency::Minute, 1), true)
    );
    assert_eq!(SkuName::P20Premium.limits().max_job_count, 1000);
    assert!(serde_json::from_value::<JobCollectionDefinition>(
        json!({"properties": {"sku": {"name": "Gold"}}})
    )
    .is_err());
}

#[test]
fn history_record_and_list_result() {
    let record = JobHistoryDefinition {
        id: Some("/subscriptions/s/resourceGroups/rg1/providers/Microsoft.Scheduler/jobCollections/jc1/jobs/ping/history/0000000000000000001:0000000000000000002".into()),
        resource_type: Some("Microsoft.Scheduler/jobCollections/jobs/history".into()),
        name: Some("jc1/ping/0000000000000000001:0000000000000000002".into()),
        properties: JobHistoryProperties {
            start_time: Some("2030-01-01T08:00:00Z".parse().unwrap()),
            end_time: Some("2030-01-01T08:00:00.250Z".parse().unwrap()),
            expected_execution_time: Some("2030-01-01T08:00:00Z".parse().unwrap()),
            action_name: Some(JobHistoryActionName::MainAction),
            status: Some(JobExecutionStatus::Failed),
            message: Some("Http Action - Response from host '127.0.0.1': 'ServiceUnavailable'".into()),
            retry_count: Some(0),
            repeat_count: Some(1),
        },
    };
    let expected = json!({
        "id": "/subscriptions/s/resourceGroups/rg1/providers/Microsoft.Scheduler/jobCollections/jc1/jobs/ping/history/0000000000000000001:0000000000000000002",
        "type": "Microsoft.Scheduler/jobCollections/jobs/history",
        "name": "jc1/ping/0000000000000000001:0000000000000000002",
        "properties": {
            "startTime": "2030-01-01T08:00:00Z",
            "endTime": "2030-01-01T08:00:00.250Z",
            "expectedExecutionTime": "2030-01-01T08:00:00Z",
            "actionName": "MainAction",
            "status": "Failed",
            "message": "Http Action - Response from host '127.0.0.1': 'ServiceUnavailable'",
            "retryCount": 0,
            "repeatCount": 1
        }
    });
    assert_eq!(serde_json::to_value(&record).unwrap(), expected);
    let keys: Vec<_> = serde_json::to_value(&record).unwrap()["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        [
            "startTime",
            "endTime",
            "expectedExecutionTime",
            "actionName",
            "status",
            "message",
            "retryCount",
            "repeatCount"
        ]
    );
    assert_eq!(
        serde_json::from_value::<JobHistoryDefinition>(expected.clone()).unwrap(),
        record
    );

    // The last page: nextLink present and null.
    let page = ListResult {
        value: vec![record.clone()],
        next_link: None,
    };
    assert_eq!(
        serde_json::to_value(&page).unwrap(),
        json!({"value": [expected], "nextLink": null})
    );
    assert!(serde_json::to_string(&ListResult::<JobHistoryDefinition> {
        value: vec![],
        next_link: None
    })
    .unwrap()
    .contains(r#""nextLink":null"#));
    let more = ListResult {
        value: Vec::<JobHistoryDefinition>::new(),
        next_link: Some("https://host/next?$skiptoken=1".into()),
    };
    assert_eq!(
        serde_json::to_value(&more).unwrap(),
        json!({"value": [], "nextLink": "https://host/next?$skiptoken=1"})
    );
    // Reading: a missing nextLink is the last page.
    let read: ListResult<JobHistoryDefinition> =
        serde_json::from_value(json!({"value": []})).unwrap();
    assert_eq!(read.next_link, None);

    // The live service omitted status on Completed entries; it reads as absent and stays absent.
    let live = json!({"properties": {"startTime": "2016-03-30T19:32:17.0468373Z", "actionName": "mainAction", "retryCount": 0, "repeatCount": 1}});
    let h: JobHistoryDefinition = serde_json::from_value(live).unwrap();
    assert_eq!(h.properties.status, None);
    assert_eq!(
        h.properties.action_name,
        Some(JobHistoryActionName::MainAction)
    );
    assert_eq!(
        serde_json::to_value(&h).unwrap(),
        json!({"properties": {"startTime": "2016-03-30T19:32:17.046837300Z", "actionName": "MainAction", "retryCount": 0, "repeatCount": 1}})
    );
    // Error-action records.
    let err = JobHistoryProperties {
        action_name: Some(JobHistoryActionName::ErrorAction),
        status: Some(JobExecutionStatus::Completed),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"actionName": "ErrorAction", "status": "Completed"})
    );
}

#[test]
fn unknown_and_read_only_fields() {
    // Fields outside the API are dropped, not echoed; the 2015 API's `months` is kept.
    check(
        r#"{"recurrence":{"frequency":"Month","schedule":{"months":[1,6],"monthDays":[1]},"bar":2},"foo":1}"#,
        json!({"recurrence": {"frequency": "Month", "schedule": {"monthDays": [1], "months": [1, 6]}}}),
    );
    // An empty document is an empty job.
    check("{}", json!({}));
    check(r#"{"properties":{}}"#, json!({}));
    assert_eq!(parse_job_document("{}").unwrap(), JobProperties::default());
    // Notification, our own action.
    check(
        &with_action(json!({"type": "notification", "notification": {"title": "t", "body": "b"}})),
        json!({"action": {"notification": {"title": "t", "body": "b"}, "type": "Notification"}}),
    );
    // Command, our own action: every field survives, the timeout is written as ISO 8601.
    check(
        &with_action(json!({"type": "command", "command": {
            "program": "/usr/bin/backup", "arguments": ["--all", "a b"], "workingDirectory": "/srv",
            "environment": {"B": "2", "A": "1"}, "timeout": "01:30:00",
            "successExitCodes": [0, 3], "shell": false}})),
        json!({"action": {"command": {
            "program": "/usr/bin/backup", "arguments": ["--all", "a b"], "workingDirectory": "/srv",
            "environment": {"B": "2", "A": "1"}, "timeout": "PT1H30M",
            "successExitCodes": [0, 3], "shell": false}, "type": "Command"}}),
    );
}
