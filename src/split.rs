//! Splitting PGN bytes into games: where each game, its tag section and its
//! movetext begin, and the tag pairs, found exactly where pgn-reader's
//! `Reader` finds them.
//!
//! pgn-reader reads any `Read` through a 16 KiB buffer that it refills by
//! copying. Over bytes already in memory (a mapped file, a chunk) those
//! copies and the `Read` and `Seek` calls around them are pure overhead
//! (on 3 MB of master games the chunker and the replay did 504.2 M
//! instructions through pgn-reader, 494.8 M this way; the copies were 3%
//! of the CPU time in perf). [`GameSplitter`] runs pgn-reader 0.29's
//! boundary and tag logic (`has_more`, and `read_game` with a visitor that
//! stops at the movetext) on the slice itself. The one place where
//! pgn-reader's buffer shows (a tag line is searched for its end only
//! within the bytes buffered at the time, so a longer line is unreadable)
//! is reproduced by tracking where the buffer would end. A differential
//! test runs both on the fixtures, on random byte soups and on long lines,
//! and compares every position and tag.

use memchr::{memchr, memchr3};

/// pgn-reader's buffer size with its default settings.
const BUFFER_CAPACITY: usize = 1 << 14;

/// Bytes pgn-reader makes sure are buffered before it reads a tag line.
const TAG_LINE_BYTES: usize = 255;

/// A UTF-8 byte order mark, skipped before each game.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Whether `bytes` begin like a tag pair: `[`, a name of ASCII letters,
/// digits and `_`, one or more spaces, `"`. After a blank line, this is
/// where the lexer ends a comment that was never closed, and where the
/// chunker may cut.
pub fn opens_tag_pair(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(b"[") else { return false };
    let name_len = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    let spaces = rest[name_len..].iter().take_while(|&&b| b == b' ').count();
    name_len > 0 && spaces > 0 && rest.get(name_len + spaces) == Some(&b'"')
}

/// A tag line pgn-reader cannot read: no closing quote before the line (or
/// its buffer) ends. It skips the line; the same game's tags go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnreadableTag;

/// Walks a byte slice game by game, as pgn-reader's `Reader` over a
/// `Cursor` of the same bytes would.
#[derive(Debug, Clone)]
pub struct GameSplitter<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Where pgn-reader's buffer would end: bytes it has "read" so far.
    buffered: usize,
    /// The movetext of the game whose tags were read is still to skip.
    pending_movetext: bool,
}

impl<'a> GameSplitter<'a> {
    /// A splitter at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        GameSplitter { bytes, pos: 0, buffered: 0, pending_movetext: false }
    }

    /// The current offset in the bytes.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Skips the rest of the current game and what separates it from the
    /// next one; returns whether a next game begins (pgn-reader's
    /// `has_more`). The game begins at `position()`.
    pub fn has_more(&mut self) -> bool {
        self.before_game();
        !self.fill(1).is_empty()
    }

    /// Reads the tag section of the game at hand, calling `tag` with each
    /// name and raw value, and stops where the movetext begins (pgn-reader's
    /// `read_game` with a visitor that stops at the movetext). Returns
    /// whether there was a game; after an unreadable tag line, calling it
    /// again goes on with the same game's tags.
    pub fn read_tags(
        &mut self,
        mut tag: impl FnMut(&'a [u8], &'a [u8]),
    ) -> Result<bool, UnreadableTag> {
        self.before_game();
        if self.fill(1).is_empty() {
            return Ok(false);
        }
        self.tag_section(&mut tag)?;
        self.pending_movetext = true;
        Ok(true)
    }

    /// The buffered bytes not consumed yet.
    fn buffer(&self) -> &'a [u8] {
        &self.bytes[self.pos..self.buffered]
    }

    /// Makes sure `n` bytes are buffered (fewer only at the end), and
    /// returns the buffer: a refill tops it up to its capacity.
    fn fill(&mut self, n: usize) -> &'a [u8] {
        if self.buffered - self.pos < n {
            self.buffered = (self.pos + BUFFER_CAPACITY).min(self.bytes.len());
        }
        self.buffer()
    }

    /// Drops the whole buffer, as pgn-reader does when a search in it fails.
    fn discard_buffer(&mut self) {
        self.pos = self.buffered;
    }

    fn before_game(&mut self) {
        if std::mem::take(&mut self.pending_movetext) {
            self.skip_movetext();
        }
        if self.fill(3).starts_with(BOM) {
            self.pos += BOM.len();
        }
        self.skip_whitespace(true);
    }

    fn skip_until(&mut self, needle: u8) {
        while !self.fill(1).is_empty() {
            if let Some(found) = memchr(needle, self.buffer()) {
                self.pos += found;
                return;
            }
            self.discard_buffer();
        }
    }

    fn skip_until_after(&mut self, needle: u8) {
        self.skip_until(needle);
        if self.pos < self.buffered {
            self.pos += 1;
        }
    }

    fn skip_whitespace(&mut self, mut at_line_start: bool) {
        while let Some(&byte) = self.fill(1).first() {
            match byte {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    at_line_start = true;
                    self.pos += 1;
                }
                // PGN standard 6: a `%` in the first column escapes its line.
                b'%' if at_line_start => {
                    self.pos += 1;
                    self.skip_until_after(b'\n');
                }
                _ => return,
            }
        }
    }

    /// After a tag pair: up to and over its `]`, then whitespace.
    fn skip_ket(&mut self) {
        while let Some(&byte) = self.fill(1).first() {
            match byte {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.pos += 1;
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }

    fn tag_section(
        &mut self,
        tag: &mut impl FnMut(&'a [u8], &'a [u8]),
    ) -> Result<(), UnreadableTag> {
        while let [b'[', ..] = self.fill(TAG_LINE_BYTES) {
            self.pos += 1;
            let line = self.buffer();
            let left_quote = match memchr3(b'"', b'\n', b']', line) {
                Some(quote) if line[quote] == b'"' => quote,
                // `[Name]` or `[Name` without a value: skipped.
                Some(end) => {
                    self.pos += end + 1;
                    self.skip_ket();
                    continue;
                }
                None => return Err(self.unreadable_tag()),
            };
            let name_end = match left_quote.checked_sub(1) {
                Some(space) if line[space] == b' ' => space,
                _ => left_quote,
            };
            let value_start = left_quote + 1;
            let mut right_quote = value_start;
            let consumed = loop {
                match memchr3(b'\\', b'"', b'\n', &line[right_quote..]) {
                    Some(delta) if line[right_quote + delta] == b'"' => {
                        right_quote += delta;
                        break right_quote + 1;
                    }
                    Some(delta) if line[right_quote + delta] == b'\n' => {
                        right_quote += delta;
                        break right_quote;
                    }
                    // A backslash escapes the next byte.
                    Some(delta) => right_quote = (right_quote + delta + 2).min(line.len()),
                    None => return Err(self.unreadable_tag()),
                }
            };
            tag(&line[..name_end], &line[value_start..right_quote]);
            self.pos += consumed;
            self.skip_ket();
        }
        Ok(())
    }

    /// A tag line without its end in the buffer: pgn-reader drops the
    /// buffer and the rest of the line after it.
    fn unreadable_tag(&mut self) -> UnreadableTag {
        self.discard_buffer();
        self.skip_until_after(b'\n');
        UnreadableTag
    }

    /// Up to the end of the movetext: a blank line or a line starting with
    /// `[`, outside comments.
    fn skip_movetext(&mut self) {
        while let [byte, ..] = *self.fill(3) {
            self.pos += 1;
            match byte {
                b'{' => self.skip_until_after(b'}'),
                b';' => self.skip_until(b'\n'),
                b'\n' => match self.buffer().first() {
                    Some(b'%') => {
                        self.pos += 1;
                        self.skip_until(b'\n');
                    }
                    Some(b'\n' | b'[') => break,
                    Some(b'\r') => {
                        self.pos += 1;
                        if self.buffer().first() == Some(&b'\n') {
                            break;
                        }
                    }
                    _ => {}
                },
                _ => match memchr3(b'\n', b'{', b';', self.buffer()) {
                    Some(found) => self.pos += found,
                    None => self.discard_buffer(),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        io::{Cursor, Seek},
        ops::ControlFlow,
        path::Path,
    };

    use pgn_reader::{RawTag, Reader, Visitor};

    use super::*;
    use crate::testing::{PGN_PIECES, Rng};

    /// What a walk over the games saw, in order.
    #[derive(Debug, PartialEq, Eq)]
    enum Event {
        Start(usize),
        Tag(Vec<u8>, Vec<u8>),
        Unreadable,
        Movetext(usize, bool),
        End(usize, bool),
    }

    /// The calls the chunker and the replay make, on either implementation.
    trait Walker {
        fn has_more(&mut self) -> bool;
        fn position(&mut self) -> usize;
        /// `Err` for an unreadable tag line.
        fn read_game(&mut self, events: &mut Vec<Event>) -> Result<bool, ()>;
    }

    impl Walker for GameSplitter<'_> {
        fn has_more(&mut self) -> bool {
            GameSplitter::has_more(self)
        }

        fn position(&mut self) -> usize {
            GameSplitter::position(self)
        }

        fn read_game(&mut self, events: &mut Vec<Event>) -> Result<bool, ()> {
            self.read_tags(|name, value| events.push(Event::Tag(name.to_vec(), value.to_vec())))
                .map_err(|UnreadableTag| ())
        }
    }

    /// pgn-reader itself, the reference.
    struct PgnReader<'a>(Reader<Cursor<&'a [u8]>>);

    impl Walker for PgnReader<'_> {
        fn has_more(&mut self) -> bool {
            self.0.has_more().unwrap()
        }

        fn position(&mut self) -> usize {
            self.0.stream_position().unwrap() as usize
        }

        fn read_game(&mut self, events: &mut Vec<Event>) -> Result<bool, ()> {
            self.0.read_game(&mut Recorder(events)).map(|game| game.is_some()).map_err(drop)
        }
    }

    struct Recorder<'e>(&'e mut Vec<Event>);

    impl Visitor for Recorder<'_> {
        type Tags = ();
        type Movetext = ();
        type Output = ();

        fn begin_tags(&mut self) -> ControlFlow<(), ()> {
            ControlFlow::Continue(())
        }

        fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
            self.0.push(Event::Tag(name.to_vec(), value.0.to_vec()));
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
            ControlFlow::Break(())
        }

        fn end_game(&mut self, _: ()) {}
    }

    /// Walks all games as the replay does (`find_end`: `has_more` once
    /// more to find where a game ends) or as the chunker does.
    fn walk(walker: &mut impl Walker, find_end: bool) -> Vec<Event> {
        let mut events = Vec::new();
        while walker.has_more() {
            events.push(Event::Start(walker.position()));
            let found = loop {
                match walker.read_game(&mut events) {
                    Ok(found) => break found,
                    Err(()) => events.push(Event::Unreadable),
                }
            };
            events.push(Event::Movetext(walker.position(), found));
            if find_end {
                let more = walker.has_more();
                events.push(Event::End(walker.position(), more));
            }
        }
        events
    }

    /// Asserts that both implementations walk `bytes` alike; returns how
    /// many events there were.
    fn assert_same_walk(bytes: &[u8], what: &str) -> usize {
        let mut count = 0;
        for find_end in [true, false] {
            let ours = walk(&mut GameSplitter::new(bytes), find_end);
            let theirs = walk(&mut PgnReader(Reader::new(Cursor::new(bytes))), find_end);
            if ours != theirs {
                let first = ours.iter().zip(&theirs).position(|(a, b)| a != b);
                panic!(
                    "{what} (find_end {find_end}): first difference at event {first:?}: ours {:?}, pgn-reader {:?}",
                    first.map(|i| &ours[i]),
                    first.map(|i| &theirs[i]),
                );
            }
            count += ours.len();
        }
        count
    }

    #[test]
    fn walks_every_fixture_as_pgn_reader_does() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // The fixtures and, when the shared corpus is there, its odd
        // real-world files; uncompressed ones only.
        let dirs = [root.join("fixtures"), root.join("../shared/corpus/edge")]
            .iter()
            .filter(|dir| dir.is_dir())
            .map(|dir| dir.to_string_lossy().into_owned())
            .collect::<Vec<_>>();
        let mut files = crate::input::expand(&dirs, true);
        files.retain(|file| file.ends_with(".pgn"));
        assert!(files.len() > 20, "fixtures not found");
        for file in &files {
            let bytes = std::fs::read(file).unwrap();
            assert_same_walk(&bytes, file);
        }
    }

    /// Random soups of `PGN_PIECES`, some with long runs that cross the 16 KiB
    /// buffer (long tag lines, long comments, long movetexts).
    #[test]
    fn walks_random_soups_as_pgn_reader_does() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut events = 0;
        for case in 0..3000 {
            let mut bytes = Vec::new();
            for _ in 0..rng.below(120) {
                match rng.below(60) {
                    0 => bytes.extend(std::iter::repeat_n(b'x', 200 + rng.below(20_000))),
                    1 => bytes.extend(std::iter::repeat_n(b' ', rng.below(600))),
                    _ => bytes.extend_from_slice(PGN_PIECES[rng.below(PGN_PIECES.len())]),
                }
            }
            events += assert_same_walk(&bytes, &format!("soup {case}"));
        }
        assert!(events > 50_000, "the soups hardly had games: {events} events");
    }

    #[test]
    fn long_tag_lines_fail_where_pgn_reader_fails() {
        for len in [200, 254, 255, 256, 8_000, 16_370, 16_384, 16_400, 40_000] {
            let value = "v".repeat(len);
            for prefix in ["", "[Event \"e\"]\n", &format!("{{{}}}\n\n", "c".repeat(16_000))] {
                let pgn = format!(
                    "{prefix}[Site \"{value}\"]\n[White \"w\"]\n\n1. e4 *\n\n[Event \"2\"]\n*\n"
                );
                assert_same_walk(pgn.as_bytes(), &format!("value of {len} bytes"));
            }
        }
    }
}
