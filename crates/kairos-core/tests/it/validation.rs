//! Validation rules (spec §5, §7, §8, §9.3, §9.5, §11, §14.3), table-driven through one `check`:
//! a job document in, and either `OK` or the exact list of error paths (in reporting order),
//! each with a phrase its message must contain.

use chrono::{DateTime, Utc};
use kairos_core::document::{parse_job_document, MAX_JOB_SIZE};
use kairos_core::valid::{ActionKind, HttpAuth, Retry, ValidJob};
use kairos_core::validate::{action_problems, validate_job, validate_schedule, validate_timing};
use kairos_core::{ErrorCode, ValidationErrors};
use serde_json::json;
use std::time::Duration;

/// The clock for every case. Eighteen months later is 2031-07-01T00:00:00Z.
fn now() -> DateTime<Utc> {
    "2030-01-01T00:00:00Z".parse().unwrap()
}

const OK: &[(&str, &str)] = &[];

/// What `check` validates: a whole job (`validate_job`) or just its timing (`validate_schedule`).
enum Input {
    Job(String),
    Schedule(String),
}

impl From<&str> for Input {
    fn from(json: &str) -> Self {
        Input::Job(json.to_string())
    }
}

impl From<String> for Input {
    fn from(json: String) -> Self {
        Input::Job(json)
    }
}

impl From<&String> for Input {
    fn from(json: &String) -> Self {
        Input::Job(json.clone())
    }
}

fn schedule_only(json: impl Into<String>) -> Input {
    Input::Schedule(json.into())
}

/// Parse and validate `input`; `expected` is `OK` or every error as (path, phrase of message).
/// Returns the validated job when a whole job was expected to pass, for further assertions.
fn check(input: impl Into<Input>, expected: &[(&str, &str)]) -> Option<ValidJob> {
    let (json, whole_job) = match input.into() {
        Input::Job(j) => (j, true),
        Input::Schedule(j) => (j, false),
    };
    let shown: String = json.chars().take(400).collect();
    let result: Result<Option<ValidJob>, ValidationErrors> =
        parse_job_document(&json).and_then(|props| {
            if whole_job {
                validate_job(&props, now()).map(Some)
            } else {
                validate_schedule(&props, now()).map(|_| None)
            }
        });
    match result {
        Ok(job) => {
            assert!(
                expected.is_empty(),
                "expected errors {expected:?}, but it is valid: {shown}"
            );
            job
        }
        Err(errors) => {
            let got: Vec<(&str, &str)> = errors
                .errors()
                .iter()
                .map(|e| (e.path.as_str(), e.message.as_str()))
                .collect();
            let paths: Vec<&str> = got.iter().map(|(p, _)| *p).collect();
            let want: Vec<&str> = expected.iter().map(|(p, _)| *p).collect();
            assert_eq!(paths, want, "error paths of {shown}\nall errors: {got:#?}");
            for ((path, message), (_, phrase)) in got.iter().zip(expected) {
                assert!(
                    message.contains(phrase),
                    "message at {path} should contain {phrase:?}, got {message:?}\ninput: {shown}"
                );
            }
            assert!(errors
                .errors()
                .iter()
                .all(|e| e.code == ErrorCode::BadRequest));
            assert_eq!(errors.code(), ErrorCode::BadRequest);
            None
        }
    }
}

// ---- document builders --------------------------------------------------------------------

const HTTP: &str =
    r#"{"type":"Http","request":{"uri":"http://127.0.0.1:8080/ping","method":"POST"}}"#;

/// A job (ARM form) with this action.
fn job(action: &str) -> String {
    format!(r#"{{"properties":{{"action":{action}}}}}"#)
}

/// An Http job with this request object.
fn request(request: &str) -> String {
    job(&format!(r#"{{"type":"Http","request":{request}}}"#))
}

/// An Http job whose request carries this authentication object.
fn auth(authentication: &str) -> String {
    request(&format!(
        r#"{{"uri":"https://example.com/","method":"GET","authentication":{authentication}}}"#
    ))
}

/// An Http job with this retry policy.
fn retry(policy: &str) -> String {
    job(&format!(
        r#"{{"type":"Http","request":{{"uri":"http://h/","method":"GET"}},"retryPolicy":{policy}}}"#
    ))
}

/// A StorageQueue job with this queueMessage.
fn queue(message: &str) -> String {
    job(&format!(
        r#"{{"type":"StorageQueue","queueMessage":{message}}}"#
    ))
}

/// A Service Bus job of this type (`ServiceBusQueue` / `ServiceBusTopic`) with this payload.
fn bus(kind: &str, message: &str) -> String {
    let field = if kind == "ServiceBusQueue" {
        "serviceBusQueueMessage"
    } else {
        "serviceBusTopicMessage"
    };
    job(&format!(r#"{{"type":"{kind}","{field}":{message}}}"#))
}

/// A valid Http job with this recurrence.
fn recurring(recurrence: &str) -> String {
    format!(r#"{{"properties":{{"action":{HTTP},"recurrence":{recurrence}}}}}"#)
}

/// A valid Http job with this frequency and schedule.
fn scheduled(frequency: &str, schedule: &str) -> String {
    recurring(&format!(
        r#"{{"frequency":"{frequency}","schedule":{schedule}}}"#
    ))
}

/// A valid Http job with this startTime.
fn starting(start: &str) -> String {
    format!(r#"{{"properties":{{"startTime":"{start}","action":{HTTP}}}}}"#)
}

fn repeat(c: char, n: usize) -> String {
    c.to_string().repeat(n)
}

// ---- actions ------------------------------------------------------------------------------

#[test]
fn action_is_required_for_a_job_but_not_for_a_schedule() {
    let no_action =
        r#"{"properties":{"startTime":"2030-01-02T00:00:00Z","recurrence":{"frequency":"Day"}}}"#;
    check(no_action, &[("properties.action", "is required")]);
    check(schedule_only(no_action), OK);
    check(
        schedule_only(r#"{"recurrence":{"frequency":"Hour","interval":2}}"#),
        OK,
    );
    // Bare properties are the same document as the ARM form.
    check(
        r#"{"recurrence":{"frequency":"Day"}}"#,
        &[("properties.action", "is required")],
    );
    // An action given to validate_schedule is still validated.
    check(
        schedule_only(job(r#"{"request":{"uri":"http://h/","method":"GET"}}"#)),
        &[("properties.action.type", "is required")],
    );
    check(schedule_only(job(HTTP)), OK);
    // The schedule part is checked by validate_job too.
    check(
        recurring(r#"{"frequency":"Day","interval":0}"#),
        &[("properties.recurrence.interval", "between 1 and 548")],
    );
    check(
        schedule_only(recurring(r#"{"frequency":"Day","interval":0}"#)),
        &[("properties.recurrence.interval", "between 1 and 548")],
    );
}

/// The schedule builder previews a job's runs as soon as its schedule is valid: `validate_timing`
/// ignores the action (an empty URL in a new job), and `action_problems` reports it apart.
#[test]
fn timing_is_validated_apart_from_the_action() {
    let json = r#"{"properties":{"action":{"type":"Http","request":{"uri":"","method":"GET"}},
        "recurrence":{"frequency":"Day","interval":1,"timeZone":"Europe/Berlin"}}}"#;
    let props = parse_job_document(json).unwrap();
    let schedule = validate_timing(&props, now()).expect("the schedule alone is valid");
    assert!(schedule.recurrence.is_some());
    let action: Vec<String> = action_problems(&props)
        .iter()
        .map(|e| e.path.clone())
        .collect();
    assert_eq!(action, ["properties.action.request.uri"]);
    // Together they are what validate_schedule reports.
    let all: Vec<String> = validate_schedule(&props, now())
        .unwrap_err()
        .errors()
        .iter()
        .map(|e| e.path.clone())
        .collect();
    assert_eq!(all, action);
    // A bad schedule is still an error, whatever the action.
    let bad = parse_job_document(&recurring(r#"{"frequency":"Day","interval":0}"#)).unwrap();
    let err = validate_timing(&bad, now()).unwrap_err();
    assert_eq!(err.errors()[0].path, "properties.recurrence.interval");
    assert!(action_problems(&bad).is_empty());
}

#[test]
fn action_type_is_required_and_known() {
    check(job(HTTP), OK);
    check(
        job(r#"{"request":{"uri":"http://h/","method":"GET"}}"#),
        &[("properties.action.type", "is required; use Http, Https")],
    );
    check(
        job(r#"{"type":"Ftp","request":{"uri":"http://h/","method":"GET"}}"#),
        &[(
            "properties.action.type",
            "'Ftp' is not a valid value; expected Http, Https, StorageQueue",
        )],
    );
    check(
        job(r#"{"type":"","request":{"uri":"http://h/","method":"GET"}}"#),
        &[("properties.action.type", "not a valid value")],
    );
    check(
        job(r#"{"type":7,"request":{"uri":"http://h/","method":"GET"}}"#),
        &[(
            "properties.action.type",
            "expected a string, got integer `7`",
        )],
    );
    // Any case, as the docs write it.
    check(
        job(r#"{"type":"http","request":{"uri":"http://h/","method":"GET"}}"#),
        OK,
    );
    check(
        job(r#"{"type":"HTTPS","request":{"uri":"https://h/","method":"GET"}}"#),
        OK,
    );
    // Our own Notification action needs no payload.
    check(job(r#"{"type":"Notification"}"#), OK);
    check(
        job(r#"{"type":"Notification","notification":{"title":"t","body":"b"}}"#),
        OK,
    );
}

#[test]
fn payload_is_required_per_action_type() {
    let cases: &[(&str, &str, &str)] = &[
        (
            r#"{"type":"Http"}"#,
            "properties.action.request",
            "is required for an action of type Http",
        ),
        (
            r#"{"type":"Https"}"#,
            "properties.action.request",
            "is required for an action of type Https",
        ),
        (
            r#"{"type":"StorageQueue"}"#,
            "properties.action.queueMessage",
            "is required for an action of type StorageQueue",
        ),
        (
            r#"{"type":"ServiceBusQueue"}"#,
            "properties.action.serviceBusQueueMessage",
            "is required for an action of type ServiceBusQueue",
        ),
        (
            r#"{"type":"ServiceBusTopic"}"#,
            "properties.action.serviceBusTopicMessage",
            "is required for an action of type ServiceBusTopic",
        ),
        // The payload of another type does not count.
        (
            r#"{"type":"StorageQueue","request":{"uri":"http://h/","method":"GET"}}"#,
            "properties.action.queueMessage",
            "is required",
        ),
        (
            r#"{"type":"ServiceBusTopic","serviceBusQueueMessage":{"namespace":"ns","queueName":"q","authentication":{"sasKeyName":"k","sasKey":"s"}}}"#,
            "properties.action.serviceBusTopicMessage",
            "is required",
        ),
        (
            r#"{"type":"Http","queueMessage":{"storageAccount":"acct","queueName":"q1q","sasToken":"sv=1"}}"#,
            "properties.action.request",
            "is required",
        ),
    ];
    for (action, path, phrase) in cases {
        check(job(action), &[(path, phrase)]);
    }
}

#[test]
fn http_uri() {
    let uri = |u: &str| request(&format!(r#"{{"uri":"{u}","method":"GET"}}"#));
    const P: &str = "properties.action.request.uri";
    check(uri("http://127.0.0.1:8080/ping?x=1"), OK);
    check(uri("https://example.com"), OK);
    check(uri("HTTP://EXAMPLE.COM/"), OK);
    check(request(r#"{"method":"GET"}"#), &[(P, "is required")]);
    check(uri(""), &[(P, "is required")]);
    check(uri("   "), &[(P, "is required")]);
    check(uri("/relative/path"), &[(P, "is not a valid URL")]);
    check(uri("example.com/ping"), &[(P, "is not a valid URL")]);
    check(
        uri("ftp://example.com/file"),
        &[(P, "must be an absolute http:// or https:// URL")],
    );
    check(
        uri("mailto:someone@example.com"),
        &[(P, "must be an absolute http:// or https:// URL")],
    );
    check(
        uri("file:///etc/passwd"),
        &[(P, "must be an absolute http:// or https:// URL")],
    );
    check(uri("http://"), &[(P, "is not a valid URL (empty host)")]);
    // Https needs an https:// URI; Http takes either.
    let https = |u: &str| {
        job(&format!(
            r#"{{"type":"Https","request":{{"uri":"{u}","method":"GET"}}}}"#
        ))
    };
    check(https("https://example.com/"), OK);
    check(
        https("http://example.com/"),
        &[(P, "must start with https:// for an action of type Https")],
    );
    check(
        https("ftp://example.com/"),
        &[(P, "must be an absolute http:// or https:// URL")],
    );
    // At most 2048 characters.
    let base = "http://example.com/";
    check(
        uri(&format!("{base}{}", repeat('a', 2048 - base.len()))),
        OK,
    );
    check(
        uri(&format!("{base}{}", repeat('a', 2049 - base.len()))),
        &[(P, "may be at most 2048 characters; got 2049")],
    );
}

#[test]
fn http_method() {
    let method = |m: &str| request(&format!(r#"{{"uri":"http://h/","method":"{m}"}}"#));
    const P: &str = "properties.action.request.method";
    for ok in [
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PURGE", "M-SEARCH",
    ] {
        check(method(ok), OK);
    }
    check(request(r#"{"uri":"http://h/"}"#), &[(P, "is required")]);
    check(method(""), &[(P, "is required")]);
    check(method("  "), &[(P, "is required")]);
    check(method("GE T"), &[(P, "'GE T' is not an HTTP method name")]);
    check(method("GET/1"), &[(P, "is not an HTTP method name")]);
    check(method("GÉT"), &[(P, "is not an HTTP method name")]);
    // Lowercase is accepted and normalised.
    let job = check(method("post"), OK).unwrap();
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action: {job:?}")
    };
    assert_eq!(http.method, "POST");
    assert_eq!(http.uri.as_str(), "http://h/");
}

#[test]
fn http_body_and_headers() {
    let body = |n: usize| {
        request(&format!(
            r#"{{"uri":"http://h/","method":"POST","body":"{}"}}"#,
            repeat('b', n)
        ))
    };
    const BODY: &str = "properties.action.request.body";
    check(body(0), OK);
    check(body(8192), OK);
    check(
        body(8193),
        &[(BODY, "may be at most 8192 characters; got 8193")],
    );
    // Characters, not bytes: 8,192 characters are 12,192 bytes here.
    let mixed = format!("{}{}", repeat('é', 4000), repeat('a', 4192));
    check(
        request(&format!(
            r#"{{"uri":"http://h/","method":"POST","body":"{mixed}"}}"#
        )),
        OK,
    );
    check(
        request(&format!(
            r#"{{"uri":"http://h/","method":"POST","body":"{mixed}é"}}"#
        )),
        &[(BODY, "got 8193")],
    );

    let headers = |map: &serde_json::Map<String, serde_json::Value>| {
        request(&json!({"uri": "http://h/", "method": "GET", "headers": map}).to_string())
    };
    let numbered = |n: usize| (0..n).map(|i| (format!("X-H{i}"), json!("v"))).collect();
    const HEADERS: &str = "properties.action.request.headers";
    check(headers(&numbered(50)), OK);
    check(
        headers(&numbered(51)),
        &[(HEADERS, "at most 50 headers are allowed; got 51")],
    );
    // Names plus values, 4096 characters in all.
    let sized = |value_len: usize| {
        [("X".to_string(), json!(repeat('v', value_len)))]
            .into_iter()
            .collect()
    };
    check(headers(&sized(4095)), OK);
    check(
        headers(&sized(4096)),
        &[(HEADERS, "may total at most 4096 characters; got 4097")],
    );
    // Both limits broken: both reported.
    let big: serde_json::Map<_, _> = (0..51)
        .map(|i| (format!("X-{i:02}"), json!(repeat('v', 80))))
        .collect();
    check(
        headers(&big),
        &[
            (HEADERS, "at most 50 headers"),
            (HEADERS, "may total at most 4096"),
        ],
    );
    // Header names must be tokens; values single-line.
    check(
        request(r#"{"uri":"http://h/","method":"GET","headers":{"Bad Name":"v"}}"#),
        &[(
            "properties.action.request.headers.Bad Name",
            "is not a valid header name",
        )],
    );
    check(
        request(r#"{"uri":"http://h/","method":"GET","headers":{"":"v"}}"#),
        &[(
            "properties.action.request.headers.",
            "is not a valid header name",
        )],
    );
    check(
        request(r#"{"uri":"http://h/","method":"GET","headers":{"X-A":"a\r\nX-Injected: 1"}}"#),
        &[("properties.action.request.headers.X-A", "line breaks")],
    );
    // Wrong types name the header.
    check(
        request(r#"{"uri":"http://h/","method":"GET","headers":{"X-A":1}}"#),
        &[("properties.action.request.headers.X-A", "expected a string")],
    );
    // Order is kept for the request.
    let job = check(
        request(r#"{"uri":"http://h/","method":"GET","headers":{"B":"2","A":"1"}}"#),
        OK,
    )
    .unwrap();
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action")
    };
    assert_eq!(
        http.headers,
        [
            ("B".to_string(), "2".to_string()),
            ("A".to_string(), "1".to_string())
        ]
    );
}

#[test]
fn http_authentication() {
    const A: &str = "properties.action.request.authentication";
    let p = |field: &str| format!("{A}.{field}");
    // Basic.
    check(
        auth(r#"{"type":"Basic","username":"u","password":"p"}"#),
        OK,
    );
    check(
        auth(r#"{"type":"basic","username":"u","password":"p"}"#),
        OK,
    );
    check(
        auth(r#"{"type":"Basic","password":"p"}"#),
        &[(&p("username"), "is required for Basic authentication")],
    );
    check(
        auth(r#"{"type":"Basic","username":"u"}"#),
        &[(&p("password"), "is required for Basic authentication")],
    );
    check(
        auth(r#"{"type":"Basic","username":" ","password":""}"#),
        &[
            (&p("username"), "is required"),
            (&p("password"), "is required"),
        ],
    );
    // ClientCertificate: a base64 PFX; its password may be empty or absent.
    check(
        auth(
            r#"{"type":"ClientCertificate","pfx":"TUlJQ0lqQU5CZ2txaGtpRzl3MEJBUUVGQUFP","password":"p"}"#,
        ),
        OK,
    );
    check(
        auth(r#"{"type":"clientcertificate","pfx":"TUlJ\nQ0lq"}"#),
        OK,
    );
    check(auth(r#"{"type":"ClientCertificate","pfx":"TUk="}"#), OK);
    check(
        auth(r#"{"type":"ClientCertificate","password":"p"}"#),
        &[(
            &p("pfx"),
            "is required for ClientCertificate authentication",
        )],
    );
    check(
        auth(r#"{"type":"ClientCertificate","pfx":""}"#),
        &[(&p("pfx"), "is required")],
    );
    for bad in ["not base64!", "TUl", "T===", "=TUl", "TU-_", "TUk=TUk="] {
        check(
            auth(&format!(r#"{{"type":"ClientCertificate","pfx":"{bad}"}}"#)),
            &[(&p("pfx"), "must be the base64 encoding of a PFX")],
        );
    }
    // A secret of the wrong type is a type error that does not quote the value.
    for (field, value) in [
        ("password", "86753091"),
        ("secret", "true"),
        ("pfx", "12.5"),
    ] {
        let json = auth(&format!(
            r#"{{"type":"Basic","username":"u","{field}":{value}}}"#
        ));
        check(&json, &[(&p(field), "expected a string, got a")]);
        let body = parse_job_document(&json)
            .unwrap_err()
            .to_arm_error()
            .to_string();
        assert!(body.contains("not shown: this field is a secret"), "{body}");
        assert!(!body.contains(value), "{value} quoted in {body}");
    }
    let json = queue(r#"{"storageAccount":"acct","queueName":"q1q","sasToken":4242424242}"#);
    check(
        &json,
        &[("properties.action.queueMessage.sasToken", "not shown")],
    );
    let json = bus(
        "ServiceBusQueue",
        r#"{"namespace":"ns","queueName":"q","authentication":{"sasKeyName":"k","sasKey":4242424242}}"#,
    );
    check(
        &json,
        &[(
            "properties.action.serviceBusQueueMessage.authentication.sasKey",
            "not shown",
        )],
    );
    assert!(!parse_job_document(&json)
        .unwrap_err()
        .to_string()
        .contains("4242424242"));
    // ActiveDirectoryOAuth: all four fields.
    let oauth = r#"{"type":"ActiveDirectoryOAuth","tenant":"contoso.onmicrosoft.com","audience":"https://management.core.windows.net/","clientId":"c","secret":"s"}"#;
    let job = check(auth(oauth), OK).unwrap();
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action")
    };
    let Some(HttpAuth::ActiveDirectoryOAuth {
        tenant,
        audience,
        client_id,
        secret,
    }) = &http.authentication
    else {
        panic!("not OAuth: {:?}", http.authentication)
    };
    assert_eq!(
        (
            tenant.as_str(),
            audience.as_str(),
            client_id.as_str(),
            secret.expose()
        ),
        (
            "contoso.onmicrosoft.com",
            "https://management.core.windows.net/",
            "c",
            "s"
        )
    );
    check(
        auth(r#"{"type":"ActiveDirectoryOAuth"}"#),
        &[
            (
                &p("tenant"),
                "is required for ActiveDirectoryOAuth authentication",
            ),
            (&p("audience"), "is required for ActiveDirectoryOAuth"),
            (&p("clientId"), "is required for ActiveDirectoryOAuth"),
            (&p("secret"), "is required for ActiveDirectoryOAuth"),
        ],
    );
    check(
        auth(r#"{"type":"ActiveDirectoryOAuth","tenant":"t","audience":"a","clientId":"c"}"#),
        &[(&p("secret"), "is required")],
    );
    // The type is required and must be known; NotSpecified means none.
    check(
        auth(r#"{"username":"u","password":"p"}"#),
        &[(
            &p("type"),
            "is required; use NotSpecified, ClientCertificate, ActiveDirectoryOAuth or Basic",
        )],
    );
    check(
        auth(r#"{"type":"Digest","username":"u","password":"p"}"#),
        &[(&p("type"), "'Digest' is not a valid value")],
    );
    let job = check(auth(r#"{"type":"NotSpecified"}"#), OK).unwrap();
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action")
    };
    assert_eq!(http.authentication, None);
    // null removes authentication (spec §6).
    check(auth("null"), OK);
    // Basic credentials reach the validated job.
    let job = check(
        auth(r#"{"type":"Basic","username":"u","password":"p"}"#),
        OK,
    )
    .unwrap();
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action")
    };
    let Some(HttpAuth::Basic { username, password }) = &http.authentication else {
        panic!("not Basic")
    };
    assert_eq!((username.as_str(), password.expose()), ("u", "p"));
}

#[test]
fn storage_queue_message() {
    const Q: &str = "properties.action.queueMessage";
    let p = |field: &str| format!("{Q}.{field}");
    let msg = |account: &str, queue_name: &str| {
        queue(&format!(
            r#"{{"storageAccount":"{account}","queueName":"{queue_name}","sasToken":"sv=2019&sig=x","message":"m"}}"#
        ))
    };
    let job = check(msg("devstoreaccount1", "errors"), OK).unwrap();
    let ActionKind::StorageQueue(q) = &job.action.kind else {
        panic!("not a queue action")
    };
    assert_eq!(
        (
            q.storage_account.as_str(),
            q.queue_name.as_str(),
            q.sas_token.expose(),
            q.message.as_str()
        ),
        ("devstoreaccount1", "errors", "sv=2019&sig=x", "m")
    );
    // Account names: 3 to 24 letters and digits; they are case-insensitive, so the 2015 page's
    // "myStorageAccount" is read as the lower-case name its endpoint uses.
    for ok in ["abc", "a1b2c3", repeat('a', 24).as_str()] {
        check(msg(ok, "errors"), OK);
    }
    let job = check(msg("myStorageAccount", "errors"), OK).unwrap();
    let ActionKind::StorageQueue(q) = &job.action.kind else {
        panic!("not a queue action")
    };
    assert_eq!(q.storage_account, "mystorageaccount");
    for bad in [
        "ab",
        "Dev-Store",
        "dev-store",
        "dev_store",
        repeat('a', 25).as_str(),
        "https://acct.queue.core.windows.net",
    ] {
        check(
            msg(bad, "errors"),
            &[(
                &p("storageAccount"),
                "must be a storage account name: 3 to 24 lowercase letters and digits",
            )],
        );
    }
    // Queue names: 3 to 63 lowercase letters, digits and single inner hyphens.
    for ok in ["abc", "a-b", "q1-2-3", "123", repeat('q', 63).as_str()] {
        check(msg("acct", ok), OK);
    }
    for bad in [
        "ab",
        "-abc",
        "abc-",
        "a--b",
        "Errors",
        "a_b",
        "a.b",
        repeat('q', 64).as_str(),
    ] {
        check(
            msg("acct", bad),
            &[(&p("queueName"), "must be a queue name")],
        );
    }
    // Required fields; the message may be omitted.
    check(
        queue(r#"{"storageAccount":"acct","queueName":"q1q","sasToken":"sv=1"}"#),
        OK,
    );
    check(
        queue(r#"{"message":"m"}"#),
        &[
            (&p("storageAccount"), "is required"),
            (&p("queueName"), "is required"),
            (&p("sasToken"), "is required"),
        ],
    );
    check(
        queue(r#"{"storageAccount":"acct","queueName":"q1q","sasToken":"  "}"#),
        &[(&p("sasToken"), "is required")],
    );
}

#[test]
fn service_bus_messages() {
    const SBQ: &str = "properties.action.serviceBusQueueMessage";
    const SBT: &str = "properties.action.serviceBusTopicMessage";
    let good_auth = r#""authentication":{"sasKeyName":"RootManageSharedAccessKey","sasKey":"k","type":"SharedAccessKey"}"#;
    let sbq = |fields: &str| bus("ServiceBusQueue", &format!("{{{fields}}}"));
    let sbt = |fields: &str| bus("ServiceBusTopic", &format!("{{{fields}}}"));
    let job = check(sbq(&format!(r#""namespace":"my-ns","queueName":"orders",{good_auth},"message":"hi","transportType":"netMessaging","customMessageProperties":{{"X-Prop":"1"}}"#)), OK).unwrap();
    let ActionKind::ServiceBusQueue(sb) = &job.action.kind else {
        panic!("not a Service Bus queue action")
    };
    assert_eq!(
        (
            sb.namespace.as_str(),
            sb.entity.as_str(),
            sb.sas_key_name.as_str(),
            sb.sas_key.expose()
        ),
        ("my-ns", "orders", "RootManageSharedAccessKey", "k")
    );
    assert_eq!(
        sb.custom_message_properties,
        [("X-Prop".to_string(), "1".to_string())]
    );
    let job = check(
        sbt(&format!(
            r#""namespace":"ns","topicPath":"events/sub",{good_auth}"#
        )),
        OK,
    )
    .unwrap();
    assert!(
        matches!(&job.action.kind, ActionKind::ServiceBusTopic(sb) if sb.entity == "events/sub")
    );
    // Required fields.
    check(
        sbq(""),
        &[
            (&format!("{SBQ}.namespace"), "is required"),
            (&format!("{SBQ}.queueName"), "is required"),
            (
                &format!("{SBQ}.authentication"),
                "is required (sasKeyName and sasKey)",
            ),
        ],
    );
    check(
        sbt(&format!(r#""namespace":"ns",{good_auth}"#)),
        &[(&format!("{SBT}.topicPath"), "is required")],
    );
    // A topic is named by topicPath, not queueName.
    check(
        sbt(&format!(r#""namespace":"ns","queueName":"q",{good_auth}"#)),
        &[(&format!("{SBT}.topicPath"), "is required")],
    );
    check(
        sbq(r#""namespace":"ns","queueName":"q","authentication":{}"#),
        &[
            (&format!("{SBQ}.authentication.sasKeyName"), "is required"),
            (&format!("{SBQ}.authentication.sasKey"), "is required"),
        ],
    );
    check(
        sbq(r#""namespace":"ns","queueName":"q","authentication":{"sasKeyName":"n","sasKey":""}"#),
        &[(&format!("{SBQ}.authentication.sasKey"), "is required")],
    );
    // Namespace names and entity paths.
    for bad in [
        "my.ns",
        "ns.servicebus.windows.net",
        "my_ns",
        repeat('n', 51).as_str(),
    ] {
        check(
            sbq(&format!(
                r#""namespace":"{bad}","queueName":"q",{good_auth}"#
            )),
            &[(
                &format!("{SBQ}.namespace"),
                "must be a Service Bus namespace name",
            )],
        );
    }
    check(
        sbq(&format!(
            r#""namespace":"{}","queueName":"q",{good_auth}"#,
            repeat('n', 50)
        )),
        OK,
    );
    for bad in ["/q", "q/", repeat('q', 261).as_str()] {
        check(
            sbq(&format!(
                r#""namespace":"ns","queueName":"{bad}",{good_auth}"#
            )),
            &[(
                &format!("{SBQ}.queueName"),
                "must be an entity path of at most 260 characters",
            )],
        );
    }
    // Custom properties become HTTP headers.
    check(
        sbq(&format!(
            r#""namespace":"ns","queueName":"q",{good_auth},"customMessageProperties":{{"bad name":"v"}}"#
        )),
        &[(
            &format!("{SBQ}.customMessageProperties.bad name"),
            "cannot be sent as an HTTP header name",
        )],
    );
    check(
        sbq(&format!(
            r#""namespace":"ns","queueName":"q",{good_auth},"customMessageProperties":{{"p":"a\nb"}}"#
        )),
        &[(&format!("{SBQ}.customMessageProperties.p"), "line breaks")],
    );
    // Unknown enum values are type errors with their path.
    check(
        sbq(&format!(
            r#""namespace":"ns","queueName":"q",{good_auth},"transportType":"Carrier pigeon""#
        )),
        &[(
            &format!("{SBQ}.transportType"),
            "is not a valid value; expected NotSpecified, NetMessaging or AMQP",
        )],
    );
}

// ---- retry policy and error action --------------------------------------------------------

#[test]
fn retry_policy() {
    const R: &str = "properties.action.retryPolicy";
    let interval_error = (
        "properties.action.retryPolicy.retryInterval",
        "must be between 15 seconds (PT15S) and 18 months (P548D)",
    );
    let count_error = (
        "properties.action.retryPolicy.retryCount",
        "must be between 0 and 20",
    );
    let fixed = |interval: &str| {
        retry(&format!(
            r#"{{"retryType":"Fixed","retryInterval":"{interval}","retryCount":3}}"#
        ))
    };
    // Both forms, inclusive bounds.
    for ok in [
        "PT15S",
        "00:00:15",
        "PT30S",
        "PT1M",
        "00:01:00",
        "PT1D",
        "P1D",
        "P548D",
        "548.00:00:00",
        "P78W",
        "PT13152H",
    ] {
        check(fixed(ok), OK);
    }
    for bad in [
        "PT14S",
        "00:00:14",
        "PT14.999S",
        "PT0S",
        "00:00:00",
        "P549D",
        "548.00:00:01",
        "P548DT1S",
        "P2Y",
    ] {
        check(fixed(bad), &[interval_error]);
    }
    check(
        fixed("soon"),
        &[(
            &format!("{R}.retryInterval"),
            "'soon' is not a duration; use ISO 8601 such as PT30S or a TimeSpan such as 00:00:30",
        )],
    );
    check(
        fixed("-PT30S"),
        &[(&format!("{R}.retryInterval"), "is not a duration")],
    );
    // A day count whose seconds overflow is not a duration (wrapped, it would be ~17 hours).
    check(
        fixed("213503982334602.00:00:00"),
        &[(&format!("{R}.retryInterval"), "is not a duration")],
    );
    check(fixed("213503982334601.00:00:00"), &[interval_error]);
    // Counts 0..20.
    let count = |n: &str| {
        retry(&format!(
            r#"{{"retryType":"Fixed","retryInterval":"PT30S","retryCount":{n}}}"#
        ))
    };
    for ok in ["0", "1", "4", "20"] {
        check(count(ok), OK);
    }
    check(count("21"), &[count_error]);
    check(count("-1"), &[count_error]);
    check(
        count("\"3\""),
        &[(&format!("{R}.retryCount"), "expected an integer")],
    );
    check(
        count("2.5"),
        &[(&format!("{R}.retryCount"), "not an integer")],
    );
    // Both out of range: both reported.
    check(
        retry(r#"{"retryType":"Fixed","retryInterval":"PT1S","retryCount":99}"#),
        &[interval_error, count_error],
    );
    // retryType is required and must be known.
    check(
        retry(r#"{"retryInterval":"PT30S","retryCount":3}"#),
        &[(
            &format!("{R}.retryType"),
            "is required; use None, Fixed or Exponential",
        )],
    );
    check(
        retry(r#"{"retryType":"Linear"}"#),
        &[(
            &format!("{R}.retryType"),
            "'Linear' is not a valid value; expected None, Fixed or Exponential",
        )],
    );
    // What the validated job carries.
    let resolved = |policy: &str| check(retry(policy), OK).unwrap().action.retry;
    assert_eq!(resolved(r#"{"retryType":"None"}"#), Retry::None);
    assert_eq!(
        resolved(r#"{"retryType":"none","retryInterval":"PT30S","retryCount":3}"#),
        Retry::None
    );
    assert_eq!(
        resolved(r#"{"retryType":"Fixed"}"#),
        Retry::Fixed {
            interval: Duration::from_secs(30),
            count: 4
        }
    );
    assert_eq!(
        resolved(r#"{"retryType":"fixed","retryInterval":"00:01:00","retryCount":2}"#),
        Retry::Fixed {
            interval: Duration::from_secs(60),
            count: 2
        }
    );
    assert_eq!(
        resolved(r#"{"retryType":"Fixed","retryCount":0}"#).count(),
        0
    );
    assert_eq!(check(job(HTTP), OK).unwrap().action.retry, Retry::DEFAULT);
    assert_eq!(
        Retry::DEFAULT,
        Retry::Fixed {
            interval: Duration::from_secs(30),
            count: 4
        }
    );
}

#[test]
fn error_action() {
    const E: &str = "properties.action.errorAction";
    let with_error_action = |main_policy: &str, error_action: &str| {
        job(&format!(
            r#"{{"type":"Http","request":{{"uri":"http://h/","method":"GET"}}{main_policy},"errorAction":{error_action}}}"#
        ))
    };
    let storage = r#"{"type":"StorageQueue","queueMessage":{"storageAccount":"acct","queueName":"errors","sasToken":"sv=1"}}"#;
    // Its type may differ from the main action's.
    let job1 = check(with_error_action("", storage), OK).unwrap();
    let err = job1
        .action
        .error_action
        .as_deref()
        .expect("error action kept");
    assert!(matches!(err.kind, ActionKind::StorageQueue(_)));
    assert!(err.error_action.is_none());
    // No chaining.
    let chained = r#"{"type":"Http","request":{"uri":"http://h/","method":"GET"},"errorAction":{"type":"Http","request":{"uri":"http://h/","method":"GET"}}}"#;
    check(
        with_error_action("", chained),
        &[(
            &format!("{E}.errorAction"),
            "an error action cannot have an error action of its own",
        )],
    );
    // It is validated like the main action, with its own paths.
    check(
        with_error_action("", r#"{"request":{"uri":"http://h/","method":"GET"}}"#),
        &[(&format!("{E}.type"), "is required")],
    );
    check(
        with_error_action(
            "",
            r#"{"type":"StorageQueue","queueMessage":{"storageAccount":"A","queueName":"errors","sasToken":"s"}}"#,
        ),
        &[(
            &format!("{E}.queueMessage.storageAccount"),
            "storage account name",
        )],
    );
    check(
        with_error_action(
            "",
            r#"{"type":"Http","request":{"uri":"http://h/","method":"GET"},"retryPolicy":{"retryType":"Fixed","retryCount":30}}"#,
        ),
        &[(&format!("{E}.retryPolicy.retryCount"), "between 0 and 20")],
    );
    // Retry policy: its own when given, otherwise the main action's (spec §7.1).
    let main = r#","retryPolicy":{"retryType":"Fixed","retryInterval":"PT1M","retryCount":2}"#;
    let main_retry = Retry::Fixed {
        interval: Duration::from_secs(60),
        count: 2,
    };
    let inherited = check(with_error_action(main, storage), OK).unwrap();
    assert_eq!(inherited.action.retry, main_retry);
    assert_eq!(
        inherited.action.error_action.as_ref().unwrap().retry,
        main_retry
    );
    let own = r#"{"type":"StorageQueue","queueMessage":{"storageAccount":"acct","queueName":"errors","sasToken":"sv=1"},"retryPolicy":{"retryType":"None"}}"#;
    let kept = check(with_error_action(main, own), OK).unwrap();
    assert_eq!(kept.action.retry, main_retry);
    assert_eq!(
        kept.action.error_action.as_ref().unwrap().retry,
        Retry::None
    );
    let own_fixed = r#"{"type":"StorageQueue","queueMessage":{"storageAccount":"acct","queueName":"errors","sasToken":"sv=1"},"retryPolicy":{"retryType":"Fixed","retryInterval":"PT20S","retryCount":7}}"#;
    let kept = check(with_error_action(main, own_fixed), OK).unwrap();
    assert_eq!(
        kept.action.error_action.as_ref().unwrap().retry,
        Retry::Fixed {
            interval: Duration::from_secs(20),
            count: 7
        }
    );
    // No policy anywhere: both get the default.
    let defaults = check(with_error_action("", storage), OK).unwrap();
    assert_eq!(
        defaults.action.error_action.as_ref().unwrap().retry,
        Retry::DEFAULT
    );
    // Main policy None: the error action inherits None.
    let none = check(
        with_error_action(r#","retryPolicy":{"retryType":"None"}"#, storage),
        OK,
    )
    .unwrap();
    assert_eq!(
        none.action.error_action.as_ref().unwrap().retry,
        Retry::None
    );
}

// ---- recurrence ---------------------------------------------------------------------------

#[test]
fn recurrence_frequency_interval_count() {
    const R: &str = "properties.recurrence";
    let p = |field: &str| format!("{R}.{field}");
    check(
        recurring(r#"{"interval":1}"#),
        &[(
            &p("frequency"),
            "is required when recurrence is given; use Minute, Hour, Day, Week, Month or Year",
        )],
    );
    check(recurring("{}"), &[(&p("frequency"), "is required")]);
    check(
        recurring(r#"{"frequency":"Annual"}"#),
        &[(
            &p("frequency"),
            "'Annual' is not a valid value; expected Minute, Hour, Day, Week, Month or Year",
        )],
    );
    // Year (the 2015 API's): interval 1 only, the one span of whole years within 18 months.
    check(recurring(r#"{"frequency":"year"}"#), OK);
    check(recurring(r#"{"frequency":"Year","interval":1}"#), OK);
    for bad in [2, 0, -1] {
        check(
            recurring(&format!(r#"{{"frequency":"Year","interval":{bad}}}"#)),
            &[(
                &p("interval"),
                &format!("must be 1 for frequency Year (a recurrence spans at most 18 months); got {bad}"),
            )],
        );
    }
    check(
        recurring(r#"{"frequency":"Second"}"#),
        &[(&p("frequency"), "not a valid value")],
    );
    check(
        recurring(r#"{"frequency":null}"#),
        &[(&p("frequency"), "is required")],
    );
    // Interval bounds per frequency.
    for (frequency, max) in [
        ("Month", 18),
        ("Week", 78),
        ("Day", 548),
        ("Hour", 1000),
        ("Minute", 1000),
    ] {
        let r = |interval: i64| {
            recurring(&format!(
                r#"{{"frequency":"{frequency}","interval":{interval}}}"#
            ))
        };
        check(r(1), OK);
        check(r(max), OK);
        let phrase = format!("must be between 1 and {max} for frequency {frequency}");
        for bad in [max + 1, 0, -1, -max] {
            check(r(bad), &[(&p("interval"), &format!("{phrase}; got {bad}"))]);
        }
    }
    // Interval defaults to 1; aliases and any case work.
    let rec = |json: &str| {
        check(recurring(json), OK)
            .unwrap()
            .schedule
            .recurrence
            .unwrap()
    };
    assert_eq!(rec(r#"{"frequency":"Day"}"#).interval, 1);
    assert_eq!(rec(r#"{"frequency":"monthly","interval":18}"#).interval, 18);
    check(
        recurring(r#"{"frequency":"MONTH","interval":19}"#),
        &[(&p("interval"), "between 1 and 18 for frequency Month")],
    );
    check(
        recurring(r#"{"frequency":"Day","interval":"2"}"#),
        &[(&p("interval"), "expected an integer")],
    );
    check(
        recurring(r#"{"frequency":"Day","interval":1.5}"#),
        &[(&p("interval"), "1.5 is not an integer")],
    );
    check(recurring(r#"{"frequency":"Day","interval":2.0}"#), OK);
    // count ≥ 1.
    assert_eq!(rec(r#"{"frequency":"Hour","count":1}"#).count, Some(1));
    assert_eq!(
        rec(r#"{"frequency":"Hour","count":10000}"#).count,
        Some(10000)
    );
    check(
        recurring(r#"{"frequency":"Hour","count":0}"#),
        &[(&p("count"), "must be at least 1; got 0")],
    );
    check(
        recurring(r#"{"frequency":"Hour","count":-3}"#),
        &[(&p("count"), "must be at least 1; got -3")],
    );
    // count and endTime together (spec §9.4), and a five-year endTime.
    let r = rec(r#"{"frequency":"Week","count":10000,"endTime":"2035-01-01T00:00:00Z"}"#);
    assert_eq!(r.end_time, Some("2035-01-01T00:00:00Z".parse().unwrap()));
    // An endTime in the past is accepted (spec §15.4: newer docs allow it).
    check(
        recurring(r#"{"frequency":"Day","endTime":"2020-01-01"}"#),
        OK,
    );
    check(
        recurring(r#"{"frequency":"Day","endTime":"next year"}"#),
        &[(&p("endTime"), "is not a date-time")],
    );
}

#[test]
fn schedule_minutes_and_hours() {
    const S: &str = "properties.recurrence.schedule";
    let p = |field: &str| format!("{S}.{field}");
    check(
        scheduled("Day", r#"{"minutes":[0,15,30,45,59],"hours":[0,12,23]}"#),
        OK,
    );
    check(
        scheduled("Day", r#"{"minutes":[0,60]}"#),
        &[(&p("minutes[1]"), "minutes must be between 0 and 59; got 60")],
    );
    check(
        scheduled("Day", r#"{"minutes":[-1]}"#),
        &[(&p("minutes[0]"), "between 0 and 59; got -1")],
    );
    check(
        scheduled("Day", r#"{"hours":[24]}"#),
        &[(&p("hours[0]"), "hours must be between 0 and 23; got 24")],
    );
    check(
        scheduled("Day", r#"{"hours":[-1,5,99]}"#),
        &[(&p("hours[0]"), "got -1"), (&p("hours[2]"), "got 99")],
    );
    check(
        scheduled("Day", r#"{"minutes":[1,2,300]}"#),
        &[(&p("minutes[2]"), "got 300")],
    );
    // Single integers, as the docs write them.
    check(
        scheduled("Day", r#"{"minutes":60}"#),
        &[(&p("minutes[0]"), "got 60")],
    );
    let schedule = |json: &str| {
        check(scheduled("Day", json), OK)
            .unwrap()
            .schedule
            .recurrence
            .unwrap()
            .schedule
    };
    let s = schedule(r#"{"hours":5,"minutes":[0,30,30]}"#);
    assert_eq!(s.hours, Some(1 << 5));
    assert_eq!(s.minutes, Some(1 | 1 << 30));
    // Empty lists are no constraint.
    assert_eq!(schedule(r#"{"hours":[],"minutes":[]}"#).hours, None);
    // Hours and minutes go with any frequency.
    for frequency in ["Minute", "Hour", "Day", "Week", "Month"] {
        check(scheduled(frequency, r#"{"minutes":[5],"hours":[6]}"#), OK);
    }
    // Wrong JSON types point at the item.
    check(
        scheduled("Day", r#"{"minutes":[1,"x"]}"#),
        &[(&p("minutes[1]"), "expected an integer")],
    );
    check(
        scheduled("Day", r#"{"hours":[1,2,null]}"#),
        &[(&p("hours[2]"), "expected an integer")],
    );
    check(
        scheduled("Day", r#"{"hours":"5"}"#),
        &[(&p("hours"), "an integer or an array of integers")],
    );
    check(
        scheduled("Day", r#"{"minutes":[1.5]}"#),
        &[(&p("minutes[0]"), "not an integer")],
    );
    check(
        scheduled("Day", "[]"),
        &[(S, "expected an object, got an array")],
    );
}

#[test]
fn schedule_week_days() {
    const S: &str = "properties.recurrence.schedule";
    let p = |field: &str| format!("{S}.{field}");
    let s = check(
        scheduled("Week", r#"{"weekDays":["Monday","wednesday","FRIDAY"]}"#),
        OK,
    )
    .unwrap()
    .schedule
    .recurrence
    .unwrap()
    .schedule;
    assert_eq!(s.week_days, Some(0b0010101));
    let s = check(scheduled("Week", r#"{"weekDays":"sunday"}"#), OK)
        .unwrap()
        .schedule
        .recurrence
        .unwrap()
        .schedule;
    assert_eq!(s.week_days, Some(1 << 6));
    check(
        scheduled(
            "Week",
            r#"{"weekDays":["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"]}"#,
        ),
        OK,
    );
    check(
        scheduled(
            "Week",
            r#"{"weekDays":["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday","Monday"]}"#,
        ),
        &[(&p("weekDays"), "may list at most 7 days; got 8")],
    );
    for frequency in ["Minute", "Hour", "Day", "Month"] {
        check(
            scheduled(frequency, r#"{"weekDays":["Monday"]}"#),
            &[(
                &p("weekDays"),
                &format!("can only be used with frequency Week; the frequency is {frequency}"),
            )],
        );
    }
    check(
        recurring(r#"{"schedule":{"weekDays":["Monday"]}}"#),
        &[
            ("properties.recurrence.frequency", "is required"),
            (&p("weekDays"), "can only be used with frequency Week"),
        ],
    );
    check(
        scheduled("Week", r#"{"weekDays":["Monday","Someday"]}"#),
        &[(
            &p("weekDays[1]"),
            "'Someday' is not a valid value; expected Sunday, Monday",
        )],
    );
    check(
        scheduled("Week", r#"{"weekDays":"Mon"}"#),
        &[(&p("weekDays"), "'Mon' is not a valid value")],
    );
    check(scheduled("Week", r#"{"weekDays":[]}"#), OK);
}

#[test]
fn schedule_months() {
    const S: &str = "properties.recurrence.schedule";
    let p = |field: &str| format!("{S}.{field}");
    let months_of = |frequency: &str, schedule: &str| {
        check(scheduled(frequency, schedule), OK)
            .unwrap()
            .schedule
            .recurrence
            .unwrap()
            .schedule
            .months
    };
    // Bit 0 = January; any frequency (they expand a Year and limit the others); `month` too.
    for frequency in ["Year", "Month", "Week", "Day", "Hour", "Minute"] {
        assert_eq!(
            months_of(frequency, r#"{"months":[1,12,6,6]}"#),
            Some(1 | 1 << 11 | 1 << 5),
            "{frequency}"
        );
    }
    assert_eq!(months_of("Year", r#"{"month":3}"#), Some(1 << 2));
    assert_eq!(months_of("Year", r#"{"months":[]}"#), None);
    // Year takes the days of Month.
    assert!(months_of("Year", r#"{"months":[2],"monthDays":[-1]}"#).is_some());
    check(
        scheduled(
            "Year",
            r#"{"monthlyOccurrences":[{"day":"Monday","Occurrence":1}]}"#,
        ),
        OK,
    );
    check(
        scheduled("Year", r#"{"months":[0,13,7]}"#),
        &[
            (&p("months[0]"), "months must be between 1 and 12; got 0"),
            (&p("months[1]"), "months must be between 1 and 12; got 13"),
        ],
    );
    check(
        scheduled("Year", r#"{"months":["May"]}"#),
        &[(&p("months[0]"), "expected an integer")],
    );
    check(
        scheduled("Year", r#"{"weekDays":["Monday"]}"#),
        &[(
            &p("weekDays"),
            "can only be used with frequency Week; the frequency is Year",
        )],
    );
}

#[test]
fn schedule_month_days() {
    const S: &str = "properties.recurrence.schedule";
    let p = |field: &str| format!("{S}.{field}");
    let s = check(scheduled("Month", r#"{"monthDays":[1,15,31,-1,-31]}"#), OK)
        .unwrap()
        .schedule
        .recurrence
        .unwrap()
        .schedule;
    let md = s.month_days.unwrap();
    assert_eq!(md.positive, 1 << 1 | 1 << 15 | 1 << 31);
    assert_eq!(md.negative, 1 << 1 | 1 << 31);
    check(
        scheduled("Month", r#"{"monthDays":[0]}"#),
        &[(
            &p("monthDays[0]"),
            "must be between 1 and 31, or between -31 and -1",
        )],
    );
    check(
        scheduled("Month", r#"{"monthDays":[1,0,32,-32,31]}"#),
        &[
            (&p("monthDays[1]"), "got 0"),
            (&p("monthDays[2]"), "got 32"),
            (&p("monthDays[3]"), "got -32"),
        ],
    );
    check(scheduled("Month", r#"{"monthDays":-1}"#), OK);
    for frequency in ["Minute", "Hour", "Day", "Week"] {
        check(
            scheduled(frequency, r#"{"monthDays":[1]}"#),
            &[(
                &p("monthDays"),
                &format!(
                    "can only be used with frequency Month or Year; the frequency is {frequency}"
                ),
            )],
        );
    }
    // Wrong frequency and a bad day: both.
    check(
        scheduled("Day", r#"{"monthDays":[40]}"#),
        &[
            (&p("monthDays"), "only be used with frequency Month or Year"),
            (&p("monthDays[0]"), "got 40"),
        ],
    );
    check(
        scheduled("Month", r#"{"monthDays":["1"]}"#),
        &[(&p("monthDays[0]"), "expected an integer")],
    );
}

#[test]
fn schedule_monthly_occurrences() {
    const S: &str = "properties.recurrence.schedule";
    let p = |field: &str| format!("{S}.{field}");
    let occ = |items: &str| scheduled("Month", &format!(r#"{{"monthlyOccurrences":{items}}}"#));
    for n in [1, 2, 5, -1, -5] {
        check(
            occ(&format!(r#"[{{"day":"Tuesday","Occurrence":{n}}}]"#)),
            OK,
        );
        check(
            occ(&format!(r#"[{{"day":"Tuesday","occurrence":{n}}}]"#)),
            OK,
        );
    }
    for n in [0, 6, -6, 100] {
        for spelling in ["Occurrence", "occurrence"] {
            check(
                occ(&format!(r#"[{{"day":"Tuesday","{spelling}":{n}}}]"#)),
                &[(&p("monthlyOccurrences[0].Occurrence"), &format!("must be 1 to 5 (first … fifth) or -1 to -5 (last … fifth from the end), or omitted for every Tuesday; got {n}"))],
            );
        }
    }
    // Omitted occurrence = every such weekday; both spellings mean the same.
    let mo = |items: &str| {
        check(occ(items), OK)
            .unwrap()
            .schedule
            .recurrence
            .unwrap()
            .schedule
            .monthly_occurrences
            .unwrap()
    };
    assert_eq!(mo(r#"[{"day":"Monday"}]"#).0[0], 1);
    assert_eq!(
        mo(r#"[{"day":"Tuesday","Occurrence":2}]"#),
        mo(r#"[{"day":"tuesday","occurrence":2}]"#)
    );
    assert_ne!(
        mo(r#"[{"day":"Tuesday","Occurrence":2}]"#),
        mo(r#"[{"day":"Tuesday","Occurrence":-2}]"#)
    );
    assert_eq!(
        mo(r#"[{"day":"Sunday","Occurrence":-1},{"day":"Sunday","Occurrence":1}]"#).0[6]
            .count_ones(),
        2
    );
    // day is required.
    check(
        occ(r#"[{"Occurrence":1}]"#),
        &[(
            &p("monthlyOccurrences[0].day"),
            "is required (Monday … Sunday)",
        )],
    );
    check(
        occ(
            r#"[{"day":"Friday","Occurrence":1},{"occurrence":2},{"day":"Monday","Occurrence":9}]"#,
        ),
        &[
            (&p("monthlyOccurrences[1].day"), "is required"),
            (&p("monthlyOccurrences[2].Occurrence"), "got 9"),
        ],
    );
    check(
        occ(r#"[{"day":"Funday"}]"#),
        &[(
            &p("monthlyOccurrences[0].day"),
            "'Funday' is not a valid value",
        )],
    );
    check(
        occ(r#"[{"day":"Friday","Occurrence":"1"}]"#),
        &[(
            &p("monthlyOccurrences[0].Occurrence"),
            "expected an integer",
        )],
    );
    // Only with Month.
    for frequency in ["Minute", "Hour", "Day", "Week"] {
        check(
            scheduled(
                frequency,
                r#"{"monthlyOccurrences":[{"day":"Monday","Occurrence":1}]}"#,
            ),
            &[(
                &p("monthlyOccurrences"),
                &format!(
                    "can only be used with frequency Month or Year; the frequency is {frequency}"
                ),
            )],
        );
    }
    // Month days and occurrences together are allowed (spec §9.3 evaluation order).
    check(
        scheduled(
            "Month",
            r#"{"monthDays":[1],"monthlyOccurrences":[{"day":"Friday","Occurrence":-1}],"hours":[9],"minutes":[0]}"#,
        ),
        OK,
    );
}

/// A rule with no run at all, ever, is refused with "never runs" at the schedule field that
/// rules every run out; it is decided from the period structure (400-year month cycle, times
/// of day at each UTC offset), not by searching. A series that has merely ended is not that.
#[test]
fn a_schedule_that_never_runs() {
    let job = |start: &str, recurrence: &str| {
        format!(
            r#"{{"properties":{{"startTime":"{start}","action":{HTTP},"recurrence":{recurrence}}}}}"#
        )
    };
    let p = "properties.recurrence.schedule";
    let month_days = format!("{p}.monthDays");
    let months = format!("{p}.months");
    type Expected<'a> = &'a [(&'a str, &'a str)];
    let cases: &[(&str, String, Expected)] = &[
        (
            "the 30th of February every 12 months",
            job("2030-02-01T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[30]}}"#),
            &[(&month_days, "never runs: every 12 month(s) from February 2030 reaches only February, and that month never has one of the days selected")],
        ),
        (
            "the 31st, 30th or 29th... no: the 31st and 30th of February",
            job("2030-02-10T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[30,31],"hours":[9]}}"#),
            &[(&month_days, "never runs")],
        ),
        (
            "the 31st of April every 12 months",
            job("2030-04-01T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[31]}}"#),
            &[(&month_days, "reaches only April")],
        ),
        (
            "the 31st in months of 30 days only: every 12 months from June",
            job("2030-06-15T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[31]}}"#),
            &[(&month_days, "never runs")],
        ),
        (
            "every 12 months from February and the 29th: runs in leap years",
            job("2030-02-01T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[29]}}"#),
            OK,
        ),
        (
            "every other month from April reaches August, which has a 31st",
            job("2030-04-01T00:00:00Z", r#"{"frequency":"Month","interval":2,"schedule":{"monthDays":[31]}}"#),
            OK,
        ),
        (
            "the fifth Friday of February every 12 months: in some leap years",
            job("2030-02-01T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthlyOccurrences":[{"day":"Friday","occurrence":5}]}}"#),
            OK,
        ),
        (
            "the 30th counted from the end of February (-30) never exists either",
            job("2030-02-01T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"monthDays":[-30]}}"#),
            &[(&month_days, "never runs")],
        ),
        (
            "every year from the 31st of January, in February only",
            job("2030-01-31T00:00:00Z", r#"{"frequency":"Year","schedule":{"months":[2]}}"#),
            &[(&months, "never runs: every year from January 2030 reaches only February, and that month never has the 31st")],
        ),
        (
            "every year on the 30th of February",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Year","schedule":{"months":[2],"monthDays":[30]}}"#),
            &[(&month_days, "never runs: every year from January 2030 reaches only February")],
        ),
        (
            "every year from the 29th of February: in leap years",
            job("2028-02-29T00:00:00Z", r#"{"frequency":"Year"}"#),
            OK,
        ),
        (
            "every other month from January, limited to February",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Month","interval":2,"schedule":{"months":[2,4]}}"#),
            &[(&months, "never runs: every 2 month(s) from January 2030 never reaches one of the months listed")],
        ),
        (
            "every 12 months from March, limited to March and the 31st",
            job("2030-03-31T00:00:00Z", r#"{"frequency":"Month","interval":12,"schedule":{"months":[3]}}"#),
            OK,
        ),
        (
            "a disabled job is refused too: enabling it would not help",
            format!(r#"{{"properties":{{"startTime":"2030-02-01T00:00:00Z","state":"Disabled","action":{HTTP},"recurrence":{{"frequency":"Month","interval":12,"schedule":{{"monthDays":[30]}}}}}}}}"#),
            &[(&month_days, "never runs")],
        ),
        (
            "ended is not never: an endTime in the past",
            job("2029-02-01T00:00:00Z", r#"{"frequency":"Month","schedule":{"monthDays":[30]},"endTime":"2029-06-01T00:00:00Z"}"#),
            OK,
        ),
        (
            "every 2 hours from midnight UTC never reaches an odd hour",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Hour","interval":2,"schedule":{"hours":[1,3]}}"#),
            &[("properties.recurrence.schedule.hours", "never runs: every 2 hour(s) from 00:00 (UTC) reaches only the hours 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, and none of them is listed")],
        ),
        (
            "in Berlin daylight saving shifts the hours: every 2 hours reaches odd and even ones",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Hour","interval":2,"timeZone":"Europe/Berlin","schedule":{"hours":[2]}}"#),
            OK,
        ),
        (
            "every 24 hours from 00:00 UTC is always at midnight",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Hour","interval":24,"schedule":{"hours":[12],"minutes":[0]}}"#),
            &[("properties.recurrence.schedule.hours", "never runs")],
        ),
        (
            "every 2 minutes never lands on an odd minute",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Minute","interval":2,"schedule":{"minutes":[1]}}"#),
            &[("properties.recurrence.schedule.minutes", "never runs: every 2 minute(s) from 00:00 (UTC) never reaches one of the minutes listed")],
        ),
        (
            "every 720 minutes is at midnight and noon only",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Minute","interval":720,"schedule":{"hours":[3]}}"#),
            &[("properties.recurrence.schedule.hours", "never runs")],
        ),
        (
            "every 7 minutes reaches every minute of the day in time",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Minute","interval":7,"schedule":{"hours":[5],"minutes":[59]}}"#),
            OK,
        ),
        (
            "every 60 minutes limited to minute 30 from a start at :00",
            job("2030-01-01T00:00:00Z", r#"{"frequency":"Minute","interval":60,"schedule":{"hours":[1,2],"minutes":[30]}}"#),
            &[("properties.recurrence.schedule.minutes", "within the hours listed")],
        ),
    ];
    for (name, json, expected) in cases {
        eprintln!("case: {name}");
        check(json, expected);
        check(schedule_only(json.as_str()), expected);
    }
    // Without a startTime the creation time anchors the rule: created in February, the 30th
    // every 12 months never comes; created in January (the test clock), it does.
    let no_start =
        r#"{"recurrence":{"frequency":"Month","interval":12,"schedule":{"monthDays":[30]}}}"#;
    let props = parse_job_document(no_start).unwrap();
    assert!(validate_schedule(&props, now()).is_ok());
    let february: DateTime<Utc> = "2030-02-14T10:00:00Z".parse().unwrap();
    let err = validate_schedule(&props, february).unwrap_err();
    assert_eq!(err.first().path, month_days);
    assert!(err.first().message.contains("never runs"), "{err}");
}

#[test]
fn start_time_limit() {
    // now + 18 months = 2031-07-01T00:00:00Z, inclusive.
    check(starting("2031-07-01T00:00:00Z"), OK);
    check(starting("2031-07-01T00:00:00.999Z"), OK);
    check(starting("2031-07-01T02:00:00+02:00"), OK);
    check(starting("2031-06-30T17:00:00-07:00"), OK);
    check(starting("2031-07-01T00:00:01Z"), &[("properties.startTime", "must be at most 18 months ahead (no later than 2031-07-01T00:00:00Z); got 2031-07-01T00:00:01Z")]);
    check(
        starting("2031-07-01T02:00:01+02:00"),
        &[("properties.startTime", "got 2031-07-01T00:00:01Z")],
    );
    check(
        starting("2031-07-02"),
        &[("properties.startTime", "at most 18 months ahead")],
    );
    check(
        starting("2040-01-01T00:00:00Z"),
        &[("properties.startTime", "at most 18 months ahead")],
    );
    // validate_schedule applies the same limit.
    check(
        schedule_only(r#"{"startTime":"2031-07-01T00:00:01Z"}"#),
        &[("properties.startTime", "at most 18 months ahead")],
    );
    check(schedule_only(r#"{"startTime":"2031-07-01T00:00:00Z"}"#), OK);
    // The past and now are fine; sub-seconds are dropped.
    check(starting("2000-01-01T00:00:00Z"), OK);
    let job = check(starting("2030-06-01T08:30:15.75Z"), OK).unwrap();
    assert_eq!(
        job.schedule.start_time,
        Some("2030-06-01T08:30:15Z".parse().unwrap())
    );
    // Lenient forms (spec §9.1): no seconds, no offset, date only.
    let start = |text: &str| {
        check(starting(text), OK)
            .unwrap()
            .schedule
            .start_time
            .unwrap()
    };
    assert_eq!(
        start("2030-06-01T08:30"),
        "2030-06-01T08:30:00Z".parse::<DateTime<Utc>>().unwrap()
    );
    assert_eq!(
        start("2030-06-01"),
        "2030-06-01T00:00:00Z".parse::<DateTime<Utc>>().unwrap()
    );
    assert_eq!(
        start("2030-06-01T08:30:00-08:00"),
        "2030-06-01T16:30:00Z".parse::<DateTime<Utc>>().unwrap()
    );
    check(
        starting("tomorrow"),
        &[(
            "properties.startTime",
            "'tomorrow' is not a date-time; use ISO 8601",
        )],
    );
    check(
        starting("2030-02-30T00:00:00Z"),
        &[("properties.startTime", "is not a date-time")],
    );
    // This one used to panic the parser (a year past chrono's range once the offset applied).
    check(
        starting("+262142-12-31T23:00-05:00"),
        &[(
            "properties.startTime",
            "is out of range; a date-time must lie in the years 0001 to 9999 (UTC)",
        )],
    );
    check(
        recurring(r#"{"frequency":"Day","endTime":"10000-01-01T00:00:00Z"}"#),
        &[("properties.recurrence.endTime", "years 0001 to 9999")],
    );
    check(
        r#"{"startTime":5,"action":{"type":"Notification"}}"#,
        &[("properties.startTime", "expected a string, got integer `5`")],
    );
    // A five-year endTime with a near start.
    check(
        format!(
            r#"{{"properties":{{"startTime":"2030-01-02T00:00:00Z","action":{HTTP},"recurrence":{{"frequency":"Day","endTime":"2035-01-01T00:00:00Z"}}}}}}"#
        ),
        OK,
    );
    // State is optional and known.
    let state = |s: &str| format!(r#"{{"action":{HTTP},"state":"{s}"}}"#);
    check(state("disabled"), OK);
    check(
        state("Paused"),
        &[(
            "properties.state",
            "'Paused' is not a valid value; expected Enabled, Disabled, Faulted or Completed",
        )],
    );
}

// ---- documents ----------------------------------------------------------------------------

#[test]
fn document_forms_and_parse_errors() {
    // ARM form, bare properties, comments and trailing commas.
    check(job(HTTP), OK);
    check(format!(r#"{{"action":{HTTP}}}"#), OK);
    check(
        "{\n  // the docs annotate their examples\n  \"properties\": {\n    \"action\": {\"type\": \"Http\", /* inline */ \"request\": {\"uri\": \"http://h/\", \"method\": \"GET\",},},\n  },\n}\n",
        OK,
    );
    // Malformed JSON: one error for the whole document, with line and column.
    check(
        "{\"properties\": {\n  \"action\": {\"type\": \"Http\"\n  \"recurrence\": 1}}",
        &[("", "the input is not valid JSON (line 3, column 3)")],
    );
    check("", &[("", "not valid JSON (line 1, column 0)")]);
    check("{\"properties\": ", &[("", "not valid JSON (line 1")]);
    check(
        "{\"a\": nope}",
        &[("", "not valid JSON (line 1, column 8)")],
    );
    let errors = parse_job_document("{\"a\": nope}").unwrap_err();
    assert!(
        !errors.first().message.contains(" at line "),
        "position reported twice: {}",
        errors.first().message
    );
    // Not an object.
    check("[1, 2]", &[("", "a job definition must be a JSON object")]);
    check("\"job\"", &[("", "must be a JSON object")]);
    check(
        r#"{"properties": 5}"#,
        &[("properties", "must be a JSON object")],
    );
    check(
        r#"{"properties": null}"#,
        &[("properties", "must be a JSON object")],
    );
    // Type errors: path and a plain sentence in JSON's terms, no Rust type names.
    let type_errors: &[(&str, &str, &str)] = &[
        (
            r#"{"action": "Http"}"#,
            "properties.action",
            "expected an object, got string \"Http\"",
        ),
        (
            r#"{"action": {"type":"Http","request":[]}}"#,
            "properties.action.request",
            "expected an object, got an array",
        ),
        (
            r#"{"action": {"type":"Http","request":{"uri":5,"method":"GET"}}}"#,
            "properties.action.request.uri",
            "expected a string, got integer `5`",
        ),
        (
            r#"{"action": {"type":"Http","request":{"uri":"http://h/","method":"GET","headers":["a: b"]}}}"#,
            "properties.action.request.headers",
            "expected an object, got an array",
        ),
        (
            r#"{"recurrence": "daily"}"#,
            "properties.recurrence",
            "expected an object, got string \"daily\"",
        ),
        (
            r#"{"recurrence": {"frequency":"Day","count":true}}"#,
            "properties.recurrence.count",
            "expected an integer, got boolean `true`",
        ),
        (
            r#"{"recurrence": {"frequency":"Day","count":100000000000000000000}}"#,
            "properties.recurrence.count",
            "1e20 is too large for an integer",
        ),
        (
            r#"{"recurrence": {"frequency":"Day","count":1e300}}"#,
            "properties.recurrence.count",
            "1e300 is too large for an integer",
        ),
        (
            r#"{"recurrence": {"frequency":"Day","count":18446744073709551615}}"#,
            "properties.recurrence.count",
            "integer is too large",
        ),
        (
            r#"{"recurrence": {"frequency":"Week","schedule":{"weekDays":[1]}}}"#,
            "properties.recurrence.schedule.weekDays[0]",
            "expected a string, got integer `1`",
        ),
        (
            r#"{"recurrence": {"frequency":"Month","schedule":{"monthlyOccurrences":{"day":"Monday"}}}}"#,
            "properties.recurrence.schedule.monthlyOccurrences",
            "expected an array, got an object",
        ),
        (
            r#"{"recurrence": {"frequency":"Month","schedule":{"monthlyOccurrences":[{"day":"Monday"},{"day":"Friday","Occurrence":true}]}}}"#,
            "properties.recurrence.schedule.monthlyOccurrences[1].Occurrence",
            "expected an integer, got boolean `true`",
        ),
        (
            r#"{"recurrence": {"frequency":"Month","schedule":{"monthlyOccurrences":[{"day":"Monday","Occurrence":1,"occurrence":2}]}}}"#,
            "properties.recurrence.schedule.monthlyOccurrences[0]",
            "duplicate field",
        ),
        (
            r#"{"recurrence": {"frequency":"Day","schedule":{"hours":[1,null]}}}"#,
            "properties.recurrence.schedule.hours[1]",
            "expected an integer, got null",
        ),
        // An array is not an object, even one listing every field in order.
        (
            r#"{"recurrence": ["Day", 5, 3, null, null]}"#,
            "properties.recurrence",
            "expected an object, got an array",
        ),
        (
            r#"{"action": [null, null, null, null, null, "Notification", null, null]}"#,
            "properties.action",
            "expected an object, got an array",
        ),
        (
            r#"{"action": {"type":"Notification","retryPolicy":["Fixed","PT30S",3]}}"#,
            "properties.action.retryPolicy",
            "expected an object, got an array",
        ),
        (
            r#"{"recurrence": {"frequency":"Month","schedule":{"monthlyOccurrences":[["Monday", 1]]}}}"#,
            "properties.recurrence.schedule.monthlyOccurrences[0]",
            "expected an object, got an array",
        ),
    ];
    for (json, path, phrase) in type_errors {
        check(*json, &[(path, phrase)]);
        for error in parse_job_document(json).unwrap_err().errors() {
            for rust in ["struct", "sequence", " map", "i64", "u64", "unit value"] {
                assert!(
                    !error.message.contains(rust),
                    "{json}: {:?} mentions {rust:?}",
                    error.message
                );
            }
        }
    }
}

#[test]
fn job_size_limit() {
    assert_eq!(MAX_JOB_SIZE, 16 * 1024);
    // A job of exactly `size` bytes of compact JSON (the `properties` object), every field within
    // its own limit: two 8,000-character bodies and a padded URI.
    let sized = |size: usize| {
        let build = |pad: usize| {
            json!({"properties": {
                "action": {
                    "type": "Http",
                    "request": {"uri": format!("http://h/{}", repeat('u', pad)), "method": "POST", "body": repeat('b', 8000)},
                    "errorAction": {"type": "Http", "request": {"uri": "http://h/", "method": "POST", "body": repeat('e', 8000)}}
                }
            }})
        };
        let base = serde_json::to_string(&build(0)["properties"])
            .unwrap()
            .len();
        assert!(base <= size, "base document already {base} bytes");
        let value = build(size - base);
        assert_eq!(
            serde_json::to_string(&value["properties"]).unwrap().len(),
            size
        );
        // Pretty-printed: whitespace does not count.
        serde_json::to_string_pretty(&value).unwrap()
    };
    check(sized(MAX_JOB_SIZE), OK);
    check(
        sized(MAX_JOB_SIZE + 1),
        &[(
            "properties",
            "the job definition is 16385 bytes; the limit is 16384 bytes (16K)",
        )],
    );
    // Comments do not count either.
    let commented = sized(MAX_JOB_SIZE).replacen('{', &format!("{{ // {}\n", repeat('c', 1000)), 1);
    check(commented, OK);
    // A too-large schedule is rejected by validate_schedule too.
    let big = json!({"recurrence": {"frequency": "Day"}, "padding": repeat('p', MAX_JOB_SIZE)})
        .to_string();
    check(
        schedule_only(big),
        &[("properties", "the limit is 16384 bytes")],
    );
}

#[test]
fn several_problems_are_all_reported() {
    let json = r#"{"properties":{
        "startTime":"2033-01-01T00:00:00Z",
        "action":{"type":"Https",
                  "request":{"uri":"http://h/","method":"GE T","body":"x"},
                  "retryPolicy":{"retryType":"Fixed","retryInterval":"PT1S","retryCount":21},
                  "errorAction":{"type":"StorageQueue","queueMessage":{"storageAccount":"X","queueName":"q"}}},
        "recurrence":{"frequency":"Week","interval":100,"count":0,
                      "schedule":{"minutes":[61],"hours":[24],"weekDays":["Monday"],"monthDays":[1]}}}}"#;
    let expected: &[(&str, &str)] = &[
        ("properties.startTime", "at most 18 months ahead"),
        (
            "properties.recurrence.interval",
            "between 1 and 78 for frequency Week",
        ),
        ("properties.recurrence.count", "at least 1"),
        ("properties.recurrence.schedule.minutes[0]", "got 61"),
        ("properties.recurrence.schedule.hours[0]", "got 24"),
        (
            "properties.recurrence.schedule.monthDays",
            "only be used with frequency Month",
        ),
        (
            "properties.action.retryPolicy.retryInterval",
            "between 15 seconds",
        ),
        (
            "properties.action.retryPolicy.retryCount",
            "between 0 and 20",
        ),
        ("properties.action.request.uri", "https://"),
        (
            "properties.action.request.method",
            "not an HTTP method name",
        ),
        (
            "properties.action.errorAction.queueMessage.storageAccount",
            "storage account name",
        ),
        (
            "properties.action.errorAction.queueMessage.queueName",
            "queue name",
        ),
        (
            "properties.action.errorAction.queueMessage.sasToken",
            "is required",
        ),
    ];
    check(json, expected);
    // validate_schedule reports the same schedule and action problems.
    check(schedule_only(json), expected);
}

/// However many problems a document has, an error lists at most 50: 49 of them and a note
/// saying how many more there were, so a huge bad document cannot produce a huge error.
#[test]
fn error_lists_are_capped() {
    let minutes = vec!["99"; 300].join(",");
    let json = scheduled("Hour", &format!(r#"{{"minutes":[{minutes}]}}"#));
    let paths: Vec<String> = (0..49)
        .map(|i| format!("properties.recurrence.schedule.minutes[{i}]"))
        .collect();
    let mut expected: Vec<(&str, &str)> = paths.iter().map(|p| (p.as_str(), "got 99")).collect();
    expected.push(("", "and 251 more problems"));
    check(&json, &expected);
    let errors = parse_job_document(&json)
        .and_then(|p| validate_job(&p, now()))
        .unwrap_err();
    assert_eq!(errors.total(), 300);
    assert!(
        errors.to_string().ends_with("(and 299 more problems)"),
        "{errors}"
    );
    let body = errors.to_arm_error();
    assert_eq!(body["error"]["details"].as_array().map(Vec::len), Some(50));
    assert_eq!(
        body["error"]["details"][49],
        json!({"code": "BadRequest", "message": "and 251 more problems"})
    );
    // Exactly 50 problems are all listed.
    let minutes = vec!["99"; 50].join(",");
    let json = scheduled("Hour", &format!(r#"{{"minutes":[{minutes}]}}"#));
    let errors = parse_job_document(&json)
        .and_then(|p| validate_job(&p, now()))
        .unwrap_err();
    assert_eq!(errors.errors().len(), 50);
    assert!(errors.errors().iter().all(|e| !e.path.is_empty()));
}

#[test]
fn arm_error_body() {
    let errors = |json: &str| {
        parse_job_document(json)
            .and_then(|p| validate_job(&p, now()))
            .unwrap_err()
    };
    // One problem: no details.
    let one = errors(r#"{"recurrence":{"frequency":"Day"}}"#);
    assert_eq!(one.to_string(), "properties.action: is required");
    assert_eq!(
        one.to_arm_error(),
        json!({"error": {"code": "BadRequest", "message": "properties.action: is required", "target": "properties.action"}})
    );
    // Several: the first at the top with a count, all of them in details.
    let three = errors(
        r#"{"action":{"type":"Http","request":{}},"recurrence":{"frequency":"Day","interval":0}}"#,
    );
    let first =
        "properties.recurrence.interval: must be between 1 and 548 for frequency Day; got 0";
    assert_eq!(three.errors().len(), 3);
    assert_eq!(three.to_string(), format!("{first} (and 2 more problems)"));
    assert_eq!(
        three.to_arm_error(),
        json!({"error": {
            "code": "BadRequest",
            "message": format!("{first} (and 2 more problems)"),
            "target": "properties.recurrence.interval",
            "details": [
                {"code": "BadRequest", "message": first, "target": "properties.recurrence.interval"},
                {"code": "BadRequest", "message": "properties.action.request.uri: is required", "target": "properties.action.request.uri"},
                {"code": "BadRequest", "message": "properties.action.request.method: is required (for example GET, POST, PUT or DELETE)", "target": "properties.action.request.method"},
            ]
        }})
    );
    let two = errors(
        r#"{"action":{"type":"Http","request":{"uri":"http://h/"}},"recurrence":{"frequency":"Day","count":0}}"#,
    );
    assert!(two.to_string().ends_with("(and 1 more problem)"), "{two}");
    assert_eq!(
        two.to_arm_error()["error"]["details"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    // A whole-document error has no target.
    let syntax = parse_job_document("{").unwrap_err();
    let body = syntax.to_arm_error();
    assert_eq!(body["error"]["code"], "BadRequest");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the input is not valid JSON (line 1, column 1)"),
        "{body}"
    );
    assert!(body["error"].get("target").is_none(), "{body}");
    assert!(body["error"].get("details").is_none(), "{body}");
    // The SDK's ARMErrorFormat: only `error` at the top.
    assert_eq!(
        body.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["error"]
    );
}

#[test]
fn spec_example_job_is_valid() {
    // §16, as a client would PUT it, a few months before its start.
    let json = r#"{"properties":{"startTime":"2030-01-01T08:00:00Z",
      "action":{"type":"Http","request":{"uri":"http://127.0.0.1:8080/ping","method":"POST","body":"hi",
                "headers":{"Content-Type":"text/plain"},
                "authentication":{"type":"Basic","username":"u","password":"p"}},
                "retryPolicy":{"retryType":"Fixed","retryInterval":"PT1M","retryCount":2},
                "errorAction":{"type":"StorageQueue","queueMessage":{"storageAccount":"devstoreaccount1",
                   "queueName":"errors","sasToken":"sv=…&sig=…","message":"ping failed"}}},
      "recurrence":{"frequency":"Hour","interval":6,"count":10},
      "state":"Enabled"}}"#;
    let job = check(json, OK).unwrap();
    assert_eq!(
        job.schedule.start_time,
        Some("2030-01-01T08:00:00Z".parse().unwrap())
    );
    let recurrence = job.schedule.recurrence.as_ref().unwrap();
    assert_eq!((recurrence.interval, recurrence.count), (6, Some(10)));
    assert_eq!(
        job.action.retry,
        Retry::Fixed {
            interval: Duration::from_secs(60),
            count: 2
        }
    );
    let error_action = job.action.error_action.as_deref().unwrap();
    assert_eq!(error_action.retry, job.action.retry);
    let ActionKind::StorageQueue(queue) = &error_action.kind else {
        panic!("not a queue action")
    };
    assert_eq!(queue.queue_name, "errors");
    let ActionKind::Http(http) = &job.action.kind else {
        panic!("not an Http action")
    };
    assert_eq!(
        http.headers,
        [("Content-Type".to_string(), "text/plain".to_string())]
    );
    assert_eq!(http.body.as_deref(), Some("hi"));
}

#[test]
fn exponential_retry_policy() {
    use kairos_core::valid::Retry;
    use std::time::Duration;
    let job = |policy: &str| {
        format!(
            r#"{{"action": {{"type": "Http", "request": {{"uri": "http://127.0.0.1/", "method": "GET"}}, "retryPolicy": {policy}}}}}"#
        )
    };
    let now = chrono::DateTime::parse_from_rfc3339("2030-01-01T00:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let parse = |text: &str| {
        let props = kairos_core::document::parse_job_document(text).unwrap();
        kairos_core::validate::validate_job(&props, now)
    };
    let valid = parse(&job(
        r#"{"retryType": "exponential", "retryInterval": "PT15S", "retryCount": 5}"#,
    ))
    .unwrap();
    let retry = valid.action.retry;
    let delays: Vec<u64> = (1..=6)
        .filter_map(|n| retry.delay_before(n))
        .map(|d| d.as_secs())
        .collect();
    assert_eq!(
        delays,
        vec![15, 30, 60, 120, 240],
        "doubling by default, five retries"
    );
    let capped = parse(&job(
        r#"{"retryType": "Exponential", "retryInterval": "PT1M", "retryMultiplier": 3, "maxRetryInterval": "PT5M", "retryCount": 4}"#,
    ))
    .unwrap()
    .action
    .retry;
    assert_eq!(
        capped,
        Retry::Exponential {
            initial: Duration::from_secs(60),
            multiplier: 3.0,
            max_interval: Duration::from_secs(300),
            count: 4
        }
    );
    let delays: Vec<u64> = (1..=4)
        .filter_map(|n| capped.delay_before(n))
        .map(|d| d.as_secs())
        .collect();
    assert_eq!(delays, vec![60, 180, 300, 300]);
    for (policy, path) in [
        (
            r#"{"retryType": "Exponential", "retryMultiplier": 0.5}"#,
            "retryMultiplier",
        ),
        (
            r#"{"retryType": "Exponential", "retryInterval": "PT1M", "maxRetryInterval": "PT30S"}"#,
            "maxRetryInterval",
        ),
        (
            r#"{"retryType": "Exponential", "retryCount": 21}"#,
            "retryCount",
        ),
    ] {
        let err = parse(&job(policy)).unwrap_err();
        assert_eq!(
            err.first().path,
            format!("properties.action.retryPolicy.{path}"),
            "{policy}"
        );
    }
}

/// A job whose action is `Command` with this `command` object.
fn command(spec: &str) -> String {
    job(&format!(r#"{{"type":"Command","command":{spec}}}"#))
}

#[test]
fn command_rules() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            r#"{}"#,
            &[(
                "properties.action.command.program",
                "is required: the program",
            )],
        ),
        (
            r#"{"program":"  "}"#,
            &[("properties.action.command.program", "is required")],
        ),
        (
            r#"{"shell":true}"#,
            &[(
                "properties.action.command.program",
                "the command line to run",
            )],
        ),
        (
            r#"{"program":"echo hi","shell":true,"arguments":["x"]}"#,
            &[(
                "properties.action.command.arguments",
                "must be empty when shell is true",
            )],
        ),
        (r#"{"program":"ls","shell":false,"arguments":["-l"]}"#, OK),
        (
            r#"{"program":"ls","workingDirectory":"tmp/work"}"#,
            &[(
                "properties.action.command.workingDirectory",
                "must be an absolute path",
            )],
        ),
        (r#"{"program":"ls","workingDirectory":"/tmp"}"#, OK),
        (r#"{"program":"ls","workingDirectory":"C:\\Users\\me"}"#, OK),
        (
            r#"{"program":"ls","workingDirectory":"\\\\server\\share"}"#,
            OK,
        ),
        (
            r#"{"program":"ls","environment":{"A=B":"x"}}"#,
            &[(
                "properties.action.command.environment",
                "'A=B' is not a variable name",
            )],
        ),
        (
            r#"{"program":"ls","environment":{"":"x"}}"#,
            &[(
                "properties.action.command.environment",
                "is not a variable name",
            )],
        ),
        (r#"{"program":"ls","environment":{"A":"x=y"}}"#, OK),
        (
            r#"{"program":"ls","timeout":"PT0S"}"#,
            &[("properties.action.command.timeout", "between PT1S and P7D")],
        ),
        (
            r#"{"program":"ls","timeout":"P8D"}"#,
            &[("properties.action.command.timeout", "between PT1S and P7D")],
        ),
        (r#"{"program":"ls","timeout":"PT1S"}"#, OK),
        (r#"{"program":"ls","timeout":"P7D"}"#, OK),
        (
            r#"{"program":"ls","successExitCodes":[]}"#,
            &[(
                "properties.action.command.successExitCodes",
                "at least one exit code",
            )],
        ),
        (
            r#"{"program":"ls","successExitCodes":[0,4294967296]}"#,
            &[(
                "properties.action.command.successExitCodes[1]",
                "4294967296 is not an exit code",
            )],
        ),
        (
            r#"{"program":"ls","successExitCodes":[0,4294967295,-1]}"#,
            OK,
        ),
    ];
    for (spec, expected) in cases {
        check(command(spec), expected);
    }
    // The payload is required, as for every action type.
    check(
        job(r#"{"type":"Command"}"#),
        &[("properties.action.command", "")],
    );
}

#[test]
fn command_defaults_are_applied() {
    let valid = check(command(r#"{"program":" backup.sh "}"#), OK).unwrap();
    let ActionKind::Command(c) = valid.action.kind else {
        panic!("a Command action: {:?}", valid.action.kind);
    };
    assert_eq!(c.program, "backup.sh", "trimmed");
    assert!(c.arguments.is_empty());
    assert_eq!(c.working_directory, None, "the runner uses the user's home");
    assert!(c.environment.is_empty());
    assert_eq!(c.timeout, Duration::from_secs(3600));
    assert_eq!(c.success_exit_codes, vec![0]);
    assert!(!c.shell);

    // An error action may be a Command too.
    let valid = check(
        job(r#"{"type":"Notification","errorAction":{"type":"Command","command":{"program":"true"}}}"#),
        OK,
    )
    .unwrap();
    assert!(matches!(
        valid.action.error_action.unwrap().kind,
        ActionKind::Command(_)
    ));
}
