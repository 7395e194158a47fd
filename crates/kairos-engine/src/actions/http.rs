//! The HTTP(S) action (spec §5.2, §8, §10.1).
//!
//! The history message mimics Azure's:
//! `Http Action - Response from host 'HOST': 'REASON' Response Headers: name: value\r\n... Body: BODY`
//! with the body cut to its first 2,048 bytes (on a character boundary), or
//! `Http Action - Request to host 'HOST' failed: WHY` when no response arrived. Response header
//! names appear as received, in lower case (HTTP/1 libraries normalise them). The message never
//! repeats the request's headers, so neither the job's own headers nor the `Authorization`
//! value can leak into history; errors from the HTTP stack are reported without the URL, which
//! may carry credentials or a token in its query.
//!
//! Authentication (spec §8): Basic is an `Authorization` header; ClientCertificate sends the
//! request through a client that presents the PFX's certificate ([`super::client_cert`]);
//! ActiveDirectoryOAuth first gets a token ([`super::oauth`]) and sends it as
//! `Authorization: Bearer`. Opening the PFX and asking for a token count against the attempt's
//! timeout; when either fails, the attempt fails with the reason and nothing is sent.

use super::redirect::{self, Follow};
use super::{client_cert, oauth, private, AttemptContext, ExecutorConfig, Outcome};
use base64::Engine as _;
use kairos_core::valid::{HttpAction, HttpAuth};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION};
use reqwest::{Client, Method, Request, Response, StatusCode};
use std::error::Error as StdError;
use std::time::{Duration, Instant};

/// Azure kept the first 2,048 bytes of the response body (spec §10.1).
pub(crate) const BODY_LIMIT: usize = 2048;

/// Response headers beyond this many bytes are left out of the message: a history record should
/// not grow to the size of a hostile server's header block.
const HEADERS_LIMIT: usize = 8 * 1024;

/// After the kept prefix, up to this much more body is read and discarded, so the connection
/// can go back to the pool. A longer body is abandoned (the connection is closed).
const DRAIN_LIMIT: usize = 64 * 1024;

pub(super) async fn execute(
    client: &Client,
    config: &ExecutorConfig,
    action: &HttpAction,
    ctx: &AttemptContext,
) -> Outcome {
    let started = Instant::now();
    let timeout = config.timeout;
    let host = action.uri.host_str().unwrap_or_default();

    let mut cert_client = None;
    let mut bearer = None;
    match &action.authentication {
        Some(HttpAuth::ClientCertificate { pfx, password }) => {
            match client_cert::client_for(config, pfx, password).await {
                Ok(c) => cert_client = Some(c),
                Err(why) => return request_failed(host, &why),
            }
        }
        Some(HttpAuth::ActiveDirectoryOAuth {
            tenant,
            audience,
            client_id,
            secret,
        }) => {
            let deadline = started + timeout;
            match oauth::bearer(
                client, config, deadline, tenant, audience, client_id, secret,
            )
            .await
            {
                Ok(b) => bearer = Some(b),
                Err(why) => return request_failed(host, &why),
            }
        }
        Some(HttpAuth::Basic { .. }) | None => {}
    }
    let client = cert_client.as_ref().unwrap_or(client);

    // What is left of the attempt's time after authentication.
    let remaining = timeout.saturating_sub(started.elapsed());
    if remaining.is_zero() {
        return request_failed(
            host,
            &format!("the request timed out after {}", human_duration(timeout)),
        );
    }
    let request = match build_request(client, action, ctx, bearer.as_ref(), remaining) {
        Ok(request) => request,
        Err(why) => return request_failed(host, &why),
    };
    match redirect::send(client, config, request, Follow::All).await {
        Ok(response) => {
            if response.status() == StatusCode::UNAUTHORIZED {
                if let Some(bearer) = &bearer {
                    // Refused (revoked, or the audience is wrong): the next attempt asks anew.
                    oauth::forget(bearer).await;
                }
            }
            let outcome = describe_response(host, response, timeout).await;
            tracing::debug!(
                job = %ctx.job_id,
                collection = %ctx.job_collection_id,
                host,
                success = outcome.success,
                "http action answered"
            );
            outcome
        }
        Err(why) => {
            tracing::debug!(
                job = %ctx.job_id,
                collection = %ctx.job_collection_id,
                host,
                error = %why,
                "http action failed"
            );
            request_failed(host, &why)
        }
    }
}

fn request_failed(host: &str, why: &str) -> Outcome {
    Outcome::failed(format!(
        "Http Action - Request to host '{host}' failed: {why}"
    ))
}

/// The request: the job's method, URI, headers and body, then the five scheduler headers, then
/// authentication. The scheduler headers and `Authorization` (when the job has Basic or OAuth
/// authentication) replace a job header of the same name: a target must be able to trust them.
fn build_request(
    client: &Client,
    action: &HttpAction,
    ctx: &AttemptContext,
    bearer: Option<&oauth::Bearer>,
    timeout: Duration,
) -> Result<Request, String> {
    let method = Method::from_bytes(action.method.as_bytes())
        .map_err(|_| format!("'{}' is not an HTTP method name", action.method))?;

    let mut headers = HeaderMap::with_capacity(action.headers.len() + 6);
    for (name, value) in &action.headers {
        let header_name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("'{name}' is not a valid header name"))?;
        // `from_bytes` lets UTF-8 through (as obs-text); only control characters are refused.
        // The value is not quoted: it may be a credential the job sends by hand.
        let header_value = HeaderValue::from_bytes(value.as_bytes())
            .map_err(|_| format!("the value of header '{name}' is not allowed in HTTP"))?;
        headers.append(header_name, header_value);
    }

    ctx.insert_scheduler_headers(&mut headers)?;

    match &action.authentication {
        None => {}
        Some(HttpAuth::Basic { username, password }) => {
            let token = base64::engine::general_purpose::STANDARD
                .encode(format!("{username}:{}", password.expose()));
            let mut value = HeaderValue::from_str(&format!("Basic {token}"))
                .map_err(|_| "the Basic credentials could not be encoded".to_string())?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        // The certificate is in the client the request goes through.
        Some(HttpAuth::ClientCertificate { .. }) => {}
        Some(HttpAuth::ActiveDirectoryOAuth { .. }) => {
            let bearer = bearer.ok_or("the ActiveDirectoryOAuth token is missing")?;
            headers.insert(AUTHORIZATION, bearer.header.clone());
        }
    }

    let mut builder = client
        .request(method, action.uri.clone())
        .headers(headers)
        .timeout(timeout);
    if let Some(body) = &action.body {
        builder = builder.body(body.clone());
    }
    builder
        .build()
        .map_err(|e| describe_error(&e, Duration::ZERO))
}

async fn describe_response(host: &str, mut response: Response, timeout: Duration) -> Outcome {
    let status = response.status();
    let reason = status
        .canonical_reason()
        .map_or_else(|| status.as_str().to_string(), str::to_string);

    let mut headers = String::new();
    for (name, value) in response.headers() {
        let line = format!(
            "{}: {}\r\n",
            name.as_str(),
            String::from_utf8_lossy(value.as_bytes())
        );
        if headers.len() + line.len() > HEADERS_LIMIT {
            headers.push_str("...\r\n");
            break;
        }
        headers.push_str(&line);
    }

    let (body, read_error) = read_body_prefix(&mut response).await;
    let mut message = format!(
        "Http Action - Response from host '{host}': '{reason}' Response Headers: {headers} Body: {body}"
    );
    if let Some(e) = read_error {
        message.push_str(&format!(
            " (the response body could not be read to the end: {})",
            describe_error(&e, timeout)
        ));
    }
    Outcome {
        success: status.is_success(),
        message,
    }
}

/// The first [`BODY_LIMIT`] bytes of the body as text, and the error that stopped reading, if any.
async fn read_body_prefix(response: &mut Response) -> (String, Option<reqwest::Error>) {
    // Three bytes past the limit show whether the cut falls inside a character.
    let keep = BODY_LIMIT + 3;
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let mut error = None;
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
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    (truncate_body(&kept, BODY_LIMIT), error)
}

/// At most `limit` bytes of text from the start of `bytes`, cut on a character boundary.
/// Bytes that are not UTF-8 become U+FFFD.
pub(crate) fn truncate_body(bytes: &[u8], limit: usize) -> String {
    let mut end = bytes.len().min(limit);
    // Do not cut a UTF-8 sequence in two: back up over at most three continuation bytes.
    if end < bytes.len() {
        let mut back = 0;
        while back < 3 && end > 0 && is_continuation(bytes[end]) {
            end -= 1;
            back += 1;
        }
        if back == 3 && is_continuation(bytes[end]) {
            // Not UTF-8 here anyway; cut where the limit says.
            end = limit;
        }
    }
    let mut text = String::from_utf8_lossy(&bytes[..end]).into_owned();
    // Replacement characters take three bytes, so invalid input can grow past the limit.
    if text.len() > limit {
        let mut cut = limit;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

fn is_continuation(b: u8) -> bool {
    b & 0b1100_0000 == 0b1000_0000
}

/// Why no (complete) response arrived, in words for the history. Built from the error's
/// sources, never from its `Display`, which includes the URL.
pub(super) fn describe_error(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("the request timed out after {}", human_duration(timeout));
    }
    let mut sources = Vec::new();
    let mut next = e.source();
    while let Some(source) = next {
        sources.push(source);
        next = source.source();
    }
    // Refused by `deny_private_targets` in the DNS resolver: the refusal says it all.
    if let Some(refused) = sources
        .iter()
        .find_map(|s| s.downcast_ref::<private::PrivateTarget>())
    {
        return refused.to_string();
    }
    for source in &sources {
        if let Some(io) = source.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => return "connection refused".into(),
                std::io::ErrorKind::ConnectionReset => return "the connection was reset".into(),
                std::io::ErrorKind::ConnectionAborted => {
                    return "the connection was aborted".into()
                }
                _ => {}
            }
        }
    }

    // hyper-util wraps connection errors in "client error (Connect)": no information.
    let mut details: Vec<String> = Vec::new();
    for source in &sources {
        let text = source.to_string();
        if text.starts_with("client error (") || details.last() == Some(&text) {
            continue;
        }
        details.push(text);
    }
    if e.is_connect() && details.first().is_some_and(|d| d == "dns error") {
        let detail = details[1..].join(": ");
        return if detail.is_empty() {
            "the host name could not be resolved".into()
        } else {
            format!("the host name could not be resolved: {detail}")
        };
    }
    let what = if e.is_connect() {
        "could not connect"
    } else if e.is_builder() {
        "the request could not be built"
    } else if e.is_redirect() {
        "a redirect could not be followed"
    } else if e.is_body() || e.is_decode() {
        "the body could not be transferred"
    } else {
        "the request could not be completed"
    };
    if details.is_empty() {
        what.to_string()
    } else {
        format!("{what}: {}", details.join(": "))
    }
}

pub(super) fn human_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_whole_characters() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 4, ""),
            (b"abc", 4, "abc"),
            (b"abcd", 4, "abcd"),
            (b"abcde", 4, "abcd"),
            ("abcé".as_bytes(), 4, "abc"),
            ("abcé".as_bytes(), 5, "abcé"),
            ("ab€x".as_bytes(), 4, "ab"),
            ("a😀x".as_bytes(), 4, "a"),
            ("a😀x".as_bytes(), 5, "a😀"),
            // Not UTF-8: replacement characters, still within the limit.
            (&[0xff, 0xff, 0xff, 0xff, 0xff], 4, "\u{fffd}"),
            (&[b'a', 0x80, 0x80, 0x80, 0x80, 0x80], 4, "a\u{fffd}"),
        ];
        for (bytes, limit, want) in cases {
            let got = truncate_body(bytes, *limit);
            assert_eq!(got, *want, "bytes {bytes:?} limit {limit}");
            assert!(got.len() <= *limit);
        }
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_duration(Duration::from_secs(60)), "60 s");
        assert_eq!(human_duration(Duration::from_millis(300)), "300 ms");
    }
}
