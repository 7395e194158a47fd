//! The Kairos tray runner, and what the desktop window shares with it.
//!
//! The runner (`kairos-tray`) owns the engine's runner, the tray icon, notifications and the
//! optional REST API. It never loads GTK or WebKit, so the process that is always there stays
//! small; the window (`kairos-desktop`, Tauri) is a separate process started on demand.
//! docs/architecture.md ("Desktop processes") has the figures behind that choice.

pub mod labels;
pub mod language;
pub mod launch;
mod main_loop;
pub mod overview;
mod problems;
pub mod runner;
pub mod tray;
