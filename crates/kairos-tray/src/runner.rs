//! The tray runner (`kairos-tray`): the small process that owns the runner, the tray
//! icon, desktop notifications and (when the setting is on) the REST API. The window is another
//! process, started on demand and gone when closed, so a closed window costs no memory
//! (docs/architecture.md, "Desktop processes").

use crate::language::{initial_texts, Language, SharedTexts};
use crate::launch::{self, data_dir, open_window, TrayLock};
use crate::main_loop::{self, Ui};
use crate::overview::overview;
use crate::problems::{self, Problem, Recorded, Report, ReportingNotifier};
use crate::tray::{Tray, TrayCommand};
use kairos_engine::actions::{system_notifier, OnClick};
use kairos_engine::settings::PAUSED;
use kairos_engine::{ChangeWatcher, Engine, EngineConfig};
use kairos_local::api_token;
use kairos_local::handover;
use kairos_local::settings;
use kairos_local::shutdown::StopRequests;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the stopped runner waits for the main loop to end before ending the process.
const UI_EXIT_GRACE: Duration = Duration::from_secs(5);
/// How long a stop waits for blocking work (a notification being shown, a host check) to finish.
const BLOCKING_GRACE: Duration = Duration::from_secs(5);
/// How long the end of the session (Windows log-off or shutdown) waits for the runner to stop:
/// Windows offers to end a program that takes more than 5 s.
const END_SESSION_GRACE: Duration = Duration::from_secs(4);

pub fn run() -> ExitCode {
    launch::init_logging();
    let dir = match data_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("kairos-tray: {e}");
            return ExitCode::from(2);
        }
    };
    let lock = match TrayLock::acquire(&dir) {
        Ok(Some(lock)) => lock,
        Ok(None) => {
            println!("the Kairos tray runner is already running");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("kairos-tray: {e}");
            return ExitCode::from(1);
        }
    };
    let (commands, requests) = mpsc::unbounded_channel();
    let (reports, report_queue) = mpsc::unbounded_channel();
    let tray_commands = commands.clone();
    let tray_reports = reports.clone();
    let no_icon = Arc::new(AtomicBool::new(false));
    let no_icon_seen = no_icon.clone();
    // The language before the settings are read (KAIROS_LANG, else the OS); the runner sends the
    // saved one as soon as it has opened the database.
    let make_tray = move || match Tray::create(tray_commands, initial_texts()) {
        Ok(tray) => Some(tray),
        Err(e) => {
            no_icon.store(true, Ordering::Relaxed);
            let problem = Problem::NoIcon(e.to_string());
            let _ = tray_reports.send(problems::tray_report(Some(problem)));
            None
        }
    };
    // The end of the session asks the runner to stop as Quit does, and waits until it has.
    let (finished, runner_finished) = std::sync::mpsc::channel::<()>();
    let end_commands = commands.clone();
    let end_session = move || {
        tracing::info!("the session is ending");
        if end_commands.send(TrayCommand::Quit).is_ok()
            && runner_finished.recv_timeout(END_SESSION_GRACE).is_err()
        {
            tracing::warn!("the runner did not stop before the session ended");
        }
    };
    let channels = Channels {
        commands,
        requests,
        reports,
        report_queue,
        no_icon: no_icon_seen,
    };
    // The main thread belongs to the tray (macOS insists); the runner has a thread of its own.
    let code = main_loop::run(
        make_tray,
        move |ui| {
            let spawned = std::thread::Builder::new()
                .name("kairos-runner".into())
                .spawn(move || {
                    let code = run_runner(dir, ui.clone(), channels, finished);
                    ui.exit(code);
                    // Everything is recorded by now. A main loop that cannot take the message (a
                    // Windows desktop whose windows went away, seen under Wine) must not keep the
                    // process alive: the login item would never start a new runner.
                    std::thread::sleep(UI_EXIT_GRACE);
                    eprintln!("kairos-tray: the tray did not close; exiting");
                    std::process::exit(i32::from(code));
                });
            if let Err(e) = spawned {
                eprintln!("kairos-tray: cannot start the runner thread: {e}");
                std::process::exit(1);
            }
        },
        end_session,
    );
    drop(lock);
    ExitCode::from(code)
}

/// How the runner thread hears from the tray and the notifier.
struct Channels {
    /// Kept open here: without a tray icon nothing else holds a sender.
    commands: mpsc::UnboundedSender<TrayCommand>,
    requests: mpsc::UnboundedReceiver<TrayCommand>,
    reports: mpsc::UnboundedSender<Report>,
    report_queue: mpsc::UnboundedReceiver<Report>,
    /// Set when the tray icon could not be made at all.
    no_icon: Arc<AtomicBool>,
}

/// The runner thread: the tokio runtime, the engine's runner, the REST API. Returns the exit code.
/// `finished` is told once the runner has stopped and recorded what it was doing.
fn run_runner(
    dir: PathBuf,
    ui: Ui,
    channels: Channels,
    finished: std::sync::mpsc::Sender<()>,
) -> u8 {
    // Two workers: the runner's attempts are I/O; SQLite work goes to the blocking pool.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kairos-tray: cannot start: {e}");
            return 1;
        }
    };
    let code = runtime.block_on(serve(dir, ui, channels));
    let _ = finished.send(());
    // Dropping the runtime would wait for every blocking task, however long it hangs.
    runtime.shutdown_timeout(BLOCKING_GRACE);
    code
}

async fn serve(dir: PathBuf, ui: Ui, channels: Channels) -> u8 {
    // Stop requests made before this instant were for an earlier runner (handover.rs).
    let started_ms = handover::wall_clock_ms();
    let Channels {
        commands: _commands,
        mut requests,
        reports,
        mut report_queue,
        no_icon,
    } = channels;
    let mut stop = match StopRequests::install() {
        Ok(stop) => stop,
        Err(e) => {
            eprintln!("kairos-tray: cannot listen for stop requests: {e}");
            return 1;
        }
    };
    // Notifications that open the job's history in the window when clicked, in the runner's
    // language.
    let on_click: OnClick = Arc::new(|collection, job| open_window(Some((collection, job))));
    let texts: SharedTexts = Arc::new(RwLock::new(initial_texts()));
    let notifier = ReportingNotifier {
        inner: system_notifier(Some(on_click)),
        reports: reports.clone(),
        texts: texts.clone(),
    };
    let configure = |config: &mut EngineConfig| config.actions.notifier = Arc::new(notifier);
    let (engine, database) = match launch::open_engine(&dir, configure) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("kairos-tray: {e}");
            return 1;
        }
    };
    let runner = engine.start_runner();
    let mut language = Language::new(texts);
    language.follow(&engine, &ui);
    let mut recorded = Recorded::default();
    show_overview(&engine, &ui);
    let mut api = ApiServer::default();
    api.apply(&engine, &dir).await;
    // New results, settings and jobs, from the runner here or from another process.
    let mut watcher = ChangeWatcher::open(&database).ok();
    // The tray host, now and whenever one starts or goes away (unless there is no icon at all).
    let host_reports = reports.clone();
    tokio::spawn(problems::watch_tray_host(move |problem| {
        if !no_icon.load(Ordering::Relaxed) {
            let _ = host_reports.send(problems::tray_report(problem));
        }
    }));
    println!("tray runner ready");
    // A request written before the watcher opened would bring no change to wake it.
    let mut handed_over = stop_requested(&engine, started_ms);
    while !handed_over {
        tokio::select! {
            _ = next_change(&mut watcher) => {
                if stop_requested(&engine, started_ms) {
                    handed_over = true;
                    continue;
                }
                // A new language (Settings in the window) relabels the menu before it shows,
                // and words the recorded problems again.
                if language.follow(&engine, &ui) {
                    language.with(|t| recorded.reword(&engine, t));
                }
                show_overview(&engine, &ui);
                api.apply(&engine, &dir).await;
            }
            Some(report) = report_queue.recv() => {
                language.with(|t| recorded.record(&engine, report, t));
            }
            request = requests.recv() => match request {
                Some(TrayCommand::OpenWindow) => open_window(None),
                Some(TrayCommand::PauseAll) => set_paused(&engine, true),
                Some(TrayCommand::ResumeAll) => set_paused(&engine, false),
                Some(TrayCommand::Quit) | None => break,
            },
            why = stop.next() => {
                tracing::info!(%why, "stop requested");
                break;
            }
        }
    }
    if handed_over {
        tracing::info!("the window asked the runner to stop (an update); handing over");
    }
    tracing::info!("stopping");
    api.stop().await;
    runner.shutdown().await;
    tracing::info!("stopped");
    0
}

/// Has the window asked runners started before `started_ms` to stop? (Unreadable: no.)
fn stop_requested(engine: &Engine, started_ms: i64) -> bool {
    handover::stop_requested_since(engine, started_ms).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "cannot read the stop request");
        false
    })
}

/// The database's next change; never, when it cannot be watched at all.
async fn next_change(watcher: &mut Option<ChangeWatcher>) {
    match watcher {
        Some(w) => w.next_change().await,
        None => std::future::pending().await,
    }
}

fn set_paused(engine: &Engine, paused: bool) {
    if let Err(e) = engine.set_setting(PAUSED, if paused { "true" } else { "false" }) {
        tracing::error!(error = %e, "cannot pause or resume");
    }
}

fn show_overview(engine: &Engine, ui: &Ui) {
    match overview(engine) {
        Ok(o) => ui.show(o),
        Err(e) => tracing::warn!(error = %e, "cannot read the tray overview"),
    }
}

/// The port and options the API is served with.
type Serving = (u16, kairos_api::ApiOptions);

/// The REST API on loopback, started and stopped as the `serveApi` setting says.
#[derive(Debug, Default)]
struct ApiServer {
    running: Option<(
        Serving,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    )>,
}

impl ApiServer {
    async fn apply(&mut self, engine: &Engine, dir: &Path) {
        let wanted = match settings::load(engine) {
            Ok(s) if s.serve_api => Some((
                s.api_port,
                kairos_api::ApiOptions {
                    allow_commands: s.allow_commands,
                },
            )),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the settings");
                return;
            }
        };
        // A change of port or of allowCommands restarts the server.
        if self.running.as_ref().map(|(serving, _, _)| *serving) == wanted {
            return;
        }
        self.stop().await;
        if let Some(serving) = wanted {
            self.start(engine, dir, serving).await;
        }
    }

    async fn start(&mut self, engine: &Engine, dir: &Path, (port, options): Serving) {
        let token = match api_token(dir) {
            Ok(t) => t,
            Err(e) => return tracing::error!(error = %e, "cannot read the API token"),
        };
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let listener = match tokio::net::TcpListener::bind(address).await {
            Ok(l) => l,
            Err(e) => return tracing::error!(%address, error = %e, "cannot serve the REST API"),
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let router = kairos_api::router_with(engine.clone(), token, options);
        let task = tokio::spawn(async move {
            let _ = kairos_api::serve(
                listener,
                router,
                kairos_api::ServeConfig::default(),
                async {
                    let _ = stopped.await;
                },
            )
            .await;
        });
        tracing::info!(%address, "REST API on");
        println!("listening on http://{address}");
        self.running = Some(((port, options), stop, task));
    }

    async fn stop(&mut self) {
        if let Some((_, stop, task)) = self.running.take() {
            let _ = stop.send(());
            let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
            tracing::info!("REST API off");
        }
    }
}
