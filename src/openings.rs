//! Opening classification from the moves played.
//!
//! The book is the lichess chess-openings table (CC0, `data/openings/`,
//! embedded in the binary), indexed by the position each line reaches, told
//! apart as the repetition rule tells positions apart. A game is classified
//! by the deepest book position it passes through while it stays on
//! positions of book lines (which recognises transpositions; a game that
//! leaves them is not looked up further). Built once, on first use.
//!
//! A game is walked through the book with a [`BookWalk`]: while its moves
//! are those of some book line, the next position is found by following
//! that move in a tree of the lines' moves (the moves from one position
//! side by side); only after a move no line plays from there is the
//! position looked up by its key, and from a book position found that way
//! (a transposition) the walk goes on in the tree. Both give the same
//! answer for every position; the tree spares the common case the copy of
//! the board into a key and a lookup. A lookup reads a small index first
//! and a position only on a candidate, as most lookups find a game leaving
//! the book. What classification costs `stats`: see `benches/HISTORY.md`.

use std::{
    hash::{BuildHasher, Hash, Hasher},
    num::NonZeroU32,
    ops::ControlFlow,
    sync::OnceLock,
};

use hashbrown::{DefaultHashBuilder, HashMap, HashTable};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Square, san::San};

use crate::{
    chess::{identity::legal_en_passant, resolve::Replayable},
    pgn::{tags::TagSet, values::known},
    replay::observer::{GameEnd, Observer},
};

/// A position as the book tells positions apart: the repetition rule's
/// identity (pieces, side to move, castling rights, and the en passant
/// square only when a capture there is legal), compared exactly. Hashing
/// it is a few multiplications, where a Zobrist hash walks every piece
/// (see `benches/HISTORY.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookKey {
    board: Board,
    turn: Color,
    castling: Bitboard,
    en_passant: Option<Square>,
}

impl Hash for BookKey {
    /// Hashes a few words that tell book positions apart well (equality
    /// still compares everything), so a lookup does not pay for hashing the
    /// whole key.
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
    positions: BookPositions,
    /// The lines' moves as a tree, flattened: the book moves from one
    /// position are consecutive, and right after them come those from the
    /// position the first of them leads to (positions depth first), so
    /// that a walk down the lines most lines follow reads on in memory
    /// (see `benches/HISTORY.md`).
    moves: Vec<BookMove>,
    /// The book moves from the start position.
    first_moves: Moves,
    max_ply: u32,
}

/// Every position on some line (prefixes included, and the start
/// position), once, found by key.
#[derive(Debug, Default)]
struct BookPositions {
    positions: Vec<BookPosition>,
    /// Indices of `positions` by the hash of their keys: 4 bytes and a
    /// control byte a position, so that the usual answer to a lookup, off
    /// the book, comes without reading a position.
    index: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl BookPositions {
    /// The position with this key.
    fn find(&self, key: &BookKey) -> Option<&BookPosition> {
        let hash = self.hasher.hash_one(key);
        let at = self.index.find(hash, |&i| self.positions[i as usize].key == *key)?;
        Some(&self.positions[*at as usize])
    }

    /// Where the position with this key is in `positions`, added (with no
    /// opening and no book moves yet) when new.
    fn insert(&mut self, key: BookKey) -> usize {
        let BookPositions { positions, index, hasher } = self;
        let hash = hasher.hash_one(&key);
        let at = index
            .entry(
                hash,
                |&i| positions[i as usize].key == key,
                |&i| hasher.hash_one(&positions[i as usize].key),
            )
            .or_insert_with(|| {
                positions.push(BookPosition { key, opening: None, moves: Moves::default() });
                (positions.len() - 1) as u32
            });
        *at.get() as usize
    }
}

/// A position on some line.
#[derive(Debug)]
struct BookPosition {
    key: BookKey,
    /// The opening whose line ends there, if any.
    opening: Option<OpeningId>,
    /// The book moves from there (of the first of the tree's nodes with
    /// this position that has any: a walk that transposed into it goes on
    /// in the tree).
    moves: Moves,
}

/// Where the book moves from one position are in `OpeningBook::moves`.
#[derive(Debug, Clone, Copy, Default)]
struct Moves {
    start: u32,
    /// At most the number of legal moves of a position.
    len: u16,
}

/// A book move from some position, and what the book says about the
/// position it leads to, packed in 12 bytes so a walk reads fewer cache
/// lines (see `benches/HISTORY.md`).
#[derive(Debug, Clone, Copy)]
struct BookMove {
    /// The move, by [`move_code`].
    code: u16,
    /// `Moves::len` of the book moves from there.
    next_len: u16,
    /// `Moves::start` of the book moves from there.
    next_start: u32,
    /// One more than the opening whose line ends there.
    opening: Option<NonZeroU32>,
}

impl BookMove {
    /// The book moves from where the move leads.
    fn next(&self) -> Moves {
        Moves { start: self.next_start, len: self.next_len }
    }

    /// The opening whose line ends where the move leads.
    fn opening(&self) -> Option<OpeningId> {
        self.opening.map(|id| id.get() - 1)
    }
}

/// A move as two squares and a promotion, which tell the legal moves of a
/// position apart (castling is the king's square and the rook's): the tree
/// compares these instead of whole `Move`s.
fn move_code(m: Move) -> u16 {
    let from = m.from().map_or(0, |square| square as u16);
    let promotion = m.promotion().map_or(0, |role| role as u16);
    from | (m.to() as u16) << 6 | promotion << 12
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

impl BookEntry {
    /// The entry for a book position found by key, or for none.
    fn at(position: Option<&BookPosition>) -> BookEntry {
        match position {
            Some(position) => BookEntry::OnPath(position.opening),
            None => BookEntry::OffBook,
        }
    }
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
        let mut openings = Vec::new();
        let mut positions = BookPositions::default();
        let mut max_ply = 0;
        // The tree while it grows: each node's book moves and the nodes they
        // lead to (node 0 is the start position), each node's book position
        // and chess position, and the node each SAN word leads to from a
        // node. A line follows the words it shares with earlier lines
        // without replaying them, as every worker waits for the build (see
        // `benches/HISTORY.md`).
        let mut children: Vec<Vec<(u16, u32)>> = vec![Vec::new()];
        let mut node_book_positions = vec![positions.insert(BookKey::of(&Chess::default()))];
        let mut node_positions = vec![Chess::default()];
        let mut by_word = HashMap::<(usize, &str), usize>::default();
        for line in tables.iter().flat_map(|table| table.lines().skip(1)) {
            let mut columns = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (columns.next(), columns.next(), columns.next())
            else {
                continue;
            };
            let mut words = line_words(moves).peekable();
            let (mut node, mut plies) = (0, 0);
            while let Some(&next) = words.peek().and_then(|&word| by_word.get(&(node, word))) {
                (node, plies) = (next, plies + 1);
                words.next();
            }
            let words: Vec<&str> = words.collect();
            let start = node_positions[node].clone();
            let Some(rest) = replay_words(start, words.iter().copied()) else { continue };
            plies += rest.len();
            if plies == 0 {
                continue;
            }
            for (word, (m, pos)) in words.into_iter().zip(rest) {
                let code = move_code(m);
                let known = children[node].iter().find(|&&(book_move, _)| book_move == code);
                let next = match known {
                    Some(&(_, child)) => child as usize,
                    None => {
                        let child = children.len();
                        children[node].push((code, child as u32));
                        children.push(Vec::new());
                        node_book_positions.push(positions.insert(BookKey::of(&pos)));
                        node_positions.push(pos);
                        child
                    }
                };
                by_word.insert((node, word), next);
                node = next;
            }
            let slot = &mut positions.positions[node_book_positions[node]].opening;
            if slot.is_none() {
                *slot = Some(openings.len() as OpeningId);
                openings.push(Opening { eco: eco.to_owned(), name: name.to_owned() });
                max_ply = max_ply.max(plies as u32);
            }
        }
        let opening_at =
            |node: u32| positions.positions[node_book_positions[node as usize]].opening;
        let (moves, from) = flatten(&children, opening_at);
        // A position reached by several nodes (lines that transpose) goes
        // on in the tree from the first of them with book moves.
        for (&at, &node_moves) in node_book_positions.iter().zip(&from) {
            let moves = &mut positions.positions[at].moves;
            if moves.len == 0 {
                *moves = node_moves;
            }
        }
        OpeningBook { openings, positions, moves, first_moves: from[0], max_ply }
    }

    /// The book move `m` from the position whose book moves are `from`.
    fn book_move(&self, from: Moves, m: Move) -> Option<&BookMove> {
        let code = move_code(m);
        let from = &self.moves[from.start as usize..][..usize::from(from.len)];
        from.iter().find(|book_move| book_move.code == code)
    }

    /// What the book says about the position with this key.
    pub fn lookup(&self, key: &BookKey) -> BookEntry {
        BookEntry::at(self.positions.find(key))
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

/// The observer that classifies each game from the standard position by
/// the deepest book opening it passes through, unless its tags give both
/// its `ECO` code and its `Opening` name (as lichess's dumps do): the book
/// would not be read for it.
#[derive(Debug, Default)]
pub struct Classifier {
    /// Whether the game's tags name its opening.
    named: bool,
    /// The walk of the game on book positions, while it is on them.
    walk: Option<BookWalk>,
    /// The deepest opening passed through.
    opening: Option<OpeningId>,
}

impl Observer for Classifier {
    type Output = Option<OpeningId>;

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        let given = |name| tags.first(name).as_deref().and_then(known).is_some();
        self.named = given("ECO") && given("Opening");
        ControlFlow::Continue(())
    }

    fn start<P: Position>(&mut self, _pos: &P, standard: bool) {
        self.opening = None;
        self.walk = (standard && !self.named).then(|| BookWalk::new(OpeningBook::standard()));
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, _ply: u32, mainline: bool) {
        let Some(walk) = self.walk.as_mut().filter(|_| mainline) else { return };
        match walk.play(*m, pos) {
            BookEntry::OnPath(opening) => self.opening = opening.or(self.opening),
            // Off every book line: the rest of the game is not looked up.
            BookEntry::OffBook => self.walk = None,
        }
    }

    fn end_game(&mut self, _game: &GameEnd<'_, '_>) -> Option<OpeningId> {
        self.walk = None;
        self.opening.take()
    }
}

/// Walks one game through the book, from the standard start position.
#[derive(Debug, Clone, Copy)]
pub struct BookWalk {
    book: &'static OpeningBook,
    /// The book moves from the position reached, while it is a book
    /// position.
    next: Option<Moves>,
}

impl BookWalk {
    /// A walk from the start position.
    pub fn new(book: &'static OpeningBook) -> BookWalk {
        BookWalk { book, next: Some(book.first_moves) }
    }

    /// What the book says about `pos`, reached by playing `m`.
    pub fn play<P: Position>(&mut self, m: Move, pos: &P) -> BookEntry {
        let book_move = self.next.and_then(|from| self.book.book_move(from, m));
        if let Some(book_move) = book_move {
            self.next = Some(book_move.next());
            return BookEntry::OnPath(book_move.opening());
        }
        // A move no line plays from here: the position may still be a book
        // position (a transposition), from which the walk goes on in the
        // tree.
        let position = self.book.positions.find(&BookKey::of(pos));
        self.next = position.map(|position| position.moves);
        BookEntry::at(position)
    }
}

/// The tree of `children` (each node's book moves and the nodes they lead
/// to; node 0 is the root, a child comes after its parent) as consecutive
/// book moves per node, depth first; also where each node's are.
/// `opening_at` says which opening's line ends at a node.
///
/// A node's moves are ordered by the size of the subtree they lead to,
/// largest first: the moves most lines follow (1. e4, 1. d4) are, as a
/// rule, those most games play, and a walk scans a node's moves in order.
fn flatten(
    children: &[Vec<(u16, u32)>],
    opening_at: impl Fn(u32) -> Option<OpeningId>,
) -> (Vec<BookMove>, Vec<Moves>) {
    let mut subtree = vec![1u32; children.len()];
    for node in (0..children.len()).rev() {
        subtree[node] +=
            children[node].iter().map(|&(_, child)| subtree[child as usize]).sum::<u32>();
    }
    let mut moves = Vec::new();
    // The node each book move leads to, and where each node's moves are.
    let mut targets = Vec::new();
    let mut from = vec![Moves::default(); children.len()];
    let mut stack = vec![0u32];
    while let Some(node) = stack.pop() {
        let mut node_children = children[node as usize].clone();
        node_children.sort_by_key(|&(_, child)| std::cmp::Reverse(subtree[child as usize]));
        from[node as usize] = Moves { start: moves.len() as u32, len: node_children.len() as u16 };
        // The first child's moves come next.
        stack.extend(node_children.iter().rev().map(|&(_, child)| child));
        for (code, child) in node_children {
            let opening = opening_at(child).and_then(|id| NonZeroU32::new(id.checked_add(1)?));
            moves.push(BookMove { code, next_len: 0, next_start: 0, opening });
            targets.push(child);
        }
    }
    for (book_move, &target) in moves.iter_mut().zip(&targets) {
        let next = from[target as usize];
        (book_move.next_start, book_move.next_len) = (next.start, next.len);
    }
    (moves, from)
}

/// The SAN words of a line's moves (`1. e4 e5 2. Nf3`: `e4`, `e5`, `Nf3`).
fn line_words(moves: &str) -> impl Iterator<Item = &str> {
    moves.split_whitespace().filter(|word| !word.ends_with('.'))
}

/// Plays the SAN `words` from `pos`: each move and the position it
/// reaches; `None` when a word is not a legal move there.
fn replay_words<'a>(
    mut pos: Chess,
    words: impl Iterator<Item = &'a str>,
) -> Option<Vec<(Move, Chess)>> {
    words
        .map(|word| {
            let m = pos.san_to_move(word.parse::<San>().ok()?, None).ok()?;
            pos.play_unchecked(m);
            Some((m, pos.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// Random games that mostly keep to book positions (by tree moves and
    /// by transpositions) and sometimes leave them: at every ply the walk
    /// and a lookup by position agree.
    #[test]
    fn walking_the_tree_agrees_with_looking_positions_up() {
        let book = OpeningBook::standard();
        let mut rng = Rng(0xddb1_a5e5);
        let (mut by_tree, mut transposed) = (0, 0);
        for _ in 0..3000 {
            let mut pos = Chess::default();
            let mut walk = BookWalk::new(book);
            for _ in 0..30 {
                let moves = pos.legal_moves();
                let on_book: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut next = pos.clone();
                        next.play_unchecked(m);
                        book.lookup(&BookKey::of(&next)) != BookEntry::OffBook
                    })
                    .collect();
                let m = match (on_book.is_empty(), rng.below(8)) {
                    (true, _) | (false, 0) if !moves.is_empty() => moves[rng.below(moves.len())],
                    (false, _) => on_book[rng.below(on_book.len())],
                    _ => break,
                };
                let in_tree = walk.next.and_then(|from| book.book_move(from, m)).is_some();
                pos.play_unchecked(m);
                let expected = book.lookup(&BookKey::of(&pos));
                assert_eq!(walk.play(m, &pos), expected);
                by_tree += usize::from(in_tree);
                transposed += usize::from(!in_tree && expected != BookEntry::OffBook);
            }
        }
        assert!(
            by_tree > 5_000 && transposed > 1_000,
            "{by_tree} by the tree, {transposed} transposed"
        );
    }

    #[test]
    fn the_embedded_book_has_every_line() {
        let book = OpeningBook::standard();
        assert!(book.len() > 3000, "{}", book.len());
        assert!((20..=40).contains(&book.max_ply()), "{}", book.max_ply());
    }

    #[test]
    fn positions_find_their_opening_even_by_transposition() {
        let book = OpeningBook::standard();
        let end = |moves| {
            let path = replay_words(Chess::default(), line_words(moves)).unwrap();
            BookKey::of(&path.last().unwrap().1)
        };
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
