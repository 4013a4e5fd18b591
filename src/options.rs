//! Resolved options: what the commands below `cli` are told to do.
//!
//! Built once from the clap types in `cli.rs`; nothing below this module
//! sees clap. Plain data, validated at construction.

/// How games are replayed: what goes into each record. What consumers make
/// of a game is theirs (`replay::observer`), not an option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Validate moves inside variations too, each from where it branches.
    pub variations: bool,
    /// Compute the FEN of each game's last position (`GameRecord::final_fen`).
    pub final_fen: bool,
    /// Skip the checks of each tag section (missing, malformed, duplicated
    /// and unreadable tags), whose only output is warnings, for commands
    /// that report none (`stats`).
    pub skip_tag_checks: bool,
}

/// How input is read and spread over threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Worker threads replaying chunks.
    pub jobs: usize,
    /// Target size of a chunk in bytes (chunks end at game boundaries).
    pub chunk_size: usize,
}

/// Default chunk size: large enough to amortise scheduling, small enough
/// that all cores start within milliseconds.
pub const DEFAULT_CHUNK_SIZE: usize = 2 << 20;

/// Output format of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// CSV with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}
