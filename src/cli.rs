//! The command line, as clap types. Doc comments here are the `--help`
//! text. No I/O and no logic: `config.rs` turns these into a `Config`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::tournament::{
    EventFormat,
    crosstable::{MAX_PLAYERS, MAX_ROUNDS},
};

/// The most worker threads `-j` takes: more than any machine's cores, and
/// few enough that starting them costs under a second (thousands took
/// minutes for one game).
const MAX_JOBS: i64 = 1024;

/// Applies the FIDE Laws of Chess to PGN game collections.
#[derive(Debug, Parser)]
// The version names the commit built from, when known (build.rs).
#[command(name = "arbiter", version = env!("ARBITER_VERSION"), about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Colour diagnostics: errors red, warnings yellow, codes and places
    /// in bold. `auto`: on a terminal, unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// When to colour the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal that takes colour, unless NO_COLOR is set.
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every game and report errors and warnings, compiler-style.
    ///
    /// Exit status: 0 when no game has an error, 1 when some game has an
    /// error, 2 for usage errors or unreadable inputs.
    Validate(ValidateArgs),
    /// Print one record per game (CSV with a header, or JSON Lines).
    Games(GamesArgs),
    /// Write the games that match the predicates, byte for byte as they
    /// are in the input (or their records), and optionally the others
    /// apart: together the two hold every game of the input once.
    Filter(FilterArgs),
    /// Check a tournament's games before publishing: everything `validate`
    /// finds, plus headers, pairings, players and results across the games.
    ///
    /// Each finding has a stable code (`arbiter check --list-codes`).
    /// Exit status: 0 when clean, 1 when there are errors (or warnings,
    /// with `--deny warnings`), 2 for usage errors or unreadable inputs.
    Check(CheckArgs),
    /// Standings and a crosstable from the results, with tie-breaks: one
    /// per event (Event tag), in input order.
    ///
    /// An event larger than a tournament (`--max-players`, `--max-rounds`)
    /// is refused: reported on standard error, no table. A game with one
    /// name on both sides is left out of its table, and reported. Exit
    /// status: 0, or 2 when an event was refused or a game left out, for
    /// usage errors or unreadable inputs.
    Crosstable(CrosstableArgs),
    /// Statistics over all games: results and White's score, how games
    /// ended, lengths, openings, players, rating gap, dates, time controls.
    ///
    /// Prints tables; `--csv`, `--json` and `--plot` write them as files, a
    /// JSON document or charts. `--partial` writes exact aggregates that
    /// `arbiter merge` combines into the same outputs, so shards of a
    /// database can be counted on many machines.
    Stats(StatsArgs),
    /// Combine partials written by `stats --partial` into the outputs of
    /// `stats`, or by `tree --partial` into those of `tree` (the reduce
    /// step; merging is exact and order-free).
    Merge(MergeArgs),
    /// The opening tree of a position (the start position by default):
    /// every move played from it, with games, results, White's score,
    /// draws, the players' mean rating, the performance of the side that
    /// played it and the years; `--depth N` follows N plies.
    ///
    /// A position is one row however it was reached (transpositions are
    /// merged), and a game counts once in it. `--fen` or `--moves` give the
    /// root (not a predicate here); the other predicates select the games
    /// (`--elo 2500..` for a masters' tree). `--partial` writes exact
    /// counts that `arbiter merge` combines into the same outputs.
    Tree(TreeArgs),
    /// Rewrite PGN in the PGN standard's export format.
    ///
    /// Tags in roster order then the rest, canonical SAN with correct +/#,
    /// move numbers, lines of at most 80 characters, comments, NAGs and
    /// variations kept. A game that cannot be replayed is copied through
    /// byte for byte and reported.
    Fmt(FmtArgs),
    /// Find duplicate games across any number of files: the same moves and
    /// players, the same moves under other names, and games embedded in
    /// longer ones (a broadcast captured mid-game).
    ///
    /// Prints the groups of duplicates (a table, or JSON Lines) and a
    /// summary; `--unique -o FILE` writes the input with one game per
    /// group. Exit status: 0 whether or not there are duplicates, 2 for
    /// usage errors or unreadable inputs.
    Dupes(DupesArgs),
    /// Cut large PGN files (plain or compressed) into shards of N games
    /// each, `DIR/part-000001.pgn` and on, for a cluster to read in
    /// parallel: every byte is kept in order (the shards put end to end are
    /// the inputs, broken games and all), and a shard ends only where the
    /// replay of the whole input begins a game, so each shard read alone
    /// holds the same games.
    ///
    /// A shard never spans two inputs. Each is written whole under a
    /// temporary name and renamed into place; a run stopped by a signal or
    /// a write error removes the shards it wrote. An output directory that
    /// already holds shards is refused. Exit status: 0, or 2 for usage
    /// errors or unreadable inputs (the shards of the games read before a
    /// read error are kept).
    Split(SplitArgs),
    /// Whether each side can still checkmate (FIDE Art. 5.2.2, 6.9) in
    /// positions given as FEN: prints, per position, `WB` (both can), `W-`
    /// or `-B` (one can), `--` (a dead position), with `?` for a side the
    /// budget could not decide, then the FEN.
    ///
    /// `--file` reads lines `LABEL FEN` (`#` starts a comment), compares
    /// the verdicts with the labels and prints the counts. Exit status: 0,
    /// 1 when a verdict contradicts a label (a side proved unable to mate
    /// that the label says can, or the reverse), 2 for usage errors,
    /// unreadable inputs or illegal positions (each said on standard error,
    /// the other positions analysed). The counts include the
    /// positions labelled dead that the per-ply pre-filter would skip.
    Winnable(WinnableArgs),
    /// Print a position's key as the game database stores it, for SQL.
    ///
    /// The key (the `positions` files' `key`, the `final_key` column) is
    /// the 64-bit polyglot Zobrist hash of the position's FIDE identity,
    /// printed as a signed integer, so that DuckDB or Spark find a position
    /// without arbiter.
    Key(KeyArgs),
    /// A game database: Parquet files that DuckDB, Polars, pandas, Spark
    /// and Trino read as they are, built once from PGN (`db build`) and
    /// queried again without it (`db info`, `db stats`, `db search`, `db
    /// find`, `db tree`, `db dupes`, `db export`). Layout and columns:
    /// docs/DATABASE.md.
    #[cfg(feature = "db")]
    Db(DbArgs),
    /// Print a shell completion script for SHELL on standard output.
    ///
    /// For bash: `arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter`;
    /// zsh: into a directory of `$fpath`, as `_arbiter`; fish:
    /// `~/.config/fish/completions/arbiter.fish`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on standard output: `arbiter man >
    /// arbiter.1`, or `arbiter man | man -l -`; `arbiter man validate`
    /// prints the page of `arbiter-validate`.
    Man(ManArgs),
}

/// Arguments of `winnable`.
#[derive(Debug, Args)]
pub struct WinnableArgs {
    /// Positions in FEN (quote each: a FEN has spaces).
    #[arg(value_name = "FEN")]
    pub fens: Vec<String>,
    /// A file of labelled positions, one `LABEL FEN` a line.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Positions one analysis of a side may visit.
    #[arg(long, value_name = "N", default_value_t = crate::laws::dead::DEFAULT_BUDGET)]
    pub budget: u32,
    /// Print only the counts of `--file`, not a line per position.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// PGN files (plain, .zst, .gz, .bz2 or .xz); `-` reads standard input; a
    /// directory stands for the PGN files in it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Also read the PGN files in subdirectories of directory arguments.
    #[arg(long, short = 'r')]
    pub recursive: bool,
    /// Games a shard (the last of each input may hold fewer).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// The directory of the shards (created if missing; one that holds
    /// shards already is refused).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// Compress each shard (`part-000001.pgn.zst`).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub compress: Option<SplitCompress>,
    /// No summary on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// How `split` compresses its shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitCompress {
    /// Zstandard, level 3: what arbiter and the lichess database read.
    Zst,
}

/// Arguments of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// A subcommand, for its own page [default: the page of arbiter]:
    /// `validate`, `db build` or `db-build` (as the pages name each other).
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Inputs and how to read them (shared by every subcommand).
#[derive(Debug, Args)]
pub struct InputArgs {
    /// PGN files (plain, .zst, .gz, .bz2 or .xz); `-` reads standard input; a
    /// directory stands for the PGN files in it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Also read the PGN files in subdirectories of directory arguments.
    #[arg(long, short = 'r')]
    pub recursive: bool,
    /// Also validate moves inside variations, each from where it branches.
    #[arg(long)]
    pub variations: bool,
    /// Worker threads (at most 1024); 0 means one per core, as does leaving
    /// it out [default: number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(..=MAX_JOBS))]
    pub jobs: Option<u16>,
    /// Target chunk size in bytes (for testing chunk boundaries).
    #[arg(long, hide = true, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: Option<u64>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Which games a command reads: predicates on the tags, on what arbiter
/// found, and on the positions and moves. Different predicates must all
/// hold; the values of a repeated one are alternatives; a value written
/// `!VALUE` excludes the games it matches.
#[derive(Debug, Args, Default)]
#[command(next_help_heading = "Selecting games")]
pub struct SelectArgs {
    /// A player, either colour: case, accents, word order and initials do
    /// not matter ("carlsen, m" finds "Magnus Carlsen"); one word finds
    /// every name with that word.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// White's name, as `--player` matches it.
    #[arg(long, value_name = "NAME")]
    pub white: Vec<String>,
    /// Black's name, as `--player` matches it.
    #[arg(long, value_name = "NAME")]
    pub black: Vec<String>,
    /// The `Event` tag contains TEXT (case ignored).
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// The `Site` tag contains TEXT (case ignored).
    #[arg(long, value_name = "TEXT")]
    pub site: Vec<String>,
    /// The `Round` tag is ROUND, or a game of it (`3` finds `3` and `3.1`).
    #[arg(long, value_name = "ROUND")]
    pub round: Vec<String>,
    /// The `Date` lies wholly within FROM..TO (each `YYYY`, `YYYY.MM` or
    /// `YYYY.MM.DD`; either end may be left open: `2020..`).
    #[arg(long, value_name = "FROM..TO")]
    pub date: Vec<String>,
    /// Both players' ratings within MIN..MAX (`2500..`, `..1800`).
    #[arg(long, value_name = "MIN..MAX")]
    pub elo: Vec<String>,
    /// At least one player's rating within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub either_elo: Vec<String>,
    /// The players' mean rating within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub average_elo: Vec<String>,
    /// White's rating within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub white_elo: Vec<String>,
    /// Black's rating within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub black_elo: Vec<String>,
    /// The rating gap, either way, within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub elo_diff: Vec<String>,
    /// The `Result` tag: 1-0, 0-1, 1/2-1/2 or *.
    #[arg(long, value_name = "RESULT")]
    pub result: Vec<String>,
    /// The `ECO` code within FROM..TO (`B90..B99`), or one code or prefix
    /// (`B9`).
    #[arg(long, value_name = "FROM..TO")]
    pub eco: Vec<String>,
    /// The `Opening` tag contains TEXT (case ignored).
    #[arg(long, value_name = "TEXT")]
    pub opening: Vec<String>,
    /// The variant: standard, chess960, atomic, antichess, kingofthehill,
    /// threecheck, crazyhouse, racingkings, horde (lichess's names too).
    #[arg(long, value_name = "NAME")]
    pub variant: Vec<String>,
    /// The speed class of `TimeControl`, as `stats` counts it: ultrabullet,
    /// bullet, blitz, rapid, classical, correspondence or unknown.
    #[arg(long, value_name = "CLASS")]
    pub speed: Vec<String>,
    /// lichess's `Termination` tag is TEXT (case ignored): normal, time
    /// forfeit, abandoned, rules infraction...
    #[arg(long, value_name = "TEXT")]
    pub termination_tag: Vec<String>,
    /// Any tag: `NAME=VALUE` (exactly), or `NAME~PATTERN` (a regular
    /// expression found in the value).
    #[arg(long, value_name = "NAME=VALUE")]
    pub tag: Vec<String>,
    /// Every move legal and the start position valid.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// An invalid move or start position.
    #[arg(long)]
    pub invalid: bool,
    /// The game's first error is of KIND (`illegal_move` or `illegal-move`,
    /// ...), or `any` for a game with any error (an invalid move, a
    /// contradicted result, moves after the end).
    #[arg(long, value_name = "KIND")]
    pub error: Vec<String>,
    /// A finding of this code (`W301` or `missing-tag`).
    #[arg(long, value_name = "CODE")]
    pub code: Vec<String>,
    /// The game ended at once by this rule: checkmate, stalemate,
    /// insufficient_material, dead_position, fivefold_repetition,
    /// seventyfive_moves, variant_win, variant_draw (`-` for `_` too).
    #[arg(long, value_name = "END")]
    pub ending: Vec<String>,
    /// A draw could be claimed: threefold (threefold_repetition) or fifty
    /// (fifty_move_rule).
    #[arg(long, value_name = "RULE")]
    pub claimable: Vec<String>,
    /// Moves were played after the game had ended.
    #[arg(long)]
    pub moves_after_end: bool,
    /// The result contradicts the final position.
    #[arg(long)]
    pub inconsistent_result: bool,
    /// The number of mainline plies within MIN..MAX.
    #[arg(long, value_name = "MIN..MAX")]
    pub plies: Vec<String>,
    /// The mainline reached this position (pieces, side to move, castling
    /// rights, and en passant only when a capture is legal; transpositions
    /// count), in a game of chess or Chess960 (a variant's positions are
    /// not chess positions: `--placement` matches their boards).
    #[arg(long, value_name = "FEN")]
    pub fen: Vec<String>,
    /// The mainline reached this placement of pieces (a FEN's first field).
    #[arg(long, value_name = "BOARD")]
    pub placement: Vec<String>,
    /// The mainline reached this material: `KRPvKR`, either side's first
    /// unless `--material-strict`.
    #[arg(long, value_name = "SIG")]
    pub material: Vec<String>,
    /// The last position has this material (as `--material`).
    #[arg(long, value_name = "SIG")]
    pub final_material: Vec<String>,
    /// Material signatures give White's pieces first.
    #[arg(long)]
    pub material_strict: bool,
    /// The game starts, from the standard position, with these moves
    /// ("1. e4 c5 2. Nf3", numbers optional).
    #[arg(long, value_name = "MOVES")]
    pub moves: Vec<String>,
    /// `--fen`, `--placement` and `--material` look at this ply only (0:
    /// the start position).
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,
}

/// Arguments of `filter`.
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// What to write of the matching games.
    #[arg(long, value_enum, default_value_t = FilterFormat::Pgn)]
    pub format: FilterFormat,
    /// Write the matching games to FILE (compressed when it ends in .zst
    /// or .gz) [default: standard output].
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the other games, as they are in the input, to FILE.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Print only the number of matching games.
    #[arg(long, conflicts_with_all = ["output", "format"])]
    pub count: bool,
    /// Stop after N matching games.
    #[arg(long, value_name = "N", conflicts_with = "rejects")]
    pub limit: Option<u64>,
}

/// What `filter` writes of a matching game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FilterFormat {
    /// The game's own bytes, as in the input.
    Pgn,
    /// The game in export format, as `fmt` writes it.
    PgnExport,
    /// Its record, as JSON Lines (as `games`).
    Jsonl,
    /// Its record, as CSV (as `games`).
    Csv,
}

/// Arguments of `validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Output format: diagnostics for people, or the records of the games
    /// with findings as JSON Lines.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub format: ValidateFormat,
    /// Report errors only, not warnings.
    #[arg(long)]
    pub errors_only: bool,
    /// Leave out the findings of this code (`W301` or `missing-tag`; may be
    /// repeated): they are not shown (with `--format jsonl`, a game whose
    /// findings are all left out is not printed), and an error left out
    /// does not fail the run. Adds to `disable` in the `[validate]` table
    /// of the configuration file.
    #[arg(long, value_name = "CODE")]
    pub disable: Vec<String>,
    /// Show at most N findings of each code; the summary counts them all
    /// and says how many were not shown (with `--format jsonl`, a game is
    /// printed when one of its findings is shown). The exit status does
    /// not change.
    #[arg(long, value_name = "N")]
    pub max_per_code: Option<u64>,
    /// Configuration file [default: arbiter.toml in the current directory,
    /// if there is one].
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// Output formats of `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    /// `file:line: error[E101 illegal-move]: ...` diagnostics and a summary.
    Text,
    /// JSON Lines records of the games with findings.
    Jsonl,
}

/// Arguments of `games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GamesFormat::Csv)]
    pub format: GamesFormat,
    /// Print the first N games only, and stop reading the input there.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Add these tags' values after the record's fields, as `tag_NAME`
    /// columns (null where a game has no such tag; the first value where it
    /// has several): tag names as written, comma-separated (`Site,WhiteElo`),
    /// or `all` for every tag of each game (JSON Lines only).
    #[arg(long, value_name = "LIST|all")]
    pub tags: Option<String>,
    /// Print the JSON Schema of a JSON Lines record (docs/record.schema.json)
    /// and exit, reading no input.
    #[arg(long, exclusive = true)]
    pub schema: bool,
}

/// Output formats of `games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GamesFormat {
    /// CSV with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Arguments of `fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write nothing; list the games that would change and exit 1 if any
    /// would (or cannot be formatted).
    #[arg(long, conflicts_with = "in_place")]
    pub check: bool,
    /// Rewrite the files themselves, atomically (a temporary file renamed
    /// over the original once complete).
    #[arg(long)]
    pub in_place: bool,
    /// Fail writing after this many bytes (for testing that a failed write
    /// leaves the original file intact).
    #[arg(long, hide = true, value_name = "BYTES")]
    pub fail_after_bytes: Option<u64>,
    /// Append a line to the file just before it would be replaced (for
    /// testing that a file changed meanwhile is left as it is).
    #[arg(long, hide = true)]
    pub touch_before_rename: bool,
}

/// Arguments of `dupes`.
#[derive(Debug, Args)]
pub struct DupesArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games are compared (the others are kept as they are).
    #[command(flatten)]
    pub select: SelectArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DupesFormat::Text)]
    pub format: DupesFormat,
    /// Write the input with one game per group to the file of `-o`: each
    /// game as its original bytes, in input order (written whole or not at
    /// all).
    #[arg(long, requires = "output")]
    pub unique: bool,
    /// The file `--unique` writes (it may be one of the inputs).
    #[arg(long, short = 'o', value_name = "FILE", requires = "unique")]
    pub output: Option<std::path::PathBuf>,
    /// Which game of a group `--unique` keeps.
    #[arg(long, value_enum, default_value_t = KeepArg::First)]
    pub keep: KeepArg,
    /// Compare only games of at least N plies (games with no moves are
    /// never compared by default).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_plies: u32,
}

/// Output formats of `dupes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DupesFormat {
    /// A table per group, then a summary.
    Text,
    /// One JSON object per group; the summary goes to standard error.
    Jsonl,
}

/// Which game of a group of duplicates is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    /// The first in input order.
    First,
    /// The longest (the first of them): the whole game rather than a
    /// copy cut short.
    Longest,
}

/// Arguments of `stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Outputs.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Partials written by `stats --partial`, `tree --partial` or `merge
    /// --partial` (all of one kind); `-` reads standard input, which may
    /// hold several one after another.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// Outputs (for tree partials: `--csv DIR` writes DIR/tree.csv, `--csv
    /// -` the CSV `tree --csv` prints; `--json`; `--partial`).
    #[command(flatten)]
    pub report: ReportArgs,
    /// Tree partials: leave out positions of fewer games, as `tree
    /// --min-games` does.
    #[arg(long, value_name = "K")]
    pub min_games: Option<u64>,
}

/// Arguments of `tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games, and the root: `--fen FEN` (a position reached at any
    /// ply, first time counted) or `--moves MOVES` (games that begin with
    /// these moves).
    #[command(flatten)]
    pub select: SelectArgs,
    /// Plies followed after the root (0: the root alone).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub depth: u32,
    /// Leave out positions of fewer than K games, and the positions shown
    /// under them (the root is always shown).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub min_games: u64,
    /// Most positions the tree may hold (about 300 bytes each per worker
    /// thread, and as much again for the rows written); more is an error,
    /// not a truncated tree.
    #[arg(long, value_name = "N", default_value_t = crate::tree::DEFAULT_MAX_POSITIONS)]
    pub max_positions: usize,
    /// Write the rows as CSV on standard output, instead of the table.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write the root and the rows as one JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Write the exact counts to FILE (`-`: standard output) for `arbiter
    /// merge`, instead of the rows.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["csv", "json"])]
    pub partial: Option<PathBuf>,
}

/// What `stats` and `merge` write (tables on standard output by default).
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Write one CSV file per table into DIR (created if missing):
    /// results, endings, lengths, openings, players, rating_gap, by_month,
    /// time_controls.
    #[arg(long, value_name = "DIR")]
    pub csv: Option<PathBuf>,
    /// Write the whole report as one JSON document on standard output,
    /// instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Draw rating_gap.svg, lengths.svg, by_time_control.svg and
    /// by_year.svg into DIR (created if missing).
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// Rows of the players and openings tables on screen [default: 20] and
    /// in JSON [default: all]; CSV files are always complete.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Write the exact partial aggregates to FILE (`-`: standard output)
    /// for `arbiter merge`, instead of the tables.
    #[arg(long, value_name = "FILE")]
    pub partial: Option<PathBuf>,
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Make warnings fail the check too (exit status 1).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,
    /// Configuration file [default: arbiter.toml in the current directory,
    /// if there is one].
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The event's number of rounds: rounds above it are errors, and it
    /// tells how often two players may meet.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: Option<u32>,
    /// The event's format: how often two players may meet, and in a
    /// match, that a round may hold several games of the same two players
    /// [default: `[event] format` of arbiter.toml].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub event_format: Option<EventFormat>,
    /// The same as `--event-format double-round-robin`.
    #[arg(long, conflicts_with = "event_format")]
    pub double_round_robin: bool,
    /// Print the table of codes (Markdown) and exit.
    #[arg(long, exclusive = true)]
    pub list_codes: bool,
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// `file:line: error[E101 illegal-move]: ...` diagnostics and a summary.
    Text,
    /// One JSON object per finding; the summary goes to standard error.
    Jsonl,
    /// A SARIF 2.1.0 log, for code hosts; the summary goes to standard error.
    Sarif,
}

/// What `--deny` makes fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Warnings fail like errors.
    Warnings,
}

/// Arguments of `crosstable`.
#[derive(Debug, Args)]
pub struct CrosstableArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write CSV (one row per player, the event in the first column) instead
    /// of terminal tables.
    #[arg(long, conflicts_with = "html")]
    pub csv: bool,
    /// Write a self-contained HTML page (a table per event) instead of
    /// terminal tables.
    #[arg(long)]
    pub html: bool,
    /// Tie-breaks in order, comma-separated [default: de,sb,win,bh,bh-c1 for a
    /// round robin; bh-c1,bh,de,win,sb for a Swiss].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub tiebreaks: Vec<TiebreakArg>,
    /// An event with more players than this is not a tournament: it is
    /// refused (reported, no table, exit status 2).
    #[arg(long, value_name = "N", default_value_t = MAX_PLAYERS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_players: u32,
    /// An event with more rounds than this, or a player with more games,
    /// is not a tournament: it is refused (reported, no table, exit status 2).
    #[arg(long, value_name = "N", default_value_t = MAX_ROUNDS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_rounds: u32,
    /// The event's format, instead of the one detected from the pairings
    /// (round robin when every pair met, else Swiss): it names the table
    /// and chooses the default tie-breaks (none for a match) [default:
    /// `[event] format` of arbiter.toml].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub event_format: Option<EventFormat>,
    /// Configuration file, read for `[event] format` [default: arbiter.toml
    /// in the current directory, if there is one].
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// Tie-breaks of `crosstable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TiebreakArg {
    /// Buchholz: the opponents' scores.
    Bh,
    /// Buchholz cut 1: without the lowest opponent's score.
    #[value(name = "bh-c1")]
    BhC1,
    /// Sonneborn-Berger: the opponents' scores weighted by the result.
    Sb,
    /// Number of wins.
    Win,
    /// Direct encounter among the tied players.
    De,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

/// Arguments of `db`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbArgs {
    /// What to do with the database.
    #[command(subcommand)]
    pub command: DbCommand,
}

/// The subcommands of `db`.
#[cfg(feature = "db")]
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Build a database in DIR from PGN files, or add new files to it.
    ///
    /// Each game is replayed as `games` replays it and becomes a row of
    /// the `games` table: its tags, arbiter's verdict, its moves (about a
    /// byte a ply), lichess's clocks and evaluations, its final position.
    /// Files already in the database (the same SHA-256) are skipped; new
    /// ones become new files; nothing is rewritten. With predicates, only
    /// the games that match are stored. Exit status: 0, or 2 for usage
    /// errors or unreadable inputs.
    Build(DbBuildArgs),
    /// Print what a database holds: its games, each shard's files (games,
    /// stats partial, positions files, tree file) with their sizes, and its
    /// sources. Each Parquet file's footer is read: exit status 2 when a
    /// file the manifest lists is missing, unreadable or holds other rows
    /// than the manifest says.
    Info(DbInfoArgs),
    /// The statistics of `arbiter stats` over the database's games, from
    /// the partials stored with each shard (the same tables and options).
    Stats(DbStatsArgs),
    /// The games of the database that match the predicates of `filter`,
    /// as records (CSV or JSON Lines, those of `games`) or as PGN.
    ///
    /// Exit status: 0 when some game matched, 1 when none did, 2 for usage
    /// errors or an unreadable database.
    Search(DbSearchArgs),
    /// Write the games that match the predicates (every game without) as
    /// PGN: each game's own bytes when its source file is still there
    /// unchanged (a compressed one is decompressed from its start, once,
    /// as its games come), else written in export format from what is
    /// stored (tags, moves, clocks and evaluations: not the comments); or,
    /// with `--format sqlite`, as one SQLite file with their positions.
    Export(DbExportArgs),
    /// The games whose mainline reached a position, through the positions
    /// files of `db build --positions` (positions up to the ply they
    /// index), else by a scan of every game; each hit is checked by
    /// replaying the game, so a collision of keys never gives a wrong game.
    ///
    /// Exit status: 0 when some game matched, 1 when none did, 2 for usage
    /// errors or an unreadable database.
    Find(DbFindArgs),
    /// Print the key of a position, as the `positions` files and the
    /// `final_key` column store it (a signed 64-bit integer), for queries
    /// in SQL: the same as `arbiter key`.
    Key(KeyArgs),
    /// The moves played from a position, as `arbiter tree --fen FEN` counts
    /// them on the sources (the position, then the moves of the next
    /// `--depth` plies with their games, results, ratings and years): at
    /// depth 1, from the tree files of `db build --tree`, else from the
    /// positions files of `--positions` (positions up to the ply they
    /// index); deeper, or from `--moves`, from the positions files.
    Tree(DbTreeArgs),
    /// The duplicate games of the database, as `arbiter dupes` finds them
    /// in its sources (the same groups and report), from the stored
    /// columns: no PGN is read.
    Dupes(DbDupesArgs),
}

/// Arguments of `db tree`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbTreeArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The position (reached at any ply within the plies indexed, first
    /// time counted) [default: the standard start position].
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// The root after these moves from the standard start (games that
    /// begin with them), in SAN, as `tree --moves` takes them; answered
    /// from the positions files.
    #[arg(long, value_name = "MOVES", conflicts_with = "fen")]
    pub moves: Option<String>,
    /// Plies followed after the root (0: the root alone). Above 1,
    /// answered from the positions files.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub depth: u32,
    /// Leave out positions of fewer than K games, and the positions shown
    /// under them (the root is always shown).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub min_games: u64,
    /// Most positions the tree may hold; more is an error, not a
    /// truncated tree.
    #[arg(long, value_name = "N", default_value_t = crate::tree::DEFAULT_MAX_POSITIONS)]
    pub max_positions: usize,
    /// Write the rows as CSV on standard output, instead of the table.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write the root and the rows as one JSON document on standard output.
    #[arg(long)]
    pub json: bool,
    /// Write the exact counts to FILE (`-`: standard output) for `arbiter
    /// merge`, instead of the rows: what `tree --partial` writes.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["csv", "json"])]
    pub partial: Option<PathBuf>,
}

/// Arguments of `db dupes`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbDupesArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DupesFormat::Text)]
    pub format: DupesFormat,
    /// Write the database's games with one game per group to the file of
    /// `-o`, as `dupes --unique` writes its sources: each game as its
    /// original bytes while its source is where it was read from and
    /// unchanged (compressed or not), else written from what is stored;
    /// in the order they were added (written whole or not at all).
    #[arg(long, requires = "output")]
    pub unique: bool,
    /// The file `--unique` writes.
    #[arg(long, short = 'o', value_name = "FILE", requires = "unique")]
    pub output: Option<PathBuf>,
    /// Which game of a group `--unique` keeps (and the report marks as
    /// kept).
    #[arg(long, value_enum, default_value_t = KeepArg::First)]
    pub keep: KeepArg,
    /// Compare only games of at least N plies (games with no moves are
    /// never compared by default).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_plies: u32,
}

/// Arguments of `key` and `db key`.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// The position, in FEN: chess or Chess960 (a variant's position,
    /// with pockets or check counters, is refused); en passant counts only
    /// when a capture is legal, as in the Laws' identity.
    #[arg(value_name = "FEN")]
    pub fen: String,
}

/// Arguments of `db find`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbFindArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The position (pieces, side to move, castling rights, and en
    /// passant only when a capture is legal; transpositions count).
    #[arg(long, value_name = "FEN", required = true)]
    pub fen: String,
    /// Output format: the games (`pgn`: their own bytes from an
    /// uncompressed source still there, else written from what is stored,
    /// since a lookup does not decompress a whole file for a few games), or
    /// their records with the ply at which each first stood in the
    /// position (`csv`, `jsonl`: the source file and the game's number in
    /// it).
    #[arg(long, value_enum, default_value_t = DbFormat::Pgn)]
    pub format: DbFormat,
    /// Print only the number of games that reached it.
    #[arg(long, conflicts_with = "format")]
    pub count: bool,
    /// Print the first N games only.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

/// Arguments of `db build`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
#[command(mut_arg("files", |arg| arg.help(
    "PGN files (plain, .zst, .gz, .bz2 or .xz), not standard input (a source is known by its \
     digest); a directory stands for the PGN files in it"
)))]
pub struct DbBuildArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Which games to store.
    #[command(flatten)]
    pub select: SelectArgs,
    /// The database directory: created if missing; a database there is
    /// extended; a directory of other files is refused.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// Most games in one file of the `games` table.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub shard_games: u64,
    /// Games in a row group of the `games` files (fewer where they take
    /// over 64 MiB, as games of megabytes stored with their text would).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub row_group: u64,
    /// Also write the `positions` files, for `db find`: the key of each
    /// position of each game's mainline up to ply PLIES (40 when no value
    /// is given), sorted by key.
    #[arg(long, value_name = "PLIES", num_args = 0..=1, require_equals = true, default_missing_value = "40")]
    pub positions: Option<u32>,
    /// Also write the `tree` files, for `db tree`: for each shard, every
    /// position of the games' mainlines up to `--positions`' ply (40
    /// without it) that at least K of its games reached (2 when no value
    /// is given), with the moves played from it and exact counts.
    #[arg(long, value_name = "K", num_args = 0..=1, require_equals = true, default_missing_value = "2", value_parser = clap::value_parser!(u64).range(1..))]
    pub tree: Option<u64>,
}

/// Arguments of `db info`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbInfoArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Arguments of `db stats`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbStatsArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Outputs.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Arguments of `db search`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbSearchArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DbFormat::Csv)]
    pub format: DbFormat,
    /// Print only the number of games that match.
    #[arg(long, conflicts_with = "format")]
    pub count: bool,
    /// Print the first N games that match only.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Worker threads deciding the predicates, a row group each (at most
    /// 1024); 0 means one per core, as does leaving it out [default: number
    /// of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(..=MAX_JOBS))]
    pub jobs: Option<u16>,
}

/// Output formats of `db search`.
#[cfg(feature = "db")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DbFormat {
    /// The records of `games`, as CSV with a header row.
    Csv,
    /// The records of `games`, one JSON object per line.
    Jsonl,
    /// The games as PGN (as `db export` writes them).
    Pgn,
}

/// Output formats of `db export`.
#[cfg(feature = "db")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The games as PGN: each its own bytes while its source is there.
    Pgn,
    /// One SQLite file: the tables `games`, `positions`, `sources` and
    /// `info` (docs/DATABASE.md).
    Sqlite,
}

/// Arguments of `db export`.
#[cfg(feature = "db")]
#[derive(Debug, Args)]
pub struct DbExportArgs {
    /// The database directory.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Which games.
    #[command(flatten)]
    pub select: SelectArgs,
    /// The file to write (`-`: standard output; for PGN, `.zst` or `.gz`
    /// compress).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// What to write: the games as PGN, or the database as one SQLite file
    /// (its games, their positions and its sources; in a binary built with
    /// `--features sqlite`).
    #[arg(long, value_enum, default_value_t = ExportFormat::Pgn)]
    pub format: ExportFormat,
    /// No count of the games written on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Worker threads deciding the predicates, a row group each (at most
    /// 1024); 0 means one per core, as does leaving it out [default: number
    /// of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(..=MAX_JOBS))]
    pub jobs: Option<u16>,
}
