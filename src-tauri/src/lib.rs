//! Kairos on the desktop: the window (Tauri 2), its UI and typed commands (`ipc`), which call the
//! engine through `commands`. Jobs fire in the tray runner (`kairos-tray`), a separate small
//! process the window starts when none runs; docs/architecture.md ("Desktop processes") says why.

pub mod app;
pub mod calendars;
pub mod collections;
pub mod commands;
pub mod dto;
pub mod history;
pub mod ipc;
pub mod language;
pub mod menu;
pub mod overview;
pub mod preview;
pub mod refusal;
pub mod test_clock;
pub mod transfer;
pub mod undo;
pub mod update;
