//! Whether an input looks like PGN at all: a file given by mistake (an
//! executable, an image) would otherwise be read as thousands of broken
//! games. Input: the first bytes of an input (decompressed); output: a
//! yes or no. Generous on purpose: PGN with stray NUL bytes or Latin-1 text
//! still passes, as long as it has a tag or a move number.

/// How much of the input is looked at.
pub const HEAD: usize = 1024;

/// Why an input is skipped whole.
#[derive(Debug, thiserror::Error)]
pub enum NotPgn {
    /// Binary: an executable, an image.
    #[error("does not look like PGN, skipped")]
    Binary,
    /// Lines ended by a carriage return alone (classic Mac OS): read as
    /// one line, its games would run into one.
    #[error(
        "its lines end with a carriage return alone (classic Mac OS), which arbiter does not \
         read as line breaks: skipped (convert it first, e.g. `tr '\\r' '\\n' < OLD > NEW.pgn`)"
    )]
    CarriageReturns,
}

/// Whether `bytes` (an input's first bytes; only [`HEAD`] are read) may be
/// PGN: text, or something with a tag line or a first move number in it.
/// Binary means a NUL byte, or more than one byte in ten a control byte
/// that no text file has.
pub fn looks_like_pgn(bytes: &[u8]) -> bool {
    check(bytes).is_ok()
}

/// [`looks_like_pgn`], with why not: binary, or lines that end with a
/// carriage return alone (no line feed in the first bytes, and a carriage
/// return before a tag or the first move).
pub fn check(bytes: &[u8]) -> Result<(), NotPgn> {
    let head = &bytes[..bytes.len().min(HEAD)];
    let control =
        head.iter().filter(|&&b| (b < 0x20 && !b"\t\n\r\x0c".contains(&b)) || b == 0x7f).count();
    let binary = head.contains(&0) || control * 10 > head.len();
    if binary && !has_pgn_marks(head) {
        return Err(NotPgn::Binary);
    }
    let mac = !head.contains(&b'\n') && head.windows(2).any(|w| matches!(w, [b'\r', b'[' | b'1']));
    if mac {
        return Err(NotPgn::CarriageReturns);
    }
    Ok(())
}

/// A tag line (`[` then a letter, at a line's start, a byte order mark
/// before it at the input's) or the first move's number (`1.`, at a
/// line's start or after a space), in the first [`HEAD`] bytes.
pub fn has_pgn_marks(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(HEAD)];
    let bom = head.starts_with(b"\xef\xbb\xbf");
    let at_start = |i: usize| i == 0 || head[i - 1] == b'\n' || (bom && i == 3);
    head.windows(2).enumerate().any(|(i, pair)| match pair {
        [b'[', letter] => letter.is_ascii_alphabetic() && at_start(i),
        [b'1', b'.'] => at_start(i) || head[i - 1] == b' ',
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_pgn_with_stray_bytes_pass() {
        assert!(looks_like_pgn(b""));
        assert!(looks_like_pgn(b"[Event \"x\"]\n\n1. e4 e5 *\n"));
        assert!(looks_like_pgn(b"1. e4 e5 *\n"));
        // Not PGN but text: read, and reported game by game.
        assert!(looks_like_pgn(b"hello, world\n"));
        assert!(looks_like_pgn(b"[Event \"x\"]\n\0\0\0\n1. e4 \0 e5 *\n"));
        assert!(looks_like_pgn("[White \"Müller\"]\n".as_bytes()));
    }

    #[test]
    fn lines_ended_by_a_carriage_return_alone_are_said_to_be() {
        let mac = b"[Event \"x\"]\r[Site \"y\"]\r\r1. e4 e5 *\r\r[Event \"z\"]\r";
        assert!(matches!(check(mac), Err(NotPgn::CarriageReturns)));
        // CRLF, or LF with a stray CR, is PGN.
        assert!(check(b"[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 *\r\n").is_ok());
        assert!(check(b"[Event \"x\"]\r[Site \"y\"]\n\n1. e4 *\n").is_ok());
    }

    #[test]
    fn executables_and_images_do_not() {
        let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0".to_vec();
        elf.resize(2048, 0);
        assert!(!looks_like_pgn(&elf));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0";
        assert!(!looks_like_pgn(png));
        let control: Vec<u8> = (0..1024).map(|i| (i % 31 + 1) as u8).collect();
        assert!(!looks_like_pgn(&control));
    }
}
