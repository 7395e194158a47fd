//! `lighten(window)` on Windows and macOS: nothing yet (WebView2 and WKWebView are not measured
//! here; docs/architecture.md "Per-OS code").

use tauri::WebviewWindow;

pub fn before_start() {}

pub fn variables_set() -> &'static [&'static str] {
    &[]
}

pub fn before_window() {}

pub fn lighten(_window: &WebviewWindow) {}
