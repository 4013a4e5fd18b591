//! When two positions are the same (FIDE Art. 9.2.3): the same pieces on
//! the same squares, the same side to move, the same castling rights, and
//! an en passant square only when a legal en passant capture exists. The
//! repetition rule (`laws::repetition`) and the opening book count
//! positions by this identity.

use shakmaty::{EnPassantMode, Position, Square, fen::Fen};

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
/// nothing, or another position, and say nothing.
pub fn parse_fen(text: &str) -> Result<Fen, String> {
    let fields = text.split_ascii_whitespace().count();
    if (1..4).contains(&fields) {
        let given =
            if fields == 1 { "only the placement".to_owned() } else { format!("{fields} fields") };
        return Err(format!(
            "a FEN with {given}: give the placement, the side to move, the castling rights \
             and the en passant square at least (`... b KQkq - 0 1`)"
        ));
    }
    text.trim().parse().map_err(|error: shakmaty::fen::ParseFenError| error.to_string())
}

/// The square of a legal en passant capture, as the identity of positions
/// counts it (Art. 9.2.3): only after a double step can there be one, so
/// the move generation `legal_ep_square` does is skipped otherwise.
pub fn legal_en_passant<P: Position>(pos: &P) -> Option<Square> {
    pos.maybe_ep_square().and_then(|_| pos.legal_ep_square())
}
