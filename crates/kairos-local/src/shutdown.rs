//! When a long-running Kairos process (`kairos serve`, the tray runner) is asked to stop:
//! SIGINT (Ctrl-C) or SIGTERM on Unix; Ctrl-C, Ctrl-Break and closing the console window on
//! Windows. tokio's signal module covers each system; the two `cfg` blocks only choose which of
//! its streams to wait on.
//!
//! The Windows log-off and shutdown console events are listened for too, but Windows sends them
//! to services only, and never to a console process that has loaded user32.dll or gdi32.dll
//! (SetConsoleCtrlHandler's documentation): `kairos serve` run as a service may get them; an
//! interactive process never does. The tray runner, a GUI program on Windows (no console, so no
//! console events at all), stops at the session's end through its event loop instead
//! (WM_ENDSESSION, kairos-tray's `main_loop_tao.rs`).

/// The stop requests a process listens for. Install them early: from then on a request is a
/// clean stop, never the default signal death (on Windows a console-close handler has about
/// 5 s before the system ends the process: enough to record what the runner was doing).
pub struct StopRequests {
    #[cfg(unix)]
    streams: [tokio::signal::unix::Signal; 2],
    #[cfg(windows)]
    c: tokio::signal::windows::CtrlC,
    #[cfg(windows)]
    brk: tokio::signal::windows::CtrlBreak,
    #[cfg(windows)]
    close: tokio::signal::windows::CtrlClose,
    #[cfg(windows)]
    logoff: tokio::signal::windows::CtrlLogoff,
    #[cfg(windows)]
    shutdown: tokio::signal::windows::CtrlShutdown,
}

// SIGHUP is left alone: a handler would replace the "ignore" that `nohup kairos serve` relies on.
impl StopRequests {
    /// Start listening. Needs a tokio runtime.
    pub fn install() -> std::io::Result<StopRequests> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(StopRequests {
                streams: [
                    signal(SignalKind::interrupt())?,
                    signal(SignalKind::terminate())?,
                ],
            })
        }
        #[cfg(windows)]
        {
            use tokio::signal::windows::{
                ctrl_break, ctrl_c, ctrl_close, ctrl_logoff, ctrl_shutdown,
            };
            Ok(StopRequests {
                c: ctrl_c()?,
                brk: ctrl_break()?,
                close: ctrl_close()?,
                logoff: ctrl_logoff()?,
                shutdown: ctrl_shutdown()?,
            })
        }
    }

    /// The next request, by name (for the log).
    pub async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            let [int, term] = &mut self.streams;
            tokio::select! {
                _ = int.recv() => "SIGINT",
                _ = term.recv() => "SIGTERM",
            }
        }
        #[cfg(windows)]
        {
            tokio::select! {
                _ = self.c.recv() => "Ctrl-C",
                _ = self.brk.recv() => "Ctrl-Break",
                _ = self.close.recv() => "console closed",
                _ = self.logoff.recv() => "log-off",
                _ = self.shutdown.recv() => "system shutdown",
            }
        }
    }
}

impl std::fmt::Debug for StopRequests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StopRequests")
    }
}

/// Resolves when the process is asked to stop. If the requests cannot be watched, it never
/// resolves (logged once): the process then stops only from within (e.g. Quit in the tray).
pub async fn requested() {
    match StopRequests::install() {
        Ok(mut requests) => {
            let name = requests.next().await;
            tracing::info!(request = name, "asked to stop");
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot watch for stop requests; stop from within");
            std::future::pending::<()>().await
        }
    }
}
