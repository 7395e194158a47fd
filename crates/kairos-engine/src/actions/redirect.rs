//! Sending a request and following its redirects.
//!
//! The HTTP client follows no redirect itself (`Policy::none`); [`send`] does, so that it can
//! decide what a request carries to the next hop. reqwest's own policy drops `Authorization`
//! and `Cookie` on a redirect to another host, but keeps every other header: a job's
//! `x-api-key` or `Ocp-Apim-Subscription-Key` would travel to whatever host the target
//! redirects to. The rule here (docs/semantics.md, "Redirects"):
//!
//! - Within one origin (scheme, host and port) a redirect keeps every header.
//! - To another origin, only the headers in [`CROSS_ORIGIN_HEADERS`] go along: content
//!   negotiation, the user agent and the scheduler's own `x-ms-*` headers. Everything the job
//!   set and all credentials (`Authorization`, cookies, Service Bus signatures) stay behind,
//!   for that hop and every later one.
//! - 301, 302 and 303 turn the request into a body-less GET (HEAD stays HEAD); 307 and 308
//!   repeat the method and the body. At most [`MAX_REDIRECTS`] hops, all within the attempt's
//!   timeout.
//! - With `deny_private_targets`, every hop's target is checked like the first.

use super::http::{describe_error, human_duration};
use super::private;
use super::ExecutorConfig;
use reqwest::header::{
    HeaderMap, HeaderName, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, LOCATION,
    TRANSFER_ENCODING,
};
use reqwest::{Client, Method, Request, Response, StatusCode, Url};
use std::time::Instant;

/// As many hops as reqwest's default policy allows (and browsers roughly).
pub(crate) const MAX_REDIRECTS: usize = 10;

/// What a request keeps on a redirect to another origin.
pub(crate) const CROSS_ORIGIN_HEADERS: &[&str] = &[
    "accept",
    "accept-encoding",
    "accept-language",
    "content-type",
    "user-agent",
    "x-ms-scheduler-jobid",
    "x-ms-scheduler-jobcollectionid",
    "x-ms-scheduler-expected-execution-time",
    "x-ms-execution-tag",
    "x-ms-client-request-id",
];

/// Which redirects [`send`] follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Follow {
    /// Every redirect, by the rules above.
    All,
    /// Only within the request's origin; a redirect elsewhere is returned as the response.
    /// For requests whose body is a secret (the OAuth client credentials), which a 307 would
    /// otherwise repeat to the other host.
    SameOrigin,
}

/// Send `request`, follow its redirects, and return the final response, or why there is none
/// (in words for the history, without the URL).
pub(crate) async fn send(
    client: &Client,
    config: &ExecutorConfig,
    mut request: Request,
    follow: Follow,
) -> Result<Response, String> {
    let timeout = request.timeout().copied().unwrap_or(config.timeout);
    let deadline = Instant::now() + timeout;
    let timed_out = || format!("the request timed out after {}", human_duration(timeout));
    let mut hops = 0;
    loop {
        if config.deny_private_targets {
            private::check_url(request.url()).map_err(|refused| refused.to_string())?;
        }
        // A body that cannot be repeated (a stream) ends the redirects, as in reqwest.
        let retry = request.try_clone();
        let response = client
            .execute(request)
            .await
            .map_err(|e| describe_error(&e, config.timeout))?;
        let Some(url) = redirect_target(&response) else {
            return Ok(response);
        };
        let Some(mut next) = retry else {
            return Ok(response);
        };
        let cross_origin = url.origin() != next.url().origin();
        if cross_origin && follow == Follow::SameOrigin {
            return Ok(response);
        }
        if hops == MAX_REDIRECTS {
            return Err(format!(
                "a redirect could not be followed: more than {MAX_REDIRECTS} redirects"
            ));
        }
        hops += 1;
        if matches!(
            response.status(),
            StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND | StatusCode::SEE_OTHER
        ) {
            *next.body_mut() = None;
            for name in [
                CONTENT_TYPE,
                CONTENT_LENGTH,
                CONTENT_ENCODING,
                TRANSFER_ENCODING,
            ] {
                next.headers_mut().remove(name);
            }
            if next.method() != Method::HEAD {
                *next.method_mut() = Method::GET;
            }
        }
        if cross_origin {
            keep_only_cross_origin_headers(next.headers_mut());
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(timed_out());
        }
        *next.timeout_mut() = Some(remaining);
        *next.url_mut() = url;
        // The redirect's own body is not read: the connection is closed rather than drained.
        drop(response);
        request = next;
    }
}

/// Where a redirect response sends the request: an absolute http(s) URL. `None` for any
/// other response, and for a redirect without a usable `Location` (it is the final response).
fn redirect_target(response: &Response) -> Option<Url> {
    if !matches!(
        response.status(),
        StatusCode::MOVED_PERMANENTLY
            | StatusCode::FOUND
            | StatusCode::SEE_OTHER
            | StatusCode::TEMPORARY_REDIRECT
            | StatusCode::PERMANENT_REDIRECT
    ) {
        return None;
    }
    let location = response.headers().get(LOCATION)?.to_str().ok()?;
    let url = response.url().join(location).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

fn keep_only_cross_origin_headers(headers: &mut HeaderMap) {
    let dropped: Vec<HeaderName> = headers
        .keys()
        .filter(|name| !CROSS_ORIGIN_HEADERS.contains(&name.as_str()))
        .cloned()
        .collect();
    for name in dropped {
        headers.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{ACCEPT, ACCEPT_ENCODING, ACCEPT_LANGUAGE, USER_AGENT};

    #[test]
    fn only_harmless_headers_cross_origins() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("authorization", "Basic x"),
            ("x-api-key", "k"),
            ("ocp-apim-subscription-key", "k"),
            ("cookie", "a=b"),
            ("brokerproperties", "{}"),
            ("content-type", "application/json"),
            ("x-ms-execution-tag", "t"),
        ] {
            headers.insert(HeaderName::from_static(name), value.parse().unwrap());
        }
        headers.insert(USER_AGENT, "ua".parse().unwrap());
        headers.insert(ACCEPT, "*/*".parse().unwrap());
        headers.insert(ACCEPT_ENCODING, "gzip".parse().unwrap());
        headers.insert(ACCEPT_LANGUAGE, "en".parse().unwrap());
        keep_only_cross_origin_headers(&mut headers);
        let mut kept: Vec<&str> = headers.keys().map(HeaderName::as_str).collect();
        kept.sort_unstable();
        assert_eq!(
            kept,
            [
                "accept",
                "accept-encoding",
                "accept-language",
                "content-type",
                "user-agent",
                "x-ms-execution-tag"
            ]
        );
    }
}
