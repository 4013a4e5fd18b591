//! The `arbiter` binary: parse the command line, run it, map the outcome to
//! an exit code. The only place that prints a top-level error.

use std::{io, process::ExitCode};

use arbiter::{app, cli::Cli, exit::ExitStatus};
use clap::Parser;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout, usage errors to stderr.
            let printed = error.print().and_then(|()| io::Write::flush(&mut io::stdout()));
            if error.use_stderr() {
                return ExitStatus::Error.into();
            }
            // Help not written (a full disk) is an error; a closed pipe is not.
            return match printed {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    #[allow(clippy::print_stderr)]
                    {
                        eprintln!("arbiter: error: writing to standard output: {e}");
                    }
                    ExitStatus::Error.into()
                }
                _ => ExitStatus::Clean.into(),
            };
        }
    };
    match app::run(cli) {
        Ok(status) => status.into(),
        Err(error) if is_broken_pipe(&error) => ExitStatus::Clean.into(),
        Err(error) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("arbiter: error: {error:#}");
            }
            ExitStatus::Error.into()
        }
    }
}

/// A closed pipe (`arbiter games x.pgn | head`) is a normal way to stop.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
