//! `kairos`: the command-line face of Kairos.
//!
//! Contract (DESIGN.md): results go to stdout as JSON; bad input exits with code 2 and prints
//! `{"error": {"code", "message", ...}}` on stderr, usage mistakes included.

mod commands;
mod serve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "kairos",
    version,
    about = "Kairos: Azure Scheduler jobs on your own machine"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the next execution times of a job definition.
    Preview(commands::PreviewArgs),
    /// Check a job definition and print it in canonical form (secrets removed).
    Validate(commands::ValidateArgs),
    /// Run the scheduler and the Azure Scheduler REST API until SIGINT or SIGTERM.
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return commands::usage_error(e),
    };
    let result = match cli.command {
        Command::Preview(args) => commands::preview(&args),
        Command::Validate(args) => commands::validate(&args),
        Command::Serve(args) => return serve::serve(&args),
    };
    match result {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(error) => commands::report(&error),
    }
}
