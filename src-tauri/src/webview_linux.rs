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
//! - Cache model `DocumentViewer`: the page comes from the app's own `tauri://` scheme, so a
//!   web browser's memory cache of resources and pages (`WebBrowser`, wry's default) holds
//!   nothing worth keeping. The page cache (back/forward) is off: there is no navigation.
//! - WebGL and Web Audio off (wry turns them on; the UI uses neither), developer extras off
//!   outside debug builds.

use tauri::WebviewWindow;
use webkit2gtk::{CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt};

/// Before GTK and WebKit start: called first thing, while the process has one thread (the
/// environment is read by the web process WebKit starts, which inherits it).
pub fn before_start() {
    for (name, value) in [
        ("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "1"),
        ("GDK_GL", "disable"),
    ] {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
        }
    }
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
