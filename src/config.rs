//! The configuration of a run, derived once from the command line
//! (ripgrep's `HiArgs`, fd's `Config`): which files, how games are replayed
//! and how the pipeline runs. Every choice a command makes about the replay
//! is made here, in [`Config::of`]; the commands patch nothing, and nothing
//! below this module sees clap.

use std::path::PathBuf;

#[cfg(feature = "db")]
use crate::cli::{DbCommand, DbExportArgs, DbSearchArgs};
use crate::{
    cli::{Command, FilterFormat, InputArgs, SelectArgs, ValidateFormat},
    pipeline::{DEFAULT_CHUNK_SIZE, PipelineOptions},
    replay::ReplayOptions,
    select::{self, Key, Selection},
    source,
};

/// What a command reads and how.
#[derive(Debug, Clone)]
pub struct Config {
    /// The input files, directories expanded, in order (`-`: standard input).
    pub files: Vec<PathBuf>,
    /// Symbolic links skipped in directories because they loop.
    pub loops: Vec<String>,
    /// Directories given in which no PGN file was found.
    pub without_pgn: Vec<String>,
    /// How games are replayed.
    pub replay: ReplayOptions,
    /// How input is read and spread over threads.
    pub pipeline: PipelineOptions,
    /// Which games the command is shown (every game, unless it takes
    /// predicates).
    pub selection: Selection,
    /// No progress bar.
    pub quiet: bool,
}

impl Config {
    /// The configuration of `command` (`merge`, `completions` and `man`
    /// read no games: none); an
    /// error for a predicate that cannot be read.
    pub fn of(command: &Command) -> anyhow::Result<Config> {
        let everything = SelectArgs::default();
        let (input, replay, select) = match command {
            Command::Validate(args) => {
                // JSON Lines records carry the final position.
                let final_fen = args.format == ValidateFormat::Jsonl;
                (&args.input, ReplayOptions { final_fen, ..ReplayOptions::default() }, &args.select)
            }
            Command::Games(args) => (
                &args.input,
                ReplayOptions { final_fen: true, ..ReplayOptions::default() },
                &args.select,
            ),
            Command::Filter(args) => {
                // Records carry the final position, as `games`' do.
                let records = matches!(args.format, FilterFormat::Jsonl | FilterFormat::Csv);
                // Export writes variations, so they are replayed.
                let variations = args.format == FilterFormat::PgnExport;
                // Texts and counts need no verdict: a game is replayed only
                // as far as its selection needs.
                let early_stop = args.count || !records;
                let replay = ReplayOptions {
                    final_fen: records,
                    variations,
                    early_stop,
                    ..ReplayOptions::default()
                };
                (&args.input, replay, &args.select)
            }
            Command::Check(args) => (
                &args.input,
                ReplayOptions { final_fen: true, ..ReplayOptions::default() },
                &everything,
            ),
            Command::Crosstable(args) => (&args.input, ReplayOptions::default(), &everything),
            Command::Stats(args) => (&args.input, ReplayOptions::default(), &args.select),
            Command::Dupes(args) => (&args.input, ReplayOptions::default(), &args.select),
            // `--fen` and `--moves` are the tree's root, not predicates; a
            // game is replayed only as far as the tree needs (its record,
            // unread, is partial).
            Command::Tree(args) => {
                let selection =
                    selection(&args.select, &[Key::Fen, Key::Moves]).map_err(anyhow::Error::msg)?;
                let skip_laws = !selection.reads_verdict();
                let replay =
                    ReplayOptions { early_stop: true, skip_laws, ..ReplayOptions::default() };
                return Ok(Config { selection, ..Config::new(&args.input, replay) });
            }
            // Variations are written too, so they are replayed.
            Command::Fmt(args) => (
                &args.input,
                ReplayOptions { variations: true, ..ReplayOptions::default() },
                &everything,
            ),
            // The database is built as `games` replays: the whole record,
            // with the final position.
            #[cfg(feature = "db")]
            Command::Db(args) => match &args.command {
                DbCommand::Build(args) => (
                    &args.input,
                    ReplayOptions { final_fen: true, ..ReplayOptions::default() },
                    &args.select,
                ),
                // Reading a database reads no PGN: the predicates alone.
                DbCommand::Search(DbSearchArgs { select, jobs, .. })
                | DbCommand::Export(DbExportArgs { select, jobs, .. }) => {
                    let selection = selection(select, &[]).map_err(anyhow::Error::msg)?;
                    let none = Config::none();
                    let pipeline = PipelineOptions { jobs: jobs_of(*jobs), ..none.pipeline };
                    return Ok(Config { selection, pipeline, ..none });
                }
                // `db find` checks each hit as `--fen` does.
                DbCommand::Find(args) => {
                    let select =
                        SelectArgs { fen: vec![args.fen.clone()], ..SelectArgs::default() };
                    let selection = selection(&select, &[]).map_err(anyhow::Error::msg)?;
                    return Ok(Config { selection, ..Config::none() });
                }
                DbCommand::Info(_)
                | DbCommand::Stats(_)
                | DbCommand::Key(_)
                | DbCommand::Tree(_)
                | DbCommand::Dupes(_) => {
                    return Ok(Config::none());
                }
            },
            Command::Merge(_)
            | Command::Split(_)
            | Command::Completions(_)
            | Command::Man(_)
            | Command::Winnable(_)
            | Command::Key(_) => return Ok(Config::none()),
        };
        let selection = selection(select, &[]).map_err(anyhow::Error::msg)?;
        let mut replay = replay;
        // Texts, counts and duplicates read no verdict unless a predicate
        // does.
        let verdict_unread = replay.early_stop || matches!(command, Command::Dupes(_));
        replay.skip_laws = verdict_unread && !selection.reads_verdict();
        Ok(Config { selection, ..Config::new(input, replay) })
    }

    /// The configuration of a command that reads no PGN.
    fn none() -> Config {
        Config {
            files: Vec::new(),
            loops: Vec::new(),
            without_pgn: Vec::new(),
            replay: ReplayOptions::default(),
            pipeline: PipelineOptions { jobs: 1, chunk_size: DEFAULT_CHUNK_SIZE },
            selection: Selection::everything(),
            quiet: true,
        }
    }

    /// The configuration of the input arguments `input`, with `replay`
    /// asked for by the command (`--variations` adds to it).
    fn new(input: &InputArgs, replay: ReplayOptions) -> Config {
        let source::Expanded { files, loops, without_pgn } =
            source::expand(&input.files, input.recursive);
        let replay = ReplayOptions { variations: replay.variations || input.variations, ..replay };
        let jobs = jobs_of(input.jobs);
        let chunk_size = input
            .chunk_size
            .map_or(DEFAULT_CHUNK_SIZE, |size| size.try_into().unwrap_or(usize::MAX));
        let pipeline = PipelineOptions { jobs, chunk_size };
        let selection = Selection::everything();
        Config { files, loops, without_pgn, replay, pipeline, selection, quiet: input.quiet }
    }
}

/// The worker threads `--jobs` asks for: `-j 0` is every core, as in
/// ripgrep.
fn jobs_of(jobs: Option<u16>) -> usize {
    match jobs {
        None | Some(0) => rayon::current_num_threads(),
        Some(jobs) => usize::from(jobs),
    }
}

/// The predicates of `args`, parsed, but for those of `except`.
fn selection(args: &SelectArgs, except: &[Key]) -> Result<Selection, String> {
    let mut builder = select::Builder::default();
    builder.strict_material(args.material_strict).anchor(args.ply).flags(
        args.valid,
        args.invalid,
        args.moves_after_end,
        args.inconsistent_result,
    );
    let predicates = [
        (Key::Player, &args.player),
        (Key::White, &args.white),
        (Key::Black, &args.black),
        (Key::Event, &args.event),
        (Key::Site, &args.site),
        (Key::Round, &args.round),
        (Key::Date, &args.date),
        (Key::Elo, &args.elo),
        (Key::EitherElo, &args.either_elo),
        (Key::AverageElo, &args.average_elo),
        (Key::WhiteElo, &args.white_elo),
        (Key::BlackElo, &args.black_elo),
        (Key::EloDiff, &args.elo_diff),
        (Key::Result, &args.result),
        (Key::Eco, &args.eco),
        (Key::Opening, &args.opening),
        (Key::Variant, &args.variant),
        (Key::Speed, &args.speed),
        (Key::TerminationTag, &args.termination_tag),
        (Key::Tag, &args.tag),
        (Key::Error, &args.error),
        (Key::Code, &args.code),
        (Key::Ending, &args.ending),
        (Key::Claimable, &args.claimable),
        (Key::Plies, &args.plies),
        (Key::Fen, &args.fen),
        (Key::Placement, &args.placement),
        (Key::Material, &args.material),
        (Key::FinalMaterial, &args.final_material),
        (Key::Moves, &args.moves),
    ];
    for (key, values) in predicates.into_iter().filter(|(key, _)| !except.contains(key)) {
        builder.add(key, values)?;
    }
    Ok(builder.build())
}
