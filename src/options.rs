//! Resolved options: what the commands below `cli` are told to do.
//!
//! Built once from the clap types in `cli.rs`; nothing below this module
//! sees clap. Plain data, validated at construction.

/// How games are replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Validate moves inside variations too, each from where it branches.
    pub variations: bool,
    /// Compute the FEN of each game's last position (costs ~1 µs a game).
    pub final_fen: bool,
    /// Keep every tag of each game, in order, in `GameRecord::tags`.
    pub keep_tags: bool,
    /// Classify each game from the standard position by the embedded
    /// opening book (`GameRecord::opening`).
    pub classify_openings: bool,
    /// Write each game in PGN export format (`GameRecord::export`); implies
    /// replaying variations and keeping tags.
    pub export: bool,
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
