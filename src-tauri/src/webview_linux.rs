//! `lighten(window)` on Linux: WebKitGTK settings for a window that shows one local page of
//! forms and lists (docs/benchmarks.md "Results after issue 18 (window)" measured each one).
//!
//! - Hardware acceleration policy `Never`: the page is painted on the CPU, not composited through
//!   GL. Compositing gave the web process its own GL context, layer backing stores and tiles.
//! - Cache model `DocumentViewer`: the page comes from the app's own `tauri://` scheme, so a
//!   web browser's memory cache of resources and pages (`WebBrowser`, wry's default) holds
//!   nothing worth keeping. The page cache (back/forward) is off: there is no navigation.
//! - WebGL and Web Audio off (wry turns them on; the UI uses neither), developer extras off
//!   outside debug builds.

use tauri::WebviewWindow;
use webkit2gtk::{CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt};

pub fn lighten(window: &WebviewWindow) {
    let result = window.with_webview(|webview| {
        let view = webview.inner();
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
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
