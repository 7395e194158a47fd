//! `lighten(window)` on Linux: WebKitGTK settings for a window that shows one local page of
//! forms and lists (docs/benchmarks.md "Results after issue 18 (window)" measured each one).
//!
//! - No accelerated compositing (hardware acceleration policy `Never`): the page is painted on the
//!   CPU into one shared buffer instead of into composited layers, which held about 70 MB more
//!   (their tiles, and Mesa's GL driver run in the web process). A page of forms and lists has no
//!   animation or video that compositing would make smoother. (Earlier this looked like it
//!   misplaced a dialog's clicks; what `test_calendars.py` had caught was the Save button moving
//!   when a preview note appeared above it a moment after an edit, which the dialog's sticky
//!   footer now prevents; painting and hit testing agree in this mode.)
//! - Skia paints on the CPU (`WEBKIT_SKIA_ENABLE_CPU_RENDERING=1`), and GTK makes no GL context
//!   (`GDK_GL=disable`): without compositing neither has anything to draw with GL. Both are set
//!   before GTK starts, unless the user set them.
//! - The window's own process has no EGL driver (`before_window`): only the web process paints,
//!   and Mesa loaded in the window's process cost about 50 MB for nothing.
//! - Cache model `DocumentViewer`: the page comes from the app's own `tauri://` scheme, so a
//!   web browser's memory cache of resources and pages (`WebBrowser`, wry's default) holds
//!   nothing worth keeping. The page cache (back/forward) is off: there is no navigation.
//! - WebGL and Web Audio off (wry turns them on; the UI uses neither), developer extras off
//!   outside debug builds.

use std::sync::{Once, OnceLock};

use tauri::WebviewWindow;
use webkit2gtk::{CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt};

/// The variables `before_start` set (the user had not set them).
static SET_HERE: OnceLock<Vec<&'static str>> = OnceLock::new();

/// glvnd's list of directories that name the EGL drivers ("vendors") a process may load.
const EGL_VENDOR_DIRS: &str = "__EGL_VENDOR_LIBRARY_DIRS";
/// Our value for it: a directory that does not exist, so EGL finds no driver. It says whose it
/// is, so a Kairos window started from an environment that inherited it anyway does not mistake
/// it for the user's.
const NO_EGL_VENDORS: &str = "/nonexistent/kairos-window-process-needs-no-egl";

/// Before GTK and WebKit start: called first thing, while the process has one thread (the
/// environment is read by the web process WebKit starts, which inherits it).
pub fn before_start() {
    let mut set_here = Vec::new();
    for (name, value) in [
        ("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "1"),
        ("GDK_GL", "disable"),
    ] {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
            set_here.push(name);
        }
    }
    let user_set = std::env::var_os(EGL_VENDOR_DIRS).is_some_and(|v| v != NO_EGL_VENDORS);
    if !user_set {
        std::env::set_var(EGL_VENDOR_DIRS, NO_EGL_VENDORS);
        set_here.push(EGL_VENDOR_DIRS);
    }
    let _ = SET_HERE.set(set_here);
}

/// The variables `before_start` set for this process's webview, which the processes the window
/// starts (the tray runner, and through it the programs of Command jobs) must not inherit: a job
/// that starts a GL program would find no GL driver.
pub fn variables_set() -> &'static [&'static str] {
    SET_HERE.get().map_or(&[], Vec::as_slice)
}

/// Right before the window is built (on the main thread, once): the window's process opens its
/// EGL display while EGL has no driver, then the web process gets the user's environment.
///
/// WebKitGTK opens one EGL display per process, the first time a `WebKitWebContext` is made,
/// and keeps it (a failed one too) for every later context. The window's process draws nothing
/// with GL (no compositing, `GDK_GL=disable`), but a working display there loads Mesa, whose
/// libLLVM alone is 42 MB resident: about 50 MB of the window's footprint
/// (docs/benchmarks.md "The window's process without EGL"). The web process does need a display
/// (it aborts without one), so the variable is removed before WebKit starts it. If a WebKitGTK
/// opened its display later instead, the window's process would just load Mesa as before.
pub fn before_window() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Only the value this process set is taken back, never the user's.
        if !variables_set().contains(&EGL_VENDOR_DIRS) {
            return;
        }
        drop(webkit2gtk::WebContext::new_ephemeral());
        // Threads are running by now. Rust's readers of the environment take std's lock, and
        // glibc's unsetenv moves entries within the same array without freeing any, so a C
        // reader on another thread can at worst miss one entry for that moment.
        std::env::remove_var(EGL_VENDOR_DIRS);
    });
}

pub fn lighten(window: &WebviewWindow) {
    let result = window.with_webview(|webview| {
        let view = webview.inner();
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_page_cache(false);
            settings.set_enable_webgl(false);
            settings.set_enable_webaudio(false);
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            if !cfg!(debug_assertions) {
                settings.set_enable_developer_extras(false);
            }
        }
        if let Some(context) = view.context() {
            context.set_cache_model(CacheModel::DocumentViewer);
        }
    });
    if let Err(e) = result {
        tracing::warn!(error = %e, "cannot change the webview's settings");
    }
}
