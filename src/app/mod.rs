//! The subcommands, one file each: each picks its observer and its sink
//! and runs the pipeline on the configuration `config.rs` derived from the
//! command line. No algorithms here.

mod check;
mod crosstable;
mod dupes;
mod filter;
mod fmt;
mod games;
mod merge;
mod stats;
mod tree;
mod validate;

use std::io;

use crate::{
    cli::Command,
    config::Config,
    exit::ExitStatus,
    pipeline,
    progress::Progress,
    replay::observer::Observer,
    select::Selected,
    sink::{Sink, Summary},
    source,
};

/// Runs a parsed command line.
pub fn run(command: Command) -> anyhow::Result<ExitStatus> {
    let run = Run::new(Config::of(&command)?);
    match command {
        Command::Validate(args) => validate::run(args, &run),
        Command::Games(args) => games::run(args, &run),
        Command::Filter(args) => filter::run(args, &run),
        Command::Check(args) => check::run(args, &run),
        Command::Crosstable(args) => crosstable::run(args, &run),
        Command::Stats(args) => stats::run(args, &run),
        Command::Merge(args) => merge::run(args),
        Command::Fmt(args) => fmt::run(args, &run),
        Command::Dupes(args) => dupes::run(args, &run),
        Command::Tree(args) => tree::run(args, &run),
    }
}

/// A run's configuration and its progress bar.
struct Run {
    config: Config,
    progress: Progress,
}

impl Run {
    fn new(config: Config) -> Run {
        for link in &config.loops {
            // A warning about the arguments, before any output.
            #[allow(clippy::print_stderr)]
            {
                eprintln!(
                    "arbiter: warning: {link}: a symbolic link to a directory it is in (a loop), skipped"
                );
            }
        }
        for dir in &config.without_pgn {
            // Most likely a wrong path, or files not named `.pgn`; a
            // warning, as ripgrep warns when it searched no file: the
            // status stays what the games decide.
            #[allow(clippy::print_stderr)]
            {
                eprintln!("arbiter: warning: no PGN file found in {dir}");
            }
        }
        let progress = Progress::new(!config.quiet, source::total_size(&config.files));
        Run { config, progress }
    }

    /// Runs the pipeline with `observer` and `sink`.
    fn games<O: Observer>(
        &self,
        observer: impl Fn() -> O + Sync,
        sink: &mut dyn Sink<O::Output>,
    ) -> io::Result<Summary> {
        let Config { files, replay, pipeline, selection, .. } = &self.config;
        if selection.is_everything() {
            pipeline::run(files, *replay, *pipeline, &self.progress, observer, sink)
        } else {
            let selected = || Selected::new(selection.clone(), observer());
            pipeline::run(files, *replay, *pipeline, &self.progress, selected, sink)
        }
    }
}
