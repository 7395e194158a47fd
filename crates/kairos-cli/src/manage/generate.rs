//! `kairos completions SHELL` and `kairos man`: both generated from the clap definition, so
//! they always list the commands and options this binary has.

use clap::Args;
use clap_complete::Shell;
use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Print the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs, mut command: clap::Command) -> ExitCode {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "kairos", &mut out);
    finish(out.flush())
}

/// Print the roff man page on stdout (`kairos man > kairos.1`).
pub fn man(command: clap::Command) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let rendered = clap_mangen::Man::new(command).render(&mut out);
    finish(rendered.and_then(|()| out.flush()))
}

fn finish(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                serde_json::json!({"error": {"code": "InternalError", "message": format!("cannot write to standard output: {e}")}})
            );
            ExitCode::from(super::backend::EXIT_FAILURE)
        }
    }
}
