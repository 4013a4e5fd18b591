//! The subcommands: each resolves its options, picks its sinks and runs the
//! pipeline. No algorithms here.

mod check;
mod crosstable;
mod fmt;
mod games;
mod merge;
mod stats;
mod validate;

use crate::{
    cli::{Command, InputArgs},
    exit::ExitStatus,
    options::{DEFAULT_CHUNK_SIZE, PipelineOptions, ReplayOptions},
    progress::Progress,
    source,
};

/// Runs a parsed command line.
pub fn run(command: Command) -> anyhow::Result<ExitStatus> {
    match command {
        Command::Validate(args) => validate::run(args),
        Command::Games(args) => games::run(args),
        Command::Check(args) => check::run(args),
        Command::Crosstable(args) => crosstable::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Fmt(args) => fmt::run(args),
    }
}

/// What every command resolves from its input arguments.
struct Resolved {
    files: Vec<String>,
    replay: ReplayOptions,
    pipeline: PipelineOptions,
    progress: Progress,
}

/// Resolves the options every command shares.
fn resolve(input: &InputArgs, final_fen: bool) -> Resolved {
    let files = source::expand(&input.files, input.recursive);
    let replay =
        ReplayOptions { variations: input.variations, final_fen, ..ReplayOptions::default() };
    let jobs = input.jobs.map_or_else(rayon::current_num_threads, usize::from);
    let chunk_size =
        input.chunk_size.map_or(DEFAULT_CHUNK_SIZE, |size| size.try_into().unwrap_or(usize::MAX));
    let progress = Progress::new(!input.quiet, source::total_size(&files));
    Resolved { files, replay, pipeline: PipelineOptions { jobs, chunk_size }, progress }
}
