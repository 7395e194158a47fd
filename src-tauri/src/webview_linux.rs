//! `lighten(window)` on Linux: WebKitGTK settings for a window that shows one local page of
//! forms and lists (docs/benchmarks.md "Results after issue 18 (window)" measured each one).
//!
//! - Skia paints on the CPU (`WEBKIT_SKIA_ENABLE_CPU_RENDERING=1`, set before GTK starts unless
//!   the user set it): the layers are still composited, but their tiles are not painted through
//!   GL, which held about 40 MB more in the web process. Turning compositing off altogether
//!   (hardware acceleration policy `Never`, or `WEBKIT_DISABLE_DMABUF_RENDERER`) saved more, but
//!   WebKitGTK 2.50 then painted a fixed dialog 17 px away from where clicks landed once the page
//!   behind it had scrolled (tests/desktop/test_calendars.py caught it), so it stays on.
//! - Cache model `DocumentViewer`: the page comes from the app's own `tauri://` scheme, so a
//!   web browser's memory cache of resources and pages (`WebBrowser`, wry's default) holds
//!   nothing worth keeping. The page cache (back/forward) is off: there is no navigation.
//! - WebGL and Web Audio off (wry turns them on; the UI uses neither), developer extras off
//!   outside debug builds.

use tauri::WebviewWindow;
use webkit2gtk::{CacheModel, SettingsExt, WebContextExt, WebViewExt};

/// Before GTK and WebKit start: called first thing, while the process has one thread (the
/// environment is read by the web process WebKit starts, which inherits it).
pub fn before_start() {
    const CPU_RENDERING: &str = "WEBKIT_SKIA_ENABLE_CPU_RENDERING";
    if std::env::var_os(CPU_RENDERING).is_none() {
        std::env::set_var(CPU_RENDERING, "1");
    }
}

pub fn lighten(window: &WebviewWindow) {
    let result = window.with_webview(|webview| {
        let view = webview.inner();
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_page_cache(false);
            settings.set_enable_webgl(false);
            settings.set_enable_webaudio(false);
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
