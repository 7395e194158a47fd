//! Bearer-token authentication: `Authorization: Bearer TOKEN`, compared in constant time.

use crate::error::ApiError;
use axum::http::{header, HeaderMap};

/// The server's token. `Debug` never shows it.
pub(crate) struct Token(Vec<u8>);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    pub fn new(token: String) -> Token {
        Token(token.into_bytes())
    }

    /// Accept the request only if it carries this token. An empty server token accepts nothing.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let Some(value) = headers.get(header::AUTHORIZATION) else {
            return Err(ApiError::unauthorized(
                "the request has no Authorization header; send 'Authorization: Bearer TOKEN' \
                 with this server's token (KAIROS_API_TOKEN, or the api-token file in its data directory)",
            ));
        };
        let text = value.to_str().unwrap_or_default().trim();
        let (scheme, credentials) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Err(ApiError::unauthorized(
                "the Authorization header must use the Bearer scheme: 'Authorization: Bearer TOKEN'",
            ));
        }
        if self.0.is_empty() || !constant_time_eq(credentials.trim().as_bytes(), &self.0) {
            return Err(ApiError::unauthorized(
                "the bearer token is not valid for this server",
            ));
        }
        Ok(())
    }
}

/// Equality whose running time depends only on the lengths, never on where the bytes differ.
fn constant_time_eq(given: &[u8], expected: &[u8]) -> bool {
    let mut diff = u8::from(given.len() != expected.len());
    for (i, e) in expected.iter().enumerate() {
        let g = given.get(i).copied().unwrap_or(!e);
        diff |= g ^ e;
    }
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abd", b"abc"));
        assert!(!constant_time_eq(b"ab", b"abc"));
        assert!(!constant_time_eq(b"abcd", b"abc"));
        assert!(!constant_time_eq(b"", b"abc"));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn bearer_scheme_is_case_insensitive_and_empty_tokens_never_match() {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, "bearer  s3cret ".parse().unwrap());
        assert!(Token::new("s3cret".into()).check(&headers).is_ok());
        assert!(Token::new("other".into()).check(&headers).is_err());
        headers.insert(header::AUTHORIZATION, "Bearer ".parse().unwrap());
        assert!(Token::new(String::new()).check(&headers).is_err());
        headers.insert(header::AUTHORIZATION, "Basic s3cret".parse().unwrap());
        assert!(Token::new("s3cret".into()).check(&headers).is_err());
    }
}
