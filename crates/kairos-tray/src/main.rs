use std::process::ExitCode;

fn main() -> ExitCode {
    kairos_tray::runner::run()
}
