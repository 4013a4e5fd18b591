//! Where each game of a chunk lies: the bytes before it, its tag section,
//! its movetext, and the line each begins on.
//!
//! The [`GameSplitter`] skips what separates games and reads a tag section,
//! as pgn-reader does; where the movetext ends is found by the replay's
//! [`Lexer`] as it reads the movetext anyway, so the bytes are read once.
//! Each step starts from its own first byte: what a game is never depends
//! on the games before it, nor on where its chunk began.

use memchr::memchr_iter;

use super::lexer::Lexer;
use crate::pgn::split::{GameSplitter, UnreadableTag};

/// Where one game lies in its chunk (offsets in the chunk's bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSpan {
    /// Where the bytes before the game start: the end of the game before
    /// (whitespace before a file's first game belongs to it).
    pub lead: usize,
    /// The game's first byte.
    pub start: usize,
    /// Where its movetext begins, after the tag section; for a game
    /// without movetext (`tags_only`), where the next game begins.
    pub movetext: usize,
    /// The line of `start`.
    pub line: u64,
    /// The line of `movetext`.
    pub movetext_line: u64,
    /// Tag lines that could not be read (see [`UnreadableTag`]).
    pub unreadable_tags: usize,
    /// Whether the tag section ended at the next game's tags, so that the
    /// game has no movetext (see [`GameSplitter::tags_only`]).
    pub tags_only: bool,
}

/// Walks the bytes of a chunk game by game.
#[derive(Debug)]
pub struct GameCursor<'a> {
    bytes: &'a [u8],
    /// Where the next game's lead begins.
    lead: usize,
    /// An offset whose line is known, and that line.
    counted_to: usize,
    line: u64,
}

impl<'a> GameCursor<'a> {
    /// A cursor at the first of `bytes`, which is on line `first_line`.
    pub fn new(bytes: &'a [u8], first_line: u64) -> Self {
        GameCursor { bytes, lead: 0, counted_to: 0, line: first_line }
    }

    /// The next game, if any: skips what separates it from the game
    /// before, and reads its tag section, calling `tag` with each name and
    /// raw value (a tag line cut short by the end of the input is skipped
    /// and counted). Its movetext is then to be read by [`Self::lexer`] and
    /// the game ended by [`Self::finish_game`] (until then, this returns the
    /// same game again).
    pub fn next_game(&mut self, mut tag: impl FnMut(&'a [u8], &'a [u8])) -> Option<GameSpan> {
        let mut gap = GameSplitter::new(&self.bytes[self.lead..]);
        if !gap.skip_to_game() {
            return None;
        }
        let start = self.lead + gap.position();
        let line = self.line_of(start);
        let mut tags = GameSplitter::new(&self.bytes[start..]);
        let mut unreadable_tags = 0;
        while let Err(UnreadableTag) = tags.read_tags(&mut tag) {
            unreadable_tags += 1;
        }
        let movetext = start + tags.position();
        let movetext_line = line + count_lines(&self.bytes[start..movetext]);
        let tags_only = tags.tags_only();
        Some(GameSpan {
            lead: self.lead,
            start,
            movetext,
            line,
            movetext_line,
            unreadable_tags,
            tags_only,
        })
    }

    /// A lexer over the movetext of `span` (it finds where the movetext
    /// ends, so it is given the rest of the chunk; nothing for a game
    /// without movetext).
    pub fn lexer(&self, span: &GameSpan) -> Lexer<'a> {
        let end = if span.tags_only { span.movetext } else { self.bytes.len() };
        Lexer::new(&self.bytes[span.movetext..end], span.movetext_line)
    }

    /// Ends the game of `span`, reading what `lexer` (from [`Self::lexer`])
    /// has left of its movetext, and returns where the game ends, which is
    /// where the bytes before the next game begin: past what separates
    /// them (it belongs to this game, as pgn-reader's `has_more` skips it),
    /// or at the start of a game that an unclosed comment ran into.
    pub fn finish_game(&mut self, span: &GameSpan, mut lexer: Lexer) -> usize {
        lexer.skip_rest();
        self.lead = match lexer.resume_at() {
            Some(resume) => span.movetext + resume,
            None => {
                // The lexer counted the movetext's line breaks already.
                let movetext_end = span.movetext + lexer.end();
                (self.counted_to, self.line) = (movetext_end, lexer.line());
                let mut gap = GameSplitter::new(&self.bytes[movetext_end..]);
                gap.skip_to_game();
                movetext_end + gap.position()
            }
        };
        self.lead
    }

    /// The line of the end of the bytes.
    pub fn line_at_end(&mut self) -> u64 {
        self.line_of(self.bytes.len())
    }

    /// The line of `offset`, which is at or after the last one counted.
    fn line_of(&mut self, offset: usize) -> u64 {
        self.line += count_lines(&self.bytes[self.counted_to..offset]);
        self.counted_to = offset;
        self.line
    }
}

fn count_lines(bytes: &[u8]) -> u64 {
    memchr_iter(b'\n', bytes).count() as u64
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
    use crate::{pgn::split::opens_tag_pair, testing::Rng};

    type Tags = Vec<(Vec<u8>, Vec<u8>)>;

    /// Collects the tags pgn-reader reads and stops at the movetext.
    struct Recorder<'t>(&'t mut Tags);

    impl Visitor for Recorder<'_> {
        type Tags = ();
        type Movetext = ();
        type Output = ();

        fn begin_tags(&mut self) -> ControlFlow<(), ()> {
            ControlFlow::Continue(())
        }

        fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
            self.0.push((name.to_vec(), value.0.to_vec()));
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
            ControlFlow::Break(())
        }

        fn end_game(&mut self, _: ()) {}
    }

    fn reader_at(bytes: &[u8], offset: usize) -> Reader<Cursor<&[u8]>> {
        Reader::new(Cursor::new(&bytes[offset..]))
    }

    fn position(reader: &mut Reader<Cursor<&[u8]>>) -> usize {
        reader.stream_position().unwrap() as usize
    }

    /// Walks `bytes` with the cursor, as the replay does, and checks the
    /// game boundaries against pgn-reader started where the cursor starts
    /// it: where each game begins, and where its movetext and the next game
    /// begin, with its tags, unless a tag line is as long as the 255 bytes
    /// pgn-reader makes sure to have buffered (a longer one it may fail to
    /// read, and skip to the end of its line, where arbiter reads it: see
    /// `split.rs`). The other differences are deliberate too: a `{` comment
    /// never closed ends at a blank line followed by a tag pair, where
    /// pgn-reader reads on to a `}`; and a tag section goes on past `;`
    /// comments, where pgn-reader ends it, and ends at a blank line
    /// followed by a tag pair that gives one of its tags again, where
    /// pgn-reader reads on (see `split.rs`): then one tag list is the start
    /// of the other. Also checks each game's lines against a count from the
    /// start. Returns how many games there were, how many had long tag
    /// lines read differently, and how many a tag section read differently
    /// on purpose.
    fn assert_walks_as_pgn_reader(bytes: &[u8], what: &str) -> (usize, usize, usize) {
        let mut cursor = GameCursor::new(bytes, 1);
        let (mut lead, mut games, mut differing, mut deliberate) = (0, 0, 0, 0);
        loop {
            let mut gap = reader_at(bytes, lead);
            let more = gap.has_more().unwrap();
            let mut ours = Tags::new();
            let Some(span) = cursor.next_game(|n, v| ours.push((n.to_vec(), v.to_vec()))) else {
                assert!(!more, "{what}: pgn-reader sees a game at {}", lead + position(&mut gap));
                return (games, differing, deliberate);
            };
            games += 1;
            let here = format!("{what}, game at {}", span.start);
            assert!(more, "{here}: pgn-reader sees no game");
            assert_eq!((span.lead, span.start), (lead, lead + position(&mut gap)), "{here}");
            let mut game = reader_at(bytes, span.start);
            let (mut theirs, mut unreadable) = (Tags::new(), 0);
            while game.read_game(&mut Recorder(&mut theirs)).is_err() {
                unreadable += 1;
            }
            // Both read tag lines the same way unless one is long, or the
            // sections differ on purpose: pgn-reader's ends at a comment or
            // escape line, or ours at the next game's tags.
            let section = &bytes[span.start..span.movetext];
            let their_section = position(&mut game);
            let short = section.split(|&b| b == b'\n').all(|line| line.len() < 255);
            let alike = short && their_section == section.len();
            // (pgn-reader also ends it at a `%` line after `[Name` without
            // a value, having taken the line break for the tag's.)
            let at_comment = matches!(bytes.get(span.start + their_section), Some(b';' | b'%'));
            let ends_first = span.tags_only && their_section > section.len();
            // A value with a quote inside, unescaped, read to the line's
            // last quote as python-chess reads it (`split::quoted_to_line_end`).
            let requoted = section.split(|&b| b == b'\n').any(|line| {
                let quotes = (0..line.len())
                    .filter(|&i| line[i] == b'"' && (i == 0 || line[i - 1] != b'\\'));
                // Every second quote closes a value.
                let mut closing = quotes.skip(1).step_by(2);
                closing.any(|at| crate::pgn::split::quoted_to_line_end(&line[at + 1..]).is_some())
            });
            let alike = alike && !requoted;
            let on_purpose = short && !alike && (at_comment || span.tags_only || requoted);
            if alike {
                assert_eq!(ours, theirs, "{here}: tags");
                assert_eq!(span.unreadable_tags, unreadable, "{here}: unreadable tag lines");
            }
            if on_purpose && !requoted {
                assert!(ours.starts_with(&theirs) || theirs.starts_with(&ours), "{here}: tags");
                assert!(at_comment || ends_first, "{here}: tag section");
            }
            let line_of = |offset: usize| 1 + count_lines(&bytes[..offset]);
            assert_eq!(
                (span.line, span.movetext_line),
                (line_of(span.start), line_of(span.movetext))
            );
            let mut lexer = cursor.lexer(&span);
            lexer.skip_rest();
            let (resumed, lexer_end, lexer_line) = (lexer.resume_at(), lexer.end(), lexer.line());
            let end = cursor.finish_game(&span, lexer);
            game.has_more().unwrap();
            let their_end = span.start + position(&mut game);
            if resumed.is_some() {
                assert!(opens_tag_pair(&bytes[end..]), "{here}: swallowed game");
                assert!(end < their_end || !alike, "{here}: swallowed game");
            } else if span.tags_only {
                assert!(opens_tag_pair(&bytes[end..]) && end == span.movetext, "{here}: end");
            } else if alike {
                assert_eq!(end, their_end, "{here}: end");
            }
            if resumed.is_none() {
                assert_eq!(lexer_line, line_of(span.movetext + lexer_end), "{here}: end line");
            }
            differing += usize::from(!alike && !on_purpose);
            deliberate += usize::from(on_purpose);
            lead = end;
        }
    }

    #[test]
    fn walks_every_fixture_as_pgn_reader_does() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // The fixtures and, when the shared corpus is there, its odd
        // real-world files; uncompressed ones only.
        let edge = root.join("../shared/corpus/edge");
        if !edge.is_dir() {
            let required = std::env::var_os("ARBITER_REQUIRE_CORPUS").is_some_and(|v| v == "1");
            assert!(!required, "{} not found (ARBITER_REQUIRE_CORPUS=1)", edge.display());
            #[allow(clippy::print_stderr)]
            {
                eprintln!(
                    "skipped: {} not found (set ARBITER_REQUIRE_CORPUS=1 to make this a failure)",
                    edge.display()
                );
            }
        }
        let dirs = [root.join("fixtures"), edge]
            .iter()
            .filter(|dir| dir.is_dir())
            .cloned()
            .collect::<Vec<_>>();
        let mut files = crate::source::expand(&dirs, true).files;
        files.retain(|file| file.extension().is_some_and(|ext| ext == "pgn"));
        assert!(files.len() > 20, "fixtures not found");
        let (games, differing, deliberate) = files
            .iter()
            .map(|file| {
                assert_walks_as_pgn_reader(&std::fs::read(file).unwrap(), &file.to_string_lossy())
            })
            .fold((0, 0, 0), |(g, d, p), (games, differing, deliberate)| {
                (g + games, d + differing, p + deliberate)
            });
        assert!(games > 1000, "the fixtures hardly had games: {games}");
        assert!(differing <= 10, "{differing} games with long tag lines");
        // bad-input/second_tag_section.pgn and comments_between_tags.pgn.
        assert!(deliberate >= 3, "{deliberate} tag sections read differently on purpose");
    }

    /// Random soups of `testing::PGN_PIECES`, some with long runs that
    /// cross the 16 KiB buffer (long tag lines, comments and movetexts).
    #[test]
    fn walks_random_soups_as_pgn_reader_does() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut games, mut differing, mut deliberate) = (0, 0, 0);
        for case in 0..3000 {
            let bytes = rng.pgn_soup(120, true);
            let (walked, long, on_purpose) =
                assert_walks_as_pgn_reader(&bytes, &format!("soup {case}"));
            (games, differing, deliberate) =
                (games + walked, differing + long, deliberate + on_purpose);
        }
        assert!(games > 10_000, "the soups hardly had games: {games}");
        assert!(differing * 20 < games, "{differing} of {games} games with long tag lines");
        assert!(deliberate > 100, "{deliberate} tag sections read differently on purpose");
    }

    /// A tag line of any length, anywhere, is read whole: its value ends at
    /// its closing quote, or at the end of its line; the game boundaries
    /// are pgn-reader's all the same.
    #[test]
    fn long_tag_lines_are_read_whole_wherever_they_stand() {
        for len in [200, 254, 255, 256, 8_000, 16_370, 16_384, 16_400, 40_000] {
            let value = "v".repeat(len);
            let comment = format!("{{{}}}\n\n", "c".repeat(16_000));
            for prefix in ["", "[Event \"e\"]\n", &comment] {
                for (line, read) in [
                    (format!("[Site \"{value}\"]"), value.as_str()),
                    (format!("[Site \"{value}"), value.as_str()),
                    (format!("[Site \"a \\\" {value}\"] [Round \"1\"]"), ""),
                ] {
                    let pgn =
                        format!("{prefix}{line}\n[White \"w\"]\n\n1. e4 *\n\n[Event \"2\"]\n*\n");
                    let what = format!("value of {len} bytes after {} bytes", prefix.len());
                    assert_walks_as_pgn_reader(pgn.as_bytes(), &what);
                    let mut cursor = GameCursor::new(pgn.as_bytes(), 1);
                    let mut tags = Tags::new();
                    let span = cursor.next_game(|n, v| tags.push((n.to_vec(), v.to_vec())));
                    let span = span.expect("a game");
                    let span = if prefix.starts_with('{') {
                        // The comment is a game of its own (no tags).
                        cursor.finish_game(&span, cursor.lexer(&span));
                        tags.clear();
                        cursor.next_game(|n, v| tags.push((n.to_vec(), v.to_vec()))).unwrap()
                    } else {
                        span
                    };
                    assert_eq!(span.unreadable_tags, 0, "{what}");
                    let site = tags.iter().find(|(n, _)| n == b"Site").expect("Site read");
                    if read.is_empty() {
                        assert!(site.1.ends_with(value.as_bytes()), "{what}: escaped quote");
                        assert!(tags.iter().any(|(n, v)| n == b"Round" && v == b"1"), "{what}");
                    } else {
                        assert_eq!(site.1, read.as_bytes(), "{what}");
                    }
                    assert!(tags.iter().any(|(n, v)| n == b"White" && v == b"w"), "{what}");
                }
            }
        }
    }

    #[test]
    fn a_game_that_an_unclosed_comment_ran_into_is_a_game_of_its_own() {
        let pgn = b"[Event \"1\"]\n\n1. e4 {never closed\n\n[Event \"2\"]\n\n1. d4 *\n";
        let mut cursor = GameCursor::new(pgn, 1);
        let mut starts = Vec::new();
        while let Some(span) = cursor.next_game(|_, _| {}) {
            starts.push((span.start, span.line));
            cursor.finish_game(&span, cursor.lexer(&span));
        }
        let second = pgn.windows(11).position(|w| w == b"[Event \"2\"]").unwrap();
        assert_eq!(starts, vec![(0, 1), (second, 5)]);
    }
}
