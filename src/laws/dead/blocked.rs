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
    /// The frozen pawns.
    pub walls: Bitboard,
    /// The pawns proved never to leave their file, promote nor be captured
    /// (frozen ones included): an enemy pawn of their file in front of
    /// them can never pass them before it captures.
    pub anchors: Bitboard,
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

/// The squares of `sq`'s file that a pawn of `color` there can never push
/// onto before it captures: from the first pawn of `stops` (enemy anchors)
/// in front of it on, since it can never pass that pawn.
fn file_limit(color: Color, sq: Square, stops: Bitboard) -> Bitboard {
    let file = Bitboard::from_file(sq.file());
    let i = sq as u32;
    match color {
        Color::White => {
            let ahead = file & Bitboard(u64::MAX.checked_shl(i + 1).unwrap_or(0));
            (stops & ahead)
                .first()
                .map_or(Bitboard::EMPTY, |s| file & Bitboard(u64::MAX << (s as u32)))
        }
        Color::Black => {
            let ahead = file & Bitboard((1u64 << i) - 1);
            (stops & ahead)
                .last()
                .map_or(Bitboard::EMPTY, |s| file & Bitboard(u64::MAX >> (63 - s as u32)))
        }
    }
}

/// The squares a pawn of `color` on `sq` can push onto along its file
/// before any capture: up to `walls` or `limit`.
fn file_pushes(color: Color, sq: Square, walls: Bitboard, limit: Bitboard) -> Bitboard {
    flood(Bitboard::from_square(sq), !walls & !limit, |sq| push(color, sq))
}

/// Where one piece of `color` on `sq` (not a king) can ever stand, and what
/// it can ever attack, while `walls` stay: a pawn pushes on its file short
/// of `limit` ([`file_limit`]), captures only onto `targets` (where an
/// enemy piece may stand), never when `anchored`, and may promote.
fn piece_reach(
    role: Role,
    color: Color,
    sq: Square,
    walls: Bitboard,
    targets: Bitboard,
    limit: Bitboard,
    anchored: bool,
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
            let mut stand = file_pushes(color, sq, walls, limit);
            if !anchored {
                // After a first capture the pawn is off the file its limit
                // holds on: it may then go wherever captures take it.
                let captures = union(stand, |sq| attacks::pawn_attacks(color, sq)) & targets & open;
                stand |= flood(captures, open, |sq| {
                    push(color, sq) | (attacks::pawn_attacks(color, sq) & targets)
                });
            }
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
}

/// [`Reach`] of `color`, pawns capturing only onto `targets`, `anchors`
/// never.
fn reach(
    board: &Board,
    color: Color,
    walls: Bitboard,
    targets: Bitboard,
    anchors: Bitboard,
) -> Reach {
    let mut r = Reach::default();
    let stops = anchors & board.by_color(!color);
    for sq in board.by_color(color) & !walls & !board.kings() {
        let role = board.role_at(sq).unwrap_or(Role::Pawn);
        let limit = if role == Role::Pawn { file_limit(color, sq, stops) } else { Bitboard::EMPTY };
        let (stand, attack) =
            piece_reach(role, color, sq, walls, targets, limit, anchors.contains(sq));
        r.stand |= stand;
        r.attack |= attack;
    }
    r
}

impl Frozen {
    /// The greatest set of blocked pawns that nothing can ever disturb,
    /// or `None` when there is none (or castling rights or an en-passant
    /// square, which this reasoning leaves to the search).
    ///
    /// Why it is sound: start from the pawns blocked by a pawn (frozen
    /// candidates) and from every pawn (anchor candidates), and drop, until
    /// nothing changes, each frozen one whose front square is not frozen,
    /// that an enemy piece could ever reach to be captured on a capture
    /// square, or that an enemy piece could ever attack; and each anchor
    /// whose pushes along its file could reach the last rank, a square an
    /// enemy piece could ever attack, or a square from which it could
    /// capture where an enemy piece could ever stand. At the fixed point,
    /// by induction over any sequence of legal moves: while the frozen
    /// pawns stand and the anchors keep to their files uncaptured, every
    /// other piece stays inside its flood (computed with only the frozen
    /// pawns as obstacles, kings kept off the squares frozen pawns attack,
    /// a pawn's pushes on its own file kept short of the first enemy
    /// anchor in front of it, which it can never pass), so no frozen pawn
    /// can push (its front square is held by another), capture (no enemy
    /// piece on its capture squares, an en passant victim passes over
    /// one) or be captured (not attacked), and no anchor can capture (an
    /// en passant capture included), promote or be captured (an en passant
    /// victim passes over a square its captor attacks): the invariant holds
    /// for ever.
    pub(super) fn compute(pos: &Chess) -> Option<Frozen> {
        if !pos.castles().is_empty() || pos.maybe_ep_square().is_some() {
            return None;
        }
        let board = pos.board();
        let mut frozen = kings_leave(board, candidates(board));
        let mut anchors = board.pawns();
        loop {
            if frozen.is_empty() {
                return None;
            }
            let f = Frozen::given(board, frozen, anchors);
            let mut keep = frozen;
            let mut keep_anchors = anchors;
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
                let stops = (anchors | frozen) & board.by_color(them);
                let last = Bitboard::from_rank(them.backrank());
                for sq in anchors & board.by_color(color) & !frozen {
                    let pushes = file_pushes(color, sq, frozen, file_limit(color, sq, stops));
                    let captures = union(pushes, |sq| attacks::pawn_attacks(color, sq));
                    if (pushes & (last | their_attack)).any() || (captures & their_reach).any() {
                        keep_anchors.discard(sq);
                    }
                }
            }
            if keep == frozen && keep_anchors == anchors {
                return Some(f);
            }
            frozen = keep;
            // A pawn no longer frozen may still be an anchor.
            anchors = keep_anchors;
        }
    }

    /// The reach of every piece assuming `frozen` never moves and `anchors`
    /// keep to their files uncaptured. Pawns first capture anywhere, then
    /// only where the first pass lets an enemy piece (never a king) stand:
    /// still an over-approximation, by induction over the moves.
    fn given(board: &Board, frozen: Bitboard, anchors: Bitboard) -> Frozen {
        let anchors = anchors | frozen;
        let mut f = Frozen {
            stand: [Bitboard::EMPTY; 2],
            attack: [Bitboard::EMPTY; 2],
            king: [Bitboard::EMPTY; 2],
            walls: frozen,
            anchors,
        };
        // Indexed by `Color as usize`.
        let mut first = [Reach::default(); 2];
        for color in Color::ALL {
            first[color as usize] = reach(board, color, frozen, Bitboard::FULL, anchors);
        }
        for color in Color::ALL {
            let i = color as usize;
            let r = reach(board, color, frozen, first[(!color) as usize].stand, anchors);
            f.stand[i] = r.stand;
            f.attack[i] = r.attack;
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
/// on, or on every such square the king has a flight that no piece of the
/// winner can ever attack, the winner's king can never guard, and the
/// loser's own pieces cannot all block at once (each stands on one square
/// at a time, within its reach).
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
    let checks = f.attack[w] & region;
    if checks.is_empty() {
        return true;
    }
    // Each piece of the loser that could block a flight, with where it can
    // stand; pawns capture onto what the winner's pieces may reach.
    let targets = f.stand[w];
    let stops = f.anchors & board.by_color(winner);
    let blockers: Vec<Bitboard> = (board.by_color(!winner) & !f.walls & !board.kings())
        .into_iter()
        .map(|sq| {
            let role = board.role_at(sq).unwrap_or(Role::Pawn);
            let limit = match role {
                Role::Pawn => file_limit(!winner, sq, stops),
                _ => Bitboard::EMPTY,
            };
            piece_reach(role, !winner, sq, f.walls, targets, limit, f.anchors.contains(sq)).0
        })
        .collect();
    for mate in checks {
        // The winner's king guards a flight from a square not next to the
        // mated king.
        let near = attacks::king_attacks(mate).with(mate);
        let guarded = union(f.king[w] & !near, attacks::king_attacks);
        let flights = attacks::king_attacks(mate) & region & !f.attack[w] & !guarded;
        if blockable(flights, &blockers) {
            return false;
        }
    }
    true
}

/// Whether distinct pieces, one per square, can stand on every square of
/// `flights` (each piece within its reach): a bipartite matching, grown
/// one flight at a time by augmenting paths.
fn blockable(flights: Bitboard, blockers: &[Bitboard]) -> bool {
    if flights.count() > blockers.len() {
        return false;
    }
    // The flight each blocker is matched to.
    let mut owner: Vec<Option<Square>> = vec![None; blockers.len()];
    flights.into_iter().all(|sq| augment(sq, blockers, &mut owner, &mut 0))
}

/// Kuhn's augmenting path from the flight `sq`; `visited`: a bit per
/// blocker.
fn augment(
    sq: Square,
    blockers: &[Bitboard],
    owner: &mut [Option<Square>],
    visited: &mut u64,
) -> bool {
    for (i, reach) in blockers.iter().enumerate() {
        if !reach.contains(sq) || *visited & (1 << i) != 0 {
            continue;
        }
        *visited |= 1 << i;
        if owner[i].is_none_or(|other| augment(other, blockers, owner, visited)) {
            owner[i] = Some(sq);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("a FEN");
        fen.into_position(CastlingMode::Standard).expect("a legal position")
    }

    fn squares(list: &[Square]) -> Bitboard {
        list.iter().fold(Bitboard::EMPTY, |acc, &sq| acc.with(sq))
    }

    #[test]
    fn a_pawn_never_pushes_past_an_enemy_anchor_of_its_file() {
        let stops = squares(&[Square::A5, Square::A2, Square::B3]);
        let file_a = Bitboard::from_file(shakmaty::File::A);
        assert_eq!(
            file_limit(Color::White, Square::A2, stops),
            file_a & squares(&[Square::A5, Square::A6, Square::A7, Square::A8])
        );
        assert_eq!(file_limit(Color::Black, Square::A5, stops), squares(&[Square::A1, Square::A2]));
        // Nothing in front: no limit; a stop on another file does not count.
        assert_eq!(file_limit(Color::White, Square::A5, stops), Bitboard::EMPTY);
        assert_eq!(file_limit(Color::Black, Square::B2, stops), Bitboard::EMPTY);
    }

    #[test]
    fn flights_are_blocked_by_distinct_pieces() {
        let (a2, a3) = (Square::A2, Square::A3);
        let flights = squares(&[a2, a3]);
        // One pawn of the a-file cannot stand on two of its squares.
        assert!(!blockable(flights, &[squares(&[a2, a3, Square::A4])]));
        // Two can, even when the first choice must be undone.
        assert!(blockable(flights, &[squares(&[a2, a3]), squares(&[a2])]));
        assert!(!blockable(flights, &[squares(&[a2]), squares(&[a2])]));
        assert!(blockable(Bitboard::EMPTY, &[]));
    }

    #[test]
    fn pawns_kept_to_their_files_leave_a_closing_wall_dead() {
        // No piece of either side can ever stand where a pawn of the other
        // captures, so every pawn keeps to its file and none can pass the
        // enemy pawn in front of it: White's pawns of the second rank only
        // close the wall, Black's of the fifth never get past them, the
        // black king is shut in on the eighth rank, and the white king on a
        // b, d, f or h square checked by a pawn has flights on both
        // neighbouring files that one pawn a file cannot all block.
        for fen in [
            "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
            "4k3/p1p1p1p1/8/8/P1P1P1P1/p1p1p1p1/P1P1P1P1/1K6 b - - 0 1",
        ] {
            let pos = pos(fen);
            let f = Frozen::compute(&pos).expect("frozen pawns");
            // The pawns behind the wall; the others the enemy king can
            // take.
            assert_eq!((f.anchors & !f.walls).count(), 4, "{fen}");
            assert!(cannot_mate(&pos, Color::White), "{fen}");
            assert!(cannot_mate(&pos, Color::Black), "{fen}");
        }
    }

    #[test]
    fn a_piece_that_can_be_captured_frees_the_pawns() {
        // Black's knight can jump out over the wall: a white pawn may take
        // it, leave its file and promote on the b-file. Not proved dead.
        let pos = pos("1kn5/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1");
        assert!(!cannot_mate(&pos, Color::White));
        assert!(!cannot_mate(&pos, Color::Black));
    }
}
