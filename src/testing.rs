//! Helpers shared by the unit tests: replaying a PGN text, and random
//! soups of PGN pieces.

use crate::{
    pgn::chunk::Chunk,
    record::GameRecord,
    replay::ReplayOptions,
    replay::{Replayer, observer::Observer},
};

/// The records of the games of `pgn` (one chunk, file `t`), replayed with
/// `options`, each with what `observer` made of it.
pub fn replay_with<O: Observer>(
    pgn: impl AsRef<[u8]>,
    options: ReplayOptions,
    observer: &mut O,
) -> Vec<(GameRecord, O::Output)> {
    let chunk = Chunk::from_bytes("t", pgn.as_ref().to_vec());
    let mut games = Vec::new();
    Replayer::new(options).replay(&chunk, observer, |record, output| games.push((record, output)));
    games
}

/// The records of the games of `pgn`, replayed with the default options.
pub fn replay(pgn: impl AsRef<[u8]>) -> Vec<GameRecord> {
    replay_with(pgn, ReplayOptions::default(), &mut ()).into_iter().map(|(r, ())| r).collect()
}

/// A small deterministic generator (xorshift), so tests need no crate.
pub struct Rng(pub u64);

impl Rng {
    /// A random soup of fewer than `pieces` of [`PGN_PIECES`]. With
    /// `long_runs`, a piece is now and then a run of `x` (200 bytes to 20
    /// KB) or of spaces instead, to cross pgn-reader's 16 KiB buffer with
    /// long tag lines, comments and movetexts.
    pub fn pgn_soup(&mut self, pieces: usize, long_runs: bool) -> Vec<u8> {
        let mut bytes = Vec::new();
        for _ in 0..self.below(pieces) {
            match if long_runs { self.below(60) } else { 2 } {
                0 => bytes.extend(std::iter::repeat_n(b'x', 200 + self.below(20_000))),
                1 => bytes.extend(std::iter::repeat_n(b' ', self.below(600))),
                _ => bytes.extend_from_slice(PGN_PIECES[self.below(PGN_PIECES.len())]),
            }
        }
        bytes
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Pieces of PGN, broken PGN and separators whose random soups steer the
/// splitter, the lexer and the chunker through every branch: tags with
/// escapes (of the line break too) and without quotes, comments, `%`
/// lines (in the first column and after spaces), BOMs, CRLF, blank lines.
pub const PGN_PIECES: &[&[u8]] = &[
    b"[Event \"A\"]\n",
    b"[White \"x \\\" y\"]",
    b"[Site\"s\"]",
    b"[Round \"1",
    b"[Black]",
    b"[Date \"\\",
    b"[Annotator \"a\\\nb\"]\n",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"\n",
    b"\r\n",
    b"\n\n",
    b"\r",
    b" ",
    b"\t",
    b"{",
    b"}",
    b"{ a comment\n\n[Event \"in it\"] }",
    b";",
    b"; rest of line\n",
    b"%",
    b"\n% escaped [Event \"x\"]\n",
    b"\n  % not escaped {\n",
    b"\xef\xbb\xbf",
    b"1. e4 e5 2. Nf3 ",
    b"1-0",
    b"*",
    b"x",
    b"\0",
];
