//! The tray runner (`kairos-tray`): the small process that owns the runner, the tray
//! icon, desktop notifications and (when the setting is on) the REST API. The window is another
//! process, started on demand and gone when closed, so a closed window costs no memory
//! (docs/architecture.md, "Desktop processes").

use crate::launch::{self, data_dir, open_window, TrayLock};
use crate::notifier::{ClickableNotifier, OnClick};
use crate::overview::overview;
use crate::tray::{KairosTray, TrayCommand};
use kairos_engine::settings::PAUSED;
use kairos_engine::{ChangeWatcher, Engine};
use kairos_local::api_token;
use kairos_local::settings;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the tray asks whether the database changed (new results, settings, jobs).
const WATCH_EVERY: Duration = Duration::from_secs(1);

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
    // Two workers: the runner's attempts are I/O; SQLite work goes to the blocking pool.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kairos-tray: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    let code = runtime.block_on(serve(dir));
    drop(lock);
    code
}

async fn serve(dir: PathBuf) -> ExitCode {
    let on_click: OnClick = Arc::new(|collection, job| open_window(Some((collection, job))));
    let notifier = Arc::new(ClickableNotifier::new(on_click));
    let (engine, database) =
        match launch::open_engine(&dir, |config| config.actions.notifier = notifier) {
            Ok(opened) => opened,
            Err(e) => {
                eprintln!("kairos-tray: {e}");
                return ExitCode::from(1);
            }
        };
    let runner = engine.start_runner();
    let (commands, mut requests) = mpsc::unbounded_channel();
    // Kept here too: without a tray icon (no session bus) the channel must stay open.
    let tray = start_tray(&engine, commands.clone()).await;
    let mut api = ApiServer::default();
    api.apply(&engine, &dir).await;
    let mut watcher = ChangeWatcher::open(&database).ok();
    let mut tick = tokio::time::interval(WATCH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    println!("tray runner ready");
    let stop = launch::stop_signal();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if watcher.as_mut().is_some_and(|w| w.changed().unwrap_or(false)) {
                    refresh_tray(&engine, tray.as_ref()).await;
                    api.apply(&engine, &dir).await;
                }
            }
            request = requests.recv() => match request {
                Some(TrayCommand::OpenWindow) => open_window(None),
                Some(TrayCommand::PauseAll) => set_paused(&engine, true),
                Some(TrayCommand::ResumeAll) => set_paused(&engine, false),
                Some(TrayCommand::Quit) | None => break,
            },
            _ = &mut stop => break,
        }
    }
    tracing::info!("stopping");
    api.stop().await;
    runner.shutdown().await;
    if let Some(tray) = tray {
        tray.shutdown().await;
    }
    ExitCode::SUCCESS
}

fn set_paused(engine: &Engine, paused: bool) {
    if let Err(e) = engine.set_setting(PAUSED, if paused { "true" } else { "false" }) {
        tracing::error!(error = %e, "cannot pause or resume");
    }
}

async fn start_tray(
    engine: &Engine,
    commands: mpsc::UnboundedSender<TrayCommand>,
) -> Option<ksni::Handle<KairosTray>> {
    use ksni::TrayMethods;
    let tray = KairosTray {
        overview: overview(engine).unwrap_or_default(),
        commands,
    };
    // Without a tray host yet (a session that starts it later) ksni waits for one.
    match tray.assume_sni_available(true).spawn().await {
        Ok(handle) => Some(handle),
        Err(e) => {
            tracing::warn!(error = %e, "no tray icon (no session bus?); jobs still run");
            None
        }
    }
}

async fn refresh_tray(engine: &Engine, tray: Option<&ksni::Handle<KairosTray>>) {
    let Some(tray) = tray else { return };
    match overview(engine) {
        Ok(o) => {
            tray.update(|t| t.overview = o).await;
        }
        Err(e) => tracing::warn!(error = %e, "cannot read the tray overview"),
    }
}

/// The REST API on loopback, started and stopped as the `serveApi` setting says.
#[derive(Debug, Default)]
struct ApiServer {
    running: Option<(
        u16,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    )>,
}

impl ApiServer {
    async fn apply(&mut self, engine: &Engine, dir: &Path) {
        let wanted = match settings::load(engine) {
            Ok(s) if s.serve_api => Some(s.api_port),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the settings");
                return;
            }
        };
        if self.running.as_ref().map(|(port, _, _)| *port) == wanted {
            return;
        }
        self.stop().await;
        if let Some(port) = wanted {
            self.start(engine, dir, port).await;
        }
    }

    async fn start(&mut self, engine: &Engine, dir: &Path, port: u16) {
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
        let router = kairos_api::router(engine.clone(), token);
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
        self.running = Some((port, stop, task));
    }

    async fn stop(&mut self) {
        if let Some((_, stop, task)) = self.running.take() {
            let _ = stop.send(());
            let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
            tracing::info!("REST API off");
        }
    }
}
