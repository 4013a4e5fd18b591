//! The move counters: FIDE Art. 9.3 (50 moves by each side without a
//! capture or a pawn move: a draw may be claimed) and Art. 9.6.2 (75 moves:
//! the game is drawn, unless the last move mates). The half-move clock of
//! the position (its FEN field) counts the plies.

/// Art. 9.3: a draw may be claimed once the clock reaches 100 plies.
/// Finding: `fifty_ply` in the record.
#[inline]
pub fn fifty_moves(halfmoves: u32) -> bool {
    halfmoves >= 100
}

/// Art. 9.6.2: the game is drawn once the clock reaches 150 plies, unless
/// the last move mated (the end stands only once a legal move follows, or
/// the last position is no mate). Finding: the `seventyfive_moves`
/// termination.
#[inline]
pub fn seventyfive_moves(halfmoves: u32) -> bool {
    halfmoves >= 150
}
