//! `kairos collections`, `kairos jobs` and `kairos history`: everything the desktop window does,
//! from a terminal or a script, on the local database or on a remote `kairos serve`.
//!
//! Contract (README "The `kairos` command", docs/semantics.md): tables for people by default,
//! `--json` for scripts (the ARM resource bodies, or arrays of them); exit 0 ok, 2 bad input,
//! 3 not found, 4 conflict or quota, 1 anything else, with the ARM error body on stderr.
//!
//! - `backend.rs`: the `Backend` trait, the collection names, the failures and exit codes.
//! - `local.rs`: the engine over the shared database (never the runner).
//! - `remote.rs`: the REST API of `kairos serve` (`--url`, `--token`).
//! - `collections.rs`, `jobs.rs`, `history.rs`: the commands, written once for both.
//! - `show.rs`: how resources look in a table; `table.rs`: the table itself.
//! - `generate.rs`: `completions` and `man`.
//! - `transfer/`: `import` and `export` (bundles, ARM templates, crontabs).

mod backend;
mod collections;
pub mod generate;
mod history;
mod jobs;
mod local;
mod remote;
mod show;
mod table;
mod transfer;

pub use collections::CollectionsArgs;
pub use history::HistoryArgs;
pub use jobs::JobsArgs;
pub use transfer::{ExportArgs, ImportArgs};

use backend::{Backend, Failure, Outcome};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where the commands act and how they answer; global, so it may follow the subcommand.
#[derive(Debug, Args)]
pub struct Target {
    /// Directory of the local database (kairos.db), shared with the desktop app and
    /// `kairos serve`; default: $KAIROS_DATA_DIR, else the platform data directory.
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Manage a running `kairos serve` at this URL (http://127.0.0.1:PORT) instead of the local
    /// database; default: $KAIROS_URL.
    #[arg(long, global = true, value_name = "URL")]
    url: Option<String>,
    /// Manage a PostgreSQL database (postgres://user:password@host:port/db) that `kairos serve
    /// --database` servers share, instead of the local SQLite file; default:
    /// $KAIROS_DATABASE_URL (unless --data-dir is given).
    #[arg(long, global = true, value_name = "URL", conflicts_with_all = ["url", "data_dir"])]
    database: Option<String>,
    /// The API token for --url; default: $KAIROS_API_TOKEN.
    #[arg(long, global = true, value_name = "TOKEN")]
    token: Option<String>,
    /// Print JSON (the ARM resource bodies) instead of tables.
    #[arg(long, global = true)]
    json: bool,
}

/// What a command needs: the backend and how to print.
pub struct Context {
    backend: Box<dyn Backend>,
    json: bool,
    color: bool,
}

impl Target {
    /// `--url` (or `KAIROS_URL`, unless `--data-dir` is given) is the remote backend; otherwise
    /// the local database.
    fn open(&self) -> Outcome<Context> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        if self.url.is_some() && self.data_dir.is_some() {
            return Err(Failure::bad_input(
                "--url",
                "--url and --data-dir name two different places; give one",
            ));
        }
        let url = self.url.clone().or_else(|| {
            (self.data_dir.is_none() && self.database.is_none())
                .then(|| env("KAIROS_URL"))
                .flatten()
        });
        let backend: Box<dyn Backend> = match url {
            Some(url) => {
                let token = self
                    .token
                    .clone()
                    .or_else(|| env("KAIROS_API_TOKEN"))
                    .unwrap_or_default();
                Box::new(remote::Remote::new(&url, &token)?)
            }
            None => {
                let database = self.database.clone().or_else(|| {
                    self.data_dir
                        .is_none()
                        .then(|| env("KAIROS_DATABASE_URL"))
                        .flatten()
                });
                match database {
                    Some(database) => Box::new(local::Local::open_postgres(&database)?),
                    None => Box::new(local::Local::open(self.data_dir.as_deref())?),
                }
            }
        };
        Ok(Context {
            backend,
            json: self.json,
            color: !self.json && table::colored(),
        })
    }
}

/// Run a command with the context its target opens, print what it returns, and exit with the
/// code of its outcome.
pub fn run(target: &Target, command: impl FnOnce(&Context) -> Outcome<String>) -> ExitCode {
    run_with_code(target, |context| command(context).map(|out| (out, 0)))
}

/// As `run`, for a command that prints a result and still exits non-zero (an import that
/// reports failures).
pub fn run_with_code(
    target: &Target,
    command: impl FnOnce(&Context) -> Outcome<(String, u8)>,
) -> ExitCode {
    match target.open().and_then(|context| command(&context)) {
        Ok((output, code)) => {
            if !output.is_empty() {
                print!("{output}");
                if !output.ends_with('\n') {
                    println!();
                }
            }
            ExitCode::from(code)
        }
        Err(failure) => {
            eprintln!("{}", failure.body);
            ExitCode::from(failure.exit)
        }
    }
}
