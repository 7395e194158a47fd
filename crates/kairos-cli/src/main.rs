//! `kairos`: the command-line face of Kairos.
//!
//! Contract (DESIGN.md): results go to stdout as JSON; bad input exits with code 2 and prints
//! `{"error": {"code", "message", ...}}` on stderr, usage mistakes included. The managing
//! commands (`collections`, `jobs`, `history`, in `manage/`) print tables unless `--json`, and
//! exit 3 for a missing resource and 4 for a conflict or a quota.

mod commands;
mod manage;
mod serve;

use clap::{CommandFactory, Parser, Subcommand};
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
    /// Manage job collections (local database, or a `kairos serve` with --url).
    Collections(manage::CollectionsArgs),
    /// Manage the jobs of a collection.
    Jobs(manage::JobsArgs),
    /// Show a job's history, newest first.
    History(manage::HistoryArgs),
    /// Import a Kairos bundle, an ARM template or a crontab (--crontab): all or nothing.
    Import(manage::ImportArgs),
    /// Export collections as a Kairos bundle (default), an ARM template or a crontab.
    Export(manage::ExportArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(manage::generate::CompletionsArgs),
    /// Print the man page (roff) on stdout.
    Man,
}

/// `kairos serve` runs jobs in bursts of small allocations (requests, headers, history rows).
#[global_allocator]
static ALLOCATOR: kairos_engine::allocator::Allocator = kairos_engine::allocator::Allocator;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return commands::usage_error(e),
    };
    let result = match cli.command {
        Command::Preview(args) => commands::preview(&args),
        Command::Validate(args) => commands::validate(&args),
        Command::Serve(args) => return serve::serve(&args),
        Command::Collections(args) => return manage::run(&args.target, |c| args.run(c)),
        Command::Jobs(args) => return manage::run(&args.target, |c| args.run(c)),
        Command::History(args) => return manage::run(&args.target, |c| args.run(c)),
        Command::Import(args) => return manage::run_with_code(&args.target, |c| args.run(c)),
        Command::Export(args) => return manage::run(&args.target, |c| args.run(c)),
        Command::Completions(args) => return manage::generate::completions(&args, Cli::command()),
        Command::Man => return manage::generate::man(Cli::command()),
    };
    match result {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(error) => commands::report(&error),
    }
}
