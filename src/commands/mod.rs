//! The subcommands: each resolves its options, picks its sinks and runs the
//! pipeline. No algorithms here.

mod games;
mod validate;

use crate::{
    cli::{Command, InputArgs},
    exit::ExitStatus,
    options::{DEFAULT_CHUNK_SIZE, PipelineOptions, ReplayOptions},
};

/// Runs a parsed command line.
pub fn run(command: Command) -> anyhow::Result<ExitStatus> {
    match command {
        Command::Validate(args) => validate::run(args),
        Command::Games(args) => games::run(args),
    }
}

/// Resolves the options every command shares.
fn resolve(input: &InputArgs, final_fen: bool) -> (ReplayOptions, PipelineOptions) {
    let replay = ReplayOptions { variations: input.variations, final_fen };
    let jobs = input.jobs.map_or_else(rayon::current_num_threads, usize::from);
    let chunk_size =
        input.chunk_size.map_or(DEFAULT_CHUNK_SIZE, |size| size.try_into().unwrap_or(usize::MAX));
    (replay, PipelineOptions { jobs, chunk_size, progress: !input.quiet })
}
