//! Cuts a stream of PGN into shards of N games for `arbiter split`, every
//! byte kept: the shards put end to end are the input.
//!
//! The input is read in runs that end where the chunker may cut
//! (`chunk::find_cut`: a game begins there whatever came before). Within a
//! run the games are walked as the replay of the whole input walks them
//! (`GameCursor`), and a shard ends before the game that would overfill
//! it, so a shard holds N games (more only where a shard would otherwise
//! not look like PGN alone: see `reads_as_pgn`) and each shard read
//! alone holds the games the whole input holds there, broken ones
//! included. A game too large (`chunk::MAX_GAME`) counts as one game, as
//! the replay reports it, and is streamed through, never held: the buffer
//! holds at most one window of `MAX_GAME` bytes and one read.

use std::io::{self, Read};

use crate::pgn::{
    chunk::{self, find_cut, last_game_start},
    cursor::GameCursor,
    sniff,
};

/// A UTF-8 byte order mark, which may begin any game.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Whether a shard that begins with `rest` (the bytes held from there on)
/// reads as PGN alone: every command skips an input whose first bytes do
/// not look like it ([`sniff`]), where the whole input's did. Bytes that
/// follow `rest` cannot change the answer: it is looked at whole
/// ([`sniff::HEAD`] bytes), or it holds a mark of PGN (a tag line, a
/// first move number) and ends with a line break, as every run held does
/// but the input's last.
fn reads_as_pgn(rest: &[u8]) -> bool {
    sniff::looks_like_pgn(rest) && (rest.len() >= sniff::HEAD || sniff::has_pgn_marks(rest))
}

/// How much is read at a time.
const READ: usize = 1 << 20;

/// A run of the input's bytes handed to the writer of shards.
#[derive(Debug)]
pub struct Piece<'a> {
    /// Whether these bytes begin a new shard (the first piece does).
    pub new_shard: bool,
    /// The bytes, to be appended to the current shard.
    pub bytes: &'a [u8],
    /// How many games begin in them.
    pub games: u64,
}

/// What a split read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Split {
    /// Games.
    pub games: u64,
    /// Shards begun.
    pub shards: u64,
    /// Bytes (uncompressed).
    pub bytes: u64,
}

/// Splits `rdr` into shards of `games` games (at least 1), handing each
/// run of bytes to `write` in order. An empty input makes no shard; bytes
/// that hold no game (an input of blank lines) make one. A read error
/// ends the split after every byte read before it was handed on (the last
/// game may be cut short, as it is in the input), and is returned with
/// what was split until then, as is an error of `write`.
pub fn split(
    rdr: &mut dyn Read,
    games: u64,
    write: &mut dyn FnMut(Piece) -> io::Result<()>,
) -> (Split, io::Result<()>) {
    let mut splitter = Splitter::new(games, chunk::MAX_GAME);
    let result = splitter.run(rdr, write);
    (splitter.split, result)
}

/// The state of one split.
struct Splitter {
    per_shard: u64,
    max_game: usize,
    /// Games in the current shard.
    in_shard: u64,
    /// The current shard's first bytes, as a command sniffs them.
    head: Vec<u8>,
    split: Split,
}

impl Splitter {
    fn new(per_shard: u64, max_game: usize) -> Splitter {
        Splitter {
            per_shard: per_shard.max(1),
            max_game,
            in_shard: 0,
            head: Vec::new(),
            split: Split::default(),
        }
    }

    /// Hands on `bytes`, in which `games` games begin: in a new shard when
    /// they begin a game, the current shard is full (or there is none),
    /// and a shard that begins with them reads as PGN (`held`: the bytes
    /// held from their first on), as does the shard they would end.
    fn emit(
        &mut self,
        bytes: &[u8],
        games: u64,
        held: &[u8],
        write: &mut dyn FnMut(Piece) -> io::Result<()>,
    ) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let full = games > 0 && self.in_shard >= self.per_shard;
        // The shard ended here must read as PGN alone too.
        let new_shard = self.split.shards == 0
            || (full && reads_as_pgn(held) && sniff::looks_like_pgn(&self.head));
        if new_shard {
            self.split.shards += 1;
            self.in_shard = 0;
            self.head.clear();
        }
        let more = sniff::HEAD - self.head.len();
        self.head.extend_from_slice(&bytes[..bytes.len().min(more)]);
        self.in_shard += games;
        self.split.games += games;
        self.split.bytes += bytes.len() as u64;
        write(Piece { new_shard, bytes, games })
    }

    /// Hands on `bytes`, which begin where the replay of the whole input
    /// begins a game (or at its start) and end where it may: cut before
    /// each game that would overfill the shard. The replay walks the games
    /// of the whole input to the same places, so each piece reads alone as
    /// in the whole. A game is cut before at its first byte, or at the byte
    /// order mark before it, which goes with it as a file's first does.
    fn emit_games(
        &mut self,
        bytes: &[u8],
        write: &mut dyn FnMut(Piece) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut cursor = GameCursor::new(bytes, 1);
        let (mut from, mut games) = (0, 0);
        while let Some(span) = cursor.next_game(|_, _| {}) {
            let start = span.start - usize::from(bytes[..span.start].ends_with(BOM)) * BOM.len();
            if games > 0 && self.full_with(games) && reads_as_pgn(&bytes[start..]) {
                self.emit(&bytes[from..start], games, &bytes[from..], write)?;
                (from, games) = (start, 0);
            }
            games += 1;
            cursor.finish_game(&span, cursor.lexer(&span));
        }
        self.emit(&bytes[from..], games, &bytes[from..], write)
    }

    /// Whether the shard that `games` more games (at least one) go into
    /// is full with them.
    fn full_with(&self, games: u64) -> bool {
        let new_shard = self.split.shards == 0 || self.in_shard >= self.per_shard;
        let held = if new_shard { 0 } else { self.in_shard };
        held + games >= self.per_shard
    }

    fn run(
        &mut self,
        rdr: &mut dyn Read,
        write: &mut dyn FnMut(Piece) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut buffer = Vec::new();
        // Where the bytes not yet handed on begin in `buffer`.
        let mut at = 0;
        let mut eof = false;
        let mut failed = None;
        // How many bytes not yet handed on to hold before looking for a
        // cut: more only when none was found in what is held.
        let mut want = READ;
        loop {
            if buffer.len() - at < want && !eof {
                // Drop what was handed on before reading more.
                buffer.drain(..at);
                at = 0;
                if let Err(error) = chunk::fill(rdr, &mut buffer, &mut eof, want) {
                    // What was read is split as if the input ended there.
                    (eof, failed) = (true, Some(error));
                }
            }
            let rest = &buffer[at..];
            if rest.is_empty() {
                return failed.map_or(Ok(()), Err);
            }
            let window = &rest[..rest.len().min(self.max_game)];
            let whole = eof && rest.len() <= self.max_game;
            if let Some(cut) = find_cut(window, 1, whole) {
                self.emit_games(&rest[..cut], write)?;
                at += cut;
                want = 0;
            } else if window.len() < self.max_game {
                // One game longer than what is read: read more of it.
                want = (rest.len() * 2).clamp(READ, self.max_game);
            } else if let Some(cut) = last_game_start(window) {
                // Games not separated by a blank line: cut where the chunker
                // would, before the last that begins in the window.
                self.emit_games(&rest[..cut], write)?;
                at += cut;
                want = 0;
            } else {
                buffer.drain(..at);
                if let Some(error) = self.too_large(rdr, &mut buffer, &mut eof, write)? {
                    // Its bytes were handed on; what follows was not read.
                    (eof, failed) = (true, Some(error));
                }
                at = 0;
                want = 0;
            }
        }
    }

    /// Streams a game too large that `buffer` begins with (a whole window
    /// of it) to where a game certainly begins, or the end of the input, as
    /// the chunker skips it; leaves in `buffer` what follows it. Returns
    /// the read error that ended it early, after handing on what was read.
    fn too_large(
        &mut self,
        rdr: &mut dyn Read,
        buffer: &mut Vec<u8>,
        eof: &mut bool,
        write: &mut dyn FnMut(Piece) -> io::Result<()>,
    ) -> io::Result<Option<io::Error>> {
        let overlap = chunk::resync_overlap(self.max_game);
        let kept = self.max_game - overlap;
        self.emit(&buffer[..kept], 1, buffer, write)?;
        buffer.drain(..kept);
        loop {
            if let Err(error) = chunk::fill(rdr, buffer, eof, self.max_game) {
                self.emit(buffer, 0, &[], write)?;
                buffer.clear();
                return Ok(Some(error));
            }
            if let Some(cut) = chunk::find_resync_cut(buffer, overlap / 2) {
                self.emit(&buffer[..cut], 0, &[], write)?;
                buffer.drain(..cut);
                return Ok(None);
            }
            if *eof {
                self.emit(buffer, 0, &[], write)?;
                buffer.clear();
                return Ok(None);
            }
            let kept = buffer.len() - overlap;
            self.emit(&buffer[..kept], 0, &[], write)?;
            buffer.drain(..kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Rng, replay};

    /// The shards of `bytes` (each with its games) split with `max_game`,
    /// read `step` bytes at a time.
    fn shards(bytes: &[u8], per_shard: u64, max_game: usize, step: usize) -> Vec<(Vec<u8>, u64)> {
        let mut out: Vec<(Vec<u8>, u64)> = Vec::new();
        let mut rdr = Trickle(bytes, step);
        let mut splitter = Splitter::new(per_shard, max_game);
        splitter
            .run(&mut rdr, &mut |piece| {
                if piece.new_shard {
                    out.push((Vec::new(), 0));
                }
                let shard = out.last_mut().expect("a piece begins the first shard");
                shard.0.extend_from_slice(piece.bytes);
                shard.1 += piece.games;
                Ok(())
            })
            .unwrap();
        assert_eq!(splitter.split.shards, out.len() as u64);
        assert_eq!(splitter.split.bytes, bytes.len() as u64);
        out
    }

    /// A reader that hands out at most `.1` bytes a call.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(self.1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn game(n: usize) -> String {
        format!("[Event \"{n}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n")
    }

    #[test]
    fn shards_hold_n_games_and_put_together_are_the_input() {
        let text: String = (0..10).map(game).collect();
        for (n, sizes) in [(1, vec![1; 10]), (3, vec![3, 3, 3, 1]), (5, vec![5, 5]), (10, vec![10])]
        {
            let parts = shards(text.as_bytes(), n, 1 << 20, 7);
            assert_eq!(parts.iter().map(|p| p.1).collect::<Vec<_>>(), sizes, "{n} a shard");
            assert_eq!(parts.concat_bytes(), text.as_bytes());
            for (bytes, games) in &parts {
                assert_eq!(replay(bytes).len() as u64, *games);
            }
        }
        assert!(shards(b"", 2, 1 << 20, 7).is_empty());
        assert_eq!(shards(b"\n\n  \n", 2, 1 << 20, 7), vec![(b"\n\n  \n".to_vec(), 0)]);
    }

    #[test]
    fn games_without_blank_lines_or_behind_byte_order_marks_are_cut_apart() {
        // Games joined without a blank line (no place where the chunker
        // may cut), and files each with its byte order mark, concatenated.
        let joined = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n[Event \"c\"]\n1. c4 *\n";
        let marked: String = ["a", "b", "c"]
            .iter()
            .map(|e| format!("\u{feff}[Event \"{e}\"]\n\n1. e4 *\n\n"))
            .collect();
        for text in [joined.to_owned(), marked] {
            let parts = shards(text.as_bytes(), 1, 1 << 20, 5);
            assert_eq!(parts.iter().map(|p| p.1).collect::<Vec<_>>(), [1, 1, 1], "{text:?}");
            assert_eq!(parts.concat_bytes(), text.as_bytes());
            for (n, (bytes, _)) in parts.iter().enumerate() {
                let records = replay(bytes);
                assert_eq!(records.len(), 1, "{bytes:?}");
                assert_eq!(records[0].event.as_deref(), Some(["a", "b", "c"][n]));
                assert!(records[0].valid);
            }
            if text.starts_with('\u{feff}') {
                assert!(parts.iter().all(|p| p.0.starts_with(BOM)));
            }
        }
    }

    trait Concat {
        fn concat_bytes(&self) -> Vec<u8>;
    }

    impl Concat for Vec<(Vec<u8>, u64)> {
        fn concat_bytes(&self) -> Vec<u8> {
            self.iter().flat_map(|p| p.0.iter().copied()).collect()
        }
    }

    #[test]
    fn random_soups_keep_every_byte_and_every_game() {
        let mut rng = Rng(0x5eed_5117);
        for round in 0..300 {
            let soup = rng.pgn_soup(40, round % 3 == 0);
            let per_shard = 1 + rng.below(4) as u64;
            // A small window, so that long runs are games too large.
            let max_game = [256, 4096, 1 << 20][rng.below(3)];
            let step = 1 + rng.below(3000);
            let parts = shards(&soup, per_shard, max_game, step);
            assert_eq!(parts.concat_bytes(), soup, "round {round}");
            // Each shard read alone holds the games the whole holds.
            let whole: Vec<_> = replay(&soup).iter().map(|r| (r.valid, r.plies)).collect();
            let alone: Vec<_> =
                parts.iter().flat_map(|p| replay(&p.0)).map(|r| (r.valid, r.plies)).collect();
            assert_eq!(alone, whole, "round {round}");
            if max_game == 1 << 20 {
                // Counted as the replay counts them (a game too large is
                // one game for the pipeline, not for `replay`).
                let counted: u64 = parts.iter().map(|p| p.1).sum();
                assert_eq!(counted, whole.len() as u64, "round {round}");
            }
            // Every shard but the last is full, and holds more only where
            // the shard after it could not begin, or it could not end there
            // (either would not read as PGN alone). An input that does not
            // read as PGN is not split; of one that does, every shard does.
            for (bytes, games) in parts.iter().rev().skip(1) {
                assert!(*games >= per_shard, "round {round}: {games} in {bytes:?}");
            }
            if sniff::looks_like_pgn(&soup) {
                for (bytes, _) in &parts {
                    assert!(sniff::looks_like_pgn(bytes), "round {round}: {bytes:?}");
                }
            }
        }
    }

    #[test]
    fn a_read_error_hands_on_what_was_read_then_says_so() {
        struct Failing<'a>(&'a [u8]);
        impl Read for Failing<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("cut short"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text: String = (0..3).map(game).collect();
        let mut got = Vec::new();
        let (split, result) = split(&mut Failing(text.as_bytes()), 2, &mut |piece| {
            got.extend_from_slice(piece.bytes);
            Ok(())
        });
        assert_eq!(result.unwrap_err().to_string(), "cut short");
        assert_eq!(got, text.as_bytes());
        assert_eq!((split.games, split.shards), (3, 2));
    }
}
