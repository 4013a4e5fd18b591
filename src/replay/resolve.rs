//! SAN to move for standard chess without building move lists.
//!
//! shakmaty's `San::to_move` builds the list of candidate moves and returns
//! it by value; on real games that copy alone was 10.7% of all instructions
//! (callgrind, 3 MB of master games). For a SAN naming a piece (or pawn) and
//! a target square, the squares it can come from are one attack-table lookup
//! away, and a move is legal exactly when no enemy piece attacks our king
//! once it is made. That is all this module does, for `Chess`; castling, en
//! passant and the variants go to shakmaty. A property test replays random
//! games and checks every SAN against `San::to_move`.

use shakmaty::{
    Bitboard, Chess, Color, Move, Position, Rank, Role, attacks,
    san::{San, SanError},
    variant::VariantPosition,
};

/// What the replay needs of a position type beyond shakmaty's `Position`:
/// fast SAN resolution, and whether moves are plain enough for the
/// incremental repetition hash.
pub trait Replayable: Position + Clone {
    /// Whether a move changes only what it says (the pieces it moves,
    /// captures and promotes, castling rights, en passant): true for chess;
    /// false for variants, where captures explode, pieces go to pockets and
    /// checks are counted.
    const PLAIN_MOVES: bool;

    /// The legal move `san` denotes, as `San::to_move` defines it.
    /// `in_check`, when known, says whether the side to move is in check.
    fn san_to_move(&self, san: San, in_check: Option<bool>) -> Result<Move, SanError>;
}

impl Replayable for Chess {
    const PLAIN_MOVES: bool = true;

    fn san_to_move(&self, san: San, in_check: Option<bool>) -> Result<Move, SanError> {
        fast(self, san, in_check).unwrap_or_else(|| san.to_move(self))
    }
}

impl Replayable for VariantPosition {
    const PLAIN_MOVES: bool = false;

    fn san_to_move(&self, san: San, _in_check: Option<bool>) -> Result<Move, SanError> {
        san.to_move(self)
    }
}

/// Resolves a normal SAN move, or `None` for what shakmaty should decide
/// (castling, drops, null moves, en passant).
fn fast(pos: &Chess, san: San, in_check: Option<bool>) -> Option<Result<Move, SanError>> {
    let San::Normal { role, file, rank, capture, to, promotion } = san else {
        return None;
    };
    let us = pos.turn();
    let board = pos.board();
    let king = board.king_of(us)?;
    if board.by_color(us).contains(to) {
        return Some(Err(SanError::IllegalSan));
    }
    let captured = board.role_at(to);
    if capture != captured.is_some() {
        if role == Role::Pawn && capture && Some(to) == pos.maybe_ep_square() {
            return None;
        }
        return Some(Err(SanError::IllegalSan));
    }
    let ours = board.by_piece(role.of(us));
    let promotes = role == Role::Pawn && to.rank() == (!us).backrank();
    let promotion_ok = match promotion {
        None => !promotes,
        Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => promotes,
        Some(_) => false,
    };
    if !promotion_ok {
        return Some(Err(SanError::IllegalSan));
    }
    let mut sources = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!us, to) & ours,
        Role::Pawn => pawn_push_source(pos, us, to),
        Role::King => attacks::king_attacks(to) & ours,
        _ => attacks::attacks(to, role.of(us), board.occupied()) & ours,
    };
    if let Some(file) = file {
        sources &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        sources &= Bitboard::from_rank(rank);
    }
    let in_check = in_check.unwrap_or_else(|| pos.is_check());
    let mut found = None;
    for from in sources {
        // Out of check, a piece off every line through its king cannot
        // uncover an attack on it: legal without looking further.
        let safe = !in_check && role != Role::King && attacks::ray(king, from).is_empty();
        let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
        let guarded = if role == Role::King { to } else { king };
        // Otherwise legal iff no enemy piece (other than one captured on
        // `to`) attacks our king after the move.
        if safe || (pos.king_attackers(guarded, !us, occupied) & !Bitboard::from(to)).is_empty() {
            if found.is_some() {
                return Some(Err(SanError::AmbiguousSan));
            }
            found = Some(Move::Normal { role, from, capture: captured, to, promotion });
        }
    }
    Some(found.ok_or(SanError::IllegalSan))
}

/// The square a pawn of `us` pushes to `to` from (one or two steps).
fn pawn_push_source(pos: &Chess, us: Color, to: shakmaty::Square) -> Bitboard {
    let board = pos.board();
    let pawns = board.by_piece(Role::Pawn.of(us));
    let back = if us == Color::White { -8 } else { 8 };
    let Some(behind) = to.offset(back) else { return Bitboard::EMPTY };
    if board.occupied().contains(behind) {
        return pawns & Bitboard::from(behind);
    }
    let double_step_rank = if us == Color::White { Rank::Fourth } else { Rank::Fifth };
    match behind.offset(back) {
        Some(start) if to.rank() == double_step_rank => pawns & Bitboard::from(start),
        _ => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, File, Square, fen::Fen};

    use super::*;

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Every spelling of `m` and some wrong ones: no disambiguation, file,
    /// rank, both, the other capture flag, another promotion.
    fn spellings(pos: &Chess, m: Move, rng: &mut Rng) -> Vec<San> {
        let mut out = vec![San::from_move(pos, m)];
        if let San::Normal { role, capture, to, promotion, .. } = out[0] {
            let from = m.from().unwrap_or(to);
            for (file, rank) in [
                (None, None),
                (Some(from.file()), None),
                (None, Some(from.rank())),
                (Some(from.file()), Some(from.rank())),
            ] {
                out.push(San::Normal { role, file, rank, capture, to, promotion });
                out.push(San::Normal { role, file, rank, capture: !capture, to, promotion });
            }
            let other =
                [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)][rng.below(4)];
            out.push(San::Normal { role, file: None, rank: None, capture, to, promotion: other });
            let random_to = Square::new(rng.below(64) as u32);
            let random_file = Some(File::new(rng.below(8) as u32));
            out.push(San::Normal {
                role,
                file: random_file,
                rank: None,
                capture,
                to: random_to,
                promotion,
            });
        }
        out
    }

    fn check_position(pos: &Chess, rng: &mut Rng) {
        for m in pos.legal_moves() {
            for san in spellings(pos, m, rng) {
                assert_eq!(
                    pos.san_to_move(san, None),
                    san.to_move(pos),
                    "{san} in {}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
            }
        }
        // Random SANs that usually name no legal move at all.
        for _ in 0..20 {
            let role = Role::ALL[rng.below(6)];
            let to = Square::new(rng.below(64) as u32);
            let san = San::Normal {
                role,
                file: None,
                rank: None,
                capture: rng.below(2) == 0,
                to,
                promotion: None,
            };
            assert_eq!(pos.san_to_move(san, None), san.to_move(pos), "{san}");
        }
    }

    #[test]
    fn agrees_with_shakmaty_on_random_games() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..150 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                check_position(&pos, &mut rng);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn agrees_on_pins_checks_promotions_and_en_passant() {
        let mut rng = Rng(7);
        for fen in [
            "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",  // pinned knight
            "4k3/8/8/8/4r3/8/3NN3/4K3 w - - 0 1", // check: only blocks
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",  // en passant
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",   // en passant exposing the king
            "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  // promotion with capture
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",   // castling
            "k7/8/8/8/8/8/8/KN3N2 w - - 0 1",     // ambiguous knights
            "1k6/8/8/8/8/8/8/K6q w - - 0 1",      // king in check by a queen
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            check_position(&pos, &mut rng);
        }
    }
}
