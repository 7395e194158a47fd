//! Starting the desktop processes and finding their files: the data directory, the lock that
//! keeps one tray runner, and spawning the window or the runner.

use kairos_engine::{Database, Engine, EngineConfig, EngineError};
use kairos_local::programs::{tray_program, window_program};
use kairos_local::{create_private, DATABASE_FILE};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The tray runner holds an exclusive lock on this file while it runs.
const TRAY_LOCK: &str = "tray.lock";

/// `KAIROS_DATA_DIR` when set (tests, several installations), else the system's standard
/// place, which `kairos serve` uses too: one database for both.
pub fn data_dir() -> Result<PathBuf, kairos_local::LocalError> {
    kairos_local::data_dir_from_env()
}

/// Why the shared database could not be opened. Shown as it is on stderr; the window also
/// words a database from a newer Kairos for people (`refusal.rs`).
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create {}: {error}", path.display())]
    Create { path: PathBuf, error: String },
    #[error("{0}")]
    Clock(String),
    #[error("cannot open {}: {error}", path.display())]
    Engine { path: PathBuf, error: EngineError },
}

/// The shared database in `dir` (created owner-only: it holds the jobs' secrets), opened with
/// `configure` applied to the default engine settings.
pub fn open_engine(
    dir: &Path,
    configure: impl FnOnce(&mut EngineConfig),
) -> Result<(Engine, PathBuf), OpenError> {
    let database = dir.join(DATABASE_FILE);
    create_private(&database).map_err(|e| OpenError::Create {
        path: database.clone(),
        error: e.to_string(),
    })?;
    let mut config = EngineConfig::new(Database::File(database.clone()));
    // The real clock, unless the end-to-end tests chose the instant (KAIROS_TEST_NOW).
    config.clock =
        kairos_local::test_clock::clock_from_env().map_err(|e| OpenError::Clock(e.to_string()))?;
    configure(&mut config);
    let engine = Engine::open(config).map_err(|error| OpenError::Engine {
        path: database.clone(),
        error,
    })?;
    Ok((engine, database))
}

/// The tray runner's lock: one runner per data directory.
#[derive(Debug)]
pub struct TrayLock(#[allow(dead_code)] File);

impl TrayLock {
    /// `None` when another tray runner holds it.
    pub fn acquire(dir: &Path) -> Result<Option<TrayLock>, String> {
        let path = dir.join(TRAY_LOCK);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(TrayLock(file))),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(format!("cannot lock {}: {e}", path.display()))
            }
        }
    }
}

/// Is a tray runner running for this data directory?
pub fn tray_runner_running(dir: &Path) -> bool {
    matches!(TrayLock::acquire(dir), Ok(None))
}

/// Ask the tray runner of `dir` to stop as Quit does (attempts in flight finished and recorded,
/// the lease released) and wait until it has, at most `patience`. `Ok(false)`: none was
/// running. An error when it is still running after that time.
pub fn stop_tray_runner(
    engine: &Engine,
    dir: &Path,
    patience: std::time::Duration,
) -> Result<bool, String> {
    if !tray_runner_running(dir) {
        return Ok(false);
    }
    kairos_local::handover::request_tray_stop(engine)
        .map_err(|e| format!("cannot ask the tray runner to stop: {e}"))?;
    let deadline = std::time::Instant::now() + patience;
    // Its lock goes when its process ends, after everything is recorded.
    while tray_runner_running(dir) {
        if std::time::Instant::now() >= deadline {
            return Err(format!(
                "the tray runner did not stop within {} s",
                patience.as_secs()
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Ok(true)
}

/// `unset`: variables of this process's environment the program must not inherit.
fn spawn(program: &Path, args: &[String], unset: &[&str]) {
    let mut command = Command::new(program);
    for name in unset {
        command.env_remove(name);
    }
    match command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
    {
        // Reap it when it ends, so no zombie stays behind.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => tracing::error!(error = %e, program = %program.display(), "cannot start Kairos"),
    }
}

/// Start the tray runner unless one is running. `unset`: variables it must not inherit, such as
/// the window's settings for its own webview (the tray runner passes its environment on to the
/// programs of Command jobs).
pub fn ensure_tray_runner(dir: &Path, unset: &[&str]) {
    if !tray_runner_running(dir) {
        spawn(&tray_program(), &[], unset);
    }
}

/// Open the window (a second launch focuses the first), optionally on a job's history.
pub fn open_window(job: Option<(String, String)>) {
    let args = match job {
        Some((collection, job)) => vec!["--open-job".into(), collection, job],
        None => vec![],
    };
    spawn(&window_program(), &args, &[]);
}

pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours only on a terminal, not in log files.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
