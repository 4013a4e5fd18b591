//! The boundary and tag logic of pgn-reader 0.29, run on bytes in place:
//! where a game begins after what separates games, and its tag pairs.
//!
//! pgn-reader reads any `Read` through a 16 KiB buffer that it refills by
//! copying. Over bytes already in memory (a mapped file, a chunk) those
//! copies and the `Read` and `Seek` calls around them are pure overhead
//! (the copies were 3% of the CPU time in perf). [`GameSplitter`] runs
//! pgn-reader's `has_more` (once a movetext is skipped) and `read_game`
//! with a visitor that stops at the movetext, on the slice itself. Where a
//! movetext ends is not its business: the replay's lexer finds it, and
//! `replay::cursor` puts the steps together. The one place where
//! pgn-reader's buffer shows (a tag line is searched for its end only
//! within the bytes buffered at the time, so a longer line is unreadable)
//! is reproduced by tracking where the buffer would end, for a `Reader`
//! started at the splitter's first byte. `replay::cursor`'s differential
//! test checks every step against such a `Reader`, on the fixtures, on
//! random byte soups and on long lines.

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

/// Finds where a game begins and reads its tags, as pgn-reader's `Reader`
/// over a `Cursor` of the same bytes would. It does not skip movetext: a
/// splitter starts at a game, or where a movetext ended.
#[derive(Debug)]
pub struct GameSplitter<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Where pgn-reader's buffer would end: bytes it has "read" so far.
    buffered: usize,
}

impl<'a> GameSplitter<'a> {
    /// A splitter at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        GameSplitter { bytes, pos: 0, buffered: 0 }
    }

    /// The current offset in the bytes.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Skips what separates games (a byte order mark, whitespace, `%`
    /// lines); returns whether a game begins (pgn-reader's `has_more` once
    /// the movetext before is skipped). The game begins at `position()`.
    pub fn skip_to_game(&mut self) -> bool {
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
}
