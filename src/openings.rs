//! Opening classification from the moves played.
//!
//! The book is the lichess chess-openings table (CC0, `data/openings/`,
//! embedded in the binary), indexed by the position each line reaches, hashed
//! as the repetition rule hashes positions. A game is classified by the
//! deepest book position it passes through while it stays on positions of
//! book lines (which recognises transpositions; a game that leaves them is
//! not looked up further). Built once, on first use.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
    sync::OnceLock,
};

/// Hashes a key that is already a Zobrist hash by keeping it as it is
/// (SipHash over it was a sixth of the cost of `stats`).
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used for `u64` keys; fold anything else.
        self.0 = bytes.iter().fold(self.0, |h, &b| h.rotate_left(8) ^ u64::from(b));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Map<V> = HashMap<u64, V, BuildHasherDefault<Identity>>;

use shakmaty::{Chess, Position, san::San};

use crate::replay::rules::position_hash;

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
    by_position: Map<OpeningId>,
    /// Every position on some line (prefixes included).
    on_path: Map<()>,
    max_ply: u32,
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
        let mut book = OpeningBook {
            openings: Vec::new(),
            by_position: Map::default(),
            on_path: Map::default(),
            max_ply: 0,
        };
        for line in tables.iter().flat_map(|table| table.lines().skip(1)) {
            let mut columns = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (columns.next(), columns.next(), columns.next())
            else {
                continue;
            };
            let Some((hash, plies, path)) = replay_line(moves) else { continue };
            for h in path {
                book.on_path.insert(h, ());
            }
            let id = book.openings.len() as OpeningId;
            if let std::collections::hash_map::Entry::Vacant(entry) = book.by_position.entry(hash) {
                entry.insert(id);
                book.openings.push(Opening { eco: eco.to_owned(), name: name.to_owned() });
                book.max_ply = book.max_ply.max(plies);
            }
        }
        book
    }

    /// The opening whose line reaches the position with this hash.
    pub fn lookup(&self, hash: u64) -> Option<OpeningId> {
        self.by_position.get(&hash).copied()
    }

    /// Whether some line passes through this position.
    pub fn on_path(&self, hash: u64) -> bool {
        self.on_path.contains_key(&hash)
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

/// The hash of the position `moves` (`1. e4 e5 2. Nf3`) reach, and its ply.
fn replay_line(moves: &str) -> Option<(u64, u32, Vec<u64>)> {
    let mut pos = Chess::default();
    let mut plies = 0;
    let mut path = Vec::new();
    for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
        let m = word.parse::<San>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        plies += 1;
        path.push(position_hash(&pos));
    }
    Some((position_hash(&pos), plies, path))
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
        let (berlin, _, _) = replay_line("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6").unwrap();
        let opening = book.get(book.lookup(berlin).unwrap()).unwrap();
        assert_eq!(
            (opening.eco.as_str(), opening.name.as_str()),
            ("C65", "Ruy Lopez: Berlin Defense")
        );
        let (transposed, _, _) = replay_line("1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6").unwrap();
        assert_eq!(book.lookup(transposed), book.lookup(berlin));
    }
}
