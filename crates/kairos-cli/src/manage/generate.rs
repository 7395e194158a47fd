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
    let mut page = Vec::new();
    let rendered = clap_mangen::Man::new(command)
        .render(&mut page)
        .map(|()| title_first(&String::from_utf8_lossy(&page)));
    let mut out = std::io::stdout().lock();
    finish(rendered.and_then(|page| {
        out.write_all(page.as_bytes())?;
        out.flush()
    }))
}

/// The page with its `.TH` line first, as man(7) pages begin: clap_mangen puts two lines that
/// define the `Aq` string (an apostrophe on groff, `'` elsewhere) before it; they only need to
/// come before the first use of `\*(Aq`, which is never in the title.
fn title_first(page: &str) -> String {
    let Some(at) = page.find("\n.TH ").map(|i| i + 1) else {
        return page.to_string();
    };
    let end = page[at..].find('\n').map_or(page.len(), |i| at + i + 1);
    format!("{}{}{}", &page[at..end], &page[..at], &page[end..])
}

fn finish(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                kairos_core::arm_error(
                    "InternalError",
                    &format!("cannot write to standard output: {e}"),
                    None
                )
            );
            ExitCode::from(super::backend::EXIT_FAILURE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_moves_first() {
        assert_eq!(
            title_first(".ie a\n.el b\n.TH kairos 1\n.SH NAME\n"),
            ".TH kairos 1\n.ie a\n.el b\n.SH NAME\n"
        );
        assert_eq!(title_first(".TH x\n.SH y\n"), ".TH x\n.SH y\n");
    }
}
