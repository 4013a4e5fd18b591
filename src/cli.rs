//! The command line, as clap types. Doc comments here are the `--help`
//! text. No I/O and no logic: `commands` turns these into `options`.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Applies the FIDE Laws of Chess to PGN game collections.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
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
}

/// Inputs and how to read them (shared by every subcommand).
#[derive(Debug, Args)]
pub struct InputArgs {
    /// PGN files (plain, .zst, .gz or .bz2); `-` reads standard input; a
    /// directory stands for the PGN files in it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Also read the PGN files in subdirectories of directory arguments.
    #[arg(long, short = 'r')]
    pub recursive: bool,
    /// Also validate moves inside variations, each from where it branches.
    #[arg(long)]
    pub variations: bool,
    /// Worker threads [default: number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Target chunk size in bytes (for testing chunk boundaries).
    #[arg(long, hide = true, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: Option<u64>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Arguments of `validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Inputs.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: diagnostics for people, or the records of the games
    /// with findings as JSON Lines.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub format: ValidateFormat,
    /// Report errors only, not warnings.
    #[arg(long)]
    pub errors_only: bool,
}

/// Output formats of `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    /// `file:line: error: ...` diagnostics and a summary.
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = GamesFormat::Csv)]
    pub format: GamesFormat,
}

/// Output formats of `games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GamesFormat {
    /// CSV with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
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
