//! From a written move to a legal move: SAN and the notations people use.
//!
//! Input is one movetext word as written and a position; output is the
//! legal move it denotes, or why it denotes none (`ErrorKind`). Standard SAN
//! goes straight to shakmaty. Forms that are not SAN but denote exactly one
//! legal move — `0-0`, `e2e4`, `e2-e4`, `Ng1f3`, `e8Q`, `e7e8q`, `Pe4`, a
//! wrong capture mark — are accepted with a reason for a warning, as
//! python-chess accepts them.

use shakmaty::{
    CastlingSide, File, KnownOutcome, Move, Outcome, Position, Rank, Role, Square,
    san::{San, SanError, SanPlus, Suffix},
    uci::UciMove,
};

use super::resolve::Replayable;
use crate::record::ErrorKind;

/// What a word says, before looking at the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// A move in SAN syntax.
    Move {
        /// The move and its check suffix.
        san_plus: SanPlus,
        /// Whether the word had to be rewritten into SAN first.
        normalised: bool,
    },
    /// `--` or `Z0`: a null move.
    Null,
    /// Not a move at all.
    Garbage,
}

/// Longest word worth normalising; longer words are garbage.
const MAX_MOVE_LEN: usize = 12;

/// Reads a word as a move.
#[inline(always)]
pub fn parse(word: &[u8]) -> Written {
    if let Some(san_plus) = common_san(word) {
        return Written::Move { san_plus, normalised: false };
    }
    match SanPlus::from_ascii(word) {
        Ok(SanPlus { san: San::Null, .. }) => Written::Null,
        Ok(san_plus) => Written::Move { san_plus, normalised: false },
        Err(_) => match normalise(word) {
            Some(san_plus) => Written::Move { san_plus, normalised: true },
            None if word == b"0000" || word == b"@@@@" => Written::Null,
            None => Written::Garbage,
        },
    }
}

/// Reads the SAN forms nearly every real move is written in (`e4`, `exd5`,
/// `Nbd7`, `R1e2`, `Qh4xe1`, `e8=Q`, `O-O`, with `+` or `#`) by matching a
/// few bytes; `None` for anything else, which shakmaty's general reader
/// then decides. Where it answers, it answers exactly as shakmaty does (a
/// test compares the two on every short word). Nearly every move is in
/// one of these forms, so most skip the general reader (see
/// `benches/HISTORY.md`).
#[inline(always)]
fn common_san(word: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match word {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (word, None),
    };
    let file = |byte: u8| (byte.wrapping_sub(b'a') < 8).then(|| File::new(u32::from(byte - b'a')));
    let rank = |byte: u8| (byte.wrapping_sub(b'1') < 8).then(|| Rank::new(u32::from(byte - b'1')));
    let san = match body {
        b"O-O" => San::Castle(CastlingSide::KingSide),
        b"O-O-O" => San::Castle(CastlingSide::QueenSide),
        _ => {
            let (role, rest) = match body.split_first()? {
                (b'N', rest) => (Role::Knight, rest),
                (b'B', rest) => (Role::Bishop, rest),
                (b'R', rest) => (Role::Rook, rest),
                (b'Q', rest) => (Role::Queen, rest),
                (b'K', rest) => (Role::King, rest),
                _ => (Role::Pawn, body),
            };
            let (rest, promotion) = match rest {
                [rest @ .., b'=', piece @ (b'Q' | b'R' | b'B' | b'N')] => {
                    (rest, Role::from_char(char::from(*piece)))
                }
                _ => (rest, None),
            };
            let [rest @ .., to_file, to_rank] = rest else { return None };
            let to = Square::from_coords(file(*to_file)?, rank(*to_rank)?);
            let (rest, capture) = match rest {
                [rest @ .., b'x'] => (rest, true),
                _ => (rest, false),
            };
            let (file, rank) = match *rest {
                [] => (None, None),
                [from_file @ b'a'..=b'h'] => (file(from_file), None),
                [from_rank @ b'1'..=b'8'] => (None, rank(from_rank)),
                [from_file, from_rank] => (Some(file(from_file)?), Some(rank(from_rank)?)),
                _ => return None,
            };
            San::Normal { role, file, rank, capture, to, promotion }
        }
    };
    Some(SanPlus { san, suffix })
}

/// Rewrites the common non-SAN forms into SAN: castling with zeros, a `-`
/// between the squares of long algebraic notation, a promotion piece
/// without `=` or in lower case (UCI).
fn normalise(word: &[u8]) -> Option<SanPlus> {
    if word.len() > MAX_MOVE_LEN {
        return None;
    }
    let (body, suffix) = match word.last() {
        Some(b'+' | b'#') => word.split_at(word.len() - 1),
        _ => (word, &b""[..]),
    };
    let mut buf = [0u8; MAX_MOVE_LEN + 2];
    let mut len = 0;
    let mut push = |b: u8| {
        buf[len] = b;
        len += 1;
    };
    if body.iter().all(|&b| b == b'0' || b == b'-') && body.len() >= 3 {
        body.iter().for_each(|&b| push(if b == b'0' { b'O' } else { b }));
    } else {
        for (i, &b) in body.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| body[p]);
            let is_last = i + 1 == body.len();
            match b {
                b'-' if prev.is_some_and(|p| p.is_ascii_digit()) => {}
                b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n'
                    if is_last && matches!(prev, Some(b'1' | b'8')) =>
                {
                    push(b'=');
                    push(b.to_ascii_uppercase());
                }
                b'q' | b'r' | b'b' | b'n' if is_last && prev == Some(b'=') => {
                    push(b.to_ascii_uppercase())
                }
                _ => push(b),
            }
        }
    }
    suffix.iter().for_each(|&b| push(b));
    SanPlus::from_ascii(&buf[..len]).ok().filter(|sp| sp.san != San::Null)
}

/// A move found for a written word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// The legal move.
    pub m: Move,
    /// Why the notation is not standard SAN, if it is not.
    pub nonstandard: Option<&'static str>,
}

/// Finds the legal move `san` denotes in `pos` (`in_check`, when known,
/// says whether the side to move is in check).
#[inline]
pub fn resolve<P: Replayable>(
    pos: &P,
    san: San,
    written: &[u8],
    in_check: Option<bool>,
) -> Result<Resolved, ErrorKind> {
    match pos.san_to_move(san, in_check) {
        Ok(m) => Ok(Resolved { m, nonstandard: overspecified(pos, san, m, written, in_check) }),
        Err(SanError::AmbiguousSan) => Err(ErrorKind::AmbiguousMove),
        Err(SanError::IllegalSan) => resolve_lenient(pos, san, written, in_check),
    }
}

/// The UCI move a word spells as two squares, optionally joined by `-`
/// and followed by a promotion piece: `g1f3`, `g1-f3`, `e7e8q`.
fn as_uci(word: &[u8]) -> Option<UciMove> {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let (from, rest) = word.split_at_checked(2)?;
    let rest = rest.strip_prefix(b"-").unwrap_or(rest);
    let shaped = square(from[0], from[1])
        && match rest {
            [f, r] => square(*f, *r),
            [f, r, promotion] => square(*f, *r) && b"qrbn".contains(promotion),
            _ => false,
        };
    if !shaped {
        return None;
    }
    let mut uci = [0u8; 5];
    uci[..2].copy_from_slice(from);
    uci[2..2 + rest.len()].copy_from_slice(rest);
    UciMove::from_ascii(&uci[..2 + rest.len()]).ok()
}

/// The second chance for a SAN shakmaty rejects: a missing promotion piece
/// is its own error; coordinates of a piece move (`g1f3`, `g1-f3`, which
/// SAN syntax reads as a pawn move) and a wrong capture mark still denote a
/// unique move.
fn resolve_lenient<P: Replayable>(
    pos: &P,
    san: San,
    written: &[u8],
    in_check: Option<bool>,
) -> Result<Resolved, ErrorKind> {
    if let Some(m) = as_uci(written).and_then(|uci| uci.to_move(pos).ok()) {
        return Ok(Resolved { m, nonstandard: Some("coordinate notation") });
    }
    let San::Normal { role, file, rank, capture, to, promotion } = san else {
        return Err(ErrorKind::IllegalMove);
    };
    if role == Role::Pawn && promotion.is_none() && matches!(to.rank(), Rank::First | Rank::Eighth)
    {
        let promotes = pos.san_candidates(Role::Pawn, to).iter().any(|m| {
            m.is_promotion() && file.is_none_or(|f| m.from().is_some_and(|s| s.file() == f))
        });
        if promotes {
            return Err(ErrorKind::MissingPromotion);
        }
    }
    // A pawn move without file names the pawn of the target's file: `d5`
    // never means `exd5` (python-chess agrees).
    if role == Role::Pawn && file.is_none() && !capture {
        return Err(ErrorKind::IllegalMove);
    }
    let toggled = San::Normal { role, file, rank, capture: !capture, to, promotion };
    match pos.san_to_move(toggled, in_check) {
        Ok(m) => Ok(Resolved {
            m,
            nonstandard: Some(if capture {
                "capture mark on a non-capture"
            } else {
                "capture without x"
            }),
        }),
        Err(SanError::AmbiguousSan) => Err(ErrorKind::AmbiguousMove),
        Err(SanError::IllegalSan) => Err(ErrorKind::IllegalMove),
    }
}

/// Whether a legal SAN says more than SAN should: `Ng1f3`, `e2e4`, `Pe4`,
/// a missing pawn file on a capture. Only moves with a disambiguator are
/// compared to the canonical SAN, so the common case costs nothing.
fn overspecified<P: Replayable>(
    pos: &P,
    san: San,
    m: Move,
    written: &[u8],
    in_check: Option<bool>,
) -> Option<&'static str> {
    // A pawn drop is written `P@g4` by lichess and python-chess: standard
    // for drops, which SAN proper does not cover.
    if written.first() == Some(&b'P') && written.get(1) != Some(&b'@') {
        return Some("pawn written with P");
    }
    let San::Normal { role, file, rank, capture, .. } = san else {
        return None;
    };
    let suspicious = if role == Role::Pawn {
        rank.is_some() || file.is_some() != capture
    } else {
        file.is_some() || rank.is_some()
    };
    (suspicious && pos.canonical_san(m, in_check) != san).then_some("over- or under-disambiguated")
}

/// Whether the suffix written after a move agrees with the position it
/// reached: `+` for check, nothing without check. Mate (`#`) is judged by the
/// caller, which knows whether another move followed. A move that wins by a
/// variant's own rule (`variant_win`: an exploded king, a king on the hill,
/// a third check, no pieces left in antichess) may be marked `#`, as
/// lichess and python-chess mark it, though it need not check.
pub fn check_suffix_ok(suffix: Option<Suffix>, gives_check: bool, variant_win: bool) -> bool {
    match suffix {
        None => !gives_check,
        Some(Suffix::Checkmate) if variant_win => true,
        Some(Suffix::Check) | Some(Suffix::Checkmate) => gives_check,
    }
}

/// Whether the game ended at `pos` with a win by its variant's own rule
/// (never for standard chess, whose only win on the board is mate).
pub fn variant_win<P: Position>(pos: &P) -> bool {
    matches!(pos.variant_outcome(), Outcome::Known(KnownOutcome::Decisive { .. }))
}

/// The suffix a move that reached `pos` is written with: `#` for mate and
/// for a win by the variant's own rule, `+` for check. The variant's win
/// is marked `#` because lichess and python-chess (`Board.san`) mark it
/// so, and a game `fmt` writes must read back without a warning.
pub fn suffix_of<P: Position>(pos: &P) -> Option<Suffix> {
    match Suffix::from_position(pos) {
        Some(Suffix::Checkmate) => Some(Suffix::Checkmate),
        _ if variant_win(pos) => Some(Suffix::Checkmate),
        suffix => suffix,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Square, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn play(pos: &Chess, word: &str) -> Result<Resolved, ErrorKind> {
        match parse(word.as_bytes()) {
            Written::Move { san_plus, normalised } => {
                resolve(pos, san_plus.san, word.as_bytes(), None).map(|r| Resolved {
                    nonstandard: r.nonstandard.or(normalised.then_some("n")),
                    ..r
                })
            }
            other => panic!("{word}: {other:?}"),
        }
    }

    #[test]
    fn standard_san_is_plain() {
        let r = play(&Chess::default(), "Nf3").unwrap();
        assert_eq!(r.m.to(), Square::F3);
        assert_eq!(r.nonstandard, None);
    }

    #[test]
    fn long_algebraic_and_uci_are_accepted_as_nonstandard() {
        for word in ["e2e4", "e2-e4", "Pe4"] {
            let r = play(&Chess::default(), word).unwrap();
            assert_eq!((r.m.from(), r.m.to()), (Some(Square::E2), Square::E4), "{word}");
            assert!(r.nonstandard.is_some(), "{word}");
        }
        for word in ["Ng1f3", "g1f3", "g1-f3", "Ng1-f3"] {
            let r = play(&Chess::default(), word).unwrap();
            assert_eq!((r.m.role(), r.m.to()), (Role::Knight, Square::F3), "{word}");
            assert!(r.nonstandard.is_some(), "{word}");
        }
    }

    #[test]
    fn castling_with_zeros_is_castling() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(matches!(play(&pos, "0-0").unwrap().m, Move::Castle { .. }));
        assert!(matches!(play(&pos, "0-0-0+").unwrap().m, Move::Castle { .. }));
    }

    #[test]
    fn promotions_in_every_spelling() {
        let pos = position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        for word in ["e8=Q", "e8Q", "e7e8q", "e8=q"] {
            assert_eq!(play(&pos, word).unwrap().m.promotion(), Some(Role::Queen), "{word}");
        }
        assert_eq!(play(&pos, "e8=N").unwrap().m.promotion(), Some(Role::Knight));
        assert_eq!(play(&pos, "e8"), Err(ErrorKind::MissingPromotion));
    }

    #[test]
    fn castling_in_coordinates_is_castling() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for word in ["e1g1", "e1-g1", "e1c1"] {
            assert!(matches!(play(&pos, word).unwrap().m, Move::Castle { .. }), "{word}");
        }
    }

    #[test]
    fn a_pawn_push_never_means_a_capture() {
        let pos = position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(play(&pos, "d5"), Err(ErrorKind::IllegalMove));
        assert_eq!(play(&pos, "exd5").unwrap().nonstandard, None);
        assert_eq!(play(&pos, "ed5").unwrap().nonstandard, Some("capture without x"));
    }

    #[test]
    fn wrong_capture_mark_still_finds_the_move() {
        let r = play(&Chess::default(), "Nxf3").unwrap();
        assert_eq!(r.m.to(), Square::F3);
        assert_eq!(r.nonstandard, Some("capture mark on a non-capture"));
    }

    #[test]
    fn illegal_and_ambiguous_are_errors() {
        assert_eq!(play(&Chess::default(), "Nf4"), Err(ErrorKind::IllegalMove));
        let pos = position("k7/8/8/8/8/8/8/KN3N2 w - - 0 1");
        assert_eq!(play(&pos, "Nd2"), Err(ErrorKind::AmbiguousMove));
        assert!(play(&pos, "Nbd2").unwrap().nonstandard.is_none());
    }

    /// Every word of up to four bytes over the SAN alphabet (and seeded
    /// random longer ones): wherever `common_san` reads a word, shakmaty
    /// reads it the same; and it reads every SAN shakmaty writes.
    #[test]
    fn common_san_reads_as_shakmaty_reads() {
        const ALPHABET: &[u8] = b"abh18NBRQKPOx=+#-@qZ0";
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        let mut frontier = words.clone();
        for _ in 0..4 {
            frontier = frontier
                .iter()
                .flat_map(|w| ALPHABET.iter().map(move |&b| [w.as_slice(), &[b]].concat()))
                .collect();
            words.extend(frontier.iter().cloned());
        }
        let mut seed = 20251122_u64;
        for _ in 0..200_000 {
            let len = 5 + (seed % 5) as usize;
            let word = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ALPHABET[(seed >> 33) as usize % ALPHABET.len()]
                })
                .collect();
            words.push(word);
        }
        let mut read = 0;
        for word in &words {
            if let Some(fast) = common_san(word) {
                assert_eq!(Some(fast), SanPlus::from_ascii(word).ok(), "{}", text(word));
                read += 1;
            }
        }
        assert!(read > 400, "only {read} words read: the comparison proves little");
        for written in ["e4", "exd5", "Nbd7", "R1e2", "Qh4xe1+", "bxa8=N#", "O-O", "O-O-O+"] {
            assert!(common_san(written.as_bytes()).is_some(), "{written}");
        }
    }

    fn text(word: &[u8]) -> String {
        String::from_utf8_lossy(word).into_owned()
    }

    #[test]
    fn null_moves_and_garbage() {
        assert_eq!(parse(b"--"), Written::Null);
        assert_eq!(parse(b"Z0"), Written::Null);
        assert_eq!(parse(b"0000"), Written::Null);
        assert_eq!(parse(b"@@@@"), Written::Null);
        for garbage in ["foo", "Nz9", "e9", "xx", "Kingside"] {
            assert_eq!(parse(garbage.as_bytes()), Written::Garbage, "{garbage}");
        }
    }

    /// The variant's win is marked `#` (python-chess's `Board.san` gives
    /// `Nxf7#` here: the black king on e8 explodes); a plain variant move
    /// is marked as in chess; a pawn drop written `P@e4` is standard.
    #[test]
    fn a_variant_win_is_marked_mate_and_a_pawn_drop_may_say_p() {
        use shakmaty::variant::{Variant, VariantPosition};
        let atomic = |fen: &str| {
            let setup = Fen::from_ascii(fen.as_bytes()).unwrap().into_setup();
            VariantPosition::from_setup(Variant::Atomic, setup, CastlingMode::Standard).unwrap()
        };
        let mut pos = atomic("rnbqkbnr/1ppppppp/8/p3N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 3");
        let m = San::from_ascii(b"Nxf7").unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        assert!(variant_win(&pos));
        assert_eq!(suffix_of(&pos), Some(Suffix::Checkmate));
        assert!(check_suffix_ok(Some(Suffix::Checkmate), false, true));
        assert!(!check_suffix_ok(Some(Suffix::Checkmate), false, false));
        assert!(!check_suffix_ok(Some(Suffix::Check), false, true));
        assert_eq!(suffix_of(&atomic("8/8/8/8/8/8/8/K6k w - - 0 1")), None);

        let house = "r3k3/8/8/8/8/8/8/4K3[P] w - - 0 1";
        let setup = Fen::from_ascii(house.as_bytes()).unwrap().into_setup();
        let pos = VariantPosition::from_setup(Variant::Crazyhouse, setup, CastlingMode::Standard)
            .unwrap();
        for word in ["P@e4", "@e4"] {
            let Written::Move { san_plus, .. } = parse(word.as_bytes()) else { panic!("{word}") };
            let r = resolve(&pos, san_plus.san, word.as_bytes(), None).unwrap();
            assert_eq!((r.m.to(), r.nonstandard), (Square::E4, None), "{word}");
        }
    }
}
