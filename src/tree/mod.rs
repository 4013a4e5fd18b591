//! The opening tree (`arbiter tree`): from a root position, every position
//! the games reached in the next plies, each with its games, results,
//! ratings and years. Positions are keyed by FIDE's identity
//! (`select::board::Identity`, Art. 9.2.3), so a position reached by
//! several move orders is one node, and a game counts once in a node
//! however often it stands there.
//!
//! [`Tree`] is an exact aggregate, like `stats::Stats`: counts and sums
//! only, merged by [`Merge`] (associative, commutative, the empty tree its
//! identity), so the games may be counted on any number of threads or
//! machines. [`observer::Explorer`] counts games into it as they are
//! replayed; [`partial`] writes and reads it for `arbiter merge`;
//! [`report`] derives the rows (shares, scores, performances) and writes
//! them. No I/O here.

pub mod observer;
pub mod partial;
pub mod report;

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashMap, HashTable, hash_map};
use shakmaty::{
    CastlingMode, Chess, Color, Move, Position, PositionError, fen::Epd, fen::Fen, san::SanPlus,
};

pub use self::observer::Explorer;
use crate::{
    pgn::values::GameResult,
    pipeline::Merge,
    select::board::{BoardTest, Identity},
    stats::{Rated, Tally},
};

/// Positions a tree may hold unless told (`--max-positions`): at about
/// 300 bytes a position, 300 MB per worker thread at most (measured in
/// `benches/HISTORY.md`).
pub const DEFAULT_MAX_POSITIONS: usize = 1_000_000;

/// Where a tree starts: a position, and the moves that must lead to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The root position.
    pub position: Identity,
    /// With `--moves`, the moves from the standard start position a game
    /// must begin with (it reaches the root after them, and only then);
    /// empty for a position reached at any ply (`--fen`, or the start
    /// position by default).
    pub moves: Vec<Move>,
    /// The fullmove number of the root position, for the move numbers
    /// shown (1 for the start position; the FEN's own for `--fen`).
    pub fullmoves: u32,
}

impl Root {
    /// The standard start position.
    pub fn start() -> Root {
        Root { position: Identity::of(&Chess::default()), moves: Vec::new(), fullmoves: 1 }
    }

    /// The root of `--fen` or `--moves` (at most one value of either, not
    /// negated), or the start position when neither is given.
    pub fn parse(fens: &[String], moves: &[String]) -> Result<Root, String> {
        let given = fens.len() + moves.len();
        if given > 1 {
            return Err("tree: one root only: a single --fen or --moves".into());
        }
        if let Some(text) = fens.iter().chain(moves).find(|text| text.starts_with('!')) {
            return Err(format!("tree: the root cannot be excluded ({text})"));
        }
        if let Some(text) = fens.first() {
            let position = Identity::parse(text)?;
            let fen = crate::chess::identity::parse_fen(text)
                .map_err(|error| format!("--fen {text}: {error}"))?;
            return Ok(Root {
                position,
                moves: Vec::new(),
                fullmoves: fen.as_setup().fullmoves.get(),
            });
        }
        match moves.first() {
            Some(text) => Root::of_moves(text),
            None => Ok(Root::start()),
        }
    }

    /// The position after `text`, moves in SAN from the start position.
    pub fn of_moves(text: &str) -> Result<Root, String> {
        let BoardTest::Moves(moves) = BoardTest::moves(text)? else {
            unreachable!("BoardTest::moves makes a Moves test")
        };
        let mut pos = Chess::default();
        for &m in &moves {
            pos.play_unchecked(m);
        }
        Ok(Root { position: Identity::of(&pos), fullmoves: pos.fullmoves().get(), moves })
    }

    /// The moves leading to the root in SAN, numbered ("1. e4 c5"); empty
    /// for a root without moves.
    pub fn moves_text(&self) -> String {
        let mut pos = Chess::default();
        let sans = self.moves.iter().map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m));
        numbered(sans.map(|san| san.to_string()), Color::White, 1)
    }

    /// How the root is named: its moves, `start`, or `root`.
    pub fn label(&self) -> String {
        if !self.moves.is_empty() {
            self.moves_text()
        } else if self.position == Root::start().position {
            "start".into()
        } else {
            "root".into()
        }
    }
}

/// What a tree is of: its root, and how many plies below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The root.
    pub root: Root,
    /// Plies counted after the root.
    pub depth: u32,
}

/// What is known of a set of games in one position: results, ratings,
/// performance data and years. Exact integers, so that merging is exact.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// The results, from White's side (`games` counts every game).
    pub results: Tally,
    /// Ratings read (`WhiteElo`, `BlackElo`: up to two a game).
    pub rated: u64,
    /// Their sum.
    pub rating_sum: u64,
    /// White's decided games against a rated Black: White's points and
    /// Black's ratings (White's performance).
    pub white: Rated,
    /// Black's decided games against a rated White (Black's performance).
    pub black: Rated,
    /// The first and last year of the games' `Date` tags, when any is
    /// known.
    pub years: Option<(u32, u32)>,
}

/// What a game brings to every position it counts in: its tags' facts
/// and its result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// The result: the `Result` tag (a game's replay may stop before the
    /// movetext's marker).
    pub result: Option<GameResult>,
    /// White's and Black's ratings (`WhiteElo`, `BlackElo`), when valid.
    pub elo: [Option<u32>; 2],
    /// The year of the `Date` tag, when known and not 0.
    pub year: Option<u32>,
}

impl Counts {
    /// Counts one game.
    pub fn add(&mut self, game: &GameFacts) {
        self.results.add(game.result);
        for elo in game.elo.into_iter().flatten() {
            self.rated += 1;
            self.rating_sum += u64::from(elo);
        }
        // Performance is over decided games against a rated opponent: a
        // `*` game has no score.
        if let Some(white_x2) = game.result.and_then(GameResult::white_halves) {
            let [white_elo, black_elo] = game.elo;
            if let Some(black_elo) = black_elo {
                self.white.merge(Rated {
                    games: 1,
                    points_x2: u64::from(white_x2),
                    opponent_rating_sum: u64::from(black_elo),
                });
            }
            if let Some(white_elo) = white_elo {
                self.black.merge(Rated {
                    games: 1,
                    points_x2: u64::from(2 - white_x2),
                    opponent_rating_sum: u64::from(white_elo),
                });
            }
        }
        if let Some(year) = game.year {
            self.years = Some(match self.years {
                Some((first, last)) => (first.min(year), last.max(year)),
                None => (year, year),
            });
        }
    }

    /// The performance data of `side`'s games.
    pub fn of(&self, side: Color) -> &Rated {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl Merge for Counts {
    fn merge(&mut self, other: Counts) {
        let Counts { results, rated, rating_sum, white, black, years } = other;
        self.results.merge(results);
        self.rated.merge(rated);
        self.rating_sum.merge(rating_sum);
        self.white.merge(white);
        self.black.merge(black);
        self.years = match (self.years, years) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (a, b) => a.or(b),
        };
    }
}

/// A position of the tree and its games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The position.
    pub position: Identity,
    /// The games that stood in it within the plies counted.
    pub counts: Counts,
}

/// A move from one position of the tree to another, and how many games
/// played it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// The move, in SAN.
    pub san: SanPlus,
    /// Games that played it (once a game).
    pub games: u64,
}

/// The positions games reached from a root, and the moves between them.
/// Nodes are numbered in the order they were first seen (which depends on
/// the order of counting: everything written out is sorted).
#[derive(Debug, Clone)]
pub struct Tree {
    spec: Spec,
    nodes: Vec<Node>,
    /// The nodes' indices, hashed by position.
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
    /// Moves by (from, to) node index.
    edges: HashMap<(u32, u32), Edge>,
    /// Most nodes the tree may hold.
    limit: usize,
    /// A game needed more nodes than `limit`: the tree is incomplete.
    overflowed: bool,
}

impl Tree {
    /// An empty tree of `spec`, of at most `limit` positions.
    pub fn new(spec: Spec, limit: usize) -> Tree {
        Tree {
            spec,
            nodes: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            edges: HashMap::new(),
            limit,
            overflowed: false,
        }
    }

    /// What the tree is of.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The positions, in no particular order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The moves between positions, by (from, to) index into `nodes`.
    pub fn edges(&self) -> &HashMap<(u32, u32), Edge> {
        &self.edges
    }

    /// The index of `position`, if the tree has it.
    pub fn find(&self, position: &Identity) -> Option<u32> {
        let hash = self.hasher.hash_one(position);
        self.table.find(hash, |&i| self.nodes[i as usize].position == *position).copied()
    }

    /// Whether some game needed more positions than the tree may hold: it
    /// is then incomplete, and no more games are counted.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The most positions the tree may hold.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The index of `position`, added if new; `None` when the tree is
    /// full.
    fn intern(&mut self, position: &Identity) -> Option<u32> {
        let hash = self.hasher.hash_one(position);
        let nodes = &self.nodes;
        if let Some(&i) = self.table.find(hash, |&i| nodes[i as usize].position == *position) {
            return Some(i);
        }
        if self.nodes.len() >= self.limit {
            return None;
        }
        let i = u32::try_from(self.nodes.len()).ok()?;
        let hasher = &self.hasher;
        let nodes = &self.nodes;
        self.table.insert_unique(hash, i, |&j| hasher.hash_one(&nodes[j as usize].position));
        self.nodes.push(Node { position: position.clone(), counts: Counts::default() });
        Some(i)
    }

    /// Counts one game in the positions of `window` (the root, then each
    /// position after it within the depth, with the move to it) and in
    /// the moves between them: once in each, however often the game
    /// stands there. `ids` is scratch space.
    pub fn add_game(
        &mut self,
        window: &[(Identity, Option<SanPlus>)],
        game: &GameFacts,
        ids: &mut Vec<u32>,
    ) {
        ids.clear();
        for (position, _) in window {
            match self.intern(position) {
                Some(i) => ids.push(i),
                None => {
                    self.overflowed = true;
                    return;
                }
            }
        }
        for (step, pair) in ids.windows(2).enumerate() {
            let (from, to) = (pair[0], pair[1]);
            // Once a game: the same move again (a repetition) is not
            // counted twice.
            if ids.windows(2).take(step).any(|earlier| earlier == pair) {
                continue;
            }
            let Some(san) = window[step + 1].1 else { continue };
            self.edges.entry((from, to)).or_insert(Edge { san, games: 0 }).games += 1;
        }
        ids.sort_unstable();
        ids.dedup();
        for &i in ids.iter() {
            self.nodes[i as usize].counts.add(game);
        }
    }

    /// A tree of `spec` from its parts (a partial file's): the positions,
    /// each once, and the moves by index into them.
    pub fn from_parts(
        spec: Spec,
        nodes: Vec<Node>,
        edges: impl IntoIterator<Item = ((u32, u32), Edge)>,
    ) -> Result<Tree, String> {
        let mut tree = Tree::new(spec, usize::MAX);
        for node in nodes {
            let count = tree.nodes.len();
            let i = tree.intern(&node.position).ok_or("too many positions")?;
            if i as usize != count {
                return Err(format!("position {} is listed twice", fen(&node.position)));
            }
            tree.nodes[i as usize].counts = node.counts;
        }
        for ((from, to), edge) in edges {
            if from as usize >= tree.nodes.len() || to as usize >= tree.nodes.len() {
                return Err(format!(
                    "a move from position {from} to {to}, of {}",
                    tree.nodes.len()
                ));
            }
            match tree.edges.entry((from, to)) {
                hash_map::Entry::Vacant(entry) => {
                    entry.insert(edge);
                }
                hash_map::Entry::Occupied(_) => {
                    return Err(format!("the move from position {from} to {to} is listed twice"));
                }
            }
        }
        Ok(tree)
    }
}

/// Merging trees of the same `Spec` (the pipeline's workers', or the
/// partials `merge` checked); an overflow in either is one in both.
impl Merge for Tree {
    fn merge(&mut self, mut other: Tree) {
        debug_assert_eq!(self.spec, other.spec, "trees of one spec only");
        // The larger takes in the smaller: the fewest positions move.
        if other.nodes.len() > self.nodes.len() {
            std::mem::swap(self, &mut other);
            self.limit = self.limit.max(other.limit);
        }
        self.overflowed |= other.overflowed;
        let mut index = Vec::with_capacity(other.nodes.len());
        for node in other.nodes {
            let Some(i) = self.intern(&node.position) else {
                self.overflowed = true;
                return;
            };
            self.nodes[i as usize].counts.merge(node.counts);
            index.push(i);
        }
        for ((from, to), edge) in other.edges {
            let key = (index[from as usize], index[to as usize]);
            self.edges
                .entry(key)
                .or_insert(Edge { san: edge.san, games: 0 })
                .games
                .merge(edge.games);
        }
    }
}

/// The FEN of `position` without its move counters (an EPD: placement,
/// side to move, castling rights, en passant square when a capture is
/// legal), as `--fen` reads it back.
pub fn fen(position: &Identity) -> String {
    Epd::try_from_setup(position.setup()).unwrap_or_else(|lossy| lossy.ignore()).to_string()
}

/// A position of a FEN or EPD the tree wrote: set up as the replay sets
/// up a game's start (more material than a game starts with is accepted),
/// then keyed by identity.
pub fn parse_fen(text: &str) -> Result<Identity, String> {
    let fen: Fen = text.trim().parse().map_err(|error| format!("{text}: {error}"))?;
    let pos: Chess = fen
        .into_position(CastlingMode::Chess960)
        .or_else(PositionError::ignore_too_much_material)
        .map_err(|error| format!("{text}: {error}"))?;
    Ok(Identity::of(&pos))
}

/// The moves of `sans`, the first played by `first` at move `fullmoves`,
/// numbered as PGN numbers them: `1. e4 c5 2. Nf3`, or `3... Nf6 4. c4`.
pub fn numbered(sans: impl IntoIterator<Item = String>, first: Color, fullmoves: u32) -> String {
    let mut text = String::new();
    let mut turn = first;
    let mut number = fullmoves;
    for (i, san) in sans.into_iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        match turn {
            Color::White => text.push_str(&format!("{number}. ")),
            Color::Black if i == 0 => text.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        text.push_str(&san);
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    text
}

/// The side to move in `position`.
pub fn turn(position: &Identity) -> Color {
    position.setup().turn
}

#[cfg(test)]
mod tests {
    use shakmaty::{Square, san::San};

    use super::*;

    fn facts(result: GameResult, elo: [Option<u32>; 2], year: Option<u32>) -> GameFacts {
        GameFacts { result: Some(result), elo, year }
    }

    fn window(moves: &str) -> Vec<(Identity, Option<SanPlus>)> {
        let mut pos = Chess::default();
        let mut window = vec![(Identity::of(&pos), None)];
        for word in moves.split_whitespace() {
            let m = word.parse::<San>().unwrap().to_move(&pos).unwrap();
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
            window.push((Identity::of(&pos), Some(san)));
        }
        window
    }

    fn spec() -> Spec {
        Spec { root: Root::start(), depth: 4 }
    }

    #[test]
    fn counts_add_results_ratings_performance_and_years() {
        let mut counts = Counts::default();
        counts.add(&facts(GameResult::WhiteWins, [Some(2500), Some(2400)], Some(2001)));
        counts.add(&facts(GameResult::Draw, [None, Some(2600)], Some(1999)));
        counts.add(&facts(GameResult::Unfinished, [Some(2000), Some(2100)], None));
        assert_eq!(counts.results.games, 3);
        assert_eq!((counts.results.white_wins, counts.results.draws), (1, 1));
        assert_eq!((counts.rated, counts.rating_sum), (5, 2500 + 2400 + 2600 + 2000 + 2100));
        // White: a win against 2400 and a draw against 2600; the `*` game
        // has no score.
        assert_eq!(counts.white, Rated { games: 2, points_x2: 3, opponent_rating_sum: 5000 });
        // Black: a loss against 2500 (White had no rating in the draw).
        assert_eq!(counts.black, Rated { games: 1, points_x2: 0, opponent_rating_sum: 2500 });
        assert_eq!(counts.years, Some((1999, 2001)));
    }

    #[test]
    fn transpositions_are_one_node_and_a_game_counts_once_in_each() {
        let mut tree = Tree::new(spec(), 100);
        let mut ids = Vec::new();
        let game = facts(GameResult::Draw, [None, None], None);
        tree.add_game(&window("d4 Nf6 c4 e6"), &game, &mut ids);
        tree.add_game(&window("c4 e6 d4 Nf6"), &game, &mut ids);
        // Knights out and back: the start position again, and 1. Nf3 again.
        tree.add_game(&window("Nf3 Nf6 Ng1 Ng8 Nf3"), &game, &mut ids);
        let after = |moves: &str| window(moves).pop().unwrap().0;
        let count = |moves: &str| {
            tree.nodes()[tree.find(&after(moves)).unwrap() as usize].counts.results.games
        };
        assert_eq!(count("d4 Nf6 c4 e6"), 2, "one position however reached");
        assert_eq!(count(""), 3, "the root counts each game once, the repeater too");
        assert_eq!(count("Nf3"), 1, "1. Nf3 reached twice by one game");
        // 4 + 4 positions for the first two games, less the shared last
        // one, plus the root; the third adds Nf3, Nf3 Nf6, Nf3 Nf6 Ng1.
        assert_eq!(tree.nodes().len(), 1 + 4 + 3 + 3);
        let root = tree.find(&Root::start().position).unwrap();
        let nf3 = tree.find(&after("Nf3")).unwrap();
        assert_eq!(tree.edges()[&(root, nf3)].games, 1, "the move played twice counts once");
        assert_eq!(tree.edges()[&(root, nf3)].san.to_string(), "Nf3");
    }

    #[test]
    fn a_full_tree_overflows_and_merging_is_order_free() {
        let mut ids = Vec::new();
        let game = facts(GameResult::BlackWins, [Some(1500), Some(1600)], Some(2020));
        let mut small = Tree::new(spec(), 3);
        small.add_game(&window("e4 e5 Nf3"), &game, &mut ids);
        assert!(small.overflowed());
        let games = ["e4 e5", "d4 d5", "e4 c5", "e4 e5 Nf3"];
        let mut whole = Tree::new(spec(), 100);
        let (mut a, mut b) = (Tree::new(spec(), 100), Tree::new(spec(), 100));
        for (i, moves) in games.iter().enumerate() {
            whole.add_game(&window(moves), &game, &mut ids);
            let part = if i % 2 == 0 { &mut a } else { &mut b };
            part.add_game(&window(moves), &game, &mut ids);
        }
        let mut ab = a.clone();
        ab.merge(b.clone());
        let mut ba = b;
        ba.merge(a);
        for merged in [ab, ba] {
            assert_eq!(sorted(&merged), sorted(&whole));
        }
    }

    /// A move as (from FEN, to FEN, SAN, games).
    type MoveRow = (String, String, String, u64);

    /// The tree as sorted (FEN, counts) and moves.
    fn sorted(tree: &Tree) -> (Vec<(String, Counts)>, Vec<MoveRow>) {
        let fen_at = |i: u32| fen(&tree.nodes()[i as usize].position);
        let mut nodes: Vec<_> =
            tree.nodes().iter().map(|n| (fen(&n.position), n.counts.clone())).collect();
        nodes.sort_by(|a, b| a.0.cmp(&b.0));
        let mut edges: Vec<_> = tree
            .edges()
            .iter()
            .map(|(&(f, t), e)| (fen_at(f), fen_at(t), e.san.to_string(), e.games))
            .collect();
        edges.sort();
        (nodes, edges)
    }

    #[test]
    fn roots_parse_from_fen_or_moves() {
        let najdorf = Root::parse(&[], &["1. e4 c5 2. Nf3 d6".into()]).unwrap();
        assert_eq!(najdorf.moves.len(), 4);
        assert_eq!(najdorf.fullmoves, 3);
        assert_eq!(najdorf.label(), "1. e4 c5 2. Nf3 d6");
        let fen = "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3";
        let by_fen = Root::parse(&[fen.into()], &[]).unwrap();
        assert_eq!(by_fen.position, najdorf.position);
        assert_eq!(by_fen.fullmoves, 3);
        assert_eq!(by_fen.label(), "root");
        assert_eq!(Root::parse(&[], &[]).unwrap().label(), "start");
        assert!(Root::parse(&["nonsense".into()], &[]).unwrap_err().contains("--fen nonsense"));
        assert!(Root::parse(&[fen.into()], &["e4".into()]).is_err());
        assert!(Root::parse(&["!".to_owned() + fen], &[]).is_err());
    }

    #[test]
    fn fens_round_trip_with_en_passant_only_when_legal() {
        let mut pos = Chess::default();
        for word in ["e4", "a6", "e5", "d5"] {
            let m = word.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        let identity = Identity::of(&pos);
        let text = fen(&identity);
        assert_eq!(text, "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6");
        assert_eq!(parse_fen(&text).unwrap(), identity);
        assert_eq!(pos.legal_ep_square(), Some(Square::D6));
        let after_e4 = fen(&window("e4").pop().unwrap().0);
        assert!(after_e4.ends_with(" b KQkq -"), "no capture, no square: {after_e4}");
    }

    #[test]
    fn moves_are_numbered_from_either_side() {
        let sans = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(numbered(sans("e4 c5 Nf3"), Color::White, 1), "1. e4 c5 2. Nf3");
        assert_eq!(numbered(sans("Nf6 c4 e6"), Color::Black, 3), "3... Nf6 4. c4 e6");
        assert_eq!(numbered(Vec::new(), Color::White, 1), "");
    }
}
