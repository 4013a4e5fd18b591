//! The observer seam: how a consumer sees a game as it is replayed.
//!
//! The shape of pgn-reader's `Visitor`: the tag section first (an observer
//! may skip the game there, before any move is replayed), then each move
//! legally played with the positions around it, comments, NAGs and
//! variations, and the end of the game with its record. Export, opening
//! classification, move hashing and the statistics are observers; the
//! record is the same whoever observes. Every method but `end_game` does
//! nothing by default, and the replay is generic over the observer, so a
//! consumer pays only for the callbacks it fills in.

use std::ops::ControlFlow;

use shakmaty::{Chess, Move, Position};

use crate::pgn::tags::{TagList, TagSet};
use crate::record::GameRecord;

/// Where a game's bytes are in its input (uncompressed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Address {
    /// 0-based byte offset of the game's first byte.
    pub offset: u64,
    /// Length in bytes, up to the next game.
    pub length: u64,
}

/// A game at its end, as observers see it.
#[derive(Debug)]
pub struct GameEnd<'g, 'a> {
    /// What the replay found. Its `index` counts games from the start of
    /// the chunk and its lines from the chunk's first line: the pipeline
    /// makes both the input's when it puts records back in order, so an
    /// observer must not depend on where a game stands.
    pub record: &'g GameRecord,
    /// The game's tags, as written.
    pub tags: &'g TagSet<'a>,
    /// The game's text, from the end of the game before to the next game
    /// (what separates them belongs to the game before; the first game of
    /// a file also has the bytes before it).
    pub text: &'g [u8],
    /// The game's tag section as written, from its first tag on the
    /// record's line.
    pub tag_section: &'g [u8],
    /// Where the game itself is in its input: from its first byte (its
    /// first tag) to the next game, without the bytes before it that
    /// `text` has.
    pub address: Address,
    /// Whether the moves were replayed: the variant is supported and the
    /// start position valid (an error may still have stopped the replay).
    pub replayed: bool,
    /// The last mainline position, in chess (not a variant), when the
    /// game was replayed under the Laws: what `final_fen` writes, without
    /// parsing it again.
    pub final_position: Option<&'g Chess>,
    /// Whether `text` holds all of the game: not for a game too large read
    /// from a stream, of which only the first bytes are held (see
    /// `pgn::chunk::TooLarge`).
    pub whole: bool,
}

/// What an observer still needs of the game being replayed, asked after
/// its tags and after each mainline move: the replay stops as soon as
/// nothing needs the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    /// The rest of the moves (the default).
    Replay,
    /// Nothing more of the moves: the replay may stop here when the
    /// command needs no complete record either (`ReplayOptions::early_stop`).
    Enough,
    /// The game is to be dropped whatever its moves: the replay stops at
    /// once and no record is made, as after a `Break` from `tags`.
    Drop,
}

impl Rest {
    /// What two observers side by side need: the game is dropped if either
    /// drops it, and the moves are enough when both have enough.
    pub fn and(self, other: Rest) -> Rest {
        match (self, other) {
            (Rest::Drop, _) | (_, Rest::Drop) => Rest::Drop,
            (Rest::Enough, Rest::Enough) => Rest::Enough,
            _ => Rest::Replay,
        }
    }
}

/// A consumer of games as they are replayed. One observer per worker
/// thread sees that worker's games one after another.
pub trait Observer {
    /// What the observer makes of one game, delivered with its record in
    /// input order (`()` for observers that aggregate in place).
    type Output: Send;

    /// The tag section has been read. `Break` skips the game: no move is
    /// replayed, no other method is called for it, and no record is made.
    fn tags(&mut self, _tags: &TagSet<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The start position is set up; `standard` when it is the standard
    /// start position of standard chess.
    fn start<P: Position>(&mut self, _pos: &P, _standard: bool) {}

    /// `m` is about to be played from `pos` (mainline or variation).
    fn before_move<P: Position>(&mut self, _pos: &P, _m: &Move) {}

    /// `m` was played: `pos` is the position after it, `ply` its 1-based
    /// half-move in its line, `mainline` false inside a variation.
    fn after_move<P: Position>(&mut self, _pos: &P, _m: &Move, _ply: u32, _mainline: bool) {}

    /// A numeric annotation glyph (`$n`, `!`, `?`...).
    fn nag(&mut self, _nag: u8) {}

    /// A comment's text, without its braces.
    fn comment(&mut self, _text: &[u8]) {}

    /// A variation begins (only when variations are replayed).
    fn begin_variation(&mut self) {}

    /// A variation ends (only when variations are replayed).
    fn end_variation(&mut self) {}

    /// What the observer still needs of this game (see [`Rest`]): asked
    /// after `tags` and after each mainline `after_move`, so it must be
    /// cheap.
    fn rest(&self) -> Rest {
        Rest::Replay
    }

    /// The game has been replayed and its record made. `Break` drops the
    /// game as a `Break` from `tags` does, once what only the replay can
    /// tell (the moves, the verdict) is known: `end_game` is not called and
    /// no record is made.
    fn keep(&mut self, _record: &GameRecord) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The game is over; its record is made.
    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output;
}

/// Observes nothing: the record alone.
impl Observer for () {
    type Output = ();

    fn rest(&self) -> Rest {
        Rest::Enough
    }

    fn end_game(&mut self, _game: &GameEnd<'_, '_>) {}
}

/// Two observers side by side: both see every game. Either may skip it for
/// both (the second's `Break` comes after the first has seen the tags:
/// `tags` need not be followed by `end_game`).
impl<A: Observer, B: Observer> Observer for (A, B) {
    type Output = (A::Output, B::Output);

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        self.0.tags(tags)?;
        self.1.tags(tags)
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        self.0.start(pos, standard);
        self.1.start(pos, standard);
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        self.0.before_move(pos, m);
        self.1.before_move(pos, m);
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        self.0.after_move(pos, m, ply, mainline);
        self.1.after_move(pos, m, ply, mainline);
    }

    fn nag(&mut self, nag: u8) {
        self.0.nag(nag);
        self.1.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        self.0.comment(text);
        self.1.comment(text);
    }

    fn begin_variation(&mut self) {
        self.0.begin_variation();
        self.1.begin_variation();
    }

    fn end_variation(&mut self) {
        self.0.end_variation();
        self.1.end_variation();
    }

    fn rest(&self) -> Rest {
        self.0.rest().and(self.1.rest())
    }

    fn keep(&mut self, record: &GameRecord) -> ControlFlow<()> {
        self.0.keep(record)?;
        self.1.keep(record)
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        (self.0.end_game(game), self.1.end_game(game))
    }
}

/// Keeps each game's bytes as they are in the input (`filter`): from its
/// first byte to the next game's, the first game of an input with what
/// comes before it, so that the texts of all the games of an input, in
/// order, are the input. Empty for a game of which only the first bytes
/// are held ([`GameEnd::whole`]): a writer must leave it out, not cut it.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameText;

impl Observer for GameText {
    type Output = Vec<u8>;

    fn rest(&self) -> Rest {
        Rest::Enough
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        if game.whole { game.text.to_vec() } else { Vec::new() }
    }
}

/// Keeps each game's tags, decoded and owned (`check`, `crosstable`).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeepTags;

impl Observer for KeepTags {
    type Output = TagList;

    fn rest(&self) -> Rest {
        Rest::Enough
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        game.tags.to_list()
    }
}

/// Hashes each game's mainline moves: equal move sequences have equal
/// hashes (`check`'s search for copies of a game).
#[derive(Debug, Clone, Copy, Default)]
pub struct MovesHash {
    hash: u64,
}

impl Observer for MovesHash {
    type Output = u64;

    fn start<P: Position>(&mut self, _pos: &P, _standard: bool) {
        self.hash = 0;
    }

    fn after_move<P: Position>(&mut self, _pos: &P, m: &Move, _ply: u32, mainline: bool) {
        if mainline {
            self.hash = mix(self.hash, m);
        }
    }

    fn end_game(&mut self, _game: &GameEnd<'_, '_>) -> u64 {
        std::mem::take(&mut self.hash)
    }
}

/// Folds a move into a running hash of the move sequence (one multiply:
/// it runs on every ply; a collision only merges two games in `check`'s
/// search for copies).
pub(crate) fn mix(hash: u64, m: &Move) -> u64 {
    let from = m.from().map_or(64, |sq| sq as u64);
    mix_parts(hash, from, m.to() as u64, m.promotion().map_or(0, |role| role as u64))
}

/// [`mix`] of a move given as its origin (64 for a drop), its target (the
/// rook's square for castling, as `Move::to`) and its promotion's role
/// number (0: none): what the database's two-byte code holds.
pub(crate) fn mix_parts(hash: u64, from: u64, to: u64, promotion: u64) -> u64 {
    let key = 1 + from + (to << 7) + (promotion << 14);
    (hash ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}
