// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--tray") {
        #[cfg(target_os = "linux")]
        return kairos_desktop::tray_runner::run();
        #[cfg(not(target_os = "linux"))]
        {
            eprintln!("kairos-desktop: the tray runner is only available on Linux so far");
            return ExitCode::from(2);
        }
    }
    kairos_desktop::app::run(kairos_desktop::app::open_job_arg(&args))
}
