//! `arbiter completions SHELL` and `arbiter man`: a shell's completion
//! script and the manual page, generated from the clap definitions in
//! `cli.rs`, so that they list exactly the options the binary takes.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use crate::{cli::Cli, exit::ExitStatus};

/// Writes the completion script of `shell` on standard output.
pub(super) fn completions(shell: Shell) -> anyhow::Result<ExitStatus> {
    // Built in memory first: `generate` panics on a failed write, and a
    // closed pipe (`| head`) is a normal way to stop.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "arbiter", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitStatus::Clean)
}

/// Writes the manual page of arbiter, or of its subcommand `command`
/// (`arbiter-validate`), in roff, on standard output.
pub(super) fn man(command: &[String]) -> anyhow::Result<ExitStatus> {
    let cli = Cli::command();
    // `db build`, or `db-build` as the pages' SEE ALSO names it.
    let words: Vec<&str> =
        command.iter().flat_map(|word| word.split([' ', '-'])).filter(|w| !w.is_empty()).collect();
    let page = if words.is_empty() {
        clap_mangen::Man::new(cli)
    } else {
        let mut sub = &cli;
        for word in &words {
            sub = sub
                .find_subcommand(word)
                .ok_or_else(|| anyhow::anyhow!("man: no such command: {}", words.join(" ")))?;
        }
        // The page is titled as man looks it up; the version is the
        // binary's, for the page's footer (subcommands take no -V).
        let sub = sub
            .clone()
            // clap names commands by `&'static str`; one page a process.
            .name(&*format!("arbiter-{}", words.join("-")).leak())
            .bin_name(format!("arbiter {}", words.join(" ")))
            .version(env!("ARBITER_VERSION"))
            .disable_version_flag(true);
        clap_mangen::Man::new(sub).title(format!("arbiter-{}", words.join("-")))
    };
    let mut out = io::stdout().lock();
    page.render(&mut out)?;
    out.flush()?;
    Ok(ExitStatus::Clean)
}
