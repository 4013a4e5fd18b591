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
//!
//! Between the tag pairs of one game, `%` escape lines and `;` comments
//! are ignored (pgn-reader ends the tag section at a `;`, and the game at
//! the next tag line). A blank line followed by a tag pair that gives a
//! tag of the section again (a second `Event`) ends the game there: the
//! game has no movetext, and that tag pair starts the next one (pgn-reader
//! reads both sections as one, the first value of each tag winning). Any
//! other blank line (ChessBase writes one after `Event`) does not.

use hashbrown::HashSet;
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

/// Where the last quote of a tag line is in `after`, what follows a quote
/// that closed a value too soon: when the line ends with `"]` (and
/// whitespace) and holds no bracket before it (`"]` right after the
/// quote, or another tag pair on the line, is no quote inside a value).
pub(crate) fn quoted_to_line_end(after: &[u8]) -> Option<usize> {
    let line = &after[..memchr(b'\n', after).unwrap_or(after.len())];
    let last = line.trim_ascii_end().strip_suffix(b"\"]")?.len();
    let inside = &line[..last];
    let plain = !inside.trim_ascii().is_empty() && !inside.iter().any(|&b| b == b'[' || b == b']');
    plain.then_some(last)
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
    /// Whether the last tag section read ended at the next game's tags.
    tags_only: bool,
}

/// How far [`GameSplitter::tag_section`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    /// To the end of the game's tags: tag pairs after a blank line that
    /// give a tag of the section again begin the next game.
    Split,
    /// Through blank lines (to list the names of a section read with
    /// `Split`).
    List,
    /// To the next blank line: one group of tag pairs.
    Group,
}

/// What follows the bytes between two tag pairs.
enum AfterGap {
    /// Another tag pair of the same section.
    Tag,
    /// The tags of the next game: this one has no movetext.
    NextGame,
    /// The movetext.
    Movetext,
}

impl<'a> GameSplitter<'a> {
    /// A splitter at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        GameSplitter { bytes, pos: 0, tags_only: false }
    }

    /// The current offset in the bytes.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether the tag section just read ended at a blank line followed by
    /// a tag pair that gives one of its tags again: the game has no
    /// movetext, and `position()` is where the next game begins.
    pub fn tags_only(&self) -> bool {
        self.tags_only
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
    /// `read_game` with a visitor that stops at the movetext), or where the
    /// next game begins (see [`Self::tags_only`]). Returns whether there was
    /// a game, or `UnreadableTag` for a tag line cut short by the end of the
    /// input (nothing follows it).
    pub fn read_tags(
        &mut self,
        mut tag: impl FnMut(&'a [u8], &'a [u8]),
    ) -> Result<bool, UnreadableTag> {
        self.before_game();
        if self.rest().is_empty() {
            return Ok(false);
        }
        self.tags_only = false;
        self.tag_section(&mut tag, Section::Split)?;
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

    /// After a tag pair's value: up to and over its `]`; then what
    /// separates it from the next tag pair (see [`Self::gap`]).
    fn skip_ket(&mut self) -> AfterGap {
        while let Some(&byte) = self.rest().first() {
            match byte {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return self.gap(false);
                }
                b'\n' => {
                    self.pos += 1;
                    return self.gap(true);
                }
                // Whatever else follows a value begins the movetext, as
                // for pgn-reader.
                _ => return AfterGap::Movetext,
            }
        }
        AfterGap::Movetext
    }

    /// Skips what separates two tag pairs: whitespace, `%` lines (PGN
    /// standard 6) and `;` comments, and says what follows. At a blank line
    /// followed by a tag pair, `repeats` says whether that pair starts the
    /// next game. At the movetext, the position goes back to the first `;`
    /// comment after the last blank line: a comment before the first move
    /// is the movetext's (one before a blank line could not be: a blank
    /// line ends a movetext).
    fn gap(&mut self, mut at_line_start: bool) -> AfterGap {
        let (mut blank, mut comment) = (false, None);
        while let Some(&byte) = self.rest().first() {
            match byte {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    if at_line_start {
                        (blank, comment) = (true, None);
                    }
                    at_line_start = true;
                    self.pos += 1;
                }
                b'%' if at_line_start => {
                    self.pos += 1;
                    self.skip_until_after(b'\n');
                }
                b';' => {
                    comment.get_or_insert(self.pos);
                    self.pos += memchr(b'\n', self.rest()).unwrap_or(self.rest().len());
                    at_line_start = false;
                }
                b'[' if blank && opens_tag_pair(self.rest()) => return AfterGap::NextGame,
                b'[' => return AfterGap::Tag,
                _ => break,
            }
        }
        self.pos = comment.unwrap_or(self.pos);
        AfterGap::Movetext
    }

    /// Reads tag pairs from the `[` at the position on, as far as `how`
    /// says.
    fn tag_section(
        &mut self,
        tag: &mut impl FnMut(&'a [u8], &'a [u8]),
        how: Section,
    ) -> Result<(), UnreadableTag> {
        let section = self.pos;
        // The names given before the last blank line followed by a tag
        // pair, and where they were listed to: built only at such a line,
        // as rare as they are, and added to at the next, so that a section
        // of many of them is still read in linear time.
        let mut names: Option<(HashSet<&'a [u8]>, usize)> = None;
        while let [b'[', ..] = self.rest() {
            self.pos += 1;
            let line = self.rest();
            let left_quote = match memchr3(b'"', b'\n', b']', line) {
                Some(quote) if line[quote] == b'"' => quote,
                // `[Name]` or `[Name` without a value: skipped. After a
                // line break, the line is over already.
                Some(end) => {
                    self.pos += end + 1;
                    let after = match line[end] {
                        b'\n' => self.gap(true),
                        _ => self.skip_ket(),
                    };
                    if !self.goes_on(after, how, section, &mut names) {
                        return Ok(());
                    }
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
            // A quote inside a value, unescaped (`[Black "B"x"]`): when the
            // line goes on past it and ends `"]`, the value runs to that
            // last quote, as python-chess reads it; else the line is read
            // as pgn-reader reads it (the movetext begins after the quote).
            // (Looked at only past a quote not followed by `]`: rare.)
            let requoted = (consumed > right_quote && line.get(consumed) != Some(&b']'))
                .then(|| quoted_to_line_end(&line[consumed..]))
                .flatten()
                .filter(|_| memchr(b'\n', &line[..right_quote]).is_none());
            let (right_quote, consumed) = match requoted {
                Some(last) => (consumed + last, consumed + last + 1),
                None => (right_quote, consumed),
            };
            tag(&line[..name_end], &line[value_start..right_quote]);
            self.pos += consumed;
            let after = self.skip_ket();
            if !self.goes_on(after, how, section, &mut names) {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Whether the tag section that began at `section` goes on after a
    /// gap: at another tag pair; after a blank line, through it (`List`),
    /// not (`Group`), or unless the group of tag pairs that follows gives a
    /// tag of the section again (`Split`).
    #[inline(always)]
    fn goes_on(
        &mut self,
        after: AfterGap,
        how: Section,
        section: usize,
        names: &mut Option<(HashSet<&'a [u8]>, usize)>,
    ) -> bool {
        match after {
            AfterGap::Tag => true,
            AfterGap::Movetext => false,
            AfterGap::NextGame => match how {
                Section::Split => !self.repeats_a_tag(section, names),
                Section::List => true,
                Section::Group => false,
            },
        }
    }

    /// Whether the group of tag pairs at the position (up to the next
    /// blank line) gives a tag of the section that began at `section`
    /// again: anywhere in the group, so that a game written after a game
    /// without moves begins where its group does, whatever order its tags
    /// come in. `names` lists the section's names up to where it says, and
    /// is brought up to the position.
    #[cold]
    #[inline(never)]
    fn repeats_a_tag(
        &mut self,
        section: usize,
        names: &mut Option<(HashSet<&'a [u8]>, usize)>,
    ) -> bool {
        let (names, listed_to) = names.get_or_insert_with(|| (HashSet::new(), section));
        let mut before = GameSplitter::new(&self.bytes[..self.pos]);
        before.pos = *listed_to;
        // The same tags again, read as this section read them.
        let listed = before.tag_section(
            &mut |name, _| {
                names.insert(name.trim_ascii_end());
            },
            Section::List,
        );
        debug_assert!(listed.is_ok(), "a tag section read once reads again");
        *listed_to = self.pos;
        // The group is read here once more, and then by the section or the
        // next game: a bounded number of times.
        let mut group = GameSplitter::new(self.bytes);
        group.pos = self.pos;
        let mut repeated = false;
        let _ = group.tag_section(
            &mut |name, _| repeated |= names.contains(name.trim_ascii_end()),
            Section::Group,
        );
        self.tags_only = repeated;
        self.tags_only
    }

    /// A tag line cut short by the end of the input: skipped.
    fn unreadable_tag(&mut self) -> UnreadableTag {
        self.pos = self.bytes.len();
        UnreadableTag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag names of each game's section, and whether it ended at the
    /// next game's tags.
    fn sections(bytes: &[u8]) -> Vec<(Vec<String>, bool)> {
        let mut splitter = GameSplitter::new(bytes);
        let mut out = Vec::new();
        loop {
            let mut names = Vec::new();
            let read =
                splitter.read_tags(|name, _| names.push(String::from_utf8_lossy(name).into()));
            if read != Ok(true) {
                return out;
            }
            out.push((names, splitter.tags_only()));
            if !splitter.tags_only() {
                // Past the movetext, one line here.
                splitter.skip_until_after(b'\n');
            }
        }
    }

    #[test]
    fn a_blank_line_then_a_tag_given_again_ends_the_game() {
        let pgn = b"[Event \"a\"]\n[White \"?\"]\n \n\n[Event \"b\"]\n[White \"W\"]\n\n1. e4 *\n";
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            sections(pgn),
            [(names(&["Event", "White"]), true), (names(&["Event", "White"]), false)]
        );
        // A blank line (or two) before a tag not given yet: one section.
        for gap in ["\n", "\n\n", "\n% escaped\n;comment\n"] {
            let pgn = format!("[Event \"a\"]\n{gap}[Site \"s\"]\n\n1. e4 *\n");
            assert_eq!(sections(pgn.as_bytes()), [(names(&["Event", "Site"]), false)], "{gap:?}");
        }
    }

    /// The tag given again may come anywhere in the group after the blank
    /// line: the next game begins with the group.
    #[test]
    fn a_group_that_gives_a_tag_again_later_begins_the_next_game() {
        let pgn = b"[ECO \"A07\"]\n[Opening \"x\"]\n\n[Event \"?\"]\n[ECO \"A08\"]\n\n1. e4 *\n";
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            sections(pgn),
            [(names(&["ECO", "Opening"]), true), (names(&["Event", "ECO"]), false)]
        );
    }

    #[test]
    fn comments_and_escape_lines_between_tags_are_skipped() {
        let pgn = b"[Event \"a\"] ; c\n; d\n  % e\n[Site \"s\"]\n[Round]\n% f\n[White \"w\"]\n\n1. e4 *\n";
        let mut splitter = GameSplitter::new(pgn);
        let mut names = Vec::new();
        assert_eq!(splitter.read_tags(|name, _| names.push(name)), Ok(true));
        assert_eq!(names, [&b"Event"[..], b"Site", b"White"]);
        assert!(splitter.rest().starts_with(b"1. e4"));
        // A comment before the moves is the movetext's, unless a blank
        // line separates them.
        for (gap, movetext) in [("\n; c\n", "; c"), ("\n; c\n\n; d\n", "; d"), ("\n; c\n\n", "1.")]
        {
            let pgn = format!("[Event \"a\"]{gap}1. e4 *\n");
            let mut splitter = GameSplitter::new(pgn.as_bytes());
            splitter.read_tags(|_, _| {}).unwrap();
            assert!(splitter.rest().starts_with(movetext.as_bytes()), "{gap:?}");
        }
    }

    /// Blank lines between many tags, each new: the names are listed once,
    /// not again at each blank line.
    #[test]
    fn many_blank_lines_between_new_tags_are_read_in_linear_time() {
        let tags = 100_000;
        let pgn: String = (0..tags).map(|n| format!("[T{n} \"v\"]\n\n")).collect();
        let start = std::time::Instant::now();
        let read = sections(pgn.as_bytes());
        assert_eq!((read.len(), read[0].0.len()), (1, tags));
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    }
}
