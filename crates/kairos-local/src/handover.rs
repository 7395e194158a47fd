//! Asking the tray runner to stop from another process (the window, before an update replaces
//! the programs), on every system the same way: through the shared database, which the runner
//! already watches. A signal would need the runner's process id and does not exist on Windows;
//! the runner's own clean stop (attempts in flight finished, the lease released) is what Quit
//! and SIGTERM already do.
//!
//! The request is the wall-clock time it was made, in milliseconds. A runner stops when it sees
//! a request made after it started, so a runner started after the request (the new version)
//! ignores it, and a request needs no clearing.

use kairos_engine::{Engine, EngineError};
use std::time::{SystemTime, UNIX_EPOCH};

/// The settings key holding the latest stop request.
pub const TRAY_STOP_REQUEST: &str = "desktop.trayStopRequest";

/// Milliseconds since the Unix epoch, by the system's clock (not a test clock: the two processes
/// compare their own instants, and a shifted test clock starts anew in each).
pub fn wall_clock_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Ask every tray runner started before now to stop.
pub fn request_tray_stop(engine: &Engine) -> Result<(), EngineError> {
    engine.set_setting(TRAY_STOP_REQUEST, &wall_clock_ms().to_string())
}

/// Was a stop asked for after `started_ms` (when this runner started)? A value that is not a
/// time is reported and taken as no request: a runner never stops on damaged data.
pub fn stop_requested_since(engine: &Engine, started_ms: i64) -> Result<bool, EngineError> {
    let Some(value) = engine.setting(TRAY_STOP_REQUEST)? else {
        return Ok(false);
    };
    match value.parse::<i64>() {
        Ok(at) => Ok(at >= started_ms),
        Err(_) => {
            tracing::warn!(%value, key = TRAY_STOP_REQUEST, "a stop request that is not a time; ignored");
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kairos_engine::{Database, EngineConfig};

    #[test]
    fn a_runner_stops_for_requests_made_after_it_started_only() {
        let dir = tempfile::tempdir().unwrap();
        let engine =
            Engine::open(EngineConfig::new(Database::File(dir.path().join("k.db")))).unwrap();
        assert!(!stop_requested_since(&engine, 0).unwrap(), "no request yet");
        request_tray_stop(&engine).unwrap();
        let at: i64 = engine
            .setting(TRAY_STOP_REQUEST)
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            stop_requested_since(&engine, at).unwrap(),
            "started before the request"
        );
        assert!(
            !stop_requested_since(&engine, at + 1).unwrap(),
            "started after it"
        );
        engine.set_setting(TRAY_STOP_REQUEST, "soon").unwrap();
        assert!(
            !stop_requested_since(&engine, 0).unwrap(),
            "damaged: no stop"
        );
    }
}
