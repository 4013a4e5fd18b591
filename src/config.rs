//! The configuration of a run, derived once from the command line
//! (ripgrep's `HiArgs`, fd's `Config`): which files, how games are replayed
//! and how the pipeline runs. Every choice a command makes about the replay
//! is made here, in [`Config::of`]; the commands patch nothing, and nothing
//! below this module sees clap.

use std::path::PathBuf;

use crate::{
    cli::{Command, InputArgs, ValidateFormat},
    pipeline::{DEFAULT_CHUNK_SIZE, PipelineOptions},
    replay::ReplayOptions,
    source,
};

/// What a command reads and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The input files, directories expanded, in order (`-`: standard input).
    pub files: Vec<PathBuf>,
    /// Symbolic links skipped in directories because they loop.
    pub loops: Vec<String>,
    /// How games are replayed.
    pub replay: ReplayOptions,
    /// How input is read and spread over threads.
    pub pipeline: PipelineOptions,
    /// No progress bar.
    pub quiet: bool,
}

impl Config {
    /// The configuration of `command` (`merge` reads no games: none).
    pub fn of(command: &Command) -> Config {
        let (input, replay) = match command {
            Command::Validate(args) => {
                // JSON Lines records carry the final position.
                let final_fen = args.format == ValidateFormat::Jsonl;
                (&args.input, ReplayOptions { final_fen, ..ReplayOptions::default() })
            }
            Command::Games(args) => {
                (&args.input, ReplayOptions { final_fen: true, ..ReplayOptions::default() })
            }
            Command::Check(args) => {
                (&args.input, ReplayOptions { final_fen: true, ..ReplayOptions::default() })
            }
            Command::Crosstable(args) => (&args.input, ReplayOptions::default()),
            Command::Stats(args) => (&args.input, ReplayOptions::default()),
            Command::Dupes(args) => (&args.input, ReplayOptions::default()),
            // Variations are written too, so they are replayed.
            Command::Fmt(args) => {
                (&args.input, ReplayOptions { variations: true, ..ReplayOptions::default() })
            }
            Command::Merge(_) => {
                let pipeline = PipelineOptions { jobs: 1, chunk_size: DEFAULT_CHUNK_SIZE };
                let replay = ReplayOptions::default();
                return Config {
                    files: Vec::new(),
                    loops: Vec::new(),
                    replay,
                    pipeline,
                    quiet: true,
                };
            }
        };
        Config::new(input, replay)
    }

    /// The configuration of the input arguments `input`, with `replay`
    /// asked for by the command (`--variations` adds to it).
    fn new(input: &InputArgs, replay: ReplayOptions) -> Config {
        let source::Expanded { files, loops } = source::expand(&input.files, input.recursive);
        let replay = ReplayOptions { variations: replay.variations || input.variations, ..replay };
        let jobs = input.jobs.map_or_else(rayon::current_num_threads, usize::from);
        let chunk_size = input
            .chunk_size
            .map_or(DEFAULT_CHUNK_SIZE, |size| size.try_into().unwrap_or(usize::MAX));
        let pipeline = PipelineOptions { jobs, chunk_size };
        Config { files, loops, replay, pipeline, quiet: input.quiet }
    }
}
