//! Self-update with tauri-plugin-updater: find the release feed (`latest.json`), download this
//! installation kind's update file, check its minisign signature against the public key in
//! tauri.conf.json, stop the tray runner as Quit does, install, start the tray runner and the
//! window again on the new programs. docs/architecture.md, "Releases and updates".
//!
//! - The feed: `KAIROS_UPDATE_URL`, else the `desktop.updates.feedUrl` setting (a mirror), else
//!   the release's own (tauri.conf.json `plugins.updater.endpoints`). Release builds accept only
//!   https feeds (the plugin); debug builds take http too, which the tests' loopback feed uses.
//! - When: once at start and every day while the window is open, unless the setting is off; and
//!   whenever the user asks (menu or Settings). Automatic checks say nothing when offline or
//!   when the feed fails (Settings shows the last result), and pass over a skipped version.
//! - Who: `kind.rs`. An .rpm (the package manager's) and a build from source are never updated
//!   here.

mod failure;
mod kind;

pub use failure::code;
pub use kind::InstallKind;

use crate::commands::{CommandResult, Desktop};
use crate::dto::{CommandError, FieldError};
use serde::{Deserialize, Serialize};
use specta::Type;
use std::cmp::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::{AppHandle, Manager};
use tauri_plugin_updater::{Update, UpdaterExt};
use tauri_specta::Event;

/// Overrides the feed (tests, mirrors). Documented in the README.
pub const FEED_VARIABLE: &str = "KAIROS_UPDATE_URL";
/// Where an .rpm user is sent for new versions.
pub const RELEASES_PAGE: &str = "https://github.com/kairos-scheduler/kairos/releases";

const AUTO_CHECK: &str = "desktop.updates.autoCheck";
const FEED_URL: &str = "desktop.updates.feedUrl";
const SKIPPED: &str = "desktop.updates.skipped";
const LAST_CHECK: &str = "desktop.updates.lastCheck";

/// How often the automatic check runs while the window stays open.
const EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a check may take (a feed that never answers is a failed check, not a hang).
const CHECK_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the tray runner may take to finish its attempts in flight before an install.
const RUNNER_PATIENCE: Duration = Duration::from_secs(120);

/// The result of a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum UpdateCheck {
    UpToDate {
        current: String,
    },
    Available {
        current: String,
        version: String,
        notes: Option<String>,
        /// RFC 3339, when the feed gives it.
        date: Option<String>,
    },
    /// The feed offers a version older than this one: refused (a downgrade is not an update).
    Older {
        current: String,
        offered: String,
    },
    /// An automatic check found the version the user chose to skip.
    Skipped {
        current: String,
        version: String,
    },
    /// The feed could not be reached at all (no network).
    Offline {
        current: String,
    },
    /// An .rpm: the package manager updates Kairos.
    PackageManager {
        current: String,
        releases: String,
    },
    /// Built from source: nothing to update from.
    FromSource {
        current: String,
    },
}

/// How far an install has come (`UpdateProgress` events).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, tauri_specta::Event)]
#[serde(
    tag = "phase",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum UpdateProgress {
    /// Bytes received so far, of `total` when the server says.
    Download {
        received: f64,
        total: Option<f64>,
    },
    /// Downloaded and verified; the tray runner is finishing what it does.
    StoppingRunner,
    Installing,
    Restarting,
}

/// An automatic check found a new version (not skipped): the window offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct UpdateFound(pub UpdateCheck);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct UpdateSettings {
    pub auto_check: bool,
    /// The saved mirror feed; empty: the release's own.
    pub feed_url: String,
    /// The feed the next check reads (the variable, the setting or the release's).
    pub effective_feed: String,
    /// `KAIROS_UPDATE_URL` is set and wins over the setting.
    pub feed_from_environment: bool,
    pub skipped: Option<String>,
    /// RFC 3339, the last check that reached the feed.
    pub last_check: Option<String>,
    pub kind: InstallKind,
    pub current: String,
}

/// The update found by the last check, kept for Install.
#[derive(Default)]
pub struct Pending(Mutex<Option<Update>>);

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pending")
    }
}

/// What the automatic check found, until the page takes it (it may be found before the page
/// listens for `UpdateFound`).
#[derive(Debug, Default)]
pub struct Offered(Mutex<Option<UpdateCheck>>);

/// The automatic check's offer, once.
pub fn take_offer(app: &AppHandle) -> Option<UpdateCheck> {
    app.state::<Offered>().0.lock().ok()?.take()
}

fn current(app: &AppHandle) -> String {
    app.package_info().version.to_string()
}

/// The feed the next check reads.
fn feed(app: &AppHandle, d: &Desktop) -> CommandResult<(String, bool)> {
    if let Some(url) = std::env::var(FEED_VARIABLE).ok().filter(|u| !u.is_empty()) {
        return Ok((url, true));
    }
    if let Some(url) = d.engine.setting(FEED_URL)?.filter(|u| !u.is_empty()) {
        return Ok((url, false));
    }
    let configured = app
        .config()
        .plugins
        .0
        .get("updater")
        .and_then(|u| u.get("endpoints"))
        .and_then(|e| e.get(0))
        .and_then(|e| e.as_str())
        .unwrap_or_default()
        .to_string();
    Ok((configured, false))
}

pub fn settings(app: &AppHandle, d: &Desktop) -> CommandResult<UpdateSettings> {
    let (effective_feed, feed_from_environment) = feed(app, d)?;
    Ok(UpdateSettings {
        auto_check: auto_check(d)?,
        feed_url: d.engine.setting(FEED_URL)?.unwrap_or_default(),
        effective_feed,
        feed_from_environment,
        skipped: d.engine.setting(SKIPPED)?,
        last_check: d.engine.setting(LAST_CHECK)?,
        kind: InstallKind::here(),
        current: current(app),
    })
}

/// Save the automatic check and the mirror feed (empty: the release's own). A feed that is not
/// an http(s) URL is refused with a field error on `feedUrl`.
pub fn set_settings(
    app: &AppHandle,
    d: &Desktop,
    auto_check: bool,
    feed_url: &str,
) -> CommandResult<UpdateSettings> {
    let feed_url = feed_url.trim();
    if !feed_url.is_empty() {
        check_feed_url(feed_url)?;
    }
    d.engine.set_settings(&[
        (AUTO_CHECK, if auto_check { "true" } else { "false" }),
        (FEED_URL, feed_url),
    ])?;
    settings(app, d)
}

fn check_feed_url(url: &str) -> CommandResult<()> {
    let scheme_ok = tauri::Url::parse(url)
        .map(|u| matches!(u.scheme(), "https" | "http") && u.host().is_some())
        .unwrap_or(false);
    if scheme_ok {
        return Ok(());
    }
    let message = format!("'{url}' is not an http or https URL");
    Err(CommandError {
        code: code::FEED_URL.into(),
        message: message.clone(),
        errors: vec![FieldError {
            path: "feedUrl".into(),
            code: code::FEED_URL.into(),
            message,
            rule: Some("update.feedUrl".into()),
            args: Default::default(),
        }],
    })
}

/// Open the releases page in the system's browser (how an .rpm user finds new versions). Only
/// that address: the page names no URL, so it cannot open anything else through this.
pub fn open_releases() -> CommandResult<()> {
    open::that_detached(RELEASES_PAGE).map_err(|e| {
        failure::error(
            code::BROWSER,
            format!("cannot open {RELEASES_PAGE} in a browser: {e}"),
        )
    })
}

/// Skip `version`: automatic checks no longer offer it (a newer one is offered again).
pub fn skip(d: &Desktop, version: &str) -> CommandResult<()> {
    Ok(d.engine.set_setting(SKIPPED, version)?)
}

/// Ask the feed. `automatic`: a skipped version is not offered.
pub async fn check(app: &AppHandle, automatic: bool) -> CommandResult<UpdateCheck> {
    let d = app.state::<Desktop>().inner().clone();
    let current = current(app);
    match InstallKind::here() {
        InstallKind::PackageManager => {
            return Ok(UpdateCheck::PackageManager {
                current,
                releases: RELEASES_PAGE.into(),
            })
        }
        InstallKind::FromSource => return Ok(UpdateCheck::FromSource { current }),
        InstallKind::SelfUpdating => {}
    }
    let (feed, _) = feed(app, &d)?;
    let endpoint = tauri::Url::parse(&feed).map_err(|e| {
        failure::error(
            code::FEED_UNAVAILABLE,
            format!("the update feed '{feed}' is not a URL: {e}"),
        )
    })?;
    // What the feed offered, whether or not it is newer: an older one is refused out loud.
    let offered: Arc<Mutex<Option<(String, Ordering)>>> = Arc::default();
    let seen = offered.clone();
    let updater = app
        .updater_builder()
        .endpoints(vec![endpoint])
        .and_then(|b| {
            b.timeout(CHECK_TIMEOUT)
                .version_comparator(move |current, release| {
                    let order = release.version.cmp(&current);
                    *seen.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some((release.version.to_string(), order));
                    order == Ordering::Greater
                })
                .build()
        })
        .map_err(|e| failure::of_check(e, &feed))?;
    let found = match updater.check().await {
        Ok(found) => found,
        Err(e) if failure::is_offline(&e) => {
            tracing::info!(error = %e, %feed, "offline: no update check");
            return Ok(UpdateCheck::Offline { current });
        }
        Err(e) => {
            let error = failure::of_check(e, &feed);
            tracing::warn!(code = %error.code, message = %error.message, "the update check failed");
            return Err(error);
        }
    };
    let now = d.engine.clock().now().to_rfc3339();
    d.engine.set_setting(LAST_CHECK, &now)?;
    let Some(update) = found else {
        let offered = offered.lock().unwrap_or_else(|p| p.into_inner()).clone();
        return Ok(match offered {
            Some((offered, Ordering::Less)) => {
                tracing::warn!(%offered, %current, "the update feed offers an older version; refused");
                UpdateCheck::Older { current, offered }
            }
            _ => UpdateCheck::UpToDate { current },
        });
    };
    let version = update.version.clone();
    if automatic && d.engine.setting(SKIPPED)?.as_deref() == Some(version.as_str()) {
        return Ok(UpdateCheck::Skipped { current, version });
    }
    let offer = UpdateCheck::Available {
        current,
        version,
        notes: update.body.clone().filter(|b| !b.trim().is_empty()),
        date: update
            .raw_json
            .get("pub_date")
            .and_then(|d| d.as_str())
            .map(str::to_string),
    };
    *app.state::<Pending>()
        .0
        .lock()
        .unwrap_or_else(|p| p.into_inner()) = Some(update);
    Ok(offer)
}

/// Download, verify, stop the tray runner, install, and start both programs again. Returns
/// only on failure (the window restarts on success; on Windows the installer ends it).
pub async fn install(app: &AppHandle) -> CommandResult<()> {
    let update = app
        .state::<Pending>()
        .0
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
        .ok_or_else(|| {
            failure::error(
                code::NOTHING_FOUND,
                "no update was found to install; check for updates first",
            )
        })?;
    let d = app.state::<Desktop>().inner().clone();
    let mut received = 0u64;
    let mut expected = None;
    let mut last_told = 0u64;
    let progress = app.clone();
    // The signature is checked by `download` before it returns the bytes.
    let bytes = update
        .download(
            |chunk, total| {
                received += chunk as u64;
                expected = total;
                // At most about a hundred events for the whole download.
                let step = total.map_or(256 * 1024, |t| (t / 100).max(64 * 1024));
                if received - last_told >= step || Some(received) == total {
                    last_told = received;
                    let _ = UpdateProgress::Download {
                        received: received as f64,
                        total: total.map(|t| t as f64),
                    }
                    .emit(&progress);
                }
            },
            || {},
        )
        .await
        .map_err(|e| {
            let error = failure::of_download(e, received, expected);
            tracing::warn!(code = %error.code, message = %error.message, "the update was not installed");
            error
        })?;
    let _ = UpdateProgress::StoppingRunner.emit(app);
    let (engine, dir) = (d.engine.clone(), d.data_dir.clone());
    let stopped = tauri::async_runtime::spawn_blocking(move || {
        kairos_tray::launch::stop_tray_runner(&engine, &dir, RUNNER_PATIENCE)
    })
    .await
    .map_err(|e| failure::error(code::RUNNER_BUSY, e.to_string()))?
    .map_err(|e| failure::error(code::RUNNER_BUSY, format!("{e}; nothing was installed")))?;
    tracing::info!(
        was_running = stopped,
        "the tray runner stopped for the update"
    );
    let _ = UpdateProgress::Installing.emit(app);
    let version = update.version.clone();
    let installed = tauri::async_runtime::spawn_blocking(move || update.install(bytes))
        .await
        .map_err(|e| failure::error(code::INSTALL, e.to_string()))?;
    let unset = crate::app::webview_variables();
    if let Err(e) = installed {
        // The old programs are still in place: the runner goes on with them.
        kairos_tray::launch::ensure_tray_runner(&d.data_dir, unset);
        let error = failure::of_install(e);
        tracing::warn!(code = %error.code, message = %error.message, "the update was not installed");
        return Err(error);
    }
    tracing::info!(%version, "update installed; starting the new window, which starts the new tray runner");
    let _ = UpdateProgress::Restarting.emit(app);
    // Not from here: an AppImage's programs live in this process's mount of the old image, so
    // only the new window (started from the new image) can start the new runner. It does so at
    // start (`ensure_tray_runner`), on every system; due runs in the gap are caught up.
    app.request_restart();
    Ok(())
}

/// The automatic check: at start and every day, while the setting is on. Offers a new version
/// with `UpdateFound`; says nothing otherwise.
pub fn watch(app: AppHandle) {
    if InstallKind::here() != InstallKind::SelfUpdating {
        return;
    }
    tauri::async_runtime::spawn(async move {
        loop {
            let on = settings_on(&app);
            if on {
                match check(&app, true).await {
                    Ok(offer @ UpdateCheck::Available { .. }) => {
                        if let Ok(mut kept) = app.state::<Offered>().0.lock() {
                            *kept = Some(offer.clone());
                        }
                        let _ = UpdateFound(offer).emit(&app);
                    }
                    Ok(UpdateCheck::Skipped { version, .. }) => {
                        tracing::info!(%version, "automatic update check: skipped version, not offered")
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::info!(code = %e.code, message = %e.message, "automatic update check")
                    }
                }
            }
            tokio::time::sleep(EVERY).await;
        }
    });
}

/// Is the automatic check on? (Unset: on.)
fn auto_check(d: &Desktop) -> CommandResult<bool> {
    Ok(d.engine.setting(AUTO_CHECK)?.as_deref() != Some("false"))
}

/// The automatic check's setting; on when it cannot be read (a check asks nothing of anyone).
fn settings_on(app: &AppHandle) -> bool {
    auto_check(&app.state::<Desktop>()).unwrap_or(true)
}
