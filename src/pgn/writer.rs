//! PGN export format (PGN standard 8.1.1, 8.2): how `arbiter fmt` writes a
//! game.
//!
//! Tags come first, the Seven Tag Roster in its order and then the others as
//! they were, one per line; then a blank line, the movetext and a blank
//! line. The movetext has a move number before every White move and before a
//! Black move that follows a comment or a variation, canonical SAN with
//! `+`/`#` as the position says, NAGs as `$n`, comments in braces,
//! variations in parentheses, and the result marker at the end; tokens are
//! separated by one space and lines hold at most 80 characters. Whitespace
//! inside comments is folded to single spaces so that lines can be wrapped
//! there (which makes formatting idempotent). This module only writes: the
//! replay decides what the moves are (`export.rs`).

use shakmaty::{
    Color, Role,
    san::{San, SanPlus},
};

use super::tags::{ROSTER, TagList};

/// Longest line of the output.
pub const MAX_LINE: usize = 80;

/// The value a missing roster tag gets in export format.
fn unknown(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// Writes the tag section of a game: the roster in order (missing tags get
/// their "unknown" value; `Result` falls back on `result`), then the other
/// tags in their order. A roster tag given twice keeps its first value.
pub fn write_tags(tags: &TagList, result: &str, out: &mut Vec<u8>) {
    for name in ROSTER {
        let value = tags.get(name);
        let value = match (name, value) {
            (_, Some(value)) => value,
            ("Result", None) => result,
            (name, None) => unknown(name),
        };
        write_tag(name, value, out);
    }
    for (name, value) in tags.iter().filter(|(n, _)| !ROSTER.contains(n)) {
        write_tag(name, value, out);
    }
    out.push(b'\n');
}

fn write_tag(name: &str, value: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(b"[");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b" \"");
    for &b in value.as_bytes() {
        if b == b'\\' || b == b'"' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.extend_from_slice(b"\"]\n");
}

/// Builds the movetext of one game, token by token, in export format.
#[derive(Debug, Default)]
pub struct MovetextWriter {
    out: Vec<u8>,
    line_len: usize,
    /// A Black move needs its number: at the start, after a comment or a
    /// variation.
    number_black: bool,
    /// `(`s to glue to the next token.
    open: usize,
}

impl MovetextWriter {
    /// An empty movetext (the first Black move will carry its number).
    pub fn new() -> Self {
        MovetextWriter { number_black: true, ..MovetextWriter::default() }
    }

    /// Adds a token, breaking the line before it if it would not fit.
    fn push(&mut self, token: &[u8]) {
        let len = self.open + token.len();
        if self.line_len > 0 {
            if self.line_len + 1 + len > MAX_LINE {
                self.out.push(b'\n');
                self.line_len = 0;
            } else {
                self.out.push(b' ');
                self.line_len += 1;
            }
        }
        for _ in 0..std::mem::take(&mut self.open) {
            self.out.push(b'(');
        }
        self.out.extend_from_slice(token);
        self.line_len += len;
    }

    /// A move played by `turn` at move number `number` (a move number and
    /// its move stay on one line).
    pub fn san(&mut self, number: u32, turn: Color, san: SanPlus) {
        // A pawn drop as lichess and python-chess write it, `P@g4`
        // (shakmaty writes `@g4`).
        let pawn = if matches!(san.san, San::Put { role: Role::Pawn, .. }) { "P" } else { "" };
        let token = if turn == Color::White {
            format!("{number}. {pawn}{san}")
        } else if self.number_black {
            format!("{number}... {pawn}{san}")
        } else {
            format!("{pawn}{san}")
        };
        self.number_black = false;
        self.push(token.as_bytes());
    }

    /// A numeric annotation glyph.
    pub fn nag(&mut self, nag: u8) {
        self.push(format!("${nag}").as_bytes());
    }

    /// A comment. A text with a `}` came from a `;` comment and stays one,
    /// ending its line.
    pub fn comment(&mut self, text: &[u8]) {
        self.number_black = true;
        if text.contains(&b'}') {
            let mut token = b";".to_vec();
            token.extend_from_slice(text.trim_ascii_end());
            self.push(&token);
            self.out.push(b'\n');
            self.line_len = 0;
            return;
        }
        // Break lines only between words, and never before a word starting
        // with `[` or `%`: a line starting so reads as a tag or an escape.
        let mut units: Vec<Vec<u8>> = Vec::new();
        for word in text.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()) {
            match units.last_mut() {
                Some(unit) if matches!(word[0], b'[' | b'%') => {
                    unit.push(b' ');
                    unit.extend_from_slice(word);
                }
                _ => units.push(word.to_vec()),
            }
        }
        match units.as_mut_slice() {
            [] => units.push(b"{}".to_vec()),
            [first, ..] => first.insert(0, b'{'),
        }
        if let Some(last) = units.last_mut().filter(|last| last.as_slice() != b"{}") {
            last.push(b'}');
        }
        for unit in &units {
            self.push(unit);
        }
    }

    /// `(`: glued to the token that follows.
    pub fn open_variation(&mut self) {
        self.open += 1;
        self.number_black = true;
    }

    /// `)`: glued to the token before.
    pub fn close_variation(&mut self) {
        if self.open > 0 {
            // An empty variation `()` has nothing to glue to.
            self.open -= 1;
            self.push(b"()");
        } else {
            self.out.push(b')');
            self.line_len += 1;
        }
        self.number_black = true;
    }

    /// Ends the movetext with its result marker and returns it, with a
    /// final newline.
    pub fn finish(mut self, result: &str) -> Vec<u8> {
        self.push(result.as_bytes());
        self.out.push(b'\n');
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(text: &str) -> SanPlus {
        text.parse().expect("SAN")
    }

    #[test]
    fn roster_first_missing_tags_filled_values_escaped() {
        let mut tags = TagList::default();
        tags.push("White", "Anna \"A\" \\ B");
        tags.push("ECO", "C65");
        tags.push("Event", "Open");
        let mut out = Vec::new();
        write_tags(&tags, "1-0", &mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "[Event \"Open\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Anna \\\"A\\\" \\\\ B\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[ECO \"C65\"]\n\n"
        );
    }

    #[test]
    fn numbers_comments_variations_and_result() {
        let mut w = MovetextWriter::new();
        w.san(1, Color::White, san("e4"));
        w.nag(1);
        w.san(1, Color::Black, san("e5"));
        w.comment(b"  a   comment\nover lines ");
        w.comment(b"");
        w.san(2, Color::White, san("Nf3"));
        w.open_variation();
        w.san(2, Color::White, san("Bc4"));
        w.close_variation();
        w.san(2, Color::Black, san("Nc6"));
        let text = String::from_utf8(w.finish("1-0")).unwrap();
        assert_eq!(text, "1. e4 $1 e5 {a comment over lines} {} 2. Nf3 (2. Bc4) 2... Nc6 1-0\n");
    }

    #[test]
    fn black_to_move_first_gets_its_number_and_lines_wrap_at_80() {
        let mut w = MovetextWriter::new();
        w.san(30, Color::Black, san("Kf7"));
        for n in 31..90 {
            w.san(n, Color::White, san("Kf2"));
            w.san(n, Color::Black, san("Kf7"));
        }
        let text = String::from_utf8(w.finish("*")).unwrap();
        assert!(text.starts_with("30... Kf7 31. Kf2"), "{text}");
        assert!(text.lines().all(|line| line.len() <= MAX_LINE), "{text}");
        assert!(text.lines().count() > 5);
    }

    #[test]
    fn no_line_starts_with_a_bracket_or_percent_sign() {
        let mut w = MovetextWriter::new();
        for n in 1..40 {
            w.san(n, Color::White, san("Nf3"));
            w.comment(b"[%eval 0.17] [%clk 0:03:00] %x");
            w.san(n, Color::Black, san("Nf6"));
        }
        let text = String::from_utf8(w.finish("*")).unwrap();
        assert!(text.lines().all(|l| !l.starts_with(['[', '%'])), "{text}");
    }
}
