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
//! rook or queen (crazyhouse; origin 0). A ply is stored as one byte: in
//! its high four bits the piece that moves, as its place among the side
//! to move's pieces in square order, and in its low four bits the move,
//! as its place among that piece's *candidates*: the targets its attacks
//! and pawn steps allow, legal or not, in square order, four promotions
//! each for a pawn about to promote. Decoding
//! finds the piece and its target with two bit scans and one attack
//! lookup: no move generation, no walk over the other pieces (an index
//! among all the pieces' candidates, the previous format, took two
//! thirds of a replay's time). A move of a 17th piece or later, a
//! candidate past the 16th (a queen's far targets), castling, drops,
//! a king promotion, a horde pawn's double step from the first rank,
//! and the byte 255 itself are [`ESCAPE`] and then the code,
//! little-endian. Decoding checks that the move is legal: a byte that
//! names no legal move (no such piece or candidate, an illegal one, an
//! illegal code, a truncated escape) is refused, never played.

use shakmaty::{Bitboard, Color, Move, Position, Rank, Role, Square, attacks};

/// The byte that stands for "the code follows": for a move that is not
/// among the first 255 candidates.
pub const ESCAPE: u8 = 255;

/// The kind of a castling move (bits 12–15).
const CASTLE: u16 = 7;

/// What is added to a role's number for a drop.
const DROP: u16 = 8;

/// The promotions a candidate may be, in order: knight, bishop, rook and
/// queen (kinds 2–5; a king's, in antichess, is escaped).
const PROMOTIONS: u16 = 4;

/// Why a `moves` value does not decode: it was corrupted, or is read
/// against the wrong start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    /// A byte that names no piece of the side to move, or no candidate
    /// of the piece it names.
    #[error("byte {0} names no candidate move (piece {piece}, candidate {nth})", piece = .0 >> 4, nth = .0 & 15)]
    Index(u8),
    /// A code, escaped or the candidate an index names, of no legal move.
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

/// Appends `m`, a legal move of `pos`, to `out`: its byte (piece and
/// candidate), or [`ESCAPE`] and its code where it has none.
pub fn push<P: Position>(out: &mut Vec<u8>, pos: &P, m: Move) {
    match byte_of(pos, m) {
        Some(byte) => out.push(byte),
        None => {
            out.push(ESCAPE);
            out.extend_from_slice(&code(m).to_le_bytes());
        }
    }
}

/// The candidate targets of the piece on `from`, a piece of the side to
/// move, and whether each is four candidates (a pawn's promotions): a
/// piece's attacks, a pawn's two diagonals and its steps forward (two
/// from its second rank), none onto its own side's pieces.
#[inline(always)]
fn candidates_of<P: Position>(pos: &P, from: Square) -> (Bitboard, bool) {
    let board = pos.board();
    let us = pos.turn();
    let own = board.by_color(us);
    let occupied = board.occupied();
    // Each role its own attack table: the generic lookup was a tenth of
    // `db build`'s time.
    let targets = if board.pawns().contains(from) {
        let promoting = from.rank() == us.fold_wb(Rank::Seventh, Rank::Second);
        return (pawn_targets(us, from) & !own, promoting);
    } else if board.knights().contains(from) {
        attacks::knight_attacks(from)
    } else if board.bishops().contains(from) {
        attacks::bishop_attacks(from, occupied)
    } else if board.rooks().contains(from) {
        attacks::rook_attacks(from, occupied)
    } else if board.queens().contains(from) {
        attacks::queen_attacks(from, occupied)
    } else if board.kings().contains(from) {
        attacks::king_attacks(from)
    } else {
        Bitboard::EMPTY
    };
    (targets & !own, false)
}

/// The candidate targets of a pawn of `us` on `from`, its own side's
/// pieces not yet taken out: its diagonals and its steps forward (two
/// from its second rank).
fn pawn_targets(us: Color, from: Square) -> Bitboard {
    let forward = |sq: Square| sq.offset(if us == Color::White { 8 } else { -8 });
    let mut targets = attacks::pawn_attacks(us, from);
    if let Some(one) = forward(from) {
        targets.add(one);
        if from.rank() == us.fold_wb(Rank::Second, Rank::Seventh) {
            targets.extend(forward(one));
        }
    }
    targets
}

/// The squares below `sq` (a1 = 0 first).
fn below(sq: Square) -> Bitboard {
    Bitboard((1u64 << u32::from(sq)) - 1)
}

/// The byte of `m` in `pos`: the place of the piece that moves among the
/// side to move's pieces, times 16, plus the place of the move among its
/// candidates; `None` when it is no candidate or either place is past
/// 15, or the byte would be [`ESCAPE`].
fn byte_of<P: Position>(pos: &P, m: Move) -> Option<u8> {
    let (from, to, promotion) = match m {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { .. } | Move::Put { .. } => return None,
    };
    let piece = (pos.board().by_color(pos.turn()) & below(from)).count();
    let (targets, promoting) = candidates_of(pos, from);
    if !targets.contains(to) {
        return None;
    }
    let before = (targets & below(to)).count();
    let nth = match (promoting, promotion) {
        (false, None) => before,
        (true, Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))) => {
            before * PROMOTIONS as usize + (role as usize - 2)
        }
        _ => return None,
    };
    let byte = u8::try_from(piece * 16 + nth).ok()?;
    (piece < 16 && nth < 16 && byte != ESCAPE).then_some(byte)
}

/// The candidate a byte names in `pos`, as a move of the piece on its
/// origin (a pawn's diagonal onto an empty square taken for en passant,
/// unless it promotes); `None` when there is no such piece or candidate.
/// Legal or not: [`Decode::candidate_is_legal`] says.
fn nth_candidate<P: Position>(pos: &P, byte: u8) -> Option<Move> {
    let board = pos.board();
    let from = board.by_color(pos.turn()).into_iter().nth(usize::from(byte >> 4))?;
    let (targets, promoting) = candidates_of(pos, from);
    let nth = usize::from(byte & 15);
    let (nth, promotion) = if promoting {
        (nth / PROMOTIONS as usize, role(2 + (nth % PROMOTIONS as usize) as u16))
    } else {
        (nth, None)
    };
    let to = targets.into_iter().nth(nth)?;
    let role = board.role_at(from)?;
    let capture = board.role_at(to);
    if role == Role::Pawn && capture.is_none() && promotion.is_none() && from.file() != to.file() {
        return Some(Move::EnPassant { from, to });
    }
    Some(Move::Normal { role, from, capture, to, promotion })
}

/// A position the decoder plays moves in, and how it checks that a
/// candidate is legal: for standard chess and Chess960 by the attacks on
/// the king once the move is made (a few lookups, where shakmaty's
/// general check generates the moves onto the target: half a replay's
/// time); for the other variants, whose rules differ (atomic captures,
/// antichess, racing kings), by shakmaty.
pub trait Decode: Position {
    /// Whether `m`, a candidate of this position (a move of one of the
    /// side to move's pieces onto one of its candidate targets), is legal.
    fn candidate_is_legal(&self, m: Move) -> bool {
        self.is_legal(m)
    }
}

impl Decode for shakmaty::variant::VariantPosition {}

impl Decode for shakmaty::Chess {
    fn candidate_is_legal(&self, m: Move) -> bool {
        // En passant (it uncovers two squares) and anything else: shakmaty.
        let Move::Normal { role, from, capture, to, .. } = m else {
            return self.is_legal(m);
        };
        let board = self.board();
        let us = self.turn();
        let occupied = board.occupied().0;
        let bit = |sq: Square| 1u64 << u32::from(sq);
        if capture == Some(Role::King) || board.by_color(us).contains(to) {
            return false;
        }
        if role == Role::Pawn {
            // A candidate's diagonal must capture; its steps must not.
            let diagonal = from.file() != to.file();
            if diagonal != capture.is_some() {
                return false;
            }
            if !diagonal {
                // The target, and on a double step the square it crosses.
                let (low, high) =
                    (u32::from(from).min(u32::from(to)), u32::from(from).max(u32::from(to)));
                let crossed = if high - low == 16 { 1u64 << (low + 8) } else { 0 };
                if occupied & (bit(to) | crossed) != 0 {
                    return false;
                }
            }
        }
        let king = if role == Role::King {
            to
        } else {
            match board.king_of(us) {
                Some(king) => king,
                None => return self.is_legal(m),
            }
        };
        // The board once the move is made: the origin empty, the target
        // ours, whatever stood there captured.
        let after = Bitboard((occupied & !bit(from)) | bit(to));
        let them = board.by_color(!us) & !Bitboard(bit(to));
        let attackers = (attacks::rook_attacks(king, after) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, after) & board.bishops_and_queens())
            | (attacks::knight_attacks(king) & board.knights())
            | (attacks::pawn_attacks(us, king) & board.pawns())
            | (attacks::king_attacks(king) & board.kings());
        (attackers & them).is_empty()
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

/// The next move of a `moves` value, legal in `pos`, taking its bytes off
/// the front of `bytes`.
pub fn next<P: Decode>(pos: &P, bytes: &mut &[u8]) -> Result<Move, Corrupt> {
    let (&first, rest) = bytes.split_first().ok_or(Corrupt::Truncated)?;
    let m = if first == ESCAPE {
        let [low, high, rest @ ..] = rest else {
            return Err(Corrupt::Truncated);
        };
        let code = u16::from_le_bytes([*low, *high]);
        let m = from_code(pos, code).ok_or(Corrupt::Code(code))?;
        *bytes = rest;
        m
    } else {
        let m = nth_candidate(pos, first).ok_or(Corrupt::Index(first))?;
        if !pos.candidate_is_legal(m) {
            return Err(Corrupt::Code(code(m)));
        }
        *bytes = rest;
        m
    };
    Ok(m)
}

/// A ply of a `moves` value as stored, undecoded: in a given position,
/// the same unit is the same move and different units different moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// An index among the candidates.
    Index(u8),
    /// An escaped code.
    Code(u16),
}

/// The next ply of a `moves` value, undecoded, taken off the front of
/// `bytes`.
pub fn unit(bytes: &mut &[u8]) -> Result<Unit, Corrupt> {
    let value: &[u8] = bytes;
    let (unit, rest) = match value {
        [ESCAPE, low, high, rest @ ..] => (Unit::Code(u16::from_le_bytes([*low, *high])), rest),
        [ESCAPE, ..] | [] => return Err(Corrupt::Truncated),
        [index, rest @ ..] => (Unit::Index(*index), rest),
    };
    *bytes = rest;
    Ok(unit)
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
    fn only<P: Decode>(pos: &P, bytes: &[u8]) -> Result<Move, Corrupt> {
        let mut rest = bytes;
        let m = next(pos, &mut rest)?;
        assert!(rest.is_empty(), "{bytes:?} left {rest:?}");
        Ok(m)
    }

    /// Plays `games` random games from `start`: every legal move of every
    /// position round-trips alone, and each game's whole value decodes to
    /// its moves (the property: encode then decode is the identity).
    /// Returns how many moves were checked.
    fn round_trip_games<P: Decode + Clone>(start: &P, games: usize, seed: u64) -> usize {
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
                same_legality(&pos);
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

    /// Each byte that names a candidate of `pos` is the byte of that
    /// candidate, and the decoder's legality of it is shakmaty's.
    fn same_legality<P: Decode>(pos: &P) {
        for byte in (0..=255).filter(|&byte| byte != ESCAPE) {
            if let Some(m) = nth_candidate(pos, byte) {
                assert_eq!(byte_of(pos, m), Some(byte), "{m:?}");
                assert_eq!(pos.candidate_is_legal(m), pos.is_legal(m), "{m:?}");
            }
        }
    }

    #[test]
    fn candidates_are_legal_when_shakmaty_says_so() {
        let fens = [
            // Pins: the knight cannot move, the rook only along the file,
            // the bishop along the diagonal.
            "4k3/4r3/8/8/1b6/4R3/3N4/4K3 w - - 0 1",
            "4k3/8/8/7b/8/8/4B3/r2NK3 w - - 0 1",
            // Check: capture or block; double check: the king alone; a king
            // cannot step back along the checking line.
            "4k3/8/8/8/1b6/8/8/R3K2R w KQ - 0 1",
            "4k3/8/8/8/1b6/8/3n4/R3K2R w KQ - 0 1",
            "8/8/8/8/4r3/8/8/4K2k w - - 0 1",
            // Pawns: blocked steps and double steps, captures, promotions,
            // en passant that uncovers a rook on the rank.
            "4k3/8/8/8/8/4n3/4P1P1/4K3 w - - 0 1",
            "4k3/8/8/8/6n1/8/4P1P1/4K3 w - - 0 1",
            "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
        ];
        for fen in fens {
            let pos = chess(fen, CastlingMode::Standard);
            same_legality(&pos);
            round_trip_games(&pos, 3, 13);
        }
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
    fn a_ply_is_one_byte_and_indexes_the_candidates() {
        // White's pieces in square order: a1 rook (0), b1 knight (1), …,
        // g1 knight (6), h1 rook (7), a2 … h2 pawns (8–15). The b1 knight's
        // candidates: a3, c3 (d2 is its own); the g1 knight's: f3, h3; the
        // e2 pawn's: d3, e3, f3, e4; the h2 pawn's: g3, h3, h4.
        let pos = Chess::default();
        let mut value = Vec::new();
        for uci in ["b1a3", "g1h3", "e2e4", "h2h4"] {
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            push(&mut value, &pos, m);
        }
        assert_eq!(value, [16, 6 * 16 + 1, 12 * 16 + 3, 15 * 16 + 2]);
        // Every legal move is one byte, naming it.
        for m in pos.legal_moves() {
            let mut one = Vec::new();
            push(&mut one, &pos, m);
            assert_eq!(one.len(), 1, "{m:?}");
            assert_eq!(nth_candidate(&pos, one[0]), Some(m), "{m:?}");
        }
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
    fn castling_drops_and_king_promotions_escape_to_the_code() {
        use shakmaty::variant::Variant;
        let escaped = |pos: &VariantPosition, m: Move| {
            let mut one = Vec::new();
            push(&mut one, pos, m);
            assert_eq!(only(pos, &one), Ok(m), "{m:?}");
            one[0] == ESCAPE && one.len() == 3
        };
        let position = |variant, fen: &str| {
            let setup = fen.parse::<Fen>().unwrap().into_setup();
            VariantPosition::from_setup(variant, setup, CastlingMode::Standard).unwrap()
        };
        // Crazyhouse with full pockets: every drop escapes, the kings'
        // steps are one byte.
        let pos = position(Variant::Crazyhouse, "k7/8/8/8/8/8/8/K7[QRBNPqrbnp] w - - 0 1");
        let legal = pos.legal_moves();
        assert!(legal.len() > 255, "{}", legal.len());
        for &m in &legal {
            assert_eq!(escaped(&pos, m), matches!(m, Move::Put { .. }), "{m:?}");
        }
        // Castling, and an antichess pawn promoting to a king.
        let pos = position(Variant::Chess, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        for m in pos.legal_moves() {
            assert_eq!(escaped(&pos, m), m.is_castle(), "{m:?}");
        }
        let pos = position(Variant::Antichess, "8/P7/8/8/8/8/8/7k w - - 0 1");
        for m in pos.legal_moves() {
            assert_eq!(escaped(&pos, m), m.promotion() == Some(Role::King), "{m:?}");
        }
        assert_eq!(plies(&[ESCAPE, 1, 2, 0, ESCAPE, 0xff, 0xff]), Some(3));
        assert_eq!(plies(&[0, ESCAPE, 1]), None);
        // Undecoded, a ply at a time, as `db dupes` hashes them.
        let mut value = &[7, ESCAPE, 0xc4, 0x71, ESCAPE, 1][..];
        assert_eq!(unit(&mut value), Ok(Unit::Index(7)));
        assert_eq!(unit(&mut value), Ok(Unit::Code(0x71c4)));
        assert_eq!(unit(&mut value), Err(Corrupt::Truncated));
        round_trip_games(&pos, 3, 5);
    }

    #[test]
    fn corrupt_values_are_refused_never_played() {
        let pos = Chess::default();
        // No candidate (the c1 bishop has none; the a2 pawn three); a
        // candidate that is not legal (a2b3); an escaped castling that is
        // not legal; an escape cut short; nothing.
        assert_eq!(only(&pos, &[2 * 16]), Err(Corrupt::Index(32)));
        assert_eq!(only(&pos, &[8 * 16 + 3]), Err(Corrupt::Index(131)));
        assert_eq!(only(&pos, &[8 * 16 + 1]), Err(Corrupt::Code(8 | 17 << 6)));
        assert_eq!(only(&pos, &[ESCAPE, 0xc4, 0x71]), Err(Corrupt::Code(0x71c4)));
        assert_eq!(next(&pos, &mut &[ESCAPE, 1][..]), Err(Corrupt::Truncated));
        assert_eq!(next(&pos, &mut &[][..]), Err(Corrupt::Truncated));
        // Codes of no legal move: e2e5, a drop in standard chess, an
        // unknown kind, castling.
        for code in [12 | 36 << 6, 28 << 6 | 9 << 12, 12 | 28 << 6 | 15 << 12, 4 | 7 << 6 | 7 << 12]
        {
            assert_eq!(from_code(&pos, code), None, "{code:#x}");
        }
        // Every byte value, and random damage to real games: refused, or a
        // legal move (a byte names a move in most positions): never a
        // panic, never an illegal move played.
        let mut legal = 0;
        for byte in 0..=255u8 {
            if let Ok(m) = next(&pos, &mut &[byte, 0, 0][..]) {
                assert!(pos.is_legal(m));
                legal += 1;
            }
        }
        assert_eq!(legal, 20);
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
