//! The observer `tree` folds games with: [`Explorer`], one per worker,
//! follows each game to the root, notes the positions of the next plies
//! (and the moves to them) while the replay makes them, and counts the
//! game into its [`Tree`] at the end, when the result is known.
//!
//! A game stops being replayed as soon as it can add nothing
//! (`Observer::rest`, `Rest::Enough`): once the plies after the root are
//! seen, once it leaves the moves of a `--moves` root, or once it can no
//! longer reach a `--fen` root (`select::board::Reach`: a pawn has left its
//! first square, a castling right or a piece is gone that the root still
//! has). From the start position, that is after `--depth` plies: what
//! makes a tree cheaper than a validation. The result is therefore read
//! from the `Result` tag alone: the movetext's marker is not reached.

use std::ops::ControlFlow;

use shakmaty::{
    Move, Position,
    san::{San, SanPlus, Suffix},
};

use super::{GameFacts, Spec, Tree};
use crate::{
    chess::setup::is_chess,
    pgn::{
        tags::TagSet,
        values::{Date, GameResult, rating},
    },
    pipeline::Merge,
    replay::observer::{GameEnd, Observer, Rest},
    select::board::{Identity, Reach},
};

/// Where a game stands with respect to the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Not at the root yet.
    Seeking,
    /// At the root or within the plies after it.
    Inside,
    /// Nothing more to see: the plies are counted, or the root is out of
    /// reach.
    Done,
}

/// What a game with `tags` brings to the tree before its result is known
/// (its ratings and year); `None` for a game of another variant than
/// chess and Chess960, whose positions are not chess positions. `db
/// build --tree` reads games with it too, so both count the same.
pub fn facts(tags: &TagSet<'_>) -> Option<GameFacts> {
    let variant = tags.variant.map(|value| tags.text(value));
    if !is_chess(variant.as_deref()) {
        return None;
    }
    let mut values = [None, None, None];
    for (name, value) in tags.pairs() {
        let slot = match name {
            b"WhiteElo" => 0,
            b"BlackElo" => 1,
            b"Date" => 2,
            _ => continue,
        };
        // The first of duplicated tags, as `stats` reads them.
        values[slot].get_or_insert_with(|| tags.text(value));
    }
    let [white, black, date] = values;
    Some(GameFacts {
        result: None,
        elo: [white.and_then(|e| rating(&e)), black.and_then(|e| rating(&e))],
        year: date.and_then(|d| Date::parse(&d)).and_then(|d| d.year).filter(|&y| y > 0),
    })
}

/// Counts games into a [`Tree`], one per worker thread (`pipeline::fold`).
#[derive(Debug, Clone)]
pub struct Explorer {
    tree: Tree,
    /// For a root reached at any ply: what a position needs to reach it.
    reach: Option<Reach>,
    /// Whether games stop early (false only for the tests' reference).
    early: bool,
    /// The current game.
    phase: Phase,
    facts: GameFacts,
    /// The root and the positions after it so far, each with its move.
    window: Vec<(Identity, Option<SanPlus>)>,
    /// The next move, in SAN, when it is within the plies counted.
    san: Option<San>,
    /// How deep in variations the replay is (with `--variations`).
    variations: u32,
    /// Scratch space for `Tree::add_game`.
    ids: Vec<u32>,
}

impl Explorer {
    /// An explorer of `spec`'s tree, of at most `limit` positions.
    pub fn new(spec: Spec, limit: usize) -> Explorer {
        let reach = spec.root.moves.is_empty().then(|| spec.root.position.reach());
        Explorer {
            tree: Tree::new(spec, limit),
            reach,
            early: true,
            phase: Phase::Done,
            facts: GameFacts::default(),
            window: Vec::new(),
            san: None,
            variations: 0,
            ids: Vec::new(),
        }
    }

    /// The same, replaying every game to its end and never ruling the
    /// root out of reach: the plain reference the early stops are tested
    /// against.
    pub fn exhaustive(spec: Spec, limit: usize) -> Explorer {
        Explorer { reach: None, early: false, ..Explorer::new(spec, limit) }
    }

    /// The tree counted so far.
    pub fn into_tree(self) -> Tree {
        self.tree
    }

    fn spec(&self) -> &Spec {
        self.tree.spec()
    }

    /// `pos`, at `ply`, is the root: the window opens.
    fn enter(&mut self, pos: &impl Position) {
        self.window.push((Identity::of(pos), None));
        self.phase = Phase::Inside;
        self.close_if_full();
    }

    fn close_if_full(&mut self) {
        if self.window.len() > self.spec().depth as usize {
            self.phase = Phase::Done;
        }
    }

    /// Whether `pos` (reached before the root) rules the root out.
    fn out_of_reach(&self, pos: &impl Position) -> bool {
        self.reach
            .is_some_and(|reach| !reach.possible(pos.board(), pos.castles().castling_rights()))
    }
}

impl Observer for Explorer {
    type Output = ();

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        // `start` decides; a game not replayed (an unknown variant, a bad
        // FEN) never reaches it.
        self.phase = Phase::Seeking;
        self.window.clear();
        self.san = None;
        self.variations = 0;
        // A full tree counts no more games: the run ends in an error.
        if self.tree.overflowed() {
            return ControlFlow::Break(());
        }
        match facts(tags) {
            Some(facts) => {
                self.facts = facts;
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(()),
        }
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        self.phase = Phase::Seeking;
        if !self.spec().root.moves.is_empty() {
            // `--moves` are played from the standard start.
            if !standard {
                self.phase = Phase::Done;
            }
        } else if self.spec().root.position.matches(pos) {
            self.enter(pos);
        } else if self.out_of_reach(pos) {
            self.phase = Phase::Done;
        }
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        if self.phase == Phase::Inside && self.variations == 0 {
            self.san = Some(San::from_move(pos, *m));
        }
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        if !mainline {
            return;
        }
        match self.phase {
            Phase::Done => {}
            Phase::Inside => {
                let suffix = Suffix::from_position(pos);
                let san = self.san.take().map(|san| SanPlus { san, suffix });
                self.window.push((Identity::of(pos), san));
                self.close_if_full();
            }
            Phase::Seeking => {
                let moves = &self.spec().root.moves;
                let (arrived, lost) = if moves.is_empty() {
                    let arrived = self.spec().root.position.matches(pos);
                    (arrived, !arrived && self.out_of_reach(pos))
                } else {
                    let played = moves.get(ply as usize - 1) == Some(m);
                    (played && ply as usize == moves.len(), !played)
                };
                if arrived {
                    self.enter(pos);
                } else if lost {
                    self.phase = Phase::Done;
                }
            }
        }
    }

    fn begin_variation(&mut self) {
        self.variations += 1;
    }

    fn end_variation(&mut self) {
        self.variations = self.variations.saturating_sub(1);
    }

    fn rest(&self) -> Rest {
        if self.early && self.phase == Phase::Done { Rest::Enough } else { Rest::Replay }
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) {
        if self.window.is_empty() {
            return;
        }
        // The tag alone: a game stopped early has no marker in its record.
        self.facts.result = game.record.result.as_deref().and_then(GameResult::parse);
        self.tree.add_game(&self.window, &self.facts, &mut self.ids);
        self.window.clear();
    }
}

impl Merge for Explorer {
    fn merge(&mut self, other: Explorer) {
        self.tree.merge(other.tree);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        pgn::chunk::Chunk,
        replay::{ReplayOptions, Replayer},
        tree::{Root, fen},
    };

    /// The tree of `pgn`, and the plies replayed of each game.
    fn replayed(pgn: &str, spec: Spec, exhaustive: bool) -> (Tree, Vec<u32>) {
        let chunk = Chunk::from_bytes("t", pgn.as_bytes().to_vec());
        let mut explorer = match exhaustive {
            true => Explorer::exhaustive(spec, 1000),
            false => Explorer::new(spec, 1000),
        };
        let mut plies = Vec::new();
        // With early stops, as `tree` replays.
        let options = ReplayOptions { early_stop: true, ..ReplayOptions::default() };
        Replayer::new(options).replay(&chunk, &mut explorer, |record, ()| plies.push(record.plies));
        (explorer.into_tree(), plies)
    }

    fn tree(pgn: &str, spec: Spec, exhaustive: bool) -> Tree {
        replayed(pgn, spec, exhaustive).0
    }

    /// Each position's FEN and games, sorted.
    fn games(tree: &Tree) -> Vec<(String, u64)> {
        let mut rows: Vec<_> =
            tree.nodes().iter().map(|n| (fen(&n.position), n.counts.results.games)).collect();
        rows.sort();
        rows
    }

    const GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
        [Result \"0-1\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e5 4. Nf3 0-1\n\n\
        [Result \"1/2-1/2\"]\n\n1. d4 d5 2. e4 dxe4 3. Nc3 1/2-1/2\n\n\
        [FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 2. Nf3 *\n\n\
        [Variant \"Atomic\"]\n\n1. e4 e5 *\n\n\
        1. e4 e5 2. Nf3 Qxh2 *\n";

    #[test]
    fn early_stops_count_what_the_whole_replay_counts() {
        let specs = [
            (Root::start(), 1),
            (Root::start(), 3),
            (Root::of_moves("e4 e5").unwrap(), 2),
            (
                Root::parse(
                    &["rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into()],
                    &[],
                )
                .unwrap(),
                2,
            ),
            (
                Root::parse(
                    &["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into()],
                    &[],
                )
                .unwrap(),
                4,
            ),
        ];
        for (root, depth) in specs {
            let spec = Spec { root, depth };
            let fast = tree(GAMES, spec.clone(), false);
            let plain = tree(GAMES, spec.clone(), true);
            assert_eq!(games(&fast), games(&plain), "{spec:?}");
            assert!(!fast.nodes().is_empty(), "{spec:?}");
        }
        // What the early stops spare: from the start, 1 ply a game (the
        // one from a FEN is out of reach at once, but the seam first asks
        // after a move; the atomic one is skipped); from a later position,
        // games that left its pawns.
        let plies = |spec: Spec, exhaustive| replayed(GAMES, spec, exhaustive).1;
        let start = Spec { root: Root::start(), depth: 1 };
        assert_eq!(plies(start.clone(), true), [6, 7, 5, 2, 3]);
        assert_eq!(plies(start, false), [1, 1, 1, 1, 1]);
        let after_e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let root = Root::parse(&[after_e4_e5.into()], &[]).unwrap();
        assert_eq!(plies(Spec { root, depth: 1 }, false), [3, 7, 1, 2, 3]);
    }

    #[test]
    fn a_fen_root_counts_games_reaching_it_at_any_ply_once() {
        let after_e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let spec = Spec { root: Root::parse(&[after_e4_e5.into()], &[]).unwrap(), depth: 1 };
        let tree = tree(GAMES, spec, false);
        let root = &tree.nodes()[tree.find(&tree.spec().root.position).unwrap() as usize];
        // Game 1 (ply 2), game 2 (ply 6), game 4 (from a FEN, ply 1 of its
        // own) and game 6; not the atomic one.
        assert_eq!(root.counts.results.games, 4);
        assert_eq!(root.counts.results.white_wins, 1);
        assert_eq!(root.counts.results.black_wins, 1);
        // Games 4 and 6 have no `Result` tag: no score (their `*` markers
        // are not read).
        assert_eq!(root.counts.results.unfinished, 0);
        assert_eq!(root.counts.results.decided(), 2);
        assert_eq!(tree.nodes().len(), 2, "every one played 2. Nf3");
    }

    #[test]
    fn a_moves_root_needs_the_game_to_begin_with_them() {
        let spec = Spec { root: Root::of_moves("e4 e5").unwrap(), depth: 1 };
        let tree = tree(GAMES, spec, false);
        let root = &tree.nodes()[tree.find(&tree.spec().root.position).unwrap() as usize];
        // Games 1 and 6; game 2 transposes, game 4 starts from a FEN.
        assert_eq!(root.counts.results.games, 2);
    }
}
