//! Opening classification from the moves played.
//!
//! The book is the lichess chess-openings table (CC0, `data/openings/`,
//! embedded in the binary), indexed by the position each line reaches, told
//! apart as the repetition rule tells positions apart. A game is classified
//! by the deepest book position it passes through while it stays on
//! positions of book lines (which recognises transpositions; a game that
//! leaves them is not looked up further). Built once, on first use.

use std::{
    hash::{Hash, Hasher},
    sync::OnceLock,
};

use hashbrown::HashMap;
use shakmaty::{Bitboard, Board, Chess, Color, Position, Square, san::San};

use crate::replay::{resolve::Replayable, rules::legal_en_passant};

/// A position as the book tells positions apart: the repetition rule's
/// identity (pieces, side to move, castling rights, and the en passant
/// square only when a capture there is legal), compared exactly. Hashing
/// it is a few multiplications, where a Zobrist hash walks every piece
/// (that walk was a third of what classification cost `stats`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookKey {
    board: Board,
    turn: Color,
    castling: Bitboard,
    en_passant: Option<Square>,
}

impl Hash for BookKey {
    /// Hashes a few words that tell book positions apart well (equality
    /// still compares everything): hashing the whole key was most of a
    /// lookup's cost.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let board = &self.board;
        state.write_u64(board.occupied().0);
        state.write_u64(board.by_color(Color::White).0);
        state.write_u64((board.pawns() | board.knights() | board.bishops()).0);
        state.write_u64(self.castling.0 ^ u64::from(self.turn.is_white()));
    }
}

impl BookKey {
    /// The key of `pos`.
    pub fn of<P: Position>(pos: &P) -> BookKey {
        BookKey {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: pos.castles().castling_rights(),
            en_passant: legal_en_passant(pos),
        }
    }
}

/// One named opening line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// ECO code, e.g. `C65`.
    pub eco: String,
    /// Name, e.g. `Ruy Lopez: Berlin Defense`.
    pub name: String,
}

/// Identifies an opening of the book.
pub type OpeningId = u32;

/// Openings by the position their line reaches.
#[derive(Debug)]
pub struct OpeningBook {
    openings: Vec<Opening>,
    /// Every position on some line (prefixes included), with the opening
    /// whose line ends there, if any.
    positions: HashMap<BookKey, Option<OpeningId>>,
    max_ply: u32,
}

/// What the book says about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookEntry {
    /// No line passes through it.
    OffBook,
    /// Some line passes through it; `Some` names the opening whose line
    /// ends there.
    OnPath(Option<OpeningId>),
}

const TABLES: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

impl OpeningBook {
    /// The embedded lichess book.
    pub fn standard() -> &'static OpeningBook {
        static BOOK: OnceLock<OpeningBook> = OnceLock::new();
        BOOK.get_or_init(|| OpeningBook::from_tables(&TABLES))
    }

    /// A book from TSV tables with the columns `eco`, `name`, `pgn`. Lines
    /// whose moves cannot be replayed are left out; of two lines reaching
    /// the same position the first is kept.
    pub fn from_tables(tables: &[&str]) -> OpeningBook {
        let mut book =
            OpeningBook { openings: Vec::new(), positions: HashMap::default(), max_ply: 0 };
        for line in tables.iter().flat_map(|table| table.lines().skip(1)) {
            let mut columns = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (columns.next(), columns.next(), columns.next())
            else {
                continue;
            };
            let Some(path) = replay_line(moves) else { continue };
            let plies = path.len() as u32;
            let mut path = path.into_iter().rev();
            let Some(end) = path.next() else { continue };
            let id = book.openings.len() as OpeningId;
            let slot = book.positions.entry(end).or_default();
            if slot.is_none() {
                *slot = Some(id);
                book.openings.push(Opening { eco: eco.to_owned(), name: name.to_owned() });
                book.max_ply = book.max_ply.max(plies);
            }
            for key in path {
                book.positions.entry(key).or_default();
            }
        }
        book
    }

    /// What the book says about the position with this key.
    pub fn lookup(&self, key: &BookKey) -> BookEntry {
        match self.positions.get(key) {
            Some(&opening) => BookEntry::OnPath(opening),
            None => BookEntry::OffBook,
        }
    }

    /// The opening `id` stands for.
    pub fn get(&self, id: OpeningId) -> Option<&Opening> {
        self.openings.get(id as usize)
    }

    /// Plies of the book's longest line: no later position is in the book.
    pub fn max_ply(&self) -> u32 {
        self.max_ply
    }

    /// Number of openings in the book.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }
}

/// The keys of the positions `moves` (`1. e4 e5 2. Nf3`) pass through,
/// one per ply; the last is where the line ends.
fn replay_line(moves: &str) -> Option<Vec<BookKey>> {
    let mut pos = Chess::default();
    let mut path = Vec::new();
    for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
        let m = pos.san_to_move(word.parse::<San>().ok()?, None).ok()?;
        pos.play_unchecked(m);
        path.push(BookKey::of(&pos));
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_book_has_every_line() {
        let book = OpeningBook::standard();
        assert!(book.len() > 3000, "{}", book.len());
        assert!((20..=40).contains(&book.max_ply()), "{}", book.max_ply());
    }

    #[test]
    fn positions_find_their_opening_even_by_transposition() {
        let book = OpeningBook::standard();
        let end = |moves| replay_line(moves).unwrap().pop().unwrap();
        let berlin = end("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6");
        let BookEntry::OnPath(Some(id)) = book.lookup(&berlin) else { panic!("not in the book") };
        let opening = book.get(id).unwrap();
        assert_eq!(
            (opening.eco.as_str(), opening.name.as_str()),
            ("C65", "Ruy Lopez: Berlin Defense")
        );
        let transposed = end("1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6");
        assert_eq!(book.lookup(&transposed), book.lookup(&berlin));
        assert_eq!(book.lookup(&end("1. e4 e5 2. Ke2 Ke7 3. Ke1")), BookEntry::OffBook);
    }
}
