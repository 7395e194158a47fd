//! ActiveDirectoryOAuth authentication (spec §8): a client-credentials token from the tenant's
//! Azure AD v1 token endpoint, the one Azure Scheduler used, sent as `Authorization: Bearer`.
//!
//! `POST {oauth_authority}/{tenant}/oauth2/token` with the form
//! `grant_type=client_credentials&client_id=…&client_secret=…&resource=<audience>`; the answer's
//! `access_token` is used until shortly before it expires (`expires_in`, seconds from now, or
//! else `expires_on`, seconds since the epoch; Azure AD v1 sends both, as strings).
//!
//! Tokens are cached per (authority, tenant, client id, audience, SHA-256 of the secret), so a
//! changed secret gets a new token and two jobs with the same credentials share one. Expiry runs
//! on the real clock: the monotonic clock ([`Instant`]) taken before the request is sent, so
//! time spent waiting for the answer counts against the token, and a wall-clock change cannot
//! stretch it; `expires_on` alone is turned into a lifetime with the system clock. A token is
//! dropped [`ExecutorConfig::oauth_refresh_margin`] before it expires (at most half its
//! lifetime, so a short-lived token is still reused), and at once if the target answers 401.
//!
//! Messages name the token endpoint's host, status and OAuth error code (`invalid_client`, …)
//! and the first line of its description; never the secret (scrubbed from the description,
//! should an endpoint echo it) nor a token.

use super::http::describe_error;
use super::redirect::{self, Follow};
use super::ExecutorConfig;
use kairos_core::model::Secret;
use reqwest::header::{HeaderValue, ACCEPT};
use reqwest::{Client, Url};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::Mutex;

/// At most this many credentials are cached; past it an arbitrary one is dropped.
const MAX_TOKENS: usize = 1024;

/// The token endpoint's answer is read up to this size; a real one is a few kilobytes.
const RESPONSE_LIMIT: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TokenKey {
    authority: String,
    tenant: String,
    client_id: String,
    audience: String,
    secret_sha256: [u8; 32],
}

#[derive(Debug)]
struct CachedToken {
    access_token: String,
    valid_until: Instant,
}

/// One slot per credential. The tokio mutex is held while a token is fetched, so concurrent
/// attempts with the same credentials wait for one request instead of each sending their own.
type Slot = Arc<Mutex<Option<CachedToken>>>;

fn tokens() -> &'static StdMutex<HashMap<TokenKey, Slot>> {
    static TOKENS: OnceLock<StdMutex<HashMap<TokenKey, Slot>>> = OnceLock::new();
    TOKENS.get_or_init(Default::default)
}

/// A token ready to send, and what is needed to forget it if the target refuses it.
pub(super) struct Bearer {
    pub(super) header: HeaderValue,
    key: TokenKey,
    token: String,
}

/// The `Authorization` value for these credentials: cached, or fetched now. Waiting for another
/// attempt's request for the same token and sending one's own both end at `deadline` (the end of
/// the attempt), so an unresponsive token endpoint cannot queue attempts behind each other.
pub(super) async fn bearer(
    client: &Client,
    config: &ExecutorConfig,
    deadline: Instant,
    tenant: &str,
    audience: &str,
    client_id: &str,
    secret: &Secret,
) -> Result<Bearer, String> {
    let key = TokenKey {
        authority: config.oauth_authority.clone(),
        tenant: tenant.to_string(),
        client_id: client_id.to_string(),
        audience: audience.to_string(),
        secret_sha256: {
            use sha2::Digest as _;
            sha2::Sha256::digest(secret.expose().as_bytes()).into()
        },
    };
    let slot = {
        let mut map = tokens().lock().unwrap_or_else(|p| p.into_inner());
        if !map.contains_key(&key) && map.len() >= MAX_TOKENS {
            if let Some(victim) = map.keys().next().cloned() {
                map.remove(&victim);
            }
        }
        map.entry(key.clone()).or_default().clone()
    };

    let timed_out = || {
        format!(
            "the ActiveDirectoryOAuth token could not be obtained: the request timed out after {}",
            super::http::human_duration(config.timeout)
        )
    };
    let mut cached = tokio::time::timeout_at(deadline.into(), slot.lock())
        .await
        .map_err(|_| timed_out())?;
    let token = match cached.as_ref() {
        Some(t) if Instant::now() < t.valid_until => t.access_token.clone(),
        _ => {
            *cached = None;
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(timed_out());
            }
            let fetched = fetch(
                client, config, remaining, tenant, audience, client_id, secret,
            )
            .await?;
            let token = fetched.access_token.clone();
            if fetched.valid_until > Instant::now() {
                *cached = Some(fetched);
            }
            token
        }
    };
    drop(cached);

    let mut header = HeaderValue::from_str(&format!("Bearer {token}"))
        .map_err(|_| "the token endpoint returned an access_token that cannot be sent in HTTP")?;
    header.set_sensitive(true);
    Ok(Bearer { header, key, token })
}

/// The target refused the token (401): drop it, unless it has been replaced meanwhile, so the
/// next attempt asks for a new one.
pub(super) async fn forget(bearer: &Bearer) {
    let slot = tokens()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&bearer.key)
        .cloned();
    if let Some(slot) = slot {
        let mut cached = slot.lock().await;
        if cached
            .as_ref()
            .is_some_and(|t| t.access_token == bearer.token)
        {
            *cached = None;
        }
    }
}

/// `{authority}/{tenant}/oauth2/token`, the tenant as one path segment (percent-encoded).
fn token_endpoint(authority: &str, tenant: &str) -> Result<Url, String> {
    let mut url = Url::parse(authority).map_err(|_| {
        "the Azure AD authority (KAIROS_AAD_AUTHORITY) is not a valid URL".to_string()
    })?;
    url.path_segments_mut()
        .map_err(|_| "the Azure AD authority (KAIROS_AAD_AUTHORITY) cannot have a path")?
        .pop_if_empty()
        .push(tenant)
        .push("oauth2")
        .push("token");
    Ok(url)
}

async fn fetch(
    client: &Client,
    config: &ExecutorConfig,
    timeout: Duration,
    tenant: &str,
    audience: &str,
    client_id: &str,
    secret: &Secret,
) -> Result<CachedToken, String> {
    let url = token_endpoint(&config.oauth_authority, tenant)?;
    let host = url.host_str().unwrap_or_default().to_string();
    let failed = |why: String| {
        format!("the ActiveDirectoryOAuth token could not be obtained from '{host}': {why}")
    };

    let sent = Instant::now();
    let form = [
        ("grant_type", "client_credentials"),
        ("client_id", client_id),
        ("client_secret", secret.expose()),
        ("resource", audience),
    ];
    let request = client
        .post(url)
        .header(ACCEPT, "application/json")
        .timeout(timeout)
        .form(&form)
        .build()
        .map_err(|e| failed(describe_error(&e, config.timeout)))?;
    // The body carries the client secret, which a 307 would repeat to the other host.
    let mut response = redirect::send(client, config, request, Follow::SameOrigin)
        .await
        .map_err(failed)?;

    let status = response.status();
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                body.extend_from_slice(&chunk);
                if body.len() > RESPONSE_LIMIT {
                    return Err(failed(format!(
                        "the answer ({status}) is larger than {} KiB",
                        RESPONSE_LIMIT / 1024
                    )));
                }
            }
            Ok(None) => break,
            Err(e) => return Err(failed(describe_error(&e, config.timeout))),
        }
    }

    if !status.is_success() {
        return Err(failed(describe_refusal(status, &body, secret)));
    }
    let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|_| {
        failed(format!(
            "the answer ({status}) is not the JSON of a token response"
        ))
    })?;
    let access_token = answer
        .access_token
        .filter(|t| !t.is_empty())
        .ok_or_else(|| failed(format!("the answer ({status}) has no access_token")))?;

    let lifetime = match (answer.expires_in, answer.expires_on) {
        (Some(seconds), _) => Duration::from_secs(seconds.0),
        (None, Some(on)) => {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs();
            Duration::from_secs(on.0.saturating_sub(now))
        }
        // No expiry given: use the token for this attempt only.
        (None, None) => Duration::ZERO,
    };
    Ok(CachedToken {
        access_token,
        valid_until: sent + usable_for(lifetime, config.oauth_refresh_margin),
    })
}

/// How long a token of this lifetime is used: its lifetime less the refresh margin, the margin
/// being at most half the lifetime.
fn usable_for(lifetime: Duration, margin: Duration) -> Duration {
    lifetime - margin.min(lifetime / 2)
}

/// `400 Bad Request, invalid_client: AADSTS7000215: Invalid client secret provided.`
fn describe_refusal(status: reqwest::StatusCode, body: &[u8], secret: &Secret) -> String {
    let status_text = match status.canonical_reason() {
        Some(reason) => format!("{} {reason}", status.as_str()),
        None => status.as_str().to_string(),
    };
    let Ok(error) = serde_json::from_slice::<ErrorAnswer>(body) else {
        return format!("the token endpoint answered {status_text}");
    };
    let mut text = format!("the token endpoint answered {status_text}");
    if let Some(code) = error.error.filter(|c| !c.is_empty()) {
        text.push_str(&format!(", {}", one_line(&code, 100)));
    }
    if let Some(description) = error.error_description.filter(|d| !d.is_empty()) {
        text.push_str(&format!(": {}", one_line(&description, 300)));
    }
    if !secret.is_empty() {
        text = text.replace(secret.expose(), "***");
    }
    text
}

/// The first line of `s`, at most `limit` characters.
fn one_line(s: &str, limit: usize) -> String {
    let line = s.lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    expires_in: Option<Seconds>,
    expires_on: Option<Seconds>,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    error: Option<String>,
    error_description: Option<String>,
}

/// A count of seconds as Azure AD v1 sends it (a string, `"3599"`) or as v2 and others do (a
/// number).
struct Seconds(u64);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Float(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(n) => Ok(Seconds(n)),
            Raw::Float(f) if f.is_finite() && f >= 0.0 => Ok(Seconds(f as u64)),
            Raw::Text(t) => t
                .trim()
                .parse()
                .map(Seconds)
                .map_err(|_| serde::de::Error::custom("not a number of seconds")),
            Raw::Float(_) => Err(serde::de::Error::custom("not a number of seconds")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_endpoint_is_built_from_the_authority() {
        let cases = [
            (
                "https://login.microsoftonline.com",
                "contoso.com",
                "https://login.microsoftonline.com/contoso.com/oauth2/token",
            ),
            (
                "https://login.microsoftonline.com/",
                "contoso.com",
                "https://login.microsoftonline.com/contoso.com/oauth2/token",
            ),
            (
                "http://127.0.0.1:8080/aad/",
                "t 1/x",
                "http://127.0.0.1:8080/aad/t%201%2Fx/oauth2/token",
            ),
        ];
        for (authority, tenant, want) in cases {
            assert_eq!(token_endpoint(authority, tenant).unwrap().as_str(), want);
        }
        assert!(token_endpoint("not a url", "t").is_err());
    }

    #[test]
    fn expiry_is_read_in_both_forms() {
        let v1: TokenAnswer = serde_json::from_str(
            r#"{"token_type":"Bearer","expires_in":"3599","expires_on":"1700000000","access_token":"x"}"#,
        )
        .unwrap();
        assert_eq!(v1.expires_in.unwrap().0, 3599);
        assert_eq!(v1.expires_on.unwrap().0, 1_700_000_000);
        let v2: TokenAnswer =
            serde_json::from_str(r#"{"expires_in":3599,"access_token":"x"}"#).unwrap();
        assert_eq!(v2.expires_in.unwrap().0, 3599);
        assert!(v2.expires_on.is_none());
    }

    #[test]
    fn the_margin_never_eats_more_than_half_a_token() {
        let m = Duration::from_secs(300);
        assert_eq!(
            usable_for(Duration::from_secs(3600), m),
            Duration::from_secs(3300)
        );
        assert_eq!(
            usable_for(Duration::from_secs(120), m),
            Duration::from_secs(60)
        );
        assert_eq!(usable_for(Duration::ZERO, m), Duration::ZERO);
        assert_eq!(
            usable_for(Duration::from_secs(2), Duration::ZERO),
            Duration::from_secs(2)
        );
    }

    #[test]
    fn refusals_name_the_code_but_not_the_secret() {
        let secret = Secret::new("s3cr3t-value");
        let body = br#"{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret provided: s3cr3t-value.\r\nTrace ID: 1"}"#;
        let text = describe_refusal(reqwest::StatusCode::UNAUTHORIZED, body, &secret);
        assert_eq!(
            text,
            "the token endpoint answered 401 Unauthorized, invalid_client: AADSTS7000215: Invalid client secret provided: ***."
        );
        let text = describe_refusal(reqwest::StatusCode::BAD_GATEWAY, b"<html>", &secret);
        assert_eq!(text, "the token endpoint answered 502 Bad Gateway");
    }
}
