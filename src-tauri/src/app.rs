//! The window process: the Tauri app with the UI. It opens the engine on the shared database
//! for its commands and leaves firing jobs to the tray runner, which it starts if needed.
//! Closing the window ends this process, webview and all. The native shell around the page:
//! the application menu (menu.rs) and the window's size, position and maximized state, kept
//! across launches by tauri-plugin-window-state in the data directory.

use crate::commands::{resolve_collection, Desktop};
use crate::dto::{EngineChanged, OpenJob};
use crate::ipc::{self, PendingOpen};
use crate::menu;
use crate::test_clock;
use crate::update;
use kairos_engine::ChangeWatcher;
use kairos_tray::launch::{self, data_dir, ensure_tray_runner};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use tauri::{AppHandle, Manager, WebviewWindowBuilder};
use tauri_plugin_window_state::StateFlags;
use tauri_specta::Event;

/// WebKit settings for a lighter window (per system).
#[cfg_attr(target_os = "linux", path = "webview_linux.rs")]
#[cfg_attr(not(target_os = "linux"), path = "webview_other.rs")]
mod webview;

/// Where the window's size, position and maximized state are kept, in the data directory: beside
/// the database it belongs to, so that each data directory (each e2e test's own) has its own.
const WINDOW_STATE_FILE: &str = "window-state.json";

/// What is remembered of the window. Not its visibility (it is shown at every launch), nor full
/// screen (a launch in full screen surprises more than it helps).
const REMEMBERED: StateFlags = StateFlags::SIZE
    .union(StateFlags::POSITION)
    .union(StateFlags::MAXIMIZED);

/// Variables set for this process's own webview, which programs it starts must not inherit.
pub fn webview_variables() -> &'static [&'static str] {
    webview::variables_set()
}

/// `--open-job <collection> <job>` in a command line.
pub fn open_job_arg(args: &[String]) -> Option<(String, String)> {
    let at = args.iter().position(|a| a == "--open-job")?;
    Some((args.get(at + 1)?.clone(), args.get(at + 2)?.clone()))
}

pub fn run(open: Option<(String, String)>) -> ExitCode {
    webview::before_start();
    launch::init_logging();
    let dir = match data_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("kairos-desktop: {e}");
            return ExitCode::from(2);
        }
    };
    let (engine, database) = match launch::open_engine(&dir, |_| {}) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("kairos-desktop: {e}");
            crate::refusal::show(&e);
            return ExitCode::from(1);
        }
    };
    ensure_tray_runner(&dir, webview::variables_set());
    let dir_for_state = dir.clone();
    let desktop = Desktop {
        engine,
        data_dir: dir,
    };
    let pending = open.and_then(|(c, j)| open_job(&desktop, &c, &j));
    let builder = ipc::builder();
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, argv, _cwd| {
            show_window(app);
            if let Some((c, j)) = open_job_arg(&argv) {
                if let Some(job) = open_job(app.state::<Desktop>().inner(), &c, &j) {
                    let _ = job.emit(app);
                }
            }
        }))
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_updater::Builder::new().build())
        .plugin(window_state(&dir_for_state))
        .menu(menu::build)
        .on_menu_event(|app, event| menu::on_menu_event(app, event.id().as_ref()))
        .manage(desktop)
        .manage(PendingOpen(Mutex::new(pending)))
        .manage(update::Pending::default())
        .manage(update::Offered::default())
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            builder.mount_events(app);
            show_window(app.handle());
            watch_changes(app.handle().clone(), database);
            update::watch(app.handle().clone());
            Ok(())
        })
        .run(tauri::generate_context!());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kairos-desktop: {e}");
            ExitCode::from(1)
        }
    }
}

/// tauri-plugin-window-state keeping its file in `data_dir`. The plugin joins its file name to
/// the app's config directory, and joining an absolute path gives that path, so an absolute name
/// puts the file where we say. A data directory whose path is not UTF-8 keeps the plugin's own
/// place (the config directory).
fn window_state(data_dir: &Path) -> tauri::plugin::TauriPlugin<tauri::Wry> {
    let builder = tauri_plugin_window_state::Builder::new().with_state_flags(REMEMBERED);
    match data_dir.join(WINDOW_STATE_FILE).to_str() {
        Some(file) => builder.with_filename(file),
        None => builder,
    }
    .build()
}

fn open_job(desktop: &Desktop, collection: &str, job: &str) -> Option<OpenJob> {
    Some(OpenJob {
        collection: resolve_collection(desktop, collection)?,
        name: job.to_string(),
    })
}

/// Focus the window, creating it the first time (it is `create: false` in tauri.conf.json). The
/// window-state plugin puts it back where it was during `build`, on this thread, in the same turn
/// of the event loop that makes it.
fn show_window(app: &AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        return;
    }
    let Some(config) = app.config().app.windows.first() else {
        return;
    };
    webview::before_window();
    let engine = &app.state::<Desktop>().engine;
    let built = WebviewWindowBuilder::from_config(app, config)
        .and_then(|b| test_clock::shift_page_clock(b, engine).build());
    match built {
        // On the main thread (setup), so the settings apply before the page's first paint.
        Ok(window) => {
            webview::lighten(&window);
            menu::window_made(&window);
        }
        Err(e) => tracing::error!(error = %e, "cannot open the window"),
    }
}

/// Tell the page whenever the database changes, whoever changed it (the tray runner recording
/// results, `kairos serve`): the watcher sleeps until the database's files change.
fn watch_changes(app: AppHandle, database: std::path::PathBuf) {
    tauri::async_runtime::spawn(async move {
        let Ok(mut watcher) = ChangeWatcher::open(&database) else {
            return;
        };
        let mut version = 0u32;
        loop {
            watcher.next_change().await;
            version = version.wrapping_add(1);
            let _ = EngineChanged { version }.emit(&app);
        }
    });
}
