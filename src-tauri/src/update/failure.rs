//! What went wrong with an update, as a stable code for the window (which words it from its
//! catalog) and an English sentence with the technical detail (shown under it, and logged).
//! Nothing here is ever a secret: feeds and update files are public.

use crate::dto::CommandError;
use tauri_plugin_updater::Error;

/// The stable codes, shared with `ui/src/logic/updateMessages.ts`.
pub mod code {
    /// The feed answered with something that is not an update feed (not JSON, or JSON of
    /// another shape).
    pub const FEED_INVALID: &str = "UpdateFeedInvalid";
    /// The feed's server answered with an error status, or the URL cannot be used.
    pub const FEED_UNAVAILABLE: &str = "UpdateFeedUnavailable";
    /// The feed has no update file for this system and installation kind.
    pub const NO_BUILD: &str = "UpdateNoBuildForThisSystem";
    /// The download does not match its signature (or the signature is for another version).
    pub const SIGNATURE: &str = "UpdateSignatureInvalid";
    /// The download ended before all of it arrived, or failed on the way.
    pub const DOWNLOAD: &str = "UpdateDownloadFailed";
    /// The installer refused or failed (permission refused, package manager error).
    pub const INSTALL: &str = "UpdateInstallFailed";
    /// The tray runner did not stop in time; nothing was replaced.
    pub const RUNNER_BUSY: &str = "UpdateRunnerBusy";
    /// Install was asked for without an update found first.
    pub const NOTHING_FOUND: &str = "UpdateNotFound";
    /// The system could not open the releases page in a browser.
    pub const BROWSER: &str = "CannotOpenBrowser";
    /// The feed URL setting is not an http(s) URL.
    pub const FEED_URL: &str = "InvalidUpdateFeedUrl";
}

pub fn error(code: &str, message: impl Into<String>) -> CommandError {
    CommandError {
        code: code.to_string(),
        message: message.into(),
        errors: vec![],
    }
}

/// Is this the machine being offline (no route, no name resolution, nothing answering) rather
/// than the feed being wrong? Automatic checks say nothing then.
pub fn is_offline(e: &Error) -> bool {
    match e {
        Error::Reqwest(e) => e.is_connect() || e.is_timeout(),
        _ => false,
    }
}

/// A failed check.
pub fn of_check(e: Error, feed: &str) -> CommandError {
    let detail = e.to_string();
    match e {
        Error::Serialization(_) => error(
            code::FEED_INVALID,
            format!("the update feed {feed} is not a Kairos update feed: {detail}"),
        ),
        Error::Reqwest(ref r) if r.is_decode() || r.is_body() => error(
            code::FEED_INVALID,
            format!("the update feed {feed} is not JSON: {detail}"),
        ),
        Error::TargetNotFound(_) | Error::TargetsNotFound(_) => error(
            code::NO_BUILD,
            format!("the update feed {feed} has no update for this system: {detail}"),
        ),
        _ => error(
            code::FEED_UNAVAILABLE,
            format!("cannot read the update feed {feed}: {detail}"),
        ),
    }
}

/// A failed download; `received` of `expected` bytes arrived.
pub fn of_download(e: Error, received: u64, expected: Option<u64>) -> CommandError {
    let detail = e.to_string();
    match e {
        Error::Minisign(_)
        | Error::Base64(_)
        | Error::SignatureUtf8(_)
        | Error::SignedVersionMismatch { .. }
        | Error::MissingSignedVersion => error(
            code::SIGNATURE,
            format!(
                "the download does not match its signature, so nothing was installed: {detail}"
            ),
        ),
        _ => {
            let got = match expected {
                Some(total) => format!("{received} of {total} bytes"),
                None => format!("{received} bytes"),
            };
            error(
                code::DOWNLOAD,
                format!("the download failed after {got}, so nothing was installed: {detail}"),
            )
        }
    }
}

pub fn of_install(e: Error) -> CommandError {
    error(
        code::INSTALL,
        format!("the update could not be installed; this version is still installed: {e}"),
    )
}
