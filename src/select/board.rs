//! Predicates on the positions and moves of a game's mainline: a position
//! reached (under FIDE's identity of positions, Art. 9.2.3, transpositions
//! included), a piece placement, a material signature at some ply or at
//! the end, and the moves a game starts with. Decided while the game is
//! replayed, from the positions the replay already makes.

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, Move, Position, Role, Setup,
    Square, san::San,
};

use crate::chess::identity::{legal_en_passant, not_a_placement, parse_fen};

/// One test of a game's positions or moves.
#[derive(Debug, Clone)]
pub enum BoardTest {
    /// The mainline reached this position (`--fen`).
    Position(Identity, Reach),
    /// The mainline reached this placement of pieces (`--placement`).
    Placement(Box<Board>, Reach),
    /// The mainline reached this material (`--material`).
    Material(Signature),
    /// The last position has this material (`--final-material`).
    FinalMaterial(Signature),
    /// The game starts, from the standard position, with these moves
    /// (`--moves`).
    Moves(Vec<Move>),
}

/// A position under FIDE's identity: the same pieces on the same squares,
/// the same side to move, the same castling rights, and an en passant
/// square only when a legal capture exists. Hashed as a key of the opening
/// tree (`tree`), where transpositions are one position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity {
    board: Board,
    turn: Color,
    castling: Bitboard,
    en_passant: Option<Square>,
}

impl Identity {
    /// The identity of `pos`.
    pub fn of<P: Position>(pos: &P) -> Identity {
        Identity {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: pos.castles().castling_rights(),
            en_passant: legal_en_passant(pos),
        }
    }

    /// A FEN's position (standard chess or Chess960).
    pub fn parse(text: &str) -> Result<Identity, String> {
        let fen = parse_fen(text).map_err(|error| format!("--fen {text}: {error}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Chess960)
            .map_err(|error| format!("--fen {text}: {error}"))?;
        Ok(Identity::of(&pos))
    }

    /// What a position must keep to lead to this one.
    pub fn reach(&self) -> Reach {
        Reach::of(&self.board, self.castling)
    }

    /// The position as a setup, its move counters at their defaults (0
    /// and 1): what a FEN of it is made from.
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling,
            ep_square: self.en_passant,
            ..Setup::empty()
        }
    }

    /// Whether `pos` is this position (the board first: it differs most
    /// often, and is cheapest to compare).
    pub fn matches<P: Position>(&self, pos: &P) -> bool {
        *pos.board() == self.board
            && pos.turn() == self.turn
            && pos.castles().castling_rights() == self.castling
            && legal_en_passant(pos) == self.en_passant
    }
}

/// What a position must keep for a target position to stay reachable.
/// Outside Crazyhouse (whose drops bring pieces back), the pieces of a
/// colour and its pawns are never more than they were (captures remove
/// them, promotions replace a pawn), a pawn never returns to its start
/// rank (but a Horde pawn on the first rank may step onto it), and
/// castling rights, once lost, are lost for good. Most games leave an
/// opening position's reach within a few moves, so their replay can stop
/// there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pieces: ByColor<u32>,
    pawns: ByColor<u32>,
    /// The target's pawns on their start ranks (White's 2nd, Black's 7th).
    home: ByColor<Bitboard>,
    castling: Bitboard,
}

impl Reach {
    /// The reach of `board` with castling rights `castling`.
    pub fn of(board: &Board, castling: Bitboard) -> Reach {
        let home = ByColor {
            white: Bitboard::from_rank(shakmaty::Rank::Second),
            black: Bitboard::from_rank(shakmaty::Rank::Seventh),
        };
        Reach {
            pieces: ByColor::new_with(|c| board.by_color(c).count() as u32),
            pawns: ByColor::new_with(|c| (board.pawns() & board.by_color(c)).count() as u32),
            home: ByColor::new_with(|c| board.pawns() & board.by_color(c) & *home.get(c)),
            castling,
        }
    }

    /// Whether a position with `board` and `castling` may still lead to
    /// the target (the rules above; `false` is a proof, `true` is not).
    pub fn possible(&self, board: &Board, castling: Bitboard) -> bool {
        let first = ByColor {
            white: Bitboard::from_rank(shakmaty::Rank::First),
            black: Bitboard::from_rank(shakmaty::Rank::Eighth),
        };
        self.castling.is_subset(castling)
            && Color::ALL.into_iter().all(|c| {
                let ours = board.by_color(c);
                let pawns = board.pawns() & ours;
                ours.count() as u32 >= *self.pieces.get(c)
                    && pawns.count() as u32 >= *self.pawns.get(c)
                    && (self.home.get(c).is_subset(pawns) || (pawns & *first.get(c)).any())
            })
    }
}

impl Reach {
    /// Whether a game that reached the target may end in `end` (the same
    /// rules, from the target to the end: pieces and pawns never more,
    /// the end's home pawns among the target's).
    fn may_precede(&self, end: &Ending) -> bool {
        Color::ALL.into_iter().all(|c| {
            let (pieces, pawns) = end.side(c);
            pieces <= *self.pieces.get(c)
                && pawns <= *self.pawns.get(c)
                && end.home.get(c).is_subset(*self.home.get(c))
        })
    }
}

/// What the last position of a game tells of the positions before it:
/// its material and its pawns on their start squares (the `games` table's
/// `final_material` and `home_pawns`). Only for standard chess and
/// Chess960: elsewhere drops or Horde's first-rank pawns break the rules
/// of [`Reach`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    material: ByColor<ByRole<u8>>,
    home: ByColor<Bitboard>,
}

impl Ending {
    /// The ending of a `final_material` signature (`KRvK`) and a
    /// `home_pawns` value (bits 0–7: White's pawns on a2–h2, 8–15:
    /// Black's on a7–h7); `None` when the signature does not read.
    pub fn of(material: &str, home_pawns: i32) -> Option<Ending> {
        let material = Signature::parse(material, true).ok()?.material;
        let bits = u64::from(home_pawns as u32);
        let home = ByColor {
            white: Bitboard((bits & 0xff) << 8),
            black: Bitboard((bits >> 8 & 0xff) << 48),
        };
        Some(Ending { material, home })
    }

    /// The ending of a last position's board.
    pub fn of_board(board: &Board) -> Ending {
        let home = ByColor {
            white: board.pawns() & board.white() & Bitboard::from_rank(shakmaty::Rank::Second),
            black: board.pawns() & board.black() & Bitboard::from_rank(shakmaty::Rank::Seventh),
        };
        Ending { material: board.material(), home }
    }

    /// A side's pieces (king and pawns included) and pawns.
    fn side(&self, c: Color) -> (u32, u32) {
        let side = self.material.get(c);
        (side.iter().map(|&n| u32::from(n)).sum(), u32::from(side.pawn))
    }
}

impl BoardTest {
    /// Whether a game that ends in `end` may pass this test (`false` is a
    /// proof: the game need not be replayed).
    pub fn may_end_in(&self, end: &Ending) -> bool {
        match self {
            BoardTest::Position(_, reach) | BoardTest::Placement(_, reach) => {
                reach.may_precede(end)
            }
            BoardTest::Material(signature) => {
                let fits = |(pieces, pawns): (u32, u32), (most, most_pawns): (u32, u32)| {
                    pieces <= most && pawns <= most_pawns
                };
                let (white, black) = (end.side(Color::White), end.side(Color::Black));
                let ByColor { white: w, black: b } = signature.sides;
                (fits(white, w) && fits(black, b))
                    || (!signature.strict && fits(white, b) && fits(black, w))
            }
            BoardTest::FinalMaterial(signature) => signature.matches(&end.material),
            BoardTest::Moves(_) => true,
        }
    }
}

/// A placement, as the first field of a FEN.
pub fn placement(text: &str) -> Result<Board, String> {
    let field = text.split_whitespace().next().unwrap_or("");
    Board::from_ascii_board_fen(field.as_bytes())
        .map_err(|_| format!("--placement {text}: {}", not_a_placement(field)))
}

/// A material signature, `KRPvKR`: White's pieces, `v`, Black's, kings
/// included; either colour matches unless `strict`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    material: ByColor<ByRole<u8>>,
    /// How many pieces in all: most positions differ in that already,
    /// which one count of the board tells.
    pieces: usize,
    /// Each side's pieces and pawns, `(pieces, pawns)`.
    sides: ByColor<(u32, u32)>,
    strict: bool,
}

impl Signature {
    /// Reads `KRPvKR`.
    pub fn parse(text: &str, strict: bool) -> Result<Signature, String> {
        let error =
            || format!("not a material signature: {text} (such as KRPvKR: pieces, v, pieces)");
        let (white, black) = text.trim().split_once(['v', 'V']).ok_or_else(error)?;
        let side = |pieces: &str| -> Result<ByRole<u8>, String> {
            let mut counts = ByRole::<u8>::default();
            for c in pieces.chars() {
                let role = Role::from_char(c.to_ascii_lowercase()).ok_or_else(error)?;
                *counts.get_mut(role) = counts.get(role).saturating_add(1);
            }
            Ok(counts)
        };
        let material = ByColor { white: side(white)?, black: side(black)? };
        let pieces = material.iter().flat_map(|side| side.iter()).map(|&n| usize::from(n)).sum();
        let sides =
            material.map(|side| (side.iter().map(|&n| u32::from(n)).sum(), u32::from(side.pawn)));
        Ok(Signature { material, pieces, sides, strict })
    }

    /// Whether a position with `board` may still come to this material
    /// (pieces and pawns of a colour are never more than they were; see
    /// [`Reach`]).
    fn possible(&self, board: &Board) -> bool {
        let has = |c: Color| {
            let ours = board.by_color(c);
            (ours.count() as u32, (board.pawns() & ours).count() as u32)
        };
        let (white, black) = (has(Color::White), has(Color::Black));
        let fits = |(pieces, pawns): (u32, u32), (least, least_pawns): (u32, u32)| {
            pieces >= least && pawns >= least_pawns
        };
        let ByColor { white: w, black: b } = self.sides;
        (fits(white, w) && fits(black, b)) || (!self.strict && fits(white, b) && fits(black, w))
    }

    fn matches(&self, material: &ByColor<ByRole<u8>>) -> bool {
        *material == self.material
            || (!self.strict
                && material.white == self.material.black
                && material.black == self.material.white)
    }
}

impl BoardTest {
    /// `--moves "1. e4 c5 2. Nf3"`: moves in SAN from the standard start,
    /// with or without move numbers.
    pub fn moves(text: &str) -> Result<BoardTest, String> {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        let mut sans = Vec::new();
        for token in text.split_whitespace() {
            let word = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() {
                continue;
            }
            let san: San = word.parse().map_err(|_| format!("--moves: not a move: {token}"))?;
            let m = san.to_move(&pos).map_err(|_| {
                // Numbered as a game is: "2. Nf6 is not legal after 1. e4 e5".
                let ply = moves.len();
                let number = ply / 2 + 1;
                let dots = if ply % 2 == 0 { "." } else { "..." };
                let before = crate::tree::numbered(sans.clone(), Color::White, 1);
                match before.is_empty() {
                    true => format!("--moves: {number}{dots} {word} is not legal at the start"),
                    false => format!("--moves: {number}{dots} {word} is not legal after {before}"),
                }
            })?;
            sans.push(shakmaty::san::San::from_move(&pos, m).to_string());
            pos.play_unchecked(m);
            moves.push(m);
        }
        if moves.is_empty() {
            return Err("--moves: no move given".into());
        }
        Ok(BoardTest::Moves(moves))
    }
}

/// How far each test of one game has got: for a position, a placement or
/// a material reached, 1 once seen; for the final material, whether the
/// latest position has it; for moves, how many of them the game began
/// with. `FAILED` once the test can no longer pass.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    state: Vec<u32>,
    /// Whether a test was decided since the last [`Progress::take_changed`].
    changed: bool,
    /// Whether unreachable targets are proved so ([`Reach`]): not in
    /// Crazyhouse.
    prune: bool,
    /// Whether tests of material are asked for (only then is it counted).
    material: bool,
    /// Whether tests of positions are asked for (only then is each
    /// position looked at).
    positions: bool,
    /// Whether each position must be looked at: a position or a placement
    /// is asked for, or an anchor; otherwise only those after a capture or
    /// a promotion (material changes by nothing else).
    every_ply: bool,
    /// Moves tests still to be decided: while there are none, a move costs
    /// no look at the moves.
    moves_open: usize,
}

/// The material on `board`: out of line, so that the compiler does not
/// count it for every position whether or not a signature has as many
/// pieces (it did, at 300 instructions a ply).
#[inline(never)]
fn material_of(board: &Board) -> ByColor<ByRole<u8>> {
    board.material()
}

/// A test that can no longer pass: a game that cannot start with the
/// moves asked for, a target out of reach or past its ply.
const FAILED: u32 = u32::MAX;

/// Where a test stands while a game is replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// It holds whatever comes next.
    Yes,
    /// It fails whatever comes next.
    No,
    /// The rest of the game decides.
    Open,
}

impl Decision {
    /// Both must hold.
    pub fn and(self, other: Decision) -> Decision {
        match (self, other) {
            (Decision::No, _) | (_, Decision::No) => Decision::No,
            (Decision::Yes, Decision::Yes) => Decision::Yes,
            _ => Decision::Open,
        }
    }

    /// Either may hold.
    pub fn or(self, other: Decision) -> Decision {
        match (self, other) {
            (Decision::Yes, _) | (_, Decision::Yes) => Decision::Yes,
            (Decision::No, Decision::No) => Decision::No,
            _ => Decision::Open,
        }
    }
}

impl std::ops::Not for Decision {
    type Output = Decision;

    /// The opposite.
    fn not(self) -> Decision {
        match self {
            Decision::Yes => Decision::No,
            Decision::No => Decision::Yes,
            Decision::Open => Decision::Open,
        }
    }
}

impl Progress {
    /// Nothing seen yet, for `tests`.
    pub fn reset(&mut self, tests: &[BoardTest]) {
        self.state.clear();
        self.state.resize(tests.len(), 0);
        self.changed = false;
        self.material =
            tests.iter().any(|t| matches!(t, BoardTest::Material(_) | BoardTest::FinalMaterial(_)));
        self.positions = tests.iter().any(|t| !matches!(t, BoardTest::Moves(_)));
        self.moves_open = tests.iter().filter(|t| matches!(t, BoardTest::Moves(_))).count();
    }

    /// The position at the start (ply 0); `standard` when it is chess's,
    /// `chess` when the game is chess or Chess960 (a variant's positions
    /// are none that `--fen` names).
    pub fn start<P: Position>(
        &mut self,
        tests: &[BoardTest],
        anchor: Option<u32>,
        pos: &P,
        standard: bool,
        chess: bool,
    ) {
        self.prune = pos.pockets().is_none();
        self.every_ply = anchor.is_some()
            || tests
                .iter()
                .any(|t| matches!(t, BoardTest::Position(..) | BoardTest::Placement(..)));
        for (test, state) in tests.iter().zip(&mut self.state) {
            match test {
                BoardTest::Moves(_) if !standard => {
                    *state = FAILED;
                    self.moves_open -= 1;
                    self.changed = true;
                }
                BoardTest::Position(..) if !chess => {
                    *state = FAILED;
                    self.changed = true;
                }
                _ => {}
            }
        }
        if self.positions {
            self.position(tests, anchor, pos, 0, true);
        }
    }

    /// Mainline move `m`, to ply `ply`, gave `pos`.
    pub fn after_move<P: Position>(
        &mut self,
        tests: &[BoardTest],
        anchor: Option<u32>,
        pos: &P,
        m: &Move,
        ply: u32,
    ) {
        if self.moves_open > 0 {
            for (test, state) in tests.iter().zip(&mut self.state) {
                if let BoardTest::Moves(moves) = test
                    && *state != FAILED
                    && (*state as usize) < moves.len()
                {
                    *state = if *state + 1 == ply && moves[*state as usize] == *m {
                        ply
                    } else {
                        FAILED
                    };
                    if *state == FAILED || *state as usize == moves.len() {
                        self.moves_open -= 1;
                        self.changed = true;
                    }
                }
            }
        }
        if self.positions {
            // Material changes only by a capture or a promotion.
            let material_moved = m.is_capture() || m.is_promotion();
            self.position(tests, anchor, pos, ply, material_moved);
        }
    }

    fn position<P: Position>(
        &mut self,
        tests: &[BoardTest],
        anchor: Option<u32>,
        pos: &P,
        ply: u32,
        material_moved: bool,
    ) {
        if !material_moved && !self.every_ply {
            return;
        }
        let board = pos.board();
        let pieces = if self.material { board.occupied().count() } else { 0 };
        // Counted once a position, and only when some signature has as
        // many pieces.
        let mut counted = None;
        let mut material = |signature: &Signature| {
            signature.pieces == pieces
                && signature.matches(counted.get_or_insert_with(|| material_of(board)))
        };
        let anchored = anchor.is_none_or(|anchor| anchor == ply);
        // From the anchor on, a target not seen there never will be.
        let past = anchor.is_some_and(|anchor| ply >= anchor);
        let prune = self.prune;
        let castling = || pos.castles().castling_rights();
        for (test, state) in tests.iter().zip(&mut self.state) {
            let before = *state;
            match test {
                _ if before == FAILED => {}
                BoardTest::Position(identity, reach) if before == 0 => {
                    if anchored && identity.matches(pos) {
                        *state = 1;
                    } else if past || (prune && !reach.possible(board, castling())) {
                        *state = FAILED;
                    }
                }
                BoardTest::Placement(target, reach) if before == 0 => {
                    if anchored && *board == **target {
                        *state = 1;
                    } else if past || (prune && !reach.possible(board, castling())) {
                        *state = FAILED;
                    }
                }
                BoardTest::Material(signature) if before == 0 => {
                    if anchored && material(signature) {
                        *state = 1;
                    } else if past || (prune && material_moved && !signature.possible(board)) {
                        *state = FAILED;
                    }
                }
                BoardTest::FinalMaterial(signature) => {
                    *state = if prune && material_moved && !signature.possible(board) {
                        FAILED
                    } else {
                        u32::from(material(signature))
                    };
                }
                _ => {}
            }
            // The final material is decided only when it fails.
            let decided =
                *state == FAILED || (*state == 1 && !matches!(test, BoardTest::FinalMaterial(_)));
            self.changed |= before != *state && decided;
        }
    }

    /// Whether a test was decided since the last call.
    pub fn take_changed(&mut self) -> bool {
        std::mem::take(&mut self.changed)
    }

    /// Where test `i` stands, the game not over.
    pub fn decision(&self, tests: &[BoardTest], i: usize) -> Decision {
        match (&tests[i], self.state[i]) {
            (_, FAILED) => Decision::No,
            (BoardTest::Moves(moves), state) if state as usize == moves.len() => Decision::Yes,
            (BoardTest::Moves(_) | BoardTest::FinalMaterial(_), _) => Decision::Open,
            (_, 1) => Decision::Yes,
            _ => Decision::Open,
        }
    }

    /// Whether test `i` passed, the game over.
    pub fn passed(&self, tests: &[BoardTest], i: usize) -> bool {
        match &tests[i] {
            BoardTest::Moves(moves) => self.state[i] as usize == moves.len(),
            _ => self.state[i] == 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, san::San, variant::Crazyhouse};

    use super::*;

    /// A material signature of `board`, as `--material` writes it.
    fn signature_of(board: &Board) -> String {
        let side = |c: Color| {
            let m = board.material();
            let side = m.get(c);
            [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
                .into_iter()
                .flat_map(|role| {
                    std::iter::repeat_n(role.upper_char(), usize::from(*side.get(role)))
                })
                .collect::<String>()
        };
        format!("{}v{}", side(Color::White), side(Color::Black))
    }

    #[test]
    fn an_ending_never_rules_out_what_the_game_passed_through() {
        let mut seed = 7_u64;
        let mut below = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n.max(1)
        };
        let mut pruned = 0;
        for _ in 0..60 {
            let mut pos = Chess::default();
            let mut seen = vec![pos.clone()];
            for _ in 0..(40 + below(200)) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[below(moves.len())]);
                seen.push(pos.clone());
            }
            let end = Ending::of_board(pos.board());
            let text = signature_of(pos.board());
            let home = Ending::of_board(pos.board()).home;
            let bits = (home.white.0 >> 8 | home.black.0 >> 40) as i32;
            assert_eq!(Ending::of(&text, bits), Some(end.clone()));
            for (k, earlier) in seen.iter().enumerate() {
                let identity = Identity::of(earlier);
                let reach = identity.reach();
                let signature = Signature::parse(&signature_of(earlier.board()), true).unwrap();
                let tests = [
                    BoardTest::Position(identity, reach),
                    BoardTest::Placement(Box::new(earlier.board().clone()), reach),
                    BoardTest::Material(signature),
                ];
                for test in &tests {
                    assert!(test.may_end_in(&end), "ply {k}: {test:?}");
                }
                // The other way round, a later position after an earlier
                // end: often out of reach.
                let early = Ending::of_board(earlier.board());
                let last = Identity::of(&pos);
                let reach = last.reach();
                pruned += usize::from(!BoardTest::Position(last, reach).may_end_in(&early));
            }
            let last = Signature::parse(&text, true).unwrap();
            assert!(BoardTest::FinalMaterial(last).may_end_in(&end));
        }
        assert!(pruned > 100, "{pruned}");
        let krvk = Ending::of("KRvK", 0).unwrap();
        let material =
            |sig: &str, strict| BoardTest::Material(Signature::parse(sig, strict).unwrap());
        assert!(material("KRPvKR", true).may_end_in(&krvk));
        assert!(!material("KRvK", true).may_end_in(&Ending::of("KRRvK", 0).unwrap()));
        // Either side's unless strict.
        assert!(material("KvKR", false).may_end_in(&krvk));
        assert!(!material("KvKR", true).may_end_in(&krvk));
        // A pawn that left home never comes back: e2 at the end, not at
        // the target.
        let e2 = Ending::of("KPvK", 1 << 4).unwrap();
        let target = Identity::parse("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert!(!BoardTest::Position(target.clone(), target.reach()).may_end_in(&e2));
    }

    /// The decision of the one test `test` after each move of `moves`
    /// from `start`, anchored at `anchor`.
    fn decisions<P: Position + Clone>(
        test: BoardTest,
        anchor: Option<u32>,
        start: P,
        moves: &str,
    ) -> Vec<Decision> {
        let tests = [test];
        let mut progress = Progress::default();
        progress.reset(&tests);
        let mut pos = start;
        progress.start(&tests, anchor, &pos, true, true);
        let mut out = vec![progress.decision(&tests, 0)];
        for (ply, word) in moves.split_whitespace().enumerate() {
            let m = word.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            progress.after_move(&tests, anchor, &pos, &m, ply as u32 + 1);
            out.push(progress.decision(&tests, 0));
        }
        out
    }

    fn position(fen: &str) -> BoardTest {
        let identity = Identity::parse(fen).unwrap();
        let reach = identity.reach();
        BoardTest::Position(identity, reach)
    }

    use Decision::{No, Open, Yes};

    #[test]
    fn a_position_is_out_of_reach_once_a_pawn_leaves_its_start_square() {
        // After 1. e4 e5 2. Nf3: 1. d4 moves a pawn the target has at home.
        let target = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        let chess = Chess::default();
        assert_eq!(decisions(target.clone(), None, chess.clone(), "d4"), [Open, No]);
        assert_eq!(
            decisions(target.clone(), None, chess.clone(), "Nf3 e5 e4"),
            [Open, Open, Open, Yes]
        );
        // Anchored at ply 2, it is not there: decided at the anchor.
        assert_eq!(decisions(target, Some(2), chess, "e4 e5 Nf3"), [Open, Open, No, No]);
    }

    #[test]
    fn castling_rights_lost_and_pieces_captured_do_not_come_back() {
        let target = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let chess: Chess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // The king steps out: White can never castle again.
        assert_eq!(decisions(target.clone(), None, chess.clone(), "Ke2"), [Open, No]);
        assert_eq!(decisions(target, None, chess, "Nf3 Nc6"), [Open, Open, Yes]);
        // White with all its pieces, Black two pawns down: once each side
        // has lost a pawn, neither colour can have that again.
        let material = |text| BoardTest::Material(Signature::parse(text, false).unwrap());
        let target = material("KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPP");
        let game = "e4 d5 exd5 Qxd5";
        assert_eq!(decisions(target, None, Chess::default(), game), [Open, Open, Open, Open, No]);
        // Anchored at ply 3, where the material is another: decided there.
        let target = material("KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
        assert_eq!(decisions(target, Some(3), Chess::default(), game), [Open, Open, Open, No, No]);
    }

    #[test]
    fn drops_bring_pieces_back_in_crazyhouse() {
        // The pawn on e2 leaves; a drop could put one back: never pruned.
        let target = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let zh = Crazyhouse::default();
        assert_eq!(decisions(target, None, zh, "e4 d5 exd5"), [Yes, Yes, Yes, Yes]);
        let later = position("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
        let zh = Crazyhouse::default();
        assert_eq!(decisions(later.clone(), None, zh, "d4 e5"), [Open, Open, Open]);
        assert_eq!(decisions(later, None, Chess::default(), "d4 e5"), [Open, No, No]);
    }
}
