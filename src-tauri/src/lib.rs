//! Kairos on the desktop: two processes from one binary.
//!
//! - `kairos-desktop` is the window (Tauri 2): the UI and its typed commands (`ipc`), which call
//!   the engine through `commands`.
//! - `kairos-desktop --tray` is the tray runner: the engine's runner, the tray icon,
//!   notifications and the optional REST API, with no webview, so it stays small.
//!
//! docs/architecture.md ("Desktop processes") says why there are two and what each costs.

pub mod app;
pub mod commands;
pub mod dto;
pub mod ipc;
pub mod launch;
#[cfg(target_os = "linux")]
pub mod notifier;
pub mod overview;
pub mod preview;
pub mod settings;
#[cfg(target_os = "linux")]
pub mod tray;
#[cfg(target_os = "linux")]
pub mod tray_runner;
