//! The static half of the unwinnability analysis: pawns that can never
//! move nor be captured (a locked pawn wall), the squares every other piece
//! can then ever reach, and what that leaves of a mate.
//!
//! Everything here over-approximates what the pieces can do, so a "cannot
//! mate" is a proof: see [`Frozen::compute`] for the induction.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

/// The pawns proved never to move nor be captured, and what the other
/// pieces of each side can ever reach around them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frozen {
    /// Per colour (index `Color as usize`): the squares its non-king,
    /// non-frozen pieces (promoted pawns included) may ever stand on.
    pub stand: [Bitboard; 2],
    /// Per colour: the squares those pieces may ever attack.
    pub attack: [Bitboard; 2],
    /// Per colour: the squares its king may ever stand on.
    pub king: [Bitboard; 2],
    /// Per colour: the squares its pieces other than bishops, the king and
    /// frozen pawns may ever stand on or attack.
    pub others: [Bitboard; 2],
    /// The frozen pawns.
    pub walls: Bitboard,
    /// Per colour: the squares its bishops may ever stand on.
    pub bishops: [Bitboard; 2],
    /// Per colour: the squares its bishops may ever attack.
    pub bishop_attack: [Bitboard; 2],
}

/// The pawns with a pawn (of either colour) right in front of them: the
/// only ones that may be frozen.
pub(super) fn blocked_pawns(board: &Board) -> Bitboard {
    let pawns = board.pawns();
    (board.white() & pawns & pawns.shift(-8)) | (board.black() & pawns & pawns.shift(8))
}

/// The pawns that may be frozen: those blocked by a pawn, and those with a
/// king right in front of them (frozen only while that king can never
/// move, see [`Frozen::compute`]).
fn candidates(board: &Board) -> Bitboard {
    let pawns = board.pawns();
    let kings = board.kings();
    blocked_pawns(board)
        | (board.white() & pawns & kings.shift(-8))
        | (board.black() & pawns & kings.shift(8))
}

/// Whether the square in front of the pawn of `color` on `sq` is held for
/// ever: by a frozen pawn, or by a king whose `regions` (indexed by colour)
/// is that square alone.
fn front_held(
    board: &Board,
    color: Color,
    sq: Square,
    frozen: Bitboard,
    regions: [Bitboard; 2],
) -> bool {
    let front = push(color, sq);
    (front & frozen).any()
        || Color::ALL.into_iter().any(|king| {
            board
                .king_of(king)
                .is_some_and(|k| front.contains(k) && regions[king as usize] == front)
        })
}

/// The squares the enemy king can never capture on, because they are
/// protected for ever: attacked by a frozen pawn of `color`, or next to
/// every square the king of `color` may stand on (`region`; the kings can
/// never stand side by side).
fn protected(board: &Board, color: Color, frozen: Bitboard, region: Bitboard) -> Bitboard {
    let by_pawns = union(frozen & board.by_color(color), |sq| attacks::pawn_attacks(color, sq));
    // No square is next to more than eight.
    let by_king = match region.count() {
        1..=8 => region.into_iter().fold(Bitboard::FULL, |acc, sq| acc & attacks::king_attacks(sq)),
        _ => Bitboard::EMPTY,
    };
    by_pawns | by_king
}

/// The squares reachable from `start` by repeated `step`s inside `allowed`
/// (`start` included).
fn flood(start: Bitboard, allowed: Bitboard, step: impl Fn(Square) -> Bitboard) -> Bitboard {
    let mut region = start;
    let mut frontier = start;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= step(sq);
        }
        next = next & allowed & !region;
        region |= next;
        frontier = next;
    }
    region
}

/// The union of `f` over the squares of `squares`.
fn union(squares: Bitboard, f: impl Fn(Square) -> Bitboard) -> Bitboard {
    squares.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | f(sq))
}

/// The squares in front of a pawn of `color` on `sq`.
fn push(color: Color, sq: Square) -> Bitboard {
    let bb = Bitboard::from_square(sq);
    match color {
        Color::White => bb.shift(8),
        Color::Black => bb.shift(-8),
    }
}

/// Where one piece of `color` on `sq` (not a king) can ever stand, and what
/// it can ever attack, while `walls` stay: a pawn captures only onto
/// `targets` (where an enemy piece may stand) and may promote.
fn piece_reach(
    role: Role,
    color: Color,
    sq: Square,
    walls: Bitboard,
    targets: Bitboard,
) -> (Bitboard, Bitboard) {
    let start = Bitboard::from_square(sq);
    let open = !walls;
    let slide = |start: Bitboard, role: Role| {
        let step = |sq: Square| match role {
            Role::Knight => attacks::knight_attacks(sq),
            Role::Bishop => attacks::bishop_attacks(sq, walls),
            Role::Rook => attacks::rook_attacks(sq, walls),
            _ => attacks::queen_attacks(sq, walls),
        };
        let region = flood(start, open, step);
        (region, union(region, step))
    };
    match role {
        Role::Pawn => {
            let stand = flood(start, open, |sq| {
                push(color, sq) | (attacks::pawn_attacks(color, sq) & targets)
            });
            let promoted = stand & Bitboard::from_rank((!color).backrank());
            let attack = union(stand & !promoted, |sq| attacks::pawn_attacks(color, sq));
            if promoted.is_empty() {
                return (stand, attack);
            }
            let (knights, knight_attack) = slide(promoted, Role::Knight);
            let (queens, queen_attack) = slide(promoted, Role::Queen);
            (stand | knights | queens, attack | knight_attack | queen_attack)
        }
        _ => slide(start, role),
    }
}

/// What the pieces of `color` other than its king and `walls` can reach.
#[derive(Debug, Clone, Copy, Default)]
struct Reach {
    stand: Bitboard,
    attack: Bitboard,
    bishops: Bitboard,
    bishop_attack: Bitboard,
    /// Stand and attack of the others than bishops.
    others: Bitboard,
}

/// [`Reach`] of `color`, pawns capturing only onto `targets`.
fn reach(board: &Board, color: Color, walls: Bitboard, targets: Bitboard) -> Reach {
    let mut r = Reach::default();
    for sq in board.by_color(color) & !walls & !board.kings() {
        let role = board.role_at(sq).unwrap_or(Role::Pawn);
        let (stand, attack) = piece_reach(role, color, sq, walls, targets);
        r.stand |= stand;
        r.attack |= attack;
        if role == Role::Bishop {
            r.bishops |= stand;
            r.bishop_attack |= attack;
        } else {
            r.others |= stand | attack;
        }
    }
    r
}

impl Frozen {
    /// The greatest set of blocked pawns that nothing can ever disturb,
    /// or `None` when there is none (or castling rights or an en-passant
    /// square, which this reasoning leaves to the search).
    ///
    /// Why it is sound: start from the pawns blocked by a pawn and drop,
    /// until nothing changes, each one whose front square is not frozen,
    /// that an enemy piece could ever reach to be captured on a capture
    /// square, or that an enemy piece could ever attack. At the fixed point,
    /// by induction over any sequence of legal moves: while the frozen
    /// pawns stand, every other piece stays inside its flood (computed with
    /// only the frozen pawns as obstacles, kings kept off the squares frozen
    /// pawns attack), so no frozen pawn can push (its front square is held
    /// by another), capture (no enemy piece on its capture squares, an en
    /// passant victim passes over one) or be captured (not attacked): they
    /// stand for ever.
    pub(super) fn compute(pos: &Chess) -> Option<Frozen> {
        if !pos.castles().is_empty() || pos.maybe_ep_square().is_some() {
            return None;
        }
        let board = pos.board();
        let mut frozen = kings_leave(board, candidates(board));
        loop {
            if frozen.is_empty() {
                return None;
            }
            let f = Frozen::given(board, frozen);
            let mut keep = frozen;
            for color in Color::ALL {
                let them = !color;
                let their_frozen = frozen & board.by_color(them);
                let their_reach = f.stand[them as usize] | their_frozen;
                let their_king = union(f.king[them as usize], attacks::king_attacks)
                    & !protected(board, color, frozen, f.king[color as usize]);
                let their_attack = f.attack[them as usize]
                    | their_king
                    | union(their_frozen, |sq| attacks::pawn_attacks(them, sq));
                for sq in frozen & board.by_color(color) {
                    let held = front_held(board, color, sq, frozen, f.king);
                    let can_capture = (attacks::pawn_attacks(color, sq) & their_reach).any();
                    if !held || can_capture || their_attack.contains(sq) {
                        keep.discard(sq);
                    }
                }
            }
            if keep == frozen {
                return Some(f);
            }
            frozen = keep;
        }
    }

    /// The reach of every piece assuming `frozen` never moves. Pawns first
    /// capture anywhere, then only where the first pass lets an enemy
    /// piece (never a king) stand: still an over-approximation, by
    /// induction over the moves.
    fn given(board: &Board, frozen: Bitboard) -> Frozen {
        let mut f = Frozen {
            stand: [Bitboard::EMPTY; 2],
            attack: [Bitboard::EMPTY; 2],
            king: [Bitboard::EMPTY; 2],
            others: [Bitboard::EMPTY; 2],
            bishops: [Bitboard::EMPTY; 2],
            bishop_attack: [Bitboard::EMPTY; 2],
            walls: frozen,
        };
        let first = [
            reach(board, Color::White, frozen, Bitboard::FULL),
            reach(board, Color::Black, frozen, Bitboard::FULL),
        ];
        for color in Color::ALL {
            let i = color as usize;
            let r = reach(board, color, frozen, first[(!color) as usize].stand);
            f.stand[i] = r.stand;
            f.attack[i] = r.attack;
            f.bishops[i] = r.bishops;
            f.bishop_attack[i] = r.bishop_attack;
            f.others[i] = r.others;
            let watched =
                union(frozen & board.by_color(!color), |sq| attacks::pawn_attacks(!color, sq));
            let king = board.king_of(color).map_or(Bitboard::EMPTY, Bitboard::from_square);
            f.king[i] = flood(king, !frozen & !watched, attacks::king_attacks);
        }
        f
    }
}

/// The blocked pawns that the kings alone leave frozen: the same fixed
/// point as [`Frozen::compute`] with only the kings' attacks (and the front
/// squares) considered. The full one drops at least these pawns, so it can
/// only be smaller; two king floods an iteration, it rules out most
/// positions (a king can reach an enemy pawn of the wall) before the flood
/// fills of every piece.
fn kings_leave(board: &Board, mut frozen: Bitboard) -> Bitboard {
    loop {
        if frozen.is_empty() {
            return frozen;
        }
        // Indexed by `Color as usize`.
        let mut regions = [Bitboard::EMPTY; 2];
        for color in Color::ALL {
            let watched =
                union(frozen & board.by_color(!color), |sq| attacks::pawn_attacks(!color, sq));
            let king = board.king_of(color).map_or(Bitboard::EMPTY, Bitboard::from_square);
            regions[color as usize] = flood(king, !frozen & !watched, attacks::king_attacks);
        }
        let mut keep = frozen;
        for color in Color::ALL {
            let them = !color;
            let theirs = frozen & board.by_color(them);
            let attacked = (union(regions[them as usize], attacks::king_attacks)
                & !protected(board, color, frozen, regions[color as usize]))
                | union(theirs, |sq| attacks::pawn_attacks(them, sq));
            for sq in frozen & board.by_color(color) {
                if !front_held(board, color, sq, frozen, regions)
                    || attacked.contains(sq)
                    || (attacks::pawn_attacks(color, sq) & theirs).any()
                {
                    keep.discard(sq);
                }
            }
        }
        if keep == frozen {
            return frozen;
        }
        frozen = keep;
    }
}

/// Whether `winner` provably can never mate, because of frozen pawns: no
/// piece of `winner` can ever attack a square the other king can stand
/// on, or only bishops of one colour can, and every such square has a
/// neighbour of the other colour that the loser's king can always flee to
/// (no piece of the loser can ever block it, the winner's king can never
/// guard it).
pub(super) fn cannot_mate(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    if blocked_pawns(board).is_empty() {
        return false;
    }
    let Some(f) = Frozen::compute(pos) else { return false };
    let (w, l) = (winner as usize, (!winner) as usize);
    let Some(their_king) = board.king_of(!winner) else { return false };
    // The loser's king may sit in check from a frozen pawn right now (the
    // flood then leaves its square out): not worth the case.
    let region = f.king[l];
    if !region.contains(their_king) {
        return false;
    }
    if (f.attack[w] & region).is_empty() {
        return true;
    }
    let flights_zone = region | union(region, attacks::king_attacks);
    if (f.others[w] & flights_zone).any() {
        return false;
    }
    let colour = if (f.bishops[w] & Bitboard::DARK_SQUARES) == f.bishops[w] {
        Bitboard::DARK_SQUARES
    } else if (f.bishops[w] & Bitboard::LIGHT_SQUARES) == f.bishops[w] {
        Bitboard::LIGHT_SQUARES
    } else {
        return false;
    };
    // Each piece of the loser that could block a flight, with where it can
    // stand; pawns capture onto what the winner's pieces may reach.
    let targets = f.stand[w];
    let blockers: Vec<Bitboard> = (board.by_color(!winner) & !f.walls & !board.kings())
        .into_iter()
        .map(|sq| {
            let role = board.role_at(sq).unwrap_or(Role::Pawn);
            piece_reach(role, !winner, sq, f.walls, targets).0
        })
        .collect();
    for mate in region & colour & f.bishop_attack[w] {
        // The winner's king guards a flight from a square not next to the
        // mated king.
        let near = attacks::king_attacks(mate).with(mate);
        let guarded = union(f.king[w] & !near, attacks::king_attacks);
        let flights = attacks::king_attacks(mate) & region & !colour & !guarded;
        if blockable(flights, &blockers) {
            return false;
        }
    }
    true
}

/// Whether distinct pieces, one per square, can stand on every square of
/// `flights` (each piece within its reach): a matching, by trying each
/// piece for the first square.
fn blockable(flights: Bitboard, blockers: &[Bitboard]) -> bool {
    let Some(first) = flights.first() else { return true };
    let rest = flights.without(first);
    (0..blockers.len()).any(|i| {
        blockers[i].contains(first) && {
            let mut others = blockers.to_vec();
            others.swap_remove(i);
            blockable(rest, &others)
        }
    })
}
