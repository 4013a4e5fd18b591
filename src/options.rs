//! Resolved options: what the commands below `cli` are told to do.
//!
//! Built once from the clap types in `cli.rs`; nothing below this module
//! sees clap. Plain data, validated at construction.

use std::borrow::Cow;

use crate::record::Selection;

/// How games are replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Validate moves inside variations too, each from where it branches.
    pub variations: bool,
    /// Compute the FEN of each game's last position (costs ~1 µs a game).
    pub final_fen: bool,
    /// Which tags of each game to keep, in order, in `GameRecord::tags`.
    pub keep_tags: KeepTags,
    /// Classify each game from the standard position by the embedded
    /// opening book (`GameRecord::opening`), unless its kept tags give both
    /// its `ECO` code and its `Opening` name (as lichess's dumps do): the
    /// book would not be read for it, and classifying costs a lookup per
    /// ply of the opening.
    pub classify_openings: bool,
    /// Write each game in PGN export format (`GameRecord::export`); implies
    /// replaying variations and keeping tags.
    pub export: bool,
    /// Hash each game's mainline moves (`GameRecord::moves_hash`), to find
    /// duplicate games.
    pub hash_moves: bool,
    /// Skip the checks of each tag section (missing, malformed, duplicated
    /// and unreadable tags), whose only output is warnings: for commands
    /// that report none (`stats`, where they were 1.2% of the instructions
    /// on master games).
    pub skip_tag_checks: bool,
    /// Which records carry the roster values (`White`, `Black`, `Event`,
    /// `Round`, `Result`); the others have `None` there. Owning them is
    /// every allocation a clean game makes, so `validate`, which prints
    /// only the games it selects, asks for those.
    pub roster_for: Selection,
}

/// Which tags the replay keeps in `GameRecord::tags` (each kept tag is
/// decoded and copied for every game, so commands ask only for what they
/// read).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KeepTags {
    /// None (the roster fields of the record are always there).
    #[default]
    None,
    /// These names only.
    Only(&'static [&'static str]),
    /// Every tag.
    All,
}

impl KeepTags {
    /// The name a tag written `name` is kept under, or `None` when it is
    /// not kept. A listed name is returned as listed (no decoding); with
    /// `All`, the name as written, Latin-1 bytes replaced.
    pub fn kept_name(self, name: &[u8]) -> Option<Cow<'_, str>> {
        match self {
            KeepTags::None => None,
            // Length and first byte first: most names differ there, and a
            // full comparison is a call for every tag of every game.
            KeepTags::Only(names) => names
                .iter()
                .find(|n| {
                    n.len() == name.len()
                        && n.as_bytes().first() == name.first()
                        && n.as_bytes() == name
                })
                .map(|&n| Cow::Borrowed(n)),
            KeepTags::All => Some(String::from_utf8_lossy(name)),
        }
    }
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
