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
    Only(TagNames),
    /// Every tag.
    All,
}

impl KeepTags {
    /// How a tag written `name` is kept, or `None` when it is not.
    pub fn kept(self, name: &[u8]) -> Option<KeptName<'_>> {
        match self {
            KeepTags::None => None,
            KeepTags::Only(names) => names
                .position(name)
                .map(|place| KeptName::Listed { place, name: names.names[place] }),
            KeepTags::All => Some(KeptName::Named(String::from_utf8_lossy(name))),
        }
    }
}

/// How a tag is kept (see [`KeepTags::kept`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeptName<'a> {
    /// By its place in the list of `KeepTags::Only` (and its name as
    /// listed): the reader of the record finds it by place, without
    /// comparing names.
    Listed {
        /// Where the name is in the list.
        place: usize,
        /// The name.
        name: &'static str,
    },
    /// By its name as written, Latin-1 bytes replaced (`KeepTags::All`).
    Named(Cow<'a, str>),
}

/// A list of tag names (at most [`TagNames::MAX`]), indexed by length: a
/// name is compared only with the listed names of its length, which most
/// tag names do not share with any (for `stats`, which keeps eight tags, a
/// scan of the whole list was 0.4% of the instructions on master games,
/// and 14 branch mispredictions a game as cachegrind simulates them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagNames {
    names: &'static [&'static str],
    /// For each length (the last: that length or more), the names of that
    /// length, bit `i` standing for `names[i]`.
    by_length: [u16; 64],
}

impl TagNames {
    /// The most names a list can have.
    pub const MAX: usize = 16;

    /// The list `names` (a compile-time error when longer than
    /// [`TagNames::MAX`]).
    pub const fn new(names: &'static [&'static str]) -> Self {
        assert!(names.len() <= TagNames::MAX, "too many tag names");
        let mut by_length = [0; 64];
        let mut i = 0;
        while i < names.len() {
            by_length[TagNames::length_slot(names[i].as_bytes())] |= 1 << i;
            i += 1;
        }
        TagNames { names, by_length }
    }

    /// How many names there are.
    pub const fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the list is empty.
    pub const fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Where the name written `name` is in the list.
    pub fn position(&self, name: &[u8]) -> Option<usize> {
        let mut candidates = self.by_length[TagNames::length_slot(name)];
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            // First byte first: a full comparison is a call.
            let listed = self.names[i].as_bytes();
            if listed.first() == name.first() && listed == name {
                return Some(i);
            }
            candidates &= candidates - 1;
        }
        None
    }

    /// The entry of `by_length` for names as long as `name`.
    const fn length_slot(name: &[u8]) -> usize {
        if name.len() < 63 { name.len() } else { 63 }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_names_are_found_only_when_equal() {
        const LONG: &str = "AVeryLongTagNameThatGoesOnAndOnForMoreThanSixtyThreeBytesInTotal";
        const NAMES: TagNames = TagNames::new(&["WhiteElo", "BlackElo", "Date", "ECO", LONG]);
        let position = |name: &str| NAMES.position(name.as_bytes());
        assert_eq!(
            [position("WhiteElo"), position("BlackElo"), position("Date"), position("ECO")],
            [Some(0), Some(1), Some(2), Some(3)]
        );
        assert_eq!(position(LONG), Some(4));
        // Same length as a listed name (and the same first byte), longer
        // than 63 bytes too, or empty: not listed.
        let longer = format!("{LONG}!");
        for other in ["WhiteEla", "BlackEl", "Site", "EC", "", longer.as_str(), &LONG[..63]] {
            assert_eq!(position(other), None, "{other}");
        }
        assert_eq!(
            KeepTags::Only(NAMES).kept(b"Date"),
            Some(KeptName::Listed { place: 2, name: "Date" })
        );
        assert_eq!(KeepTags::None.kept(b"Date"), None);
        assert_eq!(KeepTags::All.kept(b"Date"), Some(KeptName::Named("Date".into())));
    }
}
