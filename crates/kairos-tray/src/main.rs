// On Windows a GUI-subsystem program, so no console window opens at login or when the window
// starts the runner. Having no console, it gets no Ctrl-C or console-close events; it stops on
// the tray's Quit and at the end of the session (WM_ENDSESSION, through tao's event loop:
// main_loop_tao.rs), where the runner stops cleanly before the process ends.
#![cfg_attr(windows, windows_subsystem = "windows")]

use std::process::ExitCode;

/// The runner's allocator (`kairos_engine::allocator`: less CPU per attempt).
#[global_allocator]
static ALLOCATOR: kairos_engine::allocator::Allocator = kairos_engine::allocator::Allocator;

fn main() -> ExitCode {
    kairos_tray::runner::run()
}
