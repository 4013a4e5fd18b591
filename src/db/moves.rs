//! The database's compact move encoding: two bytes a ply, so that the
//! `moves` column holds a game's mainline in `2 × plies` bytes that any
//! language can decode (docs/DATABASE.md, "The moves column").
//!
//! A move is a little-endian `u16`: bits 0–5 the origin square, bits 6–11
//! the target square (a1 = 0, b1 = 1, …, h8 = 63), bits 12–15 the kind: 0
//! a plain move (en passant too: a pawn moving diagonally to an empty
//! square), 2–6 a promotion to knight, bishop, rook, queen or king
//! (antichess), 7 castling (origin: the king, target: the rook, as in
//! Chess960, so both castlings of every start position round-trip), 9–13
//! a drop of a pawn, knight, bishop, rook or queen (crazyhouse; origin 0).
//! Decoding needs the position the move is played from, and checks that
//! the move is legal there: a corrupt column is refused, never played.

use shakmaty::{Move, Position, Role, Square};

/// Bytes a ply takes in the `moves` column.
pub const BYTES_PER_PLY: usize = 2;

/// The kind of a castling move (bits 12–15).
const CASTLE: u16 = 7;

/// What is added to a role's number for a drop.
const DROP: u16 = 8;

/// The role of number `n` (shakmaty's and python-chess's numbering: pawn
/// 1 … king 6).
fn role(n: u16) -> Option<Role> {
    Some(match n {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    })
}

/// The two-byte code of `m`.
pub fn encode(m: Move) -> u16 {
    let square = |sq: Square| u16::from(u8::from(sq));
    match m {
        Move::Normal { from, to, promotion, .. } => {
            let kind = promotion.map_or(0, |role| role as u16);
            square(from) | square(to) << 6 | kind << 12
        }
        Move::EnPassant { from, to } => square(from) | square(to) << 6,
        Move::Castle { king, rook } => square(king) | square(rook) << 6 | CASTLE << 12,
        Move::Put { role, to } => square(to) << 6 | (DROP + role as u16) << 12,
    }
}

/// Appends the code of `m` to `out`, little-endian.
pub fn push(out: &mut Vec<u8>, m: Move) {
    out.extend_from_slice(&encode(m).to_le_bytes());
}

/// The legal move of `pos` that `code` stands for; `None` when there is
/// none (a corrupt code, or one read against the wrong position).
pub fn decode<P: Position>(pos: &P, code: u16) -> Option<Move> {
    let from = Square::new(u32::from(code & 63));
    let to = Square::new(u32::from((code >> 6) & 63));
    let kind = code >> 12;
    let board = pos.board();
    let m = match kind {
        0 | 2..=6 => {
            let moving = board.role_at(from)?;
            let diagonal = from.file() != to.file();
            if kind == 0 && moving == Role::Pawn && diagonal && board.role_at(to).is_none() {
                Move::EnPassant { from, to }
            } else {
                let promotion = if kind == 0 { None } else { Some(role(kind)?) };
                Move::Normal { role: moving, from, capture: board.role_at(to), to, promotion }
            }
        }
        CASTLE => Move::Castle { king: from, rook: to },
        9..=13 if code & 63 == 0 => Move::Put { role: role(kind - DROP)?, to },
        _ => return None,
    };
    pos.is_legal(m).then_some(m)
}

/// The codes of a `moves` value, in order; a trailing odd byte is ignored
/// (the caller checks the length).
pub fn codes(bytes: &[u8]) -> impl Iterator<Item = u16> + '_ {
    bytes.chunks_exact(BYTES_PER_PLY).map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
}

#[cfg(test)]
mod tests {
    use shakmaty::{
        CastlingMode, Chess, EnPassantMode, FromSetup, fen::Fen, variant::VariantPosition,
    };

    use super::*;

    /// A small deterministic generator (no dependency for the tests).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n.max(1)
        }
    }

    /// Every legal move of every position of `games` random games from
    /// `start` round-trips; returns how many moves were checked.
    fn round_trip_games<P: Position + Clone>(start: &P, games: usize, seed: u64) -> usize {
        let mut rng = Lcg(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_variant_end() {
                    break;
                }
                for &m in &moves {
                    assert_eq!(decode(&pos, encode(m)), Some(m), "{m:?}");
                    checked += 1;
                }
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(m);
            }
        }
        checked
    }

    fn chess(fen: &str, mode: CastlingMode) -> Chess {
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        Chess::from_setup(setup, mode).unwrap()
    }

    #[test]
    fn every_legal_move_of_random_standard_games_round_trips() {
        assert!(round_trip_games(&Chess::default(), 40, 1) > 50_000);
    }

    #[test]
    fn castling_en_passant_and_promotions_round_trip() {
        let fens = [
            // Both castlings for both sides.
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
            // En passant, both ways.
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2",
            // Promotions, with and without capture.
            "1n2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1",
            "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
        ];
        for fen in fens {
            let pos = chess(fen, CastlingMode::Standard);
            for m in pos.legal_moves() {
                assert_eq!(decode(&pos, encode(m)), Some(m), "{fen}: {m:?}");
            }
            round_trip_games(&pos, 5, 7);
        }
        let castle = chess(fens[0], CastlingMode::Standard);
        let castles = castle.legal_moves().into_iter().filter(|m| m.is_castle()).count();
        assert_eq!(castles, 2);
    }

    #[test]
    fn chess960_castling_round_trips() {
        // King and rook side by side (f1, g1: the king does not move when
        // castling short), a king on b1 castling long by one square: the
        // cases a king-to-square encoding gets wrong.
        let fens = [
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
            "rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w KQkq - 0 1",
            "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1",
        ];
        for fen in fens {
            let setup = fen.parse::<Fen>().unwrap().into_setup();
            let pos = Chess::from_setup(setup, CastlingMode::Chess960).unwrap();
            let castles: Vec<_> = pos.legal_moves().into_iter().filter(|m| m.is_castle()).collect();
            assert!(!castles.is_empty(), "{fen}");
            for m in pos.legal_moves() {
                assert_eq!(decode(&pos, encode(m)), Some(m), "{fen}: {m:?}");
            }
            round_trip_games(&pos, 10, 3);
        }
    }

    #[test]
    fn variants_round_trip() {
        use shakmaty::variant::Variant;
        for (i, variant) in Variant::ALL.iter().enumerate() {
            let pos = VariantPosition::new(*variant);
            assert!(round_trip_games(&pos, 10, i as u64) > 100, "{variant:?}");
        }
        // Drops: a crazyhouse position with pockets full.
        let fen = "r1bqk2r/ppp2ppp/2n2n2/2b1p3/2B1P3/5N2/PPP2PPP/RNBQK2R[Pp] w KQkq - 0 1";
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        let pos = VariantPosition::from_setup(Variant::Crazyhouse, setup, CastlingMode::Standard)
            .unwrap();
        let drops = pos.legal_moves().into_iter().filter(|m| matches!(m, Move::Put { .. })).count();
        assert!(drops > 20, "{drops}");
        round_trip_games(&pos, 5, 11);
    }

    #[test]
    fn codes_of_no_legal_move_are_refused() {
        let pos = Chess::default();
        // e2e5, a drop in standard chess, an unknown kind, castling.
        for code in [12 | 36 << 6, 28 << 6 | 9 << 12, 12 | 28 << 6 | 15 << 12, 4 | 7 << 6 | 7 << 12]
        {
            assert_eq!(decode(&pos, code), None, "{code:#x}");
        }
        assert_eq!(codes(&[1, 2, 3]).collect::<Vec<_>>(), vec![0x0201]);
        let ep = chess("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", CastlingMode::Standard);
        assert!(ep.ep_square(EnPassantMode::Legal).is_some());
    }
}
