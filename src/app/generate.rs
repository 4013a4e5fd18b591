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
pub(super) fn man(command: Option<&str>) -> anyhow::Result<ExitStatus> {
    let cli = Cli::command();
    let page = match command {
        None => clap_mangen::Man::new(cli),
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                anyhow::bail!("man: no such command: {name}");
            };
            // The page is titled as man looks it up; the version is the
            // binary's, which subcommands do not carry.
            let sub =
                sub.clone().bin_name(format!("arbiter {name}")).version(env!("ARBITER_VERSION"));
            clap_mangen::Man::new(sub).title(format!("arbiter-{name}"))
        }
    };
    let mut out = io::stdout().lock();
    page.render(&mut out)?;
    out.flush()?;
    Ok(ExitStatus::Clean)
}
