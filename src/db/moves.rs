//! The database's compact move encoding: about one byte a ply, so that
//! the `moves` column holds a game's mainline in any language's reach
//! (docs/DATABASE.md, "The moves column").
//!
//! Every move has a two-byte *code* ([`code`]): bits 0–5 the origin
//! square, bits 6–11 the target square (a1 = 0, b1 = 1, …, h8 = 63), bits
//! 12–15 the kind: 0 a plain move (en passant too), 2–6 a promotion to
//! knight, bishop, rook, queen or king (antichess), 7 castling (origin:
//! the king, target: the rook, as in Chess960, so both castlings of every
//! start position round-trip), 9–13 a drop of a pawn, knight, bishop,
//! rook or queen (crazyhouse; origin 0). A ply is stored as one byte: the
//! index of its move among the position's legal moves sorted by code.
//! A position with more than 255 legal moves (crazyhouse drops) stores
//! [`ESCAPE`] and then the code, little-endian. Decoding needs the
//! position the move is played from: a byte that names no legal move
//! (an index past the end, an escape where none is needed, an illegal
//! code, a truncated escape) is refused, never played.

use shakmaty::{Move, MoveList, Position, Role, Square};

/// The byte that stands for "the code follows", in a position with more
/// than 255 legal moves (an index is never 255: at most 254 in such
/// positions).
pub const ESCAPE: u8 = 255;

/// The kind of a castling move (bits 12–15).
const CASTLE: u16 = 7;

/// What is added to a role's number for a drop.
const DROP: u16 = 8;

/// Why a `moves` value does not decode: it was corrupted, or is read
/// against the wrong start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    /// An index past the position's legal moves.
    #[error("index {index} of {legal} legal moves")]
    Index {
        /// The byte read.
        index: u8,
        /// The legal moves of the position.
        legal: usize,
    },
    /// An escape in a position whose moves an index names.
    #[error("an escape where {0} legal moves need none")]
    Escape(usize),
    /// An escaped code of no legal move.
    #[error("code {0:#06x} is no legal move")]
    Code(u16),
    /// The value ends inside an escape, or before the move asked for.
    #[error("the value ends inside a move")]
    Truncated,
}

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
pub fn code(m: Move) -> u16 {
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

/// Appends `m`, a legal move of `pos`, to `out`: its index among the legal
/// moves sorted by code, or [`ESCAPE`] and its code where there are more
/// than 255 of them.
pub fn push<P: Position>(out: &mut Vec<u8>, pos: &P, m: Move) {
    let legal = pos.legal_moves();
    let (mut below, mut found) = (0, false);
    if let Some((from, to)) = plain(&m) {
        // Plain moves sort first, by target then origin: compared by
        // squares, at a third of the instructions of the codes.
        let wanted = to << 6 | from;
        for other in &legal {
            if let Some((from, to)) = plain(other) {
                let other = to << 6 | from;
                below += usize::from(other < wanted);
                found |= other == wanted;
            }
        }
    } else {
        let wanted = code(m);
        for &other in &legal {
            let other = code(other);
            below += usize::from(other < wanted);
            found |= other == wanted;
        }
    }
    match u8::try_from(below) {
        // At most 255 moves: the index is at most 254, never the escape.
        Ok(index) if found && legal.len() <= 255 => out.push(index),
        // An illegal move is never stored as another: its escaped code is
        // refused when read (in a position with few moves, or as illegal).
        _ => {
            debug_assert!(found, "{m:?} is not legal");
            out.push(ESCAPE);
            out.extend_from_slice(&code(m).to_le_bytes());
        }
    }
}

/// The legal move of `pos` that `code` stands for; `None` when there is
/// none (a corrupt code, or one read against the wrong position).
pub fn from_code<P: Position>(pos: &P, code: u16) -> Option<Move> {
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

/// The origin and target of a plain move (code of kind 0).
fn plain(m: &Move) -> Option<(u32, u32)> {
    match *m {
        Move::Normal { from, to, promotion: None, .. } | Move::EnPassant { from, to } => {
            Some((u32::from(from), u32::from(to)))
        }
        _ => None,
    }
}

/// The move of `legal` (at most 255) whose code is the `index`-th
/// smallest.
fn nth_by_code(legal: &MoveList, index: usize) -> Move {
    // Plain moves (kind 0) sort first, by target square then origin: a
    // bitboard of origins per target square finds the index-th by
    // popcounts, with no sort (selecting among the sorted codes took 40%
    // of a replay's instructions).
    let mut origins = [0u64; 64];
    let (mut targets, mut plains) = (0u64, 0);
    for m in legal {
        if let Some((from, to)) = plain(m) {
            origins[to as usize] |= 1 << from;
            targets |= 1 << to;
            plains += 1;
        }
    }
    if index < plains {
        let mut left = index as u32;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let mut from = origins[to as usize];
            if left < from.count_ones() {
                for _ in 0..left {
                    from &= from - 1;
                }
                let wanted = Some((from.trailing_zeros(), to));
                if let Some(&m) = legal.iter().find(|m| plain(m) == wanted) {
                    return m;
                }
                break;
            }
            left -= from.count_ones();
        }
    }
    // Promotions, castling and drops: few, but for drops; sorted whole.
    let mut keys = [0u32; 255];
    let keys = &mut keys[..legal.len()];
    for (i, (key, &m)) in keys.iter_mut().zip(legal).enumerate() {
        *key = u32::from(code(m)) << 8 | i as u32;
    }
    let (_, nth, _) = keys.select_nth_unstable(index);
    legal[(*nth & 0xff) as usize]
}

/// The next move of a `moves` value, legal in `pos`, taking its bytes off
/// the front of `bytes`.
pub fn next<P: Position>(pos: &P, bytes: &mut &[u8]) -> Result<Move, Corrupt> {
    let (&first, rest) = bytes.split_first().ok_or(Corrupt::Truncated)?;
    let legal = pos.legal_moves();
    if first == ESCAPE {
        let [low, high, rest @ ..] = rest else {
            return Err(Corrupt::Truncated);
        };
        if legal.len() <= 255 {
            return Err(Corrupt::Escape(legal.len()));
        }
        let code = u16::from_le_bytes([*low, *high]);
        let m = from_code(pos, code).ok_or(Corrupt::Code(code))?;
        *bytes = rest;
        return Ok(m);
    }
    if usize::from(first) >= legal.len() || legal.len() > 255 {
        return Err(Corrupt::Index { index: first, legal: legal.len() });
    }
    *bytes = rest;
    Ok(nth_by_code(&legal, usize::from(first)))
}

/// The plies of a `moves` value, without decoding it (an escape is three
/// bytes, any other byte one); `None` when it ends inside an escape.
pub fn plies(bytes: &[u8]) -> Option<usize> {
    let (mut at, mut plies) = (0, 0);
    while at < bytes.len() {
        at += if bytes[at] == ESCAPE { 3 } else { 1 };
        plies += 1;
    }
    (at == bytes.len()).then_some(plies)
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, FromSetup, fen::Fen, variant::VariantPosition};

    use super::*;

    /// A small deterministic generator (no dependency for the tests).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n.max(1)
        }
    }

    /// The one move `bytes` holds in `pos`, checking that it takes them
    /// all.
    fn only<P: Position>(pos: &P, bytes: &[u8]) -> Result<Move, Corrupt> {
        let mut rest = bytes;
        let m = next(pos, &mut rest)?;
        assert!(rest.is_empty(), "{bytes:?} left {rest:?}");
        Ok(m)
    }

    /// Plays `games` random games from `start`: every legal move of every
    /// position round-trips alone, and each game's whole value decodes to
    /// its moves (the property: encode then decode is the identity).
    /// Returns how many moves were checked.
    fn round_trip_games<P: Position + Clone>(start: &P, games: usize, seed: u64) -> usize {
        let mut rng = Lcg(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            let (mut value, mut played) = (Vec::new(), Vec::new());
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_variant_end() {
                    break;
                }
                for &m in &moves {
                    let mut one = Vec::new();
                    push(&mut one, &pos, m);
                    assert_eq!(only(&pos, &one), Ok(m), "{m:?}");
                    assert_eq!(from_code(&pos, code(m)), Some(m), "{m:?}");
                    checked += 1;
                }
                let m = moves[rng.below(moves.len())];
                push(&mut value, &pos, m);
                played.push(m);
                pos.play_unchecked(m);
            }
            assert_eq!(plies(&value), Some(played.len()));
            let (mut pos, mut rest) = (start.clone(), value.as_slice());
            for &m in &played {
                assert_eq!(next(&pos, &mut rest), Ok(m));
                pos.play_unchecked(m);
            }
            assert!(rest.is_empty());
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
    fn a_ply_is_one_byte_and_indexes_the_moves_by_code() {
        // The start position's 20 moves sorted by code, that is by target
        // square, then origin: b1a3 a2a3 b2b3 b1c3 c2c3 d2d3 e2e3 g1f3
        // f2f3 g2g3 g1h3 h2h3, then the eight pawns' double steps.
        let pos = Chess::default();
        let mut value = Vec::new();
        for uci in ["b1a3", "g1h3", "e2e4", "h2h4"] {
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            push(&mut value, &pos, m);
        }
        assert_eq!(value, [0, 10, 16, 19]);
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
                let mut one = Vec::new();
                push(&mut one, &pos, m);
                assert_eq!(only(&pos, &one), Ok(m), "{fen}: {m:?}");
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
    fn positions_of_more_than_255_moves_escape_to_the_code() {
        use shakmaty::variant::Variant;
        // Crazyhouse, a near-empty board and a full pocket: 5 roles × 56
        // empty squares of drops, and more.
        let fen = "k7/8/8/8/8/8/8/K7[QRBNPqrbnp] w - - 0 1";
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        let pos = VariantPosition::from_setup(Variant::Crazyhouse, setup, CastlingMode::Standard)
            .unwrap();
        let legal = pos.legal_moves();
        assert!(legal.len() > 255, "{}", legal.len());
        for &m in &legal {
            let mut one = Vec::new();
            push(&mut one, &pos, m);
            assert_eq!(one.len(), 3);
            assert_eq!(one[0], ESCAPE);
            assert_eq!(only(&pos, &one), Ok(m), "{m:?}");
        }
        assert_eq!(plies(&[ESCAPE, 1, 2, 0, ESCAPE, 0xff, 0xff]), Some(3));
        assert_eq!(plies(&[0, ESCAPE, 1]), None);
        // An index is refused where an escape is due.
        assert!(matches!(only(&pos, &[3]), Err(Corrupt::Index { .. })));
        round_trip_games(&pos, 3, 5);
    }

    #[test]
    fn corrupt_values_are_refused_never_played() {
        let pos = Chess::default();
        // Past the 20 moves; an escape where no code is needed; an escape
        // cut short; nothing.
        assert_eq!(only(&pos, &[20]), Err(Corrupt::Index { index: 20, legal: 20 }));
        assert_eq!(only(&pos, &[ESCAPE, 0xc4, 0x71]), Err(Corrupt::Escape(20)));
        assert_eq!(next(&pos, &mut &[ESCAPE, 1][..]), Err(Corrupt::Truncated));
        assert_eq!(next(&pos, &mut &[][..]), Err(Corrupt::Truncated));
        // Codes of no legal move: e2e5, a drop in standard chess, an
        // unknown kind, castling.
        for code in [12 | 36 << 6, 28 << 6 | 9 << 12, 12 | 28 << 6 | 15 << 12, 4 | 7 << 6 | 7 << 12]
        {
            assert_eq!(from_code(&pos, code), None, "{code:#x}");
        }
        // Every byte value, and random damage to real games: refused, or a
        // legal move (an index names a move in every position): never a
        // panic, never an illegal move played.
        for byte in 0..=255u8 {
            match next(&pos, &mut &[byte, 0, 0][..]) {
                Ok(m) => assert!(pos.is_legal(m) && byte < 20),
                Err(_) => assert!(byte >= 20),
            }
        }
        let mut rng = Lcg(99);
        for _ in 0..200 {
            let mut pos = Chess::default();
            let mut value = Vec::new();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                push(&mut value, &pos, m);
                pos.play_unchecked(m);
            }
            let at = rng.below(value.len());
            value[at] = rng.below(256) as u8;
            let (mut pos, mut rest) = (Chess::default(), value.as_slice());
            while !rest.is_empty() {
                let Ok(m) = next(&pos, &mut rest) else { break };
                assert!(pos.is_legal(m));
                pos.play_unchecked(m);
            }
        }
    }
}
