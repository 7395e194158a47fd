use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    return kairos_tray::runner::run();
    #[cfg(not(target_os = "linux"))]
    {
        eprintln!("kairos-tray: the tray runner is only available on Linux so far");
        ExitCode::from(2)
    }
}
