//! `kairos-powerloss --backing DIR --mount DIR --control SOCKET`: mounts the power-loss
//! filesystem and takes commands on a unix socket (protocol in the library's docs).

#[cfg(target_os = "linux")]
fn main() -> std::process::ExitCode {
    use clap::Parser;

    #[derive(Debug, Parser)]
    #[command(
        about = "Mounts a pass-through filesystem that forgets unsynced writes on a power-loss command"
    )]
    struct Args {
        /// The directory that holds the synced state.
        #[arg(long)]
        backing: std::path::PathBuf,
        /// Where to mount the view of it.
        #[arg(long)]
        mount: std::path::PathBuf,
        /// The unix socket to listen on for commands (replaced if it exists).
        #[arg(long)]
        control: std::path::PathBuf,
    }

    let args = Args::parse();
    let run = || -> Result<(), kairos_powerloss::Error> {
        let handle = kairos_powerloss::PowerLossFs::mount(&args.backing, &args.mount)?;
        let _ = std::fs::remove_file(&args.control);
        let listener = std::os::unix::net::UnixListener::bind(&args.control)
            .map_err(kairos_powerloss::Error::Control)?;
        println!("ready");
        kairos_powerloss::serve(&listener, &handle)?;
        handle.unmount()
    };
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kairos-powerloss: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn main() -> std::process::ExitCode {
    eprintln!("kairos-powerloss runs on Linux only (FUSE)");
    std::process::ExitCode::FAILURE
}
