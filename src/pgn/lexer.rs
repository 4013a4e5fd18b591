//! The movetext lexer: raw tokens with their lines, nothing skipped.
//!
//! The splitter finds where a game's movetext starts; pgn-reader's own
//! movetext reader would drop tokens it cannot read (`foo`, `e2-e4`) and
//! forget how a move was written (`0-0` and `O-O` look alike) and where.
//! This lexer walks the movetext of one game and yields every token with
//! its 1-based line, so the replay can report a bad token precisely instead
//! of skipping it; it also finds where the movetext ends, where pgn-reader's
//! splitter ends it, so that the bytes are read once, not twice (see
//! `benches/HISTORY.md`). It knows PGN's lexical rules (comments, escapes,
//! NAGs, results, move numbers) but not chess: deciding what a `Word` means
//! is the replay's job.

use std::ops::ControlFlow;

use memchr::{memchr, memchr2, memchr3};

use crate::pgn::split::opens_tag_pair;

/// A lexical token of movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// Anything that is not one of the other tokens: a move, or garbage.
    Word(&'a [u8]),
    /// A move number such as `12.` or `12...` (the number only).
    MoveNumber(u32),
    /// A numeric annotation glyph: `$n`, or the NAG that `!`, `?`, `!!`,
    /// `??`, `!?`, `?!` or a textual evaluation glyph (`+-`, `=`) stands for.
    Nag(u8),
    /// The text of a `{...}` comment, or of a `;...` comment to the end of
    /// its line (the only kind whose text can hold a `}`).
    Comment(&'a [u8]),
    /// A `{` comment that runs to the end of the game.
    UnterminatedComment,
    /// `(`.
    VariationStart,
    /// `)`.
    VariationEnd,
    /// A result marker: `1-0`, `0-1`, `1/2-1/2` or `*` (normalised).
    Result(&'static str),
    /// A run of control bytes (NUL and the like): not text at all.
    Stray,
}

/// A token and the 1-based line it starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located<'a> {
    /// The token.
    pub token: Token<'a>,
    /// Line of its first byte.
    pub line: u64,
}

/// Iterates the tokens of one game's movetext.
#[derive(Debug)]
pub struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    at_line_start: bool,
    /// Where a game swallowed by an unterminated comment begins.
    resume_at: Option<usize>,
}

/// Bytes that end a word: pgn-reader's token ends, and control bytes.
const fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    ) || is_stray(byte)
}

/// `is_token_end` as a table: the test runs on every byte of every word.
static TOKEN_END: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = is_token_end(byte as u8);
        byte += 1;
    }
    table
};

/// Control bytes that have no place in PGN text (NUL, DEL, ...).
const fn is_stray(byte: u8) -> bool {
    matches!(byte, 0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f)
}

/// Textual evaluation symbols that stand for NAGs in many real files, with
/// the NAG each stands for (PGN standard 10).
const GLYPHS: &[(&[u8], u8)] = &[
    (b"+-", 18),
    (b"-+", 19),
    (b"+/-", 16),
    (b"-/+", 17),
    (b"+/=", 14),
    (b"=/+", 15),
    (b"+=", 14),
    (b"=+", 15),
    (b"=", 10),
    ("\u{b1}".as_bytes(), 16),   // ±
    ("\u{2213}".as_bytes(), 17), // ∓
    ("\u{221e}".as_bytes(), 13), // ∞
    ("\u{2a72}".as_bytes(), 14), // ⩲
    ("\u{2a71}".as_bytes(), 15), // ⩱
];

/// The suffix annotations and their NAGs, longest first.
const SUFFIXES: &[(&[u8], u8)] =
    &[(b"!!", 3), (b"??", 4), (b"!?", 5), (b"?!", 6), (b"!", 1), (b"?", 2)];

/// Result markers, in the spellings pgn-reader accepts (ASCII, en and em
/// dashes, `½`), with the canonical form each stands for.
const RESULTS: &[(&[u8], &str)] = &[
    (b"1-0", "1-0"),
    (b"0-1", "0-1"),
    (b"1/2-1/2", "1/2-1/2"),
    ("1\u{2013}0".as_bytes(), "1-0"),
    ("0\u{2013}1".as_bytes(), "0-1"),
    ("1/2\u{2013}1/2".as_bytes(), "1/2-1/2"),
    ("1\u{2014}0".as_bytes(), "1-0"),
    ("0\u{2014}1".as_bytes(), "0-1"),
    ("1/2\u{2014}1/2".as_bytes(), "1/2-1/2"),
    ("\u{bd}-\u{bd}".as_bytes(), "1/2-1/2"),
];

impl<'a> Lexer<'a> {
    /// A lexer over the movetext that `bytes` start with (whatever follows
    /// it is not read), whose first byte is on line `line`.
    pub fn new(bytes: &'a [u8], line: u64) -> Self {
        Lexer { bytes, pos: 0, line, at_line_start: false, resume_at: None }
    }

    /// The bytes the lexer reads, which every `Word` is a slice of (for a
    /// diagnostic's excerpt of the line a token stands on).
    pub fn source(&self) -> &'a [u8] {
        self.bytes
    }

    /// After an unterminated comment that ran into another game's tags:
    /// the offset (in the lexer's bytes) where that game begins. The lexer
    /// ends there; the rest belongs to the next game.
    pub fn resume_at(&self) -> Option<usize> {
        self.resume_at
    }

    /// The line reached: once every token is read, the line of
    /// [`Lexer::end`] (every line break before it counted), unless the
    /// lexer stopped at a swallowed game (see [`Lexer::resume_at`]).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Once every token is read, where the movetext ended (an offset in the
    /// lexer's bytes), unless the lexer stopped at a swallowed game (see
    /// [`Lexer::resume_at`]): where pgn-reader's splitter would end it, at a
    /// blank line or a line that starts with `[` outside comments, or at the
    /// end of the bytes.
    pub fn end(&self) -> usize {
        self.bytes.len()
    }

    fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Advances over `n` bytes known to contain no newline.
    fn advance(&mut self, n: usize) {
        self.pos += n;
        self.at_line_start = false;
    }

    fn skip_whitespace(&mut self) {
        while let Some(&byte) = self.bytes.get(self.pos) {
            match byte {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                    self.at_line_start = true;
                    // A blank line, or a line that starts with `[`, ends
                    // the movetext (pgn-reader's `skip_movetext`).
                    let end = match self.rest() {
                        [b'\n' | b'[', ..] => self.pos,
                        [b'\r', b'\n', ..] => self.pos + 1,
                        _ => continue,
                    };
                    self.bytes = &self.bytes[..end];
                }
                b' ' | b'\t' | b'\r' => {
                    self.pos += 1;
                    self.at_line_start = false;
                }
                // PGN standard 6: a `%` in the first column escapes its
                // line; after spaces it is text, as for pgn-reader.
                b'%' if self.at_line_start => self.skip_to_line_end(),
                _ => return,
            }
        }
    }

    fn skip_to_line_end(&mut self) {
        let len = memchr(b'\n', self.rest()).unwrap_or(self.rest().len());
        self.advance(len);
    }

    fn word_len(&self) -> usize {
        self.rest().iter().position(|&b| TOKEN_END[usize::from(b)]).unwrap_or(self.rest().len())
    }

    fn lex_digits(&mut self) -> Token<'a> {
        let rest = self.rest();
        // Only `1-0`, `0-1`, `1/2-1/2` and `½-½` spellings can be results:
        // a move number (`12.`) is told apart by its second byte.
        if matches!(rest.get(1), Some(b'-' | b'/' | b'\xbd' | b'\xe2')) {
            for &(spelling, canonical) in RESULTS {
                if rest.starts_with(spelling)
                    && rest.get(spelling.len()).is_none_or(|&b| is_token_end(b))
                {
                    self.advance(spelling.len());
                    return Token::Result(canonical);
                }
            }
        }
        // Digits counted and read in one pass.
        let (mut digits, mut number) = (0, 0u32);
        while let Some(digit) =
            rest.get(digits).and_then(|b| b.checked_sub(b'0')).filter(|&d| d < 10)
        {
            number = number.saturating_mul(10).saturating_add(u32::from(digit));
            digits += 1;
        }
        let after = rest.get(digits).copied();
        // A number followed by dots, space or the end is a move number;
        // anything else (`0-0`, `1e4x`), and anything starting with 0 (no
        // move is number 0; `0000` is a null move), is a word for the
        // replay to judge.
        if digits > 0
            && rest[0] != b'0'
            && after.is_none_or(|b| matches!(b, b'.' | b' ' | b'\t' | b'\r' | b'\n'))
        {
            let dots = rest[digits..].iter().take_while(|&&b| b == b'.').count();
            self.advance(digits + dots);
            return Token::MoveNumber(number);
        }
        self.lex_word()
    }

    fn lex_word(&mut self) -> Token<'a> {
        let len = self.word_len().max(1);
        let word = &self.rest()[..len];
        self.advance(len);
        // Moves start with a letter; only then is a word no glyph.
        let glyph = match word[0].is_ascii_alphabetic() {
            true => None,
            false => GLYPHS.iter().find(|(text, _)| *text == word),
        };
        match glyph {
            Some(&(_, nag)) => Token::Nag(nag),
            None => Token::Word(word),
        }
    }
}

impl<'a> Lexer<'a> {
    /// A `{...}` comment, found in one pass that also counts its lines and
    /// looks for a game it swallowed at each line break: comments are most
    /// of a lichess game's bytes (see `benches/HISTORY.md`).
    fn lex_brace_comment(&mut self) -> Token<'a> {
        let body = self.pos + 1;
        let mut at = body;
        let mut lines = 0;
        loop {
            let Some(found) = memchr2(b'}', b'\n', &self.bytes[at..]).map(|i| at + i) else {
                // Never closed: the comment runs to the end of the game.
                self.line += lines;
                self.pos = self.bytes.len();
                return Token::UnterminatedComment;
            };
            if self.bytes[found] == b'}' {
                self.line += lines;
                self.at_line_start = false;
                self.pos = found + 1;
                return Token::Comment(&self.bytes[body..found]);
            }
            if let Some(tag) = game_after_line_break(&self.bytes[found + 1..]) {
                // What follows a blank line and looks like a tag pair is
                // the next game: the comment was never closed.
                self.resume_at = Some(found + 1 + tag);
                self.pos = self.bytes.len();
                return Token::UnterminatedComment;
            }
            lines += 1;
            at = found + 1;
        }
    }
}

/// Whether the bytes after a line break inside a comment are a blank line
/// and a tag pair (`\n[Event "`): a game that an unclosed `{` swallowed.
/// Returns the offset of the `[`.
fn game_after_line_break(after: &[u8]) -> Option<usize> {
    let tag = if after.starts_with(b"\n") {
        1
    } else if after.starts_with(b"\r\n") {
        2
    } else {
        return None;
    };
    opens_tag_pair(&after[tag..]).then_some(tag)
}

impl<'a> Lexer<'a> {
    /// Calls `visit` with every remaining token: the replay's loop. One
    /// call per game instead of one per token, which would pay a call and
    /// a 32-byte result for every token (see `benches/HISTORY.md`).
    pub fn for_each_token(&mut self, mut visit: impl FnMut(Located<'a>)) {
        while let Some(token) = self.next_token() {
            visit(token);
        }
    }

    /// Visits the tokens until `visit` breaks; the next call goes on from
    /// the token after.
    pub fn try_for_each_token(&mut self, mut visit: impl FnMut(Located<'a>) -> ControlFlow<()>) {
        while let Some(token) = self.next_token() {
            if visit(token).is_break() {
                return;
            }
        }
    }

    /// Reads to the end of the movetext without yielding tokens: where
    /// [`Lexer::for_each_token`] would end, with the same [`Lexer::end`],
    /// [`Lexer::line`] and [`Lexer::resume_at`]. Only comments, escaped
    /// lines and line breaks can end a movetext or hide its end, so a game
    /// whose replay stopped early (or never began) is skimmed for those
    /// bytes alone: several times faster than lexing every word.
    pub fn skip_rest(&mut self) {
        // A token never ends at a line start, so no `%` line begins here.
        while let Some(found) = memchr3(b'\n', b'{', b';', self.rest()) {
            self.pos += found;
            match self.bytes[self.pos] {
                b'{' => {
                    self.lex_brace_comment();
                }
                b';' => self.skip_to_line_end(),
                // The line break, an end of the movetext or not, and a `%`
                // line after it, exactly as between tokens.
                _ => self.skip_whitespace(),
            }
        }
        self.pos = self.bytes.len();
    }

    #[inline(always)]
    fn next_token(&mut self) -> Option<Located<'a>> {
        loop {
            self.skip_whitespace();
            // A lone `.` (as in `1. .. e5`) is punctuation, as for pgn-reader.
            if self.bytes.get(self.pos) != Some(&b'.') {
                break;
            }
            self.advance(1);
        }
        let &first = self.bytes.get(self.pos)?;
        let line = self.line;
        let token = match first {
            b'{' => self.lex_brace_comment(),
            b';' => {
                let len = memchr(b'\n', self.rest()).unwrap_or(self.rest().len());
                let text = &self.rest()[1..len];
                self.advance(len);
                Token::Comment(text.strip_suffix(b"\r").unwrap_or(text))
            }
            b'(' => {
                self.advance(1);
                Token::VariationStart
            }
            b')' => {
                self.advance(1);
                Token::VariationEnd
            }
            b'*' => {
                self.advance(1);
                Token::Result("*")
            }
            b'$' => {
                let digits = self.rest()[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                let nag = std::str::from_utf8(&self.rest()[1..1 + digits])
                    .ok()
                    .and_then(|n| n.parse::<u8>().ok());
                match nag {
                    Some(nag) => {
                        self.advance(1 + digits);
                        Token::Nag(nag)
                    }
                    // `$`, `$x`, `$300`: not a NAG.
                    None => return Some(Located { token: self.lex_word(), line }),
                }
            }
            b'!' | b'?' => {
                let rest = self.rest();
                let &(text, nag) = SUFFIXES
                    .iter()
                    .find(|(text, _)| rest.starts_with(text))
                    .expect("`!` and `?` alone are suffixes");
                self.advance(text.len());
                Token::Nag(nag)
            }
            b'0'..=b'9' | b'\xc2' => self.lex_digits(),
            // `is_stray`'s bytes, as a pattern of this match instead of a
            // guard tested on every word.
            0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f => {
                let len = self.rest().iter().take_while(|&&b| is_stray(b)).count();
                self.advance(len);
                Token::Stray
            }
            _ => self.lex_word(),
        };
        Some(Located { token, line })
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Located<'a>;

    fn next(&mut self) -> Option<Located<'a>> {
        self.next_token()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token<'_>, u64)> {
        lex(text.as_bytes()).into_iter().map(|t| (t.token, t.line)).collect()
    }

    /// Every token of `bytes`, failing (not hanging) if the lexer stalls:
    /// each token takes at least one byte, so there are at most as many
    /// tokens as bytes.
    fn lex(bytes: &[u8]) -> Vec<Located<'_>> {
        let all: Vec<_> = Lexer::new(bytes, 1).take(bytes.len() + 1).collect();
        assert!(all.len() <= bytes.len(), "the lexer stalled on {bytes:?}");
        all
    }

    #[test]
    fn lexes_moves_numbers_and_results_with_lines() {
        assert_eq!(
            tokens("1. e4 e5\n2.Nf3 $1 {a\nb} Nc6!? 1-0"),
            vec![
                (Token::MoveNumber(1), 1),
                (Token::Word(b"e4"), 1),
                (Token::Word(b"e5"), 1),
                (Token::MoveNumber(2), 2),
                (Token::Word(b"Nf3"), 2),
                (Token::Nag(1), 2),
                (Token::Comment(b"a\nb"), 2),
                (Token::Word(b"Nc6"), 3),
                (Token::Nag(5), 3),
                (Token::Result("1-0"), 3),
            ]
        );
    }

    #[test]
    fn keeps_garbage_and_nonstandard_words() {
        assert_eq!(
            tokens("foo e2-e4 0-0 Nz9 -- 12... e9 0000"),
            vec![
                (Token::Word(b"foo"), 1),
                (Token::Word(b"e2-e4"), 1),
                (Token::Word(b"0-0"), 1),
                (Token::Word(b"Nz9"), 1),
                (Token::Word(b"--"), 1),
                (Token::MoveNumber(12), 1),
                (Token::Word(b"e9"), 1),
                (Token::Word(b"0000"), 1),
            ]
        );
    }

    #[test]
    fn unterminated_comment_runs_to_the_end() {
        assert_eq!(
            tokens("e4 {never\nclosed"),
            vec![(Token::Word(b"e4"), 1), (Token::UnterminatedComment, 1)]
        );
    }

    #[test]
    fn a_comment_that_runs_into_the_next_games_tags_ends_before_them() {
        let text = "e4 {never closed\n\n[Event \"next\"]\n\n1. d4 } *";
        let mut lexer = Lexer::new(text.as_bytes(), 1);
        let all: Vec<_> = (&mut lexer).map(|t| t.token).collect();
        assert_eq!(all, vec![Token::Word(b"e4"), Token::UnterminatedComment]);
        assert_eq!(lexer.resume_at(), text.find('['));
        // A bracket inside an ordinary comment is no such thing.
        let mut lexer = Lexer::new(b"e4 {see [1]\n\n[%clk 0:01]} e5", 1);
        assert_eq!((&mut lexer).count(), 3);
        assert_eq!(lexer.resume_at(), None);
    }

    #[test]
    fn escape_lines_and_semicolon_comments_are_skipped() {
        assert_eq!(
            tokens("e4 ; rest {\n%escaped line\ne5 \u{bd}-\u{bd}"),
            vec![
                (Token::Word(b"e4"), 1),
                (Token::Comment(b" rest {"), 1),
                (Token::Word(b"e5"), 3),
                (Token::Result("1/2-1/2"), 3),
            ]
        );
    }

    #[test]
    fn a_percent_sign_after_spaces_escapes_nothing() {
        // As for pgn-reader's splitter, which must agree on where comments
        // are: the chunker relies on it.
        assert_eq!(
            tokens("e4\n  %x {c}\n\r%y"),
            vec![
                (Token::Word(b"e4"), 1),
                (Token::Word(b"%x"), 2),
                (Token::Comment(b"c"), 2),
                (Token::Word(b"%y"), 3),
            ]
        );
    }

    #[test]
    fn glyphs_are_nags_and_variations_are_tokens() {
        assert_eq!(
            tokens("e4 += (e3 ?!) )"),
            vec![
                (Token::Word(b"e4"), 1),
                (Token::Nag(14), 1),
                (Token::VariationStart, 1),
                (Token::Word(b"e3"), 1),
                (Token::Nag(6), 1),
                (Token::VariationEnd, 1),
                (Token::VariationEnd, 1),
            ]
        );
    }

    #[test]
    fn odd_bytes_never_stall() {
        assert_eq!(
            tokens("1/2-1/2\0\0 e4\x7f"),
            vec![
                (Token::Result("1/2-1/2"), 1),
                (Token::Stray, 1),
                (Token::Word(b"e4"), 1),
                (Token::Stray, 1)
            ]
        );
        let text = b"\x00\xff\xc2 \xc2\xbd $ $x 1-0x 99999999999.";
        let all = lex(text);
        assert!(all.len() >= 6, "{all:?}");
        // Every byte, alone, before a word and after one.
        for byte in 0..=u8::MAX {
            for bytes in [vec![byte], vec![byte, b'e', b'4'], vec![b'e', b'4', byte]] {
                lex(&bytes);
            }
        }
        // Random soups of PGN pieces.
        let mut rng = crate::testing::Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            lex(&rng.pgn_soup(40, false));
        }
    }

    /// Skimming from any token on ends where lexing every token ends: the
    /// same end, line and swallowed game.
    #[test]
    fn skipping_the_rest_ends_where_lexing_ends() {
        let mut rng = crate::testing::Rng(0x2545_f491_4f6c_dd1d);
        let mut samples: Vec<Vec<u8>> = [
            &b"1. e4 {a\n\n[Event \"x\"]} e5\n\n[Event \"y\"]"[..],
            b"1. e4 ; c {\n%esc {\n e5 {\n\n} 1-0\n[Event",
            b"e4\r\n\r\n e5",
            b"{ never closed\n more",
            b"%x\n% y {\ne4\n\n",
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        samples.extend((0..3000).map(|_| rng.pgn_soup(40, false)));
        for bytes in &samples {
            let mut whole = Lexer::new(bytes, 1);
            let count = whole.by_ref().count();
            let expected = (whole.end(), whole.line(), whole.resume_at());
            for after in 0..=count {
                let mut lexer = Lexer::new(bytes, 1);
                lexer.by_ref().take(after).for_each(drop);
                lexer.skip_rest();
                let got = (lexer.end(), lexer.line(), lexer.resume_at());
                assert_eq!(
                    got,
                    expected,
                    "{:?} skimmed after {after} tokens",
                    bytes.escape_ascii()
                );
                assert_eq!(lexer.next(), None);
            }
        }
    }

    #[test]
    fn reads_move_numbers_of_every_digit_and_saturates() {
        assert_eq!(
            tokens("19. Nf3 109... e5 4294967296. 0-0"),
            vec![
                (Token::MoveNumber(19), 1),
                (Token::Word(b"Nf3"), 1),
                (Token::MoveNumber(109), 1),
                (Token::Word(b"e5"), 1),
                (Token::MoveNumber(u32::MAX), 1),
                (Token::Word(b"0-0"), 1),
            ]
        );
    }
}
