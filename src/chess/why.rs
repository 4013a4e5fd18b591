//! Why a written move is not legal: the reason a diagnostic gives, as
//! pgn-extract gives one ("no White queen can reach e1", "leaves the king
//! in check", "castling rights lost").
//!
//! Asked only on the error path, once per invalid game, so it may build
//! move lists and try every piece: valid games never come here. Each reason
//! has a short stable code for machine-readable output and a sentence for
//! people.

use shakmaty::{
    Bitboard, CastlingSide, Color, Move, Position, Rank, Role, Square, attacks, san::San,
};

use crate::record::ErrorKind;

/// Why a move is not legal: a stable code and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// Short stable snake_case code (`no_piece_reaches`, ...).
    pub code: &'static str,
    /// The explanation, for people.
    pub message: String,
}

/// Every reason code, for the documentation and its test.
pub const CODES: &[&str] = &[
    "game_over",
    "no_such_piece",
    "no_piece_reaches",
    "path_blocked",
    "own_piece_on_target",
    "nothing_to_capture",
    "pawn_cannot_capture_ahead",
    "en_passant_not_possible",
    "leaves_king_in_check",
    "check_not_answered",
    "king_into_check",
    "capture_compulsory",
    "castling_rights_lost",
    "castling_in_check",
    "castling_path_blocked",
    "castling_through_attack",
    "promotion_required",
    "promotion_not_last_rank",
    "promotion_piece_invalid",
    "drop_not_possible",
    "ambiguous",
    "not_legal",
];

fn why(code: &'static str, message: String) -> Why {
    debug_assert!(CODES.contains(&code), "{code} is not in CODES");
    Why { code, message }
}

fn side(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

fn name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn squares(bb: Bitboard) -> String {
    let names: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why `san` (which resolved to `kind`) is not a legal move in `pos`.
pub fn explain<P: Position>(pos: &P, san: San, kind: ErrorKind) -> Why {
    let us = pos.turn();
    let legal = pos.legal_moves();
    if legal.is_empty() || pos.is_variant_end() {
        let state = if pos.is_variant_end() {
            "the game has ended by the variant's rule"
        } else if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return why("game_over", format!("{} has no legal move ({state})", side(us)));
    }
    match (kind, san) {
        (ErrorKind::AmbiguousMove, San::Normal { role, to, .. }) => {
            let from: Bitboard = legal
                .iter()
                .filter(|m| m.role() == role && m.to() == to)
                .filter_map(|m| m.from())
                .collect();
            let plural = if from.count() > 1 { "s" } else { "" };
            why(
                "ambiguous",
                format!(
                    "ambiguous: the {}{plural} on {} can reach {to}; say which",
                    name(role),
                    squares(from)
                ),
            )
        }
        (ErrorKind::MissingPromotion, San::Normal { role, file, rank, capture, to, .. }) => {
            let queen = San::Normal { role, file, rank, capture, to, promotion: Some(Role::Queen) };
            why(
                "promotion_required",
                format!(
                    "a pawn reaching the last rank must promote: write {queen} (or =R, =B, =N)"
                ),
            )
        }
        (_, San::Castle(castling)) => castling_why(pos, castling),
        (_, San::Put { role, to }) => {
            let in_hand = pos.pockets().is_some_and(|p| *p.get(us).get(role) > 0);
            if !in_hand {
                why("drop_not_possible", format!("{} has no {} in hand", side(us), name(role)))
            } else if pos.board().occupied().contains(to) {
                why(
                    "drop_not_possible",
                    format!("{to} is occupied: a piece is dropped on an empty square"),
                )
            } else {
                why("drop_not_possible", format!("no {} can be dropped on {to} now", name(role)))
            }
        }
        (_, San::Normal { role, file, rank, capture, to, promotion }) => {
            normal_why(pos, &legal, role, file, rank, capture, to, promotion)
        }
        _ => why("not_legal", "no legal move matches".to_owned()),
    }
}

fn castling_why<P: Position>(pos: &P, castling: CastlingSide) -> Why {
    let us = pos.turn();
    let wing = match castling {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    };
    let castles = pos.castles();
    let (Some(rook), true) = (castles.rook(us, castling), castles.has(us, castling)) else {
        return why(
            "castling_rights_lost",
            format!("castling rights lost: {} may no longer castle {wing}", side(us)),
        );
    };
    if pos.is_check() {
        return why("castling_in_check", "a king in check may not castle".to_owned());
    }
    let board = pos.board();
    let blocked = castles.path(us, castling) & board.occupied();
    if blocked.any() {
        return why(
            "castling_path_blocked",
            format!(
                "castling {wing}: the squares between king and rook are not empty ({})",
                squares(blocked)
            ),
        );
    }
    if let Some(king) = board.king_of(us) {
        let king_to = castling.king_to(us);
        // The king's way, its goal included; the rook has left its square.
        let way =
            (attacks::between(king, king_to) | Bitboard::from(king_to)) & !Bitboard::from(king);
        let occupied = board.occupied() & !Bitboard::from(king) & !Bitboard::from(rook);
        let attacked: Bitboard =
            way.into_iter().filter(|&s| pos.king_attackers(s, !us, occupied).any()).collect();
        if attacked.any() {
            return why(
                "castling_through_attack",
                format!(
                    "castling {wing} through or into an attacked square ({})",
                    squares(attacked)
                ),
            );
        }
    }
    why("not_legal", format!("{} may not castle {wing} here", side(us)))
}

/// Whether the pawn of `us` on `from` moves (not captures) to `to`.
fn pawn_pushes(us: Color, from: Square, to: Square, occupied: Bitboard) -> bool {
    let forward = if us == Color::White { 8 } else { -8 };
    let one = from.offset(forward);
    if one == Some(to) {
        return !occupied.contains(to);
    }
    let start = us.relative_rank(Rank::Second);
    from.rank() == start
        && from.offset(2 * forward) == Some(to)
        && one.is_some_and(|one| !occupied.contains(one))
        && !occupied.contains(to)
}

#[allow(clippy::too_many_arguments)]
fn normal_why<P: Position>(
    pos: &P,
    legal: &[Move],
    role: Role,
    file: Option<shakmaty::File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Why {
    let us = pos.turn();
    let board = pos.board();
    let occupied = board.occupied();
    let who = side(us);
    if let Some(piece) = promotion {
        if role != Role::Pawn || to.rank() != (!us).backrank() {
            return why(
                "promotion_not_last_rank",
                "only a pawn reaching the last rank promotes".to_owned(),
            );
        }
        if !legal.iter().any(|m| m.promotion() == Some(piece))
            && matches!(piece, Role::Pawn | Role::King)
        {
            return why(
                "promotion_piece_invalid",
                format!("a pawn may not promote to a {}", name(piece)),
            );
        }
    }
    if board.by_color(us).contains(to) {
        let own = board.role_at(to).map_or("piece", name);
        return why("own_piece_on_target", format!("{to} is occupied by {who}'s own {own}"));
    }
    let mine = pos.our(role);
    if mine.is_empty() {
        return why("no_such_piece", format!("{who} has no {}", name(role)));
    }
    let named: Bitboard = mine
        .into_iter()
        .filter(|s| file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r))
        .collect();
    let target_enemy = board.by_color(!us).contains(to);
    let ep = pos.maybe_ep_square();
    let reaches = |from: Square| -> bool {
        if role == Role::Pawn {
            let diagonal = attacks::pawn_attacks(us, from).contains(to);
            if file.is_some_and(|f| f != to.file()) || capture {
                diagonal && (target_enemy || ep == Some(to))
            } else {
                pawn_pushes(us, from, to, occupied)
            }
        } else {
            attacks::attacks(from, role.of(us), occupied).contains(to)
        }
    };
    let reachers: Bitboard = named.into_iter().filter(|&s| reaches(s)).collect();
    if reachers.is_empty() {
        return unreached(pos, role, named, file, rank, capture, to, target_enemy);
    }
    let moves: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.role() == role && m.to() == to && m.from().is_some_and(|f| reachers.contains(f))
        })
        .collect();
    if moves.is_empty() {
        // Whether the move, made, leaves our king attacked: asked of the
        // position, so a variant without a royal king (antichess) never
        // says so. The piece captured on `to` attacks nothing any more.
        let exposes = |from: Square| -> bool {
            let king = if role == Role::King { Some(to) } else { board.king_of(us) };
            let Some(king) = king else { return false };
            // En passant takes the pawn beside, off the board too.
            let passed = (role == Role::Pawn && ep == Some(to) && !occupied.contains(to))
                .then(|| to.offset(if us == Color::White { -8 } else { 8 }))
                .flatten();
            let taken = Bitboard::from(to) | passed.map_or(Bitboard::EMPTY, Bitboard::from);
            let after = ((occupied & !Bitboard::from(from)) | Bitboard::from(to))
                & !passed.map_or(Bitboard::EMPTY, Bitboard::from);
            (pos.king_attackers(king, !us, after) & !taken).any()
        };
        let exposing: Bitboard = reachers.into_iter().filter(|&s| exposes(s)).collect();
        if exposing.any() {
            if pos.is_check() {
                return why(
                    "check_not_answered",
                    format!("{who}'s king is in check and this does not answer it"),
                );
            }
            if role == Role::King {
                return why("king_into_check", format!("the king would be in check on {to}"));
            }
            return why(
                "leaves_king_in_check",
                format!(
                    "leaves the king in check (the {} on {} is pinned)",
                    name(role),
                    squares(exposing)
                ),
            );
        }
        // In antichess a capture, when there is one, must be made.
        if !capture && legal.iter().all(|m| m.is_capture()) {
            return why("capture_compulsory", "a capture is compulsory in this variant".to_owned());
        }
    }
    why("not_legal", "no legal move matches".to_owned())
}

/// Why no piece `named` (of `role`, on the `file` and `rank` written) gets
/// to `to` at all, even leaving its king in check.
#[allow(clippy::too_many_arguments)]
fn unreached<P: Position>(
    pos: &P,
    role: Role,
    named: Bitboard,
    file: Option<shakmaty::File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    target_enemy: bool,
) -> Why {
    let us = pos.turn();
    let who = side(us);
    if role == Role::Pawn {
        let diagonal: Bitboard =
            named.into_iter().filter(|&s| attacks::pawn_attacks(us, s).contains(to)).collect();
        let is_capture = capture || file.is_some_and(|f| f != to.file());
        if is_capture && diagonal.any() && !target_enemy {
            // A pawn on the fifth rank taking toward an empty square with
            // an enemy pawn beside it: en passant, but not right now.
            let behind = to.offset(if us == Color::White { -8 } else { 8 });
            let passed = behind.filter(|&b| pos.their(Role::Pawn).contains(b));
            if to.rank() == us.relative_rank(Rank::Sixth)
                && let Some(passed) = passed
            {
                return why(
                    "en_passant_not_possible",
                    format!(
                        "en passant not possible now: the pawn on {passed} did not just advance two squares"
                    ),
                );
            }
            return why("nothing_to_capture", format!("there is nothing to capture on {to}"));
        }
        if !is_capture && target_enemy {
            return why(
                "pawn_cannot_capture_ahead",
                format!("{to} is occupied: a pawn captures diagonally, written with x"),
            );
        }
    }
    if role != Role::Pawn && role != Role::Knight && role != Role::King {
        // A line piece that would reach `to` on an empty board: blocked.
        let blocked: Bitboard = named
            .into_iter()
            .filter(|&s| attacks::attacks(s, role.of(us), Bitboard::EMPTY).contains(to))
            .collect();
        if blocked.any() {
            return why(
                "path_blocked",
                format!(
                    "no {who} {} can reach {to}: the way from {} is blocked",
                    name(role),
                    squares(blocked)
                ),
            );
        }
    }
    let from = match (file, rank) {
        (Some(f), Some(r)) => format!(" on {}", Square::from_coords(f, r)),
        (Some(f), None) => format!(" on the {}-file", f.char()),
        (None, Some(r)) => format!(" on rank {}", r.char()),
        (None, None) => String::new(),
    };
    let verb = if role == Role::Pawn && !capture && file.is_none() { "move to" } else { "reach" };
    why("no_piece_reaches", format!("no {who} {}{from} can {verb} {to}", name(role)))
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn code(fen: &str, san: &str, kind: ErrorKind) -> (&'static str, String) {
        let why = explain(&position(fen), San::from_ascii(san.as_bytes()).unwrap(), kind);
        (why.code, why.message)
    }

    fn illegal(fen: &str, san: &str) -> (&'static str, String) {
        code(fen, san, ErrorKind::IllegalMove)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn pieces_that_cannot_get_there() {
        assert_eq!(
            illegal(START, "Nf4"),
            ("no_piece_reaches", "no White knight can reach f4".into())
        );
        assert_eq!(illegal(START, "Qd2").0, "own_piece_on_target");
        assert_eq!(illegal(START, "Qd2").1, "d2 is occupied by White's own pawn");
        assert_eq!(illegal(START, "Qd3").0, "path_blocked");
        assert_eq!(illegal(START, "e5").0, "no_piece_reaches");
        assert_eq!(illegal("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qe2").0, "no_such_piece");
        assert_eq!(
            illegal(START, "Nbd2"),
            ("own_piece_on_target", "d2 is occupied by White's own pawn".into())
        );
    }

    #[test]
    fn pawns() {
        let pos = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2";
        assert_eq!(illegal(pos, "exd6").0, "en_passant_not_possible");
        assert_eq!(
            illegal("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1", "d5").0,
            "pawn_cannot_capture_ahead"
        );
        assert_eq!(illegal(START, "exd3").0, "nothing_to_capture");
        assert_eq!(
            code("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8", ErrorKind::MissingPromotion).0,
            "promotion_required"
        );
        assert_eq!(illegal("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e4=Q").0, "promotion_not_last_rank");
    }

    #[test]
    fn checks_and_pins() {
        // The knight on d2 is pinned by the bishop on b4.
        let pinned = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1";
        assert_eq!(illegal(pinned, "Nf3").0, "leaves_king_in_check");
        let checked = "4k3/8/8/8/8/8/4r3/K7 w - - 0 1";
        assert_eq!(illegal("4k3/8/8/8/8/8/8/r3K2N w - - 0 1", "Ng3").0, "check_not_answered");
        assert_eq!(illegal(checked, "Kb2").0, "king_into_check");
        // En passant would take the b4 pawn too, opening the rank to a4.
        assert_eq!(illegal("8/8/8/8/RPp4k/8/8/4K3 b - b3 0 1", "cxb3").0, "leaves_king_in_check");
    }

    #[test]
    fn castling() {
        let rights_lost = "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1";
        assert_eq!(illegal(rights_lost, "O-O").0, "castling_rights_lost");
        assert_eq!(illegal(START, "O-O").0, "castling_path_blocked");
        assert_eq!(
            illegal("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O").0,
            "castling_through_attack"
        );
        assert_eq!(illegal("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O").0, "castling_in_check");
    }

    #[test]
    fn antichess_captures_are_compulsory() {
        use shakmaty::variant::{Variant, VariantPosition};
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2";
        let setup = Fen::from_ascii(fen.as_bytes()).unwrap().into_setup();
        let pos =
            VariantPosition::from_setup(Variant::Antichess, setup, CastlingMode::Standard).unwrap();
        let why = explain(&pos, San::from_ascii(b"Nf3").unwrap(), ErrorKind::IllegalMove);
        assert_eq!(why.code, "capture_compulsory");
    }

    #[test]
    fn over_and_ambiguous() {
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(
            illegal(mated, "a3"),
            ("game_over", "White has no legal move (checkmate)".into())
        );
        let two = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(
            code(two, "Nd2", ErrorKind::AmbiguousMove),
            ("ambiguous", "ambiguous: the knights on b1 and f1 can reach d2; say which".into())
        );
    }

    /// Every code is in the GUIDE's table, which users read to learn them.
    #[test]
    fn every_code_is_documented() {
        let guide = include_str!("../../docs/GUIDE.md");
        for code in CODES {
            assert!(guide.contains(&format!("| `{code}` |")), "{code} is not in docs/GUIDE.md");
        }
    }

    /// Every illegal move of every piece to every square, in the positions
    /// of a game with castling, en passant and promotions at hand: each
    /// gets a reason, and in standard chess a specific one.
    #[test]
    fn every_illegal_move_in_standard_chess_has_a_specific_reason() {
        use shakmaty::File;
        let game = "e4 d5 exd5 Nf6 d4 Nxd5 c4 Nb4 a3 N4c6 d5 e5 dxe6 Bxe6 Nc3 Qxd1+ Kxd1 Nd7 Be3 \
                    O-O-O+ Kc2 Bxc4 Bxc4 Nde5 Bb5 Nd4+ Bxd4 Rxd4 Nf3 Nxf3 gxf3 Bd6 Rhg1 g6 Rg4 f5 Rg5 \
                    h6 Rxf5 a5 Rf7 Rd2+ Kb3 a4+ Kxa4 Rxb2 Ka5";
        let mut pos = Chess::default();
        let mut tried = 0;
        for word in game.split_whitespace() {
            for role in Role::ALL {
                for to in Square::ALL {
                    for file in [None, Some(File::A), Some(File::E)] {
                        for capture in [false, true] {
                            let promotion = (role == Role::Pawn
                                && to.rank() == (!pos.turn()).backrank())
                            .then_some(Role::Queen);
                            let san =
                                San::Normal { role, file, rank: None, capture, to, promotion };
                            let written = san.to_string();
                            let resolved = crate::chess::notation::resolve(
                                &pos,
                                san,
                                written.as_bytes(),
                                None,
                            );
                            if let Err(kind) = resolved {
                                let why = explain(&pos, san, kind);
                                assert_ne!(
                                    why.code,
                                    "not_legal",
                                    "{san} in {}",
                                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                                );
                                tried += 1;
                            }
                        }
                    }
                }
            }
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                let san = San::Castle(side);
                if let Err(kind) = crate::chess::notation::resolve(&pos, san, b"O-O", None) {
                    assert_ne!(explain(&pos, san, kind).code, "not_legal", "{san}");
                }
            }
            let m = San::from_ascii(word.trim_end_matches('+').as_bytes())
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(m);
        }
        assert!(tried > 10_000, "{tried}");
    }
}
