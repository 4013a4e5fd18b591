//! Games' own bytes joined into one output (`filter`, `fmt`'s games copied
//! as they are, `dupes --unique`, `db export`): a game whose bytes do not
//! continue the last ones written (another input, or games left out
//! between) must still read back as a game of its own.
//!
//! A game that starts with a tag pair needs a line break before it; any
//! other (moves without tags, a lone `*`, a comment, text before a file's
//! first game) needs a blank line, or it is read as more of the game
//! before. A byte-order mark is kept only at the start of the output.

use std::io::{self, Write};

/// A UTF-8 byte-order mark, which only a file's first bytes may hold.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Writes games' texts one after another, with the line breaks each needs.
#[derive(Debug, Default)]
pub struct Joiner {
    /// The last bytes written, oldest first.
    tail: Vec<u8>,
    /// Whether anything was written.
    written: bool,
}

impl Joiner {
    /// Writes `text` to `wtr`, after the line breaks it needs, unless
    /// `follows` (its bytes come right after the last ones written in
    /// their input, so they read as they did there); a byte-order mark
    /// goes unless it is the output's first. Returns the bytes written.
    pub fn write<W: Write + ?Sized>(
        &mut self,
        wtr: &mut W,
        text: &[u8],
        follows: bool,
    ) -> io::Result<u64> {
        let mut text = text;
        let mut pad: &[u8] = b"";
        if self.written && !follows {
            text = text.strip_prefix(BOM).unwrap_or(text);
            pad = self.padding(text);
        }
        wtr.write_all(pad)?;
        wtr.write_all(text)?;
        self.written |= !pad.is_empty() || !text.is_empty();
        self.tail.extend_from_slice(pad);
        self.tail.extend_from_slice(&text[text.len().saturating_sub(3)..]);
        let keep = self.tail.len().saturating_sub(3);
        self.tail.drain(..keep);
        Ok((pad.len() + text.len()) as u64)
    }

    /// The line breaks to write before `text`: a blank line before a game
    /// that does not start with a tag pair, a line break before one that
    /// does, counting those already written and those `text` starts with.
    fn padding(&self, text: &[u8]) -> &'static [u8] {
        let lead = text.iter().take_while(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t')).count();
        if lead == text.len() {
            return b"";
        }
        let needed: usize = if text[lead] == b'[' { 1 } else { 2 };
        let trailing = self
            .tail
            .iter()
            .rev()
            .take_while(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t'))
            .filter(|&&b| b == b'\n')
            .count();
        let leading = text[..lead].iter().filter(|&&b| b == b'\n').count();
        match needed.saturating_sub(trailing + leading) {
            0 => b"",
            1 => b"\n",
            _ => b"\n\n",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::replay;

    /// The events of the games `texts` give, each written after the last
    /// (none following), read back.
    fn joined(texts: &[&[u8]]) -> (Vec<u8>, Vec<Option<String>>) {
        let mut joiner = Joiner::default();
        let mut out = Vec::new();
        for text in texts {
            joiner.write(&mut out, text, false).unwrap();
        }
        let events = replay(&out).into_iter().map(|r| r.event.map(|e| e.to_string())).collect();
        (out, events)
    }

    #[test]
    fn each_game_reads_back_as_its_own_whatever_it_starts_or_ends_with() {
        let tagged: &[u8] = b"[Event \"t\"]\n\n1. e4 e5 1-0";
        let openers: [&[u8]; 5] = [
            b"1. d4 d5 0-1\n",
            b"*\n",
            b"{ a comment } 1. c4 *\n",
            b"Played in the club\n\n[Event \"p\"]\n\n1. Nf3 *\n",
            b"\xef\xbb\xbf[Event \"b\"]\n\n1. g3 *\n",
        ];
        for ending in [&b""[..], b"\n", b"\r\n", b"\n\n"] {
            for opener in openers {
                let first = [tagged, ending].concat();
                let (out, events) = joined(&[&first, opener, tagged]);
                let text = String::from_utf8_lossy(&out);
                assert_eq!(events.len(), 3 + usize::from(opener.starts_with(b"Played")), "{text}");
                assert_eq!(events[0].as_deref(), Some("t"), "{text}");
                assert_eq!(events.last().unwrap().as_deref(), Some("t"), "{text}");
                // A byte-order mark only at the start of the output.
                assert!(!out[1..].windows(3).any(|w| w == BOM), "{text}");
            }
        }
    }

    #[test]
    fn nothing_is_added_where_nothing_is_needed() {
        let games: [&[u8]; 3] = [
            b"\xef\xbb\xbf[Event \"a\"]\n\n1. e4 *\n\n",
            b"[Event \"b\"]\n\n1. d4 *\n",
            b"[Event \"c\"]\n",
        ];
        let (out, events) = joined(&games);
        assert_eq!(out, games.concat(), "a game after a blank line or a tag after a line break");
        assert_eq!(events.len(), 3);
        // Bytes that continue the last ones are written as they are.
        let mut joiner = Joiner::default();
        let mut out = Vec::new();
        joiner.write(&mut out, b"[Event \"a\"]\n\n1. e4 1-0", false).unwrap();
        assert_eq!(joiner.write(&mut out, b" *", true).unwrap(), 2);
        assert_eq!(out, b"[Event \"a\"]\n\n1. e4 1-0 *");
    }
}
