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
        let control = kairos_powerloss::Error::Control;
        // Blocked before any thread starts, so every thread inherits it and the signals wait
        // for the signalfd below.
        let mut signals = nix::sys::signal::SigSet::empty();
        signals.add(nix::sys::signal::Signal::SIGTERM);
        signals.add(nix::sys::signal::Signal::SIGINT);
        signals.thread_block().map_err(|e| control(e.into()))?;
        let handle = kairos_powerloss::PowerLossFs::mount(&args.backing, &args.mount)?;
        let _ = std::fs::remove_file(&args.control);
        let listener = std::os::unix::net::UnixListener::bind(&args.control).map_err(control)?;
        // SIGTERM or SIGINT: unmount cleanly, as the `unmount` command does, rather than leave
        // a dead mount behind ("Transport endpoint is not connected").
        let signalfd =
            nix::sys::signalfd::SignalFd::new(&signals).map_err(|e| control(e.into()))?;
        let socket = args.control.clone();
        std::thread::spawn(move || {
            if signalfd.read_signal().is_ok() {
                if let Ok(mut stream) = std::os::unix::net::UnixStream::connect(&socket) {
                    let _ = std::io::Write::write_all(&mut stream, b"unmount\n");
                    // Wait for the answer, so the command is read before this end closes.
                    let _ = std::io::Read::read(&mut stream, &mut [0; 16]);
                }
            }
        });
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
