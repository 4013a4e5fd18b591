//! SAN to move (and back), and whether any move is left, for standard
//! chess without building move lists.
//!
//! shakmaty's `San::to_move` builds the list of candidate moves and returns
//! it by value, a copy every move (see `benches/HISTORY.md`). For a SAN
//! naming a piece (or pawn) and a target square, the squares it can come
//! from are one attack-table lookup away, and a move is legal exactly when
//! no enemy piece attacks our king once it is made. The same two steps
//! give the canonical SAN of a move (for over-disambiguated moves) and, at
//! a game's end, a legal move of a piece off its king's lines. For `Chess`
//! only; castling, en passant and the variants go to shakmaty. Property
//! tests replay random games and random sparse positions and check every
//! answer against shakmaty's `San::to_move`, `San::from_move` and
//! `legal_moves`.

use shakmaty::{
    Bitboard, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks,
    san::{San, SanError},
    variant::VariantPosition,
};

/// What the replay needs of a position type beyond shakmaty's `Position`:
/// fast SAN resolution, and whether moves are plain enough for the
/// repetition window to take them back.
pub trait Replayable: Position + Clone {
    /// Whether a move changes only what it says (the pieces it moves,
    /// captures and promotes, castling rights, en passant): true for chess;
    /// false for variants, where captures explode, pieces go to pockets and
    /// checks are counted.
    const PLAIN_MOVES: bool;

    /// The legal move `san` denotes, as `San::to_move` defines it.
    /// `in_check`, when known, says whether the side to move is in check.
    fn san_to_move(&self, san: San, in_check: Option<bool>) -> Result<Move, SanError>;

    /// The SAN of the legal move `m`, as `San::from_move` writes it.
    fn canonical_san(&self, m: Move, _in_check: Option<bool>) -> San {
        San::from_move(self, m)
    }

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// The position as chess, where the dead-position analysis applies
    /// (Art. 5.2.2, 6.9); `None` in a variant.
    fn as_chess(&self) -> Option<&Chess> {
        None
    }
}

impl Replayable for Chess {
    const PLAIN_MOVES: bool = true;

    fn as_chess(&self) -> Option<&Chess> {
        Some(self)
    }

    #[inline]
    fn san_to_move(&self, san: San, in_check: Option<bool>) -> Result<Move, SanError> {
        fast(self, san, in_check).unwrap_or_else(|| san.to_move(self))
    }

    fn canonical_san(&self, m: Move, in_check: Option<bool>) -> San {
        let (role, from, capture, to, promotion) = match m {
            Move::Normal { role, from, capture, to, promotion } if role != Role::Pawn => {
                (role, from, capture, to, promotion)
            }
            // Pawns, castling, drops: the SAN follows from the move alone.
            _ => return San::disambiguate(m, &MoveList::new()),
        };
        let Some(king) = self.board().king_of(self.turn()) else { return San::from_move(self, m) };
        let in_check = in_check.unwrap_or_else(|| self.is_check());
        // Disambiguated against the other pieces of the role that could go
        // to `to` legally, as `San::disambiguate` does.
        let (mut ambiguous, mut same_file, mut same_rank) = (false, false, false);
        let others = sources(self, role, false, to) & !Bitboard::from(from);
        for other in others.into_iter().filter(|&s| legal_from(self, king, role, s, to, in_check)) {
            ambiguous = true;
            same_file |= other.file() == from.file();
            same_rank |= other.rank() == from.rank();
        }
        San::Normal {
            role,
            file: (ambiguous && (!same_file || same_rank)).then(|| from.file()),
            rank: same_file.then(|| from.rank()),
            capture: capture.is_some(),
            to,
            promotion,
        }
    }

    fn has_legal_move(&self) -> bool {
        surely_has_move(self) || !self.legal_moves().is_empty()
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
    let promotes = role == Role::Pawn && to.rank() == (!us).backrank();
    let promotion_ok = match promotion {
        None => !promotes,
        Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => promotes,
        Some(_) => false,
    };
    if !promotion_ok {
        return Some(Err(SanError::IllegalSan));
    }
    let mut sources = sources(pos, role, capture, to);
    if let Some(file) = file {
        sources &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        sources &= Bitboard::from_rank(rank);
    }
    let in_check = in_check.unwrap_or_else(|| pos.is_check());
    let mut found = None;
    for from in sources.into_iter().filter(|&from| legal_from(pos, king, role, from, to, in_check))
    {
        if found.is_some() {
            return Some(Err(SanError::AmbiguousSan));
        }
        found = Some(Move::Normal { role, from, capture: captured, to, promotion });
    }
    Some(found.ok_or(SanError::IllegalSan))
}

/// The squares a `role` of the side to move could come to `to` from, by
/// how it moves (a pawn by capturing when `capture`), legal or not.
fn sources(pos: &Chess, role: Role, capture: bool, to: Square) -> Bitboard {
    let us = pos.turn();
    let board = pos.board();
    let ours = board.by_piece(role.of(us));
    match role {
        Role::Pawn if capture => attacks::pawn_attacks(!us, to) & ours,
        Role::Pawn => pawn_push_source(pos, us, to),
        Role::King => attacks::king_attacks(to) & ours,
        _ => attacks::attacks(to, role.of(us), board.occupied()) & ours,
    }
}

/// Whether the `role` on `from` may go to `to` without leaving its `king`
/// attacked: no enemy piece (other than one captured on `to`) attacks it
/// once the move is made.
fn legal_from(
    pos: &Chess,
    king: Square,
    role: Role,
    from: Square,
    to: Square,
    in_check: bool,
) -> bool {
    let board = pos.board();
    let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    if !in_check && role != Role::King {
        // Out of check, a piece can only uncover an attack along the line
        // through its king and itself, and not when it moves along that
        // line. Otherwise, only an enemy slider of the line's kind can
        // attack.
        let line = attacks::ray(king, from);
        if line.is_empty() || line.contains(to) {
            return true;
        }
        let (reach, sliders) = if king.file() == from.file() || king.rank() == from.rank() {
            (attacks::rook_attacks(king, occupied), board.rooks_and_queens())
        } else {
            (attacks::bishop_attacks(king, occupied), board.bishops_and_queens())
        };
        return (reach & line & sliders & board.by_color(!pos.turn())).is_empty();
    }
    let guarded = if role == Role::King { to } else { king };
    (pos.king_attackers(guarded, !pos.turn(), occupied) & !Bitboard::from(to)).is_empty()
}

/// Whether a piece other than the king, on no line through its king, has
/// somewhere to go while the king is not in check: such a move is legal.
/// Nearly every position has one, so the end of a game rarely needs the
/// full move generation; `false` says nothing.
fn surely_has_move(pos: &Chess) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(us) else { return false };
    if pos.is_check() {
        return false;
    }
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let free = ours & !board.kings() & !attacks::queen_attacks(king, Bitboard::EMPTY);
    let forward = if us == Color::White { 8 } else { -8 };
    free.into_iter().any(|from| match board.role_at(from) {
        Some(Role::Pawn) => {
            let push = from.offset(forward).is_some_and(|ahead| !occupied.contains(ahead));
            push || !(attacks::pawn_attacks(us, from) & board.by_color(!us)).is_empty()
        }
        Some(role) => !(attacks::attacks(from, role.of(us), occupied) & !ours).is_empty(),
        None => false,
    })
}

/// The square a pawn of `us` pushes to `to` from (one or two steps).
fn pawn_push_source(pos: &Chess, us: Color, to: Square) -> Bitboard {
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
    use crate::testing::Rng;

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
        let legal = pos.legal_moves();
        assert_eq!(pos.has_legal_move(), !legal.is_empty());
        assert!(!surely_has_move(pos) || !legal.is_empty());
        for m in legal {
            let canonical = San::from_move(pos, m);
            assert_eq!(pos.canonical_san(m, None), canonical);
            assert_eq!(pos.canonical_san(m, Some(pos.is_check())), canonical);
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

    /// Random sparse positions (kings and a few pieces anywhere), where
    /// stalemates, pins and several pieces of a kind are common.
    #[test]
    fn agrees_with_shakmaty_on_random_sparse_positions() {
        let mut rng = Rng(0x51_7cc1_b727_220a);
        let pieces = ['Q', 'R', 'B', 'N', 'P', 'q', 'r', 'b', 'n', 'p'];
        let (mut checked, mut without_moves) = (0, 0);
        while checked < 10_000 {
            let mut board = [None; 64];
            board[rng.below(64)] = Some('K');
            let black_king = rng.below(64);
            board[black_king] = board[black_king].or(Some('k'));
            for _ in 0..rng.below(7) {
                let square = rng.below(64);
                board[square] = board[square].or(Some(pieces[rng.below(pieces.len())]));
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|rank| (0..8).map(|file| board[rank * 8 + file].unwrap_or('1')).collect())
                .collect();
            let turn = if rng.below(2) == 0 { "w" } else { "b" };
            let fen = format!("{} {turn} - - 0 1", ranks.join("/"));
            let Ok(pos) = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position::<Chess>(CastlingMode::Standard)
            else {
                continue;
            };
            check_position(&pos, &mut rng);
            checked += 1;
            without_moves += usize::from(pos.legal_moves().is_empty());
        }
        assert!(without_moves > 20, "only {without_moves} positions without a move");
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
            "7k/5Q2/8/8/8/8/8/K7 b - - 0 1",      // stalemate
            "k7/8/8/8/8/8/8/KR6 b - - 0 1",       // a king with moves only
            "k7/P7/1K6/8/8/p7/P7/8 b - - 0 1",    // stalemate, pawn blocked on the king's file
            "k7/P7/1K6/8/2p5/2P5/8/8 b - - 0 1",  // stalemate, pawn blocked off the king's lines
            "7k/5Kn1/6P1/8/8/8/8/B7 b - - 0 1",   // stalemate, the knight pinned
            "6rk/5Npp/8/8/8/8/8/K7 b - - 0 1",    // smothered mate
            "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", // rooks and knights doubled on lines
            "R6R/8/8/8/8/8/1k6/4K3 w - - 0 1",    // two rooks to the same square
            "N3N3/8/8/8/N3N3/8/k7/4K3 w - - 0 1", // four knights to c7 or d6
            "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1",  // rook pinned on a file
            "6k1/8/8/8/8/2b5/3P4/4K3 w - - 0 1",  // pawn pinned by the bishop it may take
            "6k1/8/8/8/K1P4r/8/8/8 w - - 0 1",    // pawn on a rank pin pushing
            "6k1/8/8/8/K6r/8/2P5/8 w - - 0 1",    // double push under a rank pin
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",  // knight pinned on a file
            "4b1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",  // knight on the file, a bishop beyond
            "6k1/8/8/8/1q6/8/3B4/4K3 w - - 0 1",  // bishop pinned on a diagonal
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            check_position(&pos, &mut rng);
            check_every_target(&pos);
        }
    }

    /// Every piece and pawn move a SAN can name in `pos`, legal or not:
    /// each role to each square, with and without capture, undisambiguated
    /// and disambiguated by each file and rank.
    fn check_every_target(pos: &Chess) {
        let disambiguations = (0..8)
            .map(|i| (Some(File::new(i)), None))
            .chain((0..8).map(|i| (None, Some(Rank::new(i)))))
            .chain([(None, None)]);
        for (file, rank) in disambiguations {
            for role in Role::ALL {
                for to in Square::ALL {
                    for capture in [false, true] {
                        let san = San::Normal { role, file, rank, capture, to, promotion: None };
                        assert_eq!(pos.san_to_move(san, None), san.to_move(pos), "{san}");
                    }
                }
            }
        }
    }
}
