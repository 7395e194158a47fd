//! Action rules (spec §5.1–§5.4, §7, §8, §11).

use super::{FieldRule, Problems};
use crate::model::{
    ActionType, HttpAuthentication, HttpAuthenticationType, HttpRequest, JobAction, RetryPolicy,
    RetryType, Secret, ServiceBusMessage, StorageQueueMessage,
};
use crate::valid::{
    Action, ActionKind, HttpAction, HttpAuth, NotificationAction, Retry, ServiceBusAction,
    StorageQueueAction,
};
use std::time::Duration;

/// Request limits (spec §11).
pub const MAX_URI_LENGTH: usize = 2048;
pub const MAX_BODY_LENGTH: usize = 8192;
pub const MAX_HEADER_COUNT: usize = 50;
pub const MAX_HEADERS_LENGTH: usize = 4096;
/// Retry bounds (spec §7, newer docs): 15 s .. 18 months (548 days), at most 20 retries.
pub const MIN_RETRY_INTERVAL: Duration = Duration::from_secs(15);
pub const MAX_RETRY_INTERVAL: Duration = Duration::from_secs(548 * 86400);
pub const MAX_RETRY_COUNT: i64 = 20;
/// Exponential retry defaults (Kairos extension): double each time, at most an hour apart.
pub const DEFAULT_RETRY_MULTIPLIER: f64 = 2.0;
pub const DEFAULT_MAX_RETRY_INTERVAL: Duration = Duration::from_secs(3600);

/// Validate an action; `main` is false for the error action, which may not chain another.
/// The error action inherits the main action's retry policy when it has none (spec §7.1).
pub(super) fn check_action(
    a: &JobAction,
    path: &str,
    main: bool,
    problems: &mut Problems,
) -> Option<Action> {
    let before = problems.0.len();
    let retry = match &a.retry_policy {
        Some(p) => check_retry(p, &format!("{path}.retryPolicy"), problems),
        None => Retry::DEFAULT,
    };
    let kind = match a.action_type {
        None => {
            problems.add(
                format!("{path}.type"),
                FieldRule::RequiredOneOf {
                    expected: ActionType::ALL.iter().map(|t| t.as_str()).collect(),
                },
            );
            None
        }
        Some(t) => check_payload(a, t, path, problems),
    };
    let error_action = match (&a.error_action, main) {
        (Some(wire), true) => {
            let mut checked = check_action(wire, &format!("{path}.errorAction"), false, problems);
            if let Some(e) = checked.as_mut().filter(|_| wire.retry_policy.is_none()) {
                e.retry = retry;
            }
            checked.map(Box::new)
        }
        (Some(_), false) => {
            problems.add(format!("{path}.errorAction"), FieldRule::NestedErrorAction);
            None
        }
        (None, _) => None,
    };
    if problems.0.len() > before {
        return None;
    }
    Some(Action {
        kind: kind?,
        retry,
        error_action,
    })
}

fn check_payload(
    a: &JobAction,
    t: ActionType,
    path: &str,
    problems: &mut Problems,
) -> Option<ActionKind> {
    let field = |name: &str| format!("{path}.{name}");
    let missing = |problems: &mut Problems, name: &str| {
        problems.add(
            field(name),
            FieldRule::RequiredForActionType {
                action_type: t.as_str(),
            },
        );
    };
    match t {
        ActionType::Http | ActionType::Https => match &a.request {
            Some(r) => check_http(r, t, &field("request"), problems).map(ActionKind::Http),
            None => {
                missing(problems, "request");
                None
            }
        },
        ActionType::StorageQueue => match &a.queue_message {
            Some(m) => check_storage_queue(m, &field("queueMessage"), problems)
                .map(ActionKind::StorageQueue),
            None => {
                missing(problems, "queueMessage");
                None
            }
        },
        ActionType::ServiceBusQueue => match &a.service_bus_queue_message {
            Some(m) => check_service_bus(m, false, &field("serviceBusQueueMessage"), problems)
                .map(ActionKind::ServiceBusQueue),
            None => {
                missing(problems, "serviceBusQueueMessage");
                None
            }
        },
        ActionType::ServiceBusTopic => match &a.service_bus_topic_message {
            Some(m) => check_service_bus(m, true, &field("serviceBusTopicMessage"), problems)
                .map(ActionKind::ServiceBusTopic),
            None => {
                missing(problems, "serviceBusTopicMessage");
                None
            }
        },
        ActionType::Notification => {
            let n = a.notification.clone().unwrap_or_default();
            Some(ActionKind::Notification(NotificationAction {
                title: n.title,
                body: n.body,
            }))
        }
        ActionType::Command => match &a.command {
            Some(c) => super::command::check_command(c, &field("command"), problems)
                .map(ActionKind::Command),
            None => {
                missing(problems, "command");
                None
            }
        },
    }
}

fn check_retry(p: &RetryPolicy, path: &str, problems: &mut Problems) -> Retry {
    let Some(kind) = p.retry_type else {
        problems.add(
            format!("{path}.retryType"),
            FieldRule::RequiredOneOf {
                expected: RetryType::ALL.iter().map(|t| t.as_str()).collect(),
            },
        );
        return Retry::None;
    };
    match kind {
        RetryType::None => Retry::None,
        RetryType::Fixed => {
            let (interval, count) = check_interval_and_count(p, path, problems);
            Retry::Fixed { interval, count }
        }
        RetryType::Exponential => {
            let (initial, count) = check_interval_and_count(p, path, problems);
            let multiplier = p.retry_multiplier.unwrap_or(DEFAULT_RETRY_MULTIPLIER);
            if !(multiplier.is_finite() && (1.0..=10.0).contains(&multiplier)) {
                problems.add(
                    format!("{path}.retryMultiplier"),
                    FieldRule::OutOfRange {
                        min: 1,
                        max: 10,
                        got: multiplier.to_string(),
                    },
                );
            }
            let max_interval = p
                .max_retry_interval
                .unwrap_or(DEFAULT_MAX_RETRY_INTERVAL.max(initial));
            if !(initial..=MAX_RETRY_INTERVAL).contains(&max_interval) {
                problems.add(
                    format!("{path}.maxRetryInterval"),
                    FieldRule::MaxRetryIntervalOutOfRange {
                        min: crate::iso8601::format_duration(initial),
                        got: crate::iso8601::format_duration(max_interval),
                    },
                );
            }
            Retry::Exponential {
                initial,
                multiplier: multiplier.clamp(1.0, 10.0),
                max_interval,
                count,
            }
        }
    }
}

/// `retryInterval` and `retryCount` with their defaults (PT30S, 4) and bounds.
fn check_interval_and_count(
    p: &RetryPolicy,
    path: &str,
    problems: &mut Problems,
) -> (Duration, u32) {
    let (default_interval, default_count) = (Duration::from_secs(30), 4);
    let interval = p.retry_interval.unwrap_or(default_interval);
    if !(MIN_RETRY_INTERVAL..=MAX_RETRY_INTERVAL).contains(&interval) {
        problems.add(
            format!("{path}.retryInterval"),
            FieldRule::RetryIntervalOutOfRange {
                got: crate::iso8601::format_duration(interval),
            },
        );
    }
    let count = p.retry_count.unwrap_or(default_count);
    if !(0..=MAX_RETRY_COUNT).contains(&count) {
        problems.add(
            format!("{path}.retryCount"),
            FieldRule::OutOfRange {
                min: 0,
                max: MAX_RETRY_COUNT,
                got: count.to_string(),
            },
        );
    }
    (interval, count.clamp(0, MAX_RETRY_COUNT) as u32)
}

fn check_http(
    r: &HttpRequest,
    t: ActionType,
    path: &str,
    problems: &mut Problems,
) -> Option<HttpAction> {
    let before = problems.0.len();
    let uri = match r.uri.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        None => {
            problems.add(format!("{path}.uri"), FieldRule::Required);
            None
        }
        Some(u) if u.len() > MAX_URI_LENGTH => {
            problems.add(
                format!("{path}.uri"),
                FieldRule::TooLong {
                    max: MAX_URI_LENGTH,
                    got: u.len(),
                },
            );
            None
        }
        Some(u) => match url::Url::parse(u) {
            Ok(url) if !matches!(url.scheme(), "http" | "https") || url.host().is_none() => {
                problems.add(
                    format!("{path}.uri"),
                    FieldRule::NotAnHttpUrl { got: u.to_string() },
                );
                None
            }
            Ok(url) if t == ActionType::Https && url.scheme() != "https" => {
                problems.add(
                    format!("{path}.uri"),
                    FieldRule::HttpsRequired { got: u.to_string() },
                );
                None
            }
            Ok(url) => Some(url),
            Err(e) => {
                problems.add(
                    format!("{path}.uri"),
                    FieldRule::NotAUrl {
                        reason: e.to_string(),
                        got: u.to_string(),
                    },
                );
                None
            }
        },
    };
    let method = match r.method.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        None => {
            problems.add(format!("{path}.method"), FieldRule::MethodRequired);
            None
        }
        Some(m) if !m.bytes().all(is_token_byte) => {
            problems.add(
                format!("{path}.method"),
                FieldRule::NotAMethod { got: m.to_string() },
            );
            None
        }
        Some(m) => Some(m.to_ascii_uppercase()),
    };
    if let Some(body) = &r.body {
        let len = body.chars().count();
        if len > MAX_BODY_LENGTH {
            problems.add(
                format!("{path}.body"),
                FieldRule::TooLong {
                    max: MAX_BODY_LENGTH,
                    got: len,
                },
            );
        }
    }
    let mut headers = Vec::new();
    if let Some(h) = &r.headers {
        if h.len() > MAX_HEADER_COUNT {
            problems.add(
                format!("{path}.headers"),
                FieldRule::TooManyHeaders {
                    max: MAX_HEADER_COUNT,
                    got: h.len(),
                },
            );
        }
        let total: usize = h
            .iter()
            .map(|(k, v)| k.chars().count() + v.chars().count())
            .sum();
        if total > MAX_HEADERS_LENGTH {
            problems.add(
                format!("{path}.headers"),
                FieldRule::HeadersTooLong {
                    max: MAX_HEADERS_LENGTH,
                    got: total,
                },
            );
        }
        for (name, value) in h {
            if name.is_empty() || !name.bytes().all(is_token_byte) {
                problems.add(
                    format!("{path}.headers.{name}"),
                    FieldRule::NotAHeaderName { name: name.clone() },
                );
            } else if value.contains(['\r', '\n']) {
                problems.add(
                    format!("{path}.headers.{name}"),
                    FieldRule::HeaderValueLineBreak,
                );
            }
            headers.push((name.clone(), value.clone()));
        }
    }
    let authentication = match &r.authentication {
        Some(a) => check_http_auth(a, &format!("{path}.authentication"), problems),
        None => None,
    };
    if problems.0.len() > before {
        return None;
    }
    Some(HttpAction {
        uri: uri?,
        method: method?,
        body: r.body.clone(),
        headers,
        authentication,
    })
}

/// RFC 9110 `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn check_http_auth(
    a: &HttpAuthentication,
    path: &str,
    problems: &mut Problems,
) -> Option<HttpAuth> {
    let Some(kind) = a.auth_type else {
        problems.add(
            format!("{path}.type"),
            FieldRule::RequiredOneOf {
                expected: HttpAuthenticationType::ALL
                    .iter()
                    .map(|t| t.as_str())
                    .collect(),
            },
        );
        return None;
    };
    let mut text = |value: &Option<String>, name: &str| -> Option<String> {
        match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            Some(v) => Some(v.to_string()),
            None => {
                problems.add(
                    format!("{path}.{name}"),
                    FieldRule::RequiredForAuthentication {
                        kind: kind.as_str(),
                    },
                );
                None
            }
        }
    };
    let secret = |value: &Option<Secret>| value.clone().filter(|s| !s.is_empty());
    match kind {
        HttpAuthenticationType::NotSpecified => None,
        HttpAuthenticationType::Basic => {
            let username = text(&a.username, "username");
            let password = secret(&a.password);
            if password.is_none() {
                problems.add(
                    format!("{path}.password"),
                    FieldRule::RequiredForAuthentication {
                        kind: kind.as_str(),
                    },
                );
            }
            Some(HttpAuth::Basic {
                username: username?,
                password: password?,
            })
        }
        HttpAuthenticationType::ClientCertificate => {
            let pfx = secret(&a.pfx);
            match &pfx {
                None => problems.add(format!("{path}.pfx"), FieldRule::PfxRequired),
                Some(p) if !is_base64(p.expose()) => {
                    problems.add(format!("{path}.pfx"), FieldRule::NotAPfx)
                }
                Some(_) => {}
            }
            // A PFX may have an empty password; absent is taken as empty.
            let password = a.password.clone().unwrap_or_default();
            Some(HttpAuth::ClientCertificate {
                pfx: pfx.filter(|p| is_base64(p.expose()))?,
                password,
            })
        }
        HttpAuthenticationType::ActiveDirectoryOAuth => {
            let tenant = text(&a.tenant, "tenant");
            let audience = text(&a.audience, "audience");
            let client_id = text(&a.client_id, "clientId");
            let secret_value = secret(&a.secret);
            if secret_value.is_none() {
                problems.add(
                    format!("{path}.secret"),
                    FieldRule::RequiredForAuthentication {
                        kind: kind.as_str(),
                    },
                );
            }
            Some(HttpAuth::ActiveDirectoryOAuth {
                tenant: tenant?,
                audience: audience?,
                client_id: client_id?,
                secret: secret_value?,
            })
        }
    }
}

// `usize::is_multiple_of` needs Rust 1.87; the workspace declares rust-version 1.80.
fn is_base64(s: &str) -> bool {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    !s.is_empty()
        && s.len().is_multiple_of(4)
        && s.trim_end_matches('=')
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        && s.len() - s.trim_end_matches('=').len() <= 2
}

fn check_storage_queue(
    m: &StorageQueueMessage,
    path: &str,
    problems: &mut Problems,
) -> Option<StorageQueueAction> {
    let before = problems.0.len();
    let account = required_text(
        &m.storage_account,
        &format!("{path}.storageAccount"),
        problems,
    );
    if let Some(a) = &account {
        if !(3..=24).contains(&a.len()) || !a.bytes().all(|b| b.is_ascii_alphanumeric()) {
            problems.add(
                format!("{path}.storageAccount"),
                FieldRule::NotAStorageAccount { got: a.clone() },
            );
        }
    }
    // Account names are case-insensitive (the 2015 page writes "myStorageAccount"): the
    // lower-case form is the one the storage endpoint's host name uses.
    let account = account.map(|a| a.to_ascii_lowercase());
    let queue = required_text(&m.queue_name, &format!("{path}.queueName"), problems);
    if let Some(q) = &queue {
        if !is_queue_name(q) {
            problems.add(
                format!("{path}.queueName"),
                FieldRule::NotAQueueName { got: q.clone() },
            );
        }
    }
    let sas = m
        .sas_token
        .clone()
        .filter(|s| !s.expose().trim().is_empty());
    if sas.is_none() {
        problems.add(format!("{path}.sasToken"), FieldRule::SasTokenRequired);
    }
    if problems.0.len() > before {
        return None;
    }
    Some(StorageQueueAction {
        storage_account: account?,
        queue_name: queue?,
        sas_token: sas?,
        message: m.message.clone().unwrap_or_default(),
        encoding: m.encoding.unwrap_or_default(),
    })
}

fn is_queue_name(q: &str) -> bool {
    let b = q.as_bytes();
    (3..=63).contains(&b.len())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && !q.contains("--")
}

fn check_service_bus(
    m: &ServiceBusMessage,
    topic: bool,
    path: &str,
    problems: &mut Problems,
) -> Option<ServiceBusAction> {
    let before = problems.0.len();
    let namespace = required_text(&m.namespace, &format!("{path}.namespace"), problems);
    if let Some(ns) = &namespace {
        if ns.len() > 50 || !ns.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            problems.add(
                format!("{path}.namespace"),
                FieldRule::NotAServiceBusNamespace { got: ns.clone() },
            );
        }
    }
    let (entity_field, entity_value) = if topic {
        ("topicPath", &m.topic_path)
    } else {
        ("queueName", &m.queue_name)
    };
    let entity = required_text(entity_value, &format!("{path}.{entity_field}"), problems);
    if let Some(e) = &entity {
        if e.len() > 260 || e.starts_with('/') || e.ends_with('/') {
            problems.add(
                format!("{path}.{entity_field}"),
                FieldRule::NotAnEntityPath { got: e.clone() },
            );
        }
    }
    let auth_path = format!("{path}.authentication");
    let (key_name, key) = match &m.authentication {
        None => {
            problems.add(auth_path, FieldRule::ServiceBusAuthenticationRequired);
            (None, None)
        }
        Some(a) => {
            let name = required_text(
                &a.sas_key_name,
                &format!("{auth_path}.sasKeyName"),
                problems,
            );
            let key = a.sas_key.clone().filter(|k| !k.is_empty());
            if key.is_none() {
                problems.add(format!("{auth_path}.sasKey"), FieldRule::Required);
            }
            (name, key)
        }
    };
    let mut custom = Vec::new();
    if let Some(props) = &m.custom_message_properties {
        for (name, value) in props {
            if name.is_empty() || !name.bytes().all(is_token_byte) {
                problems.add(
                    format!("{path}.customMessageProperties.{name}"),
                    FieldRule::NotAPropertyName { name: name.clone() },
                );
            } else if value.contains(['\r', '\n']) {
                problems.add(
                    format!("{path}.customMessageProperties.{name}"),
                    FieldRule::ValueLineBreak,
                );
            }
            custom.push((name.clone(), value.clone()));
        }
    }
    if problems.0.len() > before {
        return None;
    }
    Some(ServiceBusAction {
        namespace: namespace?,
        entity: entity?,
        sas_key_name: key_name?,
        sas_key: key?,
        message: m.message.clone().unwrap_or_default(),
        brokered_message_properties: m.brokered_message_properties.clone(),
        custom_message_properties: custom,
    })
}

fn required_text(value: &Option<String>, path: &str, problems: &mut Problems) -> Option<String> {
    match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) => Some(v.to_string()),
        None => {
            problems.add(path, FieldRule::Required);
            None
        }
    }
}
