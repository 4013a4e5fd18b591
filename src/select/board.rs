//! Predicates on the positions and moves of a game's mainline: a position
//! reached (under FIDE's identity of positions, Art. 9.2.3, transpositions
//! included), a piece placement, a material signature at some ply or at
//! the end, and the moves a game starts with. Decided while the game is
//! replayed, from the positions the replay already makes.

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, Move, Position, Role, Setup,
    Square, fen::Fen, san::San,
};

use crate::chess::identity::legal_en_passant;

/// One test of a game's positions or moves.
#[derive(Debug, Clone)]
pub enum BoardTest {
    /// The mainline reached this position (`--fen`).
    Position(Identity),
    /// The mainline reached this placement of pieces (`--placement`).
    Placement(Box<Board>),
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
        let fen: Fen = text.trim().parse().map_err(|error| format!("--fen {text}: {error}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Chess960)
            .map_err(|error| format!("--fen {text}: {error}"))?;
        Ok(Identity::of(&pos))
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

/// A placement, as the first field of a FEN.
pub fn placement(text: &str) -> Result<Board, String> {
    let field = text.split_whitespace().next().unwrap_or("");
    Board::from_ascii_board_fen(field.as_bytes())
        .map_err(|error| format!("--placement {text}: {error}"))
}

/// A material signature, `KRPvKR`: White's pieces, `v`, Black's, kings
/// included; either colour matches unless `strict`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    material: ByColor<ByRole<u8>>,
    /// How many pieces in all: most positions differ in that already,
    /// which one count of the board tells.
    pieces: usize,
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
        Ok(Signature { material, pieces, strict })
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
        for token in text.split_whitespace() {
            let word = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() {
                continue;
            }
            let san: San = word.parse().map_err(|_| format!("--moves: not a move: {token}"))?;
            let m = san
                .to_move(&pos)
                .map_err(|_| format!("--moves: {token} is not legal after {}", moves.len()))?;
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
/// with, or `FAILED`.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    state: Vec<u32>,
    /// Whether tests of material are asked for (only then is it counted).
    material: bool,
    /// Whether tests of positions are asked for (only then is each
    /// position looked at).
    positions: bool,
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

/// A game that cannot start with the moves asked for.
const FAILED: u32 = u32::MAX;

impl Progress {
    /// Nothing seen yet, for `tests`.
    pub fn reset(&mut self, tests: &[BoardTest]) {
        self.state.clear();
        self.state.resize(tests.len(), 0);
        self.material =
            tests.iter().any(|t| matches!(t, BoardTest::Material(_) | BoardTest::FinalMaterial(_)));
        self.positions = tests.iter().any(|t| !matches!(t, BoardTest::Moves(_)));
        self.moves_open = tests.iter().filter(|t| matches!(t, BoardTest::Moves(_))).count();
    }

    /// The position at the start (ply 0); `standard` when it is chess's.
    pub fn start<P: Position>(
        &mut self,
        tests: &[BoardTest],
        anchor: Option<u32>,
        pos: &P,
        standard: bool,
    ) {
        for (test, state) in tests.iter().zip(&mut self.state) {
            if let BoardTest::Moves(_) = test
                && !standard
            {
                *state = FAILED;
                self.moves_open -= 1;
            }
        }
        if self.positions {
            self.position(tests, anchor, pos, 0);
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
                    }
                }
            }
        }
        if self.positions {
            self.position(tests, anchor, pos, ply);
        }
    }

    fn position<P: Position>(
        &mut self,
        tests: &[BoardTest],
        anchor: Option<u32>,
        pos: &P,
        ply: u32,
    ) {
        let pieces = if self.material { pos.board().occupied().count() } else { 0 };
        // Counted once a position, and only when some signature has as
        // many pieces.
        let mut counted = None;
        let mut material = |signature: &Signature| {
            signature.pieces == pieces
                && signature.matches(counted.get_or_insert_with(|| material_of(pos.board())))
        };
        let anchored = anchor.is_none_or(|anchor| anchor == ply);
        for (test, state) in tests.iter().zip(&mut self.state) {
            match test {
                BoardTest::Position(identity) if anchored && identity.matches(pos) => *state = 1,
                BoardTest::Placement(board) if anchored && *pos.board() == **board => *state = 1,
                BoardTest::Material(signature) if anchored && material(signature) => *state = 1,
                BoardTest::FinalMaterial(signature) => *state = u32::from(material(signature)),
                _ => {}
            }
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
