//! When two positions are the same (FIDE Art. 9.2.3): the same pieces on
//! the same squares, the same side to move, the same castling rights, and
//! an en passant square only when a legal en passant capture exists. The
//! repetition rule (`laws::repetition`) and the opening book count
//! positions by this identity.

use shakmaty::{
    EnPassantMode, Position, Square,
    fen::{Fen, ParseFenError},
};

/// Hash of a position under FIDE's identity (Art. 9.2.3): pieces, side to
/// move, castling rights, and the en passant square only when a legal en
/// passant capture exists.
pub fn position_hash<P: Position>(pos: &P) -> u64 {
    pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(EnPassantMode::Legal).0
}

/// A FEN that names one position under this identity: at least its
/// placement, side to move, castling rights and en passant square (the
/// move counters may be left out). shakmaty reads a placement alone as
/// White to move without castling rights: a lookup of it would find
/// nothing, or another position, and say nothing. The FEN is read whole
/// first, so that a text that is no FEN at all (`garbage`) is told so,
/// not told to add the fields it lacks.
pub fn parse_fen(text: &str) -> Result<Fen, String> {
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|error| explain(text, error))?;
    let fields = fields(text).count();
    if (1..4).contains(&fields) {
        let given =
            if fields == 1 { "only the placement".to_owned() } else { format!("{fields} fields") };
        return Err(format!(
            "a FEN with {given}: give the placement, the side to move, the castling rights \
             and the en passant square at least (`... b KQkq - 0 1`)"
        ));
    }
    Ok(fen)
}

/// Why `field` is not a FEN's board placement, quoting it: shakmaty says
/// only "invalid board part in fen", which names neither the text nor
/// what a placement is.
pub fn not_a_placement(field: &str) -> String {
    format!(
        "{field:?} is not a FEN's board placement (8 ranks, the 8th first, separated by `/`, \
         of pieces `KQRBNPkqrbnp` and counts of empty squares `1` to `8`)"
    )
}

/// A FEN's fields, split where shakmaty splits them (spaces, and the
/// underscores of FENs in URLs), so that a field quoted in a message is
/// the one shakmaty refused.
fn fields(text: &str) -> impl Iterator<Item = &str> {
    text.trim().split([' ', '_']).filter(|field| !field.is_empty())
}

/// What is wrong with `text`, which shakmaty refused with `error`: the
/// field it names, quoted where its place is fixed (the first four; the
/// counters move when three-check's are there).
fn explain(text: &str, error: ParseFenError) -> String {
    let field = |n: usize| fields(text).nth(n).unwrap_or_default();
    match error {
        ParseFenError::InvalidFen if fields(text).next().is_none() => "an empty FEN".to_owned(),
        ParseFenError::InvalidFen => "more fields than a FEN has".to_owned(),
        ParseFenError::InvalidBoard => not_a_placement(field(0)),
        ParseFenError::InvalidPocket => format!("the pocket of {:?} is not valid", field(0)),
        ParseFenError::InvalidTurn => format!("the side to move {:?} is not `w` or `b`", field(1)),
        ParseFenError::InvalidCastling => format!(
            "the castling rights {:?} are not valid (`-`, or some of `KQkq`, or Chess960 \
             rooks' files such as `HAha`)",
            field(2)
        ),
        ParseFenError::InvalidEpSquare => {
            format!("the en passant square {:?} is not a square or `-`", field(3))
        }
        ParseFenError::InvalidRemainingChecks => "the check counters are not valid".to_owned(),
        ParseFenError::InvalidHalfmoveClock => "the halfmove clock is not a number".to_owned(),
        ParseFenError::InvalidFullmoves => "the fullmove number is not a number".to_owned(),
    }
}

/// The square of a legal en passant capture, as the identity of positions
/// counts it (Art. 9.2.3): only after a double step can there be one, so
/// the move generation `legal_ep_square` does is skipped otherwise.
pub fn legal_en_passant<P: Position>(pos: &P) -> Option<Square> {
    pos.maybe_ep_square().and_then(|_| pos.legal_ep_square())
}
