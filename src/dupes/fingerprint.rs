//! What `dupes` keeps of a game as it is replayed (the observer): a hash
//! of its mainline from its start position, the fingerprint of each of its
//! proper prefixes (to find a game cut short inside a longer one), when it
//! was played, and, for `--unique`, its text.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    ops::ControlFlow,
};

use shakmaty::{EnPassantMode, Move, Position, fen::Epd};

use crate::{
    pgn::{
        tags::{BLACK, TagSet, WHITE},
        values::{Date, stated},
    },
    replay::observer::{GameEnd, Observer, mix, mix_parts},
};

/// The hash every game from the standard start position begins with.
const STANDARD: u64 = 0x243f_6a88_85a3_08d3;

/// The 32-bit fingerprint of a moves hash, as the prefixes are stored.
pub fn fingerprint(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// What [`Fingerprint`] makes of one game.
#[derive(Debug, Default)]
pub struct Seen {
    /// A hash of the start position, the variant and every mainline move:
    /// equal for games with the same moves from the same start.
    pub moves: u64,
    /// The [`fingerprint`] of the hash after each ply but the last (the
    /// game's proper prefixes), 4 bytes each, little-endian, as they are
    /// spilled; empty when a player's name is missing (such a game is
    /// nobody's longer version).
    pub prefixes: Vec<u8>,
    /// When the game was played, as far as its tags say.
    pub when: When,
    /// Whether the moves were replayed (a supported variant, a valid start).
    pub replayed: bool,
    /// The game's text as it is in the input (for `--unique`; else empty).
    pub text: Vec<u8>,
}

/// When a game was played: its date (`Date`, else `UTCDate`) and time
/// (`UTCTime`, else `Time`); each part 0 when unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct When {
    /// The year (0 when unknown or past 16383).
    pub year: u16,
    /// The month, 1 to 12 (0: unknown).
    pub month: u8,
    /// The day, 1 to 31 (0: unknown).
    pub day: u8,
    /// Seconds since midnight plus one (0: unknown).
    pub second: u32,
}

impl When {
    /// When a game with `tags` was played.
    fn of(tags: &TagSet<'_>) -> When {
        let known = |name: &str| tags.first(name).filter(|v| stated(v).is_some());
        let date = tags
            .get("Date")
            .and_then(|d| Date::parse(&d))
            .filter(|d| d.year.is_some())
            .or_else(|| known("UTCDate").and_then(|d| Date::parse(&d)))
            .unwrap_or_default();
        let part = |value: Option<u32>, max: u32| value.filter(|&v| v <= max).unwrap_or(0);
        let time = known("UTCTime").or_else(|| known("Time"));
        When {
            year: part(date.year, 16383) as u16,
            month: part(date.month, 12) as u8,
            day: part(date.day, 31) as u8,
            second: time.as_deref().and_then(seconds).map_or(0, |s| s + 1),
        }
    }

    /// Whether two games can have been played at the same time: every part
    /// known for both is equal.
    pub fn agrees(self, other: When) -> bool {
        let same = |a: u32, b: u32| a == 0 || b == 0 || a == b;
        same(self.year.into(), other.year.into())
            && same(self.month.into(), other.month.into())
            && same(self.day.into(), other.day.into())
            && same(self.second, other.second)
    }
}

/// `HH:MM:SS` as seconds since midnight.
fn seconds(text: &str) -> Option<u32> {
    let mut parts = text.trim().split(':').map(|p| p.parse::<u32>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    (parts.next().is_none() && h < 24 && m < 60 && s < 61).then_some(h * 3600 + m * 60 + s)
}

/// The observer: hashes the mainline as it is replayed.
#[derive(Debug, Default)]
pub struct Fingerprint {
    /// Whether to keep each game's text (`--unique`).
    keep_text: bool,
    hash: u64,
    /// Whether this game's prefixes are kept (both players named).
    prefixes_kept: bool,
    /// The prefixes so far (reused from game to game).
    prefixes: Vec<u8>,
    seen: Seen,
}

impl Fingerprint {
    /// An observer that keeps each game's text too when `keep_text`.
    pub fn new(keep_text: bool) -> Self {
        Fingerprint { keep_text, ..Fingerprint::default() }
    }
}

impl Fingerprint {
    /// A mainline move given by its parts (`replay::observer::mix_parts`)
    /// rather than played: `db dupes` hashes the stored codes without
    /// replaying them, which is all `after_move` needs of a move.
    pub fn after_parts(&mut self, from: u64, to: u64, promotion: u64) {
        self.hash = mix_parts(self.hash, from, to, promotion);
        self.note_prefix();
    }

    fn note_prefix(&mut self) {
        if self.prefixes_kept {
            self.prefixes.extend_from_slice(&fingerprint(self.hash).to_le_bytes());
        }
    }
}

impl Observer for Fingerprint {
    type Output = Seen;

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        let named = |index| tags.roster_text(index).is_some_and(|name| stated(&name).is_some());
        self.prefixes_kept = named(WHITE) && named(BLACK);
        self.seen = Seen { when: When::of(tags), ..Seen::default() };
        self.prefixes.clear();
        self.hash = STANDARD;
        ControlFlow::Continue(())
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        // Another start position (a FEN, a variant's): its EPD, without the
        // move counters.
        self.hash = if standard {
            STANDARD
        } else {
            text_hash(Epd::from_position(pos, EnPassantMode::Legal).to_string().as_bytes())
        };
        self.seen.replayed = true;
    }

    fn after_move<P: Position>(&mut self, _pos: &P, m: &Move, _ply: u32, mainline: bool) {
        if mainline {
            self.hash = mix(self.hash, m);
            self.note_prefix();
        }
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Seen {
        let mut seen = std::mem::take(&mut self.seen);
        // The whole game is its hash: the prefixes are the proper ones, of
        // 1 to n - 1 plies.
        self.prefixes.truncate(self.prefixes.len().saturating_sub(4));
        seen.moves = self.hash;
        // The same moves in another variant are another game.
        if game.record.variant != "chess" {
            let variant = text_hash(game.record.variant.as_bytes());
            seen.moves ^= variant;
            for prefix in self.prefixes.chunks_exact_mut(4) {
                let mixed = u32::from_le_bytes(prefix.try_into().unwrap_or_default());
                prefix.copy_from_slice(&(mixed ^ fingerprint(variant)).to_le_bytes());
            }
        }
        // One allocation of the right size.
        seen.prefixes = self.prefixes.clone();
        // Empty for a game of which only the first bytes are held: the
        // index refuses to write it cut.
        if self.keep_text && game.whole {
            seen.text = game.text.to_vec();
        }
        seen
    }
}

/// A hash of some bytes, the same for the whole run.
fn text_hash(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_agree_where_both_are_known() {
        let when = |year, month, day, second| When { year, month, day, second };
        assert!(when(1990, 0, 0, 0).agrees(when(1990, 3, 12, 0)));
        assert!(!when(1990, 3, 0, 0).agrees(when(1990, 4, 12, 0)));
        assert!(when(0, 0, 0, 0).agrees(when(2024, 1, 1, 100)));
        assert!(!when(2024, 1, 1, 100).agrees(when(2024, 1, 1, 200)));
        assert_eq!(seconds("01:48:17"), Some(6497));
        assert_eq!(seconds("25:00:00"), None);
        assert_eq!(seconds("12:00"), None);
    }
}
