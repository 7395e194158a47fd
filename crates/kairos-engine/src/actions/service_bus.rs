//! The Service Bus queue and topic actions (spec §5.4, §13): one REST "Send Message" per attempt,
//! `POST {base}/{entity}/messages`, where `base` is [`ExecutorConfig::service_bus_url`] with
//! `{namespace}` replaced (`https://{namespace}.servicebus.windows.net` by default). Queues and
//! topics are sent to the same way; only the words in the history message differ.
//!
//! What the request carries:
//! * `Authorization: SharedAccessSignature sr=…&sig=…&se=…&skn=…`, a SAS token made from the
//!   job's `sasKeyName` and `sasKey` by the documented recipe (see [`sas_token`]), for the entity
//!   URL (`{base}/{entity}`), valid for [`SAS_LIFETIME`].
//! * `BrokerProperties`: a JSON object with the `brokeredMessageProperties` that are set, under
//!   Service Bus' names (`Label`, `MessageId`, `CorrelationId`, `SessionId`, `ReplyTo`,
//!   `ReplyToSessionId`, `To`, `PartitionKey`, `ViaPartitionKey`, `TimeToLive` in seconds,
//!   `ScheduledEnqueueTimeUtc` in RFC 1123, `ForcePersistence`). Left out when none is set.
//!   Characters outside ASCII are written as JSON `\u` escapes, so the header is plain ASCII and
//!   the values arrive exactly.
//! * `Content-Type`: `brokeredMessageProperties.contentType`, or [`DEFAULT_CONTENT_TYPE`] when
//!   the job gives none. Service Bus' documentation shows a `Content-Type` on every send, and the
//!   body is the job's `message` as UTF-8 text, which is what the default says.
//! * One header per `customMessageProperties` entry; Service Bus makes the headers it does not
//!   know into the message's custom (application) properties. HTTP/1 clients send header names
//!   in lower case, so the property names arrive in lower case: `Priority` becomes `priority`.
//!   Values go as UTF-8 bytes, as the HTTP action sends header values.
//! * The scheduler context, as five more custom properties under the names of the HTTP action's
//!   headers (DESIGN.md, "Invariants"), so one receiver can de-duplicate both kinds of delivery:
//!   `x-ms-scheduler-jobid`, `x-ms-scheduler-jobcollectionid`,
//!   `x-ms-scheduler-expected-execution-time` (RFC 3339 with `Z`), `x-ms-execution-tag` (the
//!   same for every attempt of an occurrence) and `x-ms-client-request-id` (new per attempt).
//!   What Azure's Scheduler put on its Service Bus messages is not documented; these names are
//!   our choice. Not checked against the live service: Azure may keep some `x-ms-*` headers for
//!   itself (`x-ms-client-request-id` is its request-tracing header) rather than store them.
//! * The body: the job's `message`, as is.
//!
//! The scheduler context, `Authorization`, `Content-Type` and `BrokerProperties` replace a custom
//! property of the same name (names compare case-insensitively, as HTTP's do): a receiver must be
//! able to trust them. A custom property named after a header that frames the HTTP request
//! itself (`Host`, `Content-Length`, `Transfer-Encoding`, ...) cannot be sent; the attempt fails
//! with a message saying so, and nothing is sent.
//!
//! Only **201 Created** is success (Service Bus' answer to an accepted message, spec §10.1).
//! Anything else fails with the status, its reason, a hint for the statuses Service Bus documents
//! (401 key name or key not accepted, 403 quota or size, 404/410 no such entity) and the first
//! 2,048 bytes of the response body (Service Bus explains itself there). The history message never
//! contains the key or the signature: neither is ever formatted into it, and the response body is
//! scrubbed of both in case a server echoes the request.

use super::http::{describe_error, truncate_body, BODY_LIMIT};
use super::redirect::{self, Follow};
use super::{AttemptContext, ExecutorConfig, Outcome};
use base64::Engine as _;
use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use kairos_core::model::BrokeredMessageProperties;
use kairos_core::valid::ServiceBusAction;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Client, Request, Response, StatusCode};
use serde_json::{json, Map, Value};
use sha2::Sha256;
use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use url::form_urlencoded;
use url::Url;

/// How long a SAS token is valid. Each attempt makes its own token and sends it at once, so this
/// only needs to cover the attempt and the clock skew between this machine and Service Bus; an
/// hour is what Azure's own SDKs give their tokens.
pub(crate) const SAS_LIFETIME: Duration = Duration::from_secs(60 * 60);

/// The `Content-Type` sent when the job's `brokeredMessageProperties` has no `contentType`.
pub(crate) const DEFAULT_CONTENT_TYPE: &str = "text/plain; charset=utf-8";

/// Headers that frame the HTTP request itself; a custom property of one of these names would
/// corrupt the request (or be silently dropped by the HTTP stack), so it is refused.
const FRAMING_HEADERS: &[&str] = &[
    "connection",
    "content-length",
    "expect",
    "host",
    "keep-alive",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// After the kept prefix of a response body, at most this much more is read (and dropped) so
/// the connection can be reused; a longer body is abandoned.
const DRAIN_LIMIT: usize = 64 * 1024;

/// Which entity an attempt sends to, for the history message.
struct Target<'a> {
    /// `ServiceBusQueue` or `ServiceBusTopic`.
    action: &'static str,
    /// `queue` or `topic`.
    entity_kind: &'static str,
    namespace: &'a str,
    entity: &'a str,
}

impl Target<'_> {
    fn prefix(&self) -> String {
        format!(
            "{} Action - Response from namespace '{}' for {} '{}'",
            self.action, self.namespace, self.entity_kind, self.entity
        )
    }

    fn request_failed(&self, why: &str) -> Outcome {
        Outcome::failed(format!(
            "{} Action - Request to namespace '{}' for {} '{}' failed: {why}",
            self.action, self.namespace, self.entity_kind, self.entity
        ))
    }
}

pub(super) async fn execute(
    client: &Client,
    config: &ExecutorConfig,
    action: &ServiceBusAction,
    topic: bool,
    ctx: &AttemptContext,
) -> Outcome {
    let target = Target {
        action: if topic {
            "ServiceBusTopic"
        } else {
            "ServiceBusQueue"
        },
        entity_kind: if topic { "topic" } else { "queue" },
        namespace: &action.namespace,
        entity: &action.entity,
    };
    // The SAS expiry is the one place an attempt reads the real clock: the executor has no clock
    // of its own (the engine's may be a test's manual clock), and the expiry is checked by Service
    // Bus against the real time anyway.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let expiry = (now + SAS_LIFETIME).as_secs();
    let (request, sas) = match build_request(client, config, action, ctx, expiry) {
        Ok(built) => built,
        Err(why) => return target.request_failed(&why),
    };
    // What must never reach the history, should a server echo the request back: the whole
    // token first (it contains the encoded signature), then the signature in both forms.
    let encoded_signature = encode(&sas.signature);
    let secrets = [
        sas.token.as_str(),
        action.sas_key.expose(),
        sas.signature.as_str(),
        encoded_signature.as_str(),
    ];

    match redirect::send(client, config, request, Follow::All).await {
        Ok(response) => {
            let outcome = describe_response(&target, response, &secrets, config.timeout).await;
            tracing::debug!(
                job = %ctx.job_id,
                collection = %ctx.job_collection_id,
                namespace = %action.namespace,
                entity = %action.entity,
                success = outcome.success,
                "service bus action answered"
            );
            outcome
        }
        Err(why) => {
            tracing::debug!(
                job = %ctx.job_id,
                collection = %ctx.job_collection_id,
                namespace = %action.namespace,
                entity = %action.entity,
                error = %why,
                "service bus action failed"
            );
            target.request_failed(&why)
        }
    }
}

/// The entity's URL, `{base}/{entity}` (also the SAS token's resource URI). Each `/`-separated
/// part of the entity path is percent-encoded as a path segment.
fn entity_url(config: &ExecutorConfig, action: &ServiceBusAction) -> Result<Url, String> {
    let base = config
        .service_bus_url
        .replace("{namespace}", &action.namespace);
    let invalid = || format!("the Service Bus URL '{base}' is not a valid base URL");
    let mut url = Url::parse(&base).map_err(|_| invalid())?;
    url.set_query(None);
    url.set_fragment(None);
    url.path_segments_mut()
        .map_err(|()| invalid())?
        .pop_if_empty()
        .extend(action.entity.split('/'));
    Ok(url)
}

/// A SAS token and the signature in it (base64, before URL-encoding).
pub(crate) struct Sas {
    pub(crate) token: String,
    pub(crate) signature: String,
}

/// The request, and the token in it (to keep it out of the history).
fn build_request(
    client: &Client,
    config: &ExecutorConfig,
    action: &ServiceBusAction,
    ctx: &AttemptContext,
    expiry: u64,
) -> Result<(Request, Sas), String> {
    let entity = entity_url(config, action)?;
    let mut messages = entity.clone();
    messages
        .path_segments_mut()
        .map_err(|()| "the Service Bus URL is not a valid base URL".to_string())?
        .push("messages");

    let mut headers = HeaderMap::with_capacity(action.custom_message_properties.len() + 9);
    for (name, value) in &action.custom_message_properties {
        let header_name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
            format!("custom message property '{name}' cannot be sent as an HTTP header name")
        })?;
        if FRAMING_HEADERS.contains(&header_name.as_str()) {
            return Err(format!(
                "custom message property '{name}' cannot be sent: it is an HTTP header that \
                 frames the request itself"
            ));
        }
        let header_value = HeaderValue::from_bytes(value.as_bytes()).map_err(|_| {
            format!("the value of custom message property '{name}' is not allowed in HTTP")
        })?;
        headers.append(header_name, header_value);
    }

    ctx.insert_scheduler_headers(&mut headers)?;

    let properties = action.brokered_message_properties.as_ref();
    let content_type = properties
        .and_then(|p| p.content_type.as_deref())
        .unwrap_or(DEFAULT_CONTENT_TYPE);
    let content_type = HeaderValue::from_bytes(content_type.as_bytes())
        .map_err(|_| "brokeredMessageProperties.contentType is not allowed in HTTP".to_string())?;
    headers.insert(CONTENT_TYPE, content_type);

    let broker = HeaderName::from_static("brokerproperties");
    headers.remove(&broker);
    if let Some(json) = properties.and_then(broker_properties) {
        let value = HeaderValue::from_str(&json)
            .map_err(|_| "brokeredMessageProperties could not be encoded".to_string())?;
        headers.insert(broker, value);
    }

    let sas = sas_token(
        entity.as_str(),
        &action.sas_key_name,
        action.sas_key.expose(),
        expiry,
    );
    let mut authorization = HeaderValue::from_str(&sas.token)
        .map_err(|_| "the SAS token could not be encoded".to_string())?;
    authorization.set_sensitive(true);
    headers.insert(AUTHORIZATION, authorization);

    let request = client
        .post(messages)
        .headers(headers)
        .body(action.message.clone())
        .build()
        .map_err(|e| describe_error(&e, Duration::ZERO))?;
    Ok((request, sas))
}

/// The `Authorization` value for `resource_uri`, by the recipe of Service Bus' documentation
/// (spec §13), and the signature in it:
///
/// ```text
/// stringToSign = urlencode(resourceUri) + "\n" + expiry
/// sig          = base64(HMAC-SHA256(key = UTF-8 bytes of the key string, stringToSign))
/// token        = "SharedAccessSignature sr=" + urlencode(resourceUri) + "&sig=" + urlencode(sig)
///                + "&se=" + expiry + "&skn=" + urlencode(keyName)
/// ```
///
/// `expiry` is in seconds since the Unix epoch. The key is used as the text it is, not decoded
/// from base64. URL-encoding is `application/x-www-form-urlencoded` (as .NET's
/// `HttpUtility.UrlEncode` and Python's `quote_plus` in the official samples): Service Bus checks
/// the signature over the `sr` text exactly as the token carries it.
pub(crate) fn sas_token(resource_uri: &str, key_name: &str, key: &str, expiry: u64) -> Sas {
    let resource = encode(resource_uri);
    let string_to_sign = format!("{resource}\n{expiry}");
    let mut mac =
        Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC accepts keys of any length");
    mac.update(string_to_sign.as_bytes());
    let signature = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    let token = format!(
        "SharedAccessSignature sr={resource}&sig={}&se={expiry}&skn={}",
        encode(&signature),
        encode(key_name)
    );
    Sas { token, signature }
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The `BrokerProperties` header: the properties that are set, or `None` when none is.
/// `contentType` is not among them: it travels as `Content-Type`.
fn broker_properties(p: &BrokeredMessageProperties) -> Option<String> {
    let mut map = Map::new();
    let texts = [
        ("Label", &p.label),
        ("MessageId", &p.message_id),
        ("CorrelationId", &p.correlation_id),
        ("SessionId", &p.session_id),
        ("ReplyTo", &p.reply_to),
        ("ReplyToSessionId", &p.reply_to_session_id),
        ("To", &p.to),
        ("PartitionKey", &p.partition_key),
        ("ViaPartitionKey", &p.via_partition_key),
    ];
    for (name, value) in texts {
        if let Some(value) = value {
            map.insert(name.into(), Value::String(value.clone()));
        }
    }
    if let Some(ttl) = p.time_to_live {
        map.insert("TimeToLive".into(), seconds(ttl));
    }
    if let Some(at) = p.scheduled_enqueue_time_utc {
        map.insert("ScheduledEnqueueTimeUtc".into(), json!(rfc1123(at)));
    }
    if let Some(force) = p.force_persistence {
        map.insert("ForcePersistence".into(), json!(force));
    }
    if map.is_empty() {
        None
    } else {
        Some(ascii_json(&Value::Object(map)))
    }
}

/// Whole seconds as an integer, anything finer as a fraction.
fn seconds(d: Duration) -> Value {
    if d.subsec_nanos() == 0 {
        json!(d.as_secs())
    } else {
        json!(d.as_secs_f64())
    }
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`: RFC 1123, which has no fractions of a second.
fn rfc1123(t: DateTime<Utc>) -> String {
    t.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// JSON text in ASCII only: every character past ASCII (and DEL, which HTTP refuses) as a `\u`
/// escape. Outside strings JSON text is ASCII already, so only string contents change.
fn ascii_json(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() && c != '\u{7f}' {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

async fn describe_response(
    target: &Target<'_>,
    mut response: Response,
    secrets: &[&str],
    timeout: Duration,
) -> Outcome {
    let status = response.status();
    let reason = status
        .canonical_reason()
        .map_or_else(|| status.as_str().to_string(), str::to_string);
    let success = status == StatusCode::CREATED;
    let mut message = format!("{}: {} '{reason}'", target.prefix(), status.as_u16());
    if !success {
        if let Some(hint) = hint(status, target.entity_kind) {
            let _ = write!(message, " ({hint})");
        }
    }
    let (body, read_error) = read_body_prefix(&mut response).await;
    let body = scrub(body, secrets);
    if !body.is_empty() {
        let _ = write!(message, " Body: {body}");
    }
    if let Some(e) = read_error {
        let _ = write!(
            message,
            " (the response body could not be read to the end: {})",
            describe_error(&e, timeout)
        );
    }
    Outcome { success, message }
}

/// What the statuses Service Bus documents for a send mean (spec §13).
fn hint(status: StatusCode, entity_kind: &str) -> Option<String> {
    let hint = match status.as_u16() {
        200..=299 => "Service Bus answers 201 Created when it has taken a message".to_string(),
        400 => "Service Bus refused the request; check brokeredMessageProperties".to_string(),
        401 => "the SAS key name or key was not accepted".to_string(),
        403 => "quota exceeded or message too large".to_string(),
        404 | 410 => format!("the {entity_kind} does not exist"),
        _ => return None,
    };
    Some(hint)
}

/// The first [`BODY_LIMIT`] bytes of the body as text, and the error that stopped reading.
async fn read_body_prefix(response: &mut Response) -> (String, Option<reqwest::Error>) {
    let keep = BODY_LIMIT + 3;
    let mut kept = Vec::new();
    let mut seen = 0usize;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                seen += chunk.len();
                let room = keep.saturating_sub(kept.len()).min(chunk.len());
                kept.extend_from_slice(&chunk[..room]);
                if seen > BODY_LIMIT + DRAIN_LIMIT {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => return (truncate_body(&kept, BODY_LIMIT), Some(e)),
        }
    }
    (truncate_body(&kept, BODY_LIMIT), None)
}

/// `text` with every occurrence of each (non-empty) secret masked.
fn scrub(mut text: String, secrets: &[&str]) -> String {
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        if text.contains(secret) {
            text = text.replace(secret, "***");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_sas_token_follows_the_documented_recipe() {
        // Expected values computed outside Rust (Python: hmac, hashlib.sha256, base64,
        // urllib.parse.quote_plus) from the same inputs.
        let Sas { token, signature } = sas_token(
            "https://contoso.servicebus.windows.net/orders",
            "RootManageSharedAccessKey",
            "c2VjcmV0LWtleS1mb3ItdGVzdHM+/w==",
            1_900_000_000,
        );
        assert_eq!(signature, "Tv3ZgJK9OuDfwYHsd7JZhQWm618IMYC0QLNX/lglwnA=");
        assert_eq!(
            token,
            "SharedAccessSignature sr=https%3A%2F%2Fcontoso.servicebus.windows.net%2Forders\
             &sig=Tv3ZgJK9OuDfwYHsd7JZhQWm618IMYC0QLNX%2FlglwnA%3D&se=1900000000&skn=RootManageSharedAccessKey"
        );
    }

    #[test]
    fn broker_properties_use_service_bus_names_and_formats() {
        let none = BrokeredMessageProperties::default();
        assert_eq!(broker_properties(&none), None);
        let only_content_type = BrokeredMessageProperties {
            content_type: Some("application/json".into()),
            ..Default::default()
        };
        assert_eq!(broker_properties(&only_content_type), None);

        let all = BrokeredMessageProperties {
            content_type: Some("application/json".into()),
            correlation_id: Some("corr".into()),
            force_persistence: Some(true),
            label: Some("café ☕ 😀".into()),
            message_id: Some("m1".into()),
            partition_key: Some("s1".into()),
            reply_to: Some("replies".into()),
            reply_to_session_id: Some("rs".into()),
            scheduled_enqueue_time_utc: Some(Utc.with_ymd_and_hms(1994, 11, 6, 8, 49, 37).unwrap()),
            session_id: Some("s1".into()),
            time_to_live: Some(Duration::from_secs(90)),
            to: Some("someone".into()),
            via_partition_key: Some("via".into()),
        };
        let text = broker_properties(&all).unwrap();
        assert!(text.is_ascii(), "{text}");
        assert!(
            text.contains(r#""Label":"caf\u00e9 \u2615 \ud83d\ude00""#),
            "{text}"
        );
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            parsed,
            json!({
                "Label": "café ☕ 😀",
                "MessageId": "m1",
                "CorrelationId": "corr",
                "SessionId": "s1",
                "ReplyTo": "replies",
                "ReplyToSessionId": "rs",
                "To": "someone",
                "PartitionKey": "s1",
                "ViaPartitionKey": "via",
                "TimeToLive": 90,
                "ScheduledEnqueueTimeUtc": "Sun, 06 Nov 1994 08:49:37 GMT",
                "ForcePersistence": true,
            })
        );
    }

    #[test]
    fn time_to_live_keeps_fractions() {
        assert_eq!(seconds(Duration::from_secs(90)), json!(90));
        assert_eq!(seconds(Duration::from_millis(1500)), json!(1.5));
    }

    #[test]
    fn scrubbing_masks_every_secret() {
        let body = "token sig=abc%2Bdef and abc+def and key KEY".to_string();
        assert_eq!(
            scrub(body, &["KEY", "abc+def", "abc%2Bdef", ""]),
            "token sig=*** and *** and key ***"
        );
    }
}
