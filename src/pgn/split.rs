//! Where a game begins after what separates games, and its tag pairs: the
//! boundary and tag logic of pgn-reader 0.29, run on bytes in place (a
//! mapped file, a chunk), with no buffer to refill by copying.
//!
//! The rule for a tag line, in one sentence: a tag pair `[Name "value"]`
//! ends at the closing quote of its value (a backslash escapes the next
//! byte) or at the end of its line, however long the line is. (pgn-reader
//! searches for that end only within its 16 KiB buffer, so a long line is
//! readable or not depending on where its buffer happens to start; arbiter
//! reads it.) Where a movetext ends is not this module's business: the
//! lexer finds it, and `pgn::cursor` puts the steps together; its
//! differential test checks the game boundaries against pgn-reader.

use memchr::{memchr, memchr3};

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

/// A tag line cut short by the end of the input: no closing quote and no
/// end of line. It is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnreadableTag;

/// Finds where a game begins and reads its tags, where pgn-reader's
/// `Reader` over a `Cursor` of the same bytes would. It does not skip
/// movetext: a splitter starts at a game, or where a movetext ended.
#[derive(Debug)]
pub struct GameSplitter<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> GameSplitter<'a> {
    /// A splitter at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        GameSplitter { bytes, pos: 0 }
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
        !self.rest().is_empty()
    }

    /// Reads the tag section of the game at hand, calling `tag` with each
    /// name and raw value, and stops where the movetext begins (pgn-reader's
    /// `read_game` with a visitor that stops at the movetext). Returns
    /// whether there was a game, or `UnreadableTag` for a tag line cut short
    /// by the end of the input (nothing follows it).
    pub fn read_tags(
        &mut self,
        mut tag: impl FnMut(&'a [u8], &'a [u8]),
    ) -> Result<bool, UnreadableTag> {
        self.before_game();
        if self.rest().is_empty() {
            return Ok(false);
        }
        self.tag_section(&mut tag)?;
        Ok(true)
    }

    /// The bytes not consumed yet.
    fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    fn before_game(&mut self) {
        if self.rest().starts_with(BOM) {
            self.pos += BOM.len();
        }
        self.skip_whitespace(true);
    }

    /// Moves past the next `needle`, or to the end.
    fn skip_until_after(&mut self, needle: u8) {
        self.pos = match memchr(needle, self.rest()) {
            Some(found) => self.pos + found + 1,
            None => self.bytes.len(),
        };
    }

    fn skip_whitespace(&mut self, mut at_line_start: bool) {
        while let Some(&byte) = self.rest().first() {
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
        while let Some(&byte) = self.rest().first() {
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
        while let [b'[', ..] = self.rest() {
            self.pos += 1;
            let line = self.rest();
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

    /// A tag line cut short by the end of the input: skipped.
    fn unreadable_tag(&mut self) -> UnreadableTag {
        self.pos = self.bytes.len();
        UnreadableTag
    }
}
