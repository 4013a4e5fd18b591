//! Art. 5.2.2 (a dead position: neither player can checkmate by any series
//! of legal moves) and Art. 6.9 (a flag fall against a player whose
//! opponent cannot checkmate): whether a side can still mate, by some
//! sequence of legal moves of both players (a helpmate).
//!
//! Sound by construction: [`Mate::Impossible`] is said only when proved;
//! what the budget cannot decide is [`Mate::Undetermined`].
//!
//! The method follows M. Ambrona, "A Practical Algorithm for Chess
//! Unwinnability" (FUN 2022), written anew on shakmaty:
//!
//! 1. static reasoning: insufficient material (shakmaty's rule), then
//!    pawns frozen for ever, pawns that never leave their file, the
//!    regions they leave to the kings and pieces, and whether a check
//!    there can leave the king no flight (`blocked`);
//! 2. a helpmate search by iterative deepening in which the moves that
//!    bring a mate pattern closer (the loser's king to a corner, the
//!    winner's pieces after it, captures and pushes by the winner) cost no
//!    depth and those that waste material cost more. An iteration that
//!    ends without being cut anywhere by its depth has seen every position
//!    reachable (short of those statically proved hopeless): no mate among
//!    them proves [`Mate::Impossible`];
//! 3. with what is left of the budget, a plain exhaustive walk of the
//!    reachable positions, for forced sequences the heuristics neglect.

mod blocked;

use std::{
    collections::{HashMap, HashSet},
    hash::{BuildHasherDefault, Hasher},
    sync::OnceLock,
};

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, Position, Role, Square, attacks,
    zobrist::{Zobrist64, ZobristValue},
};

/// Whether a side can still checkmate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mate {
    /// Some sequence of legal moves mates the other side.
    Possible,
    /// No sequence of legal moves does (proved).
    Impossible,
    /// The budget ran out before either was shown.
    Undetermined,
}

/// The default budget of one analysis, in positions visited.
pub const DEFAULT_BUDGET: u32 = 100_000;

/// The budget of an analysis made while replaying games (a game's last
/// position, Art. 6.9): the replay must not slow down on the endgames
/// the pre-filter lets through, most of which are alive.
pub const GAME_BUDGET: u32 = 300;

/// The budget of [`dead_by_walk`] before a position known to be dead, in
/// positions generated: enough for forced lines, far too little to walk
/// a live endgame, which it gives up on at once.
pub const PROBE_BUDGET: u32 = 64;

/// How a verdict was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The game is already over (checkmate or stalemate), or the side has
    /// insufficient material (shakmaty's rule).
    Static,
    /// Frozen pawns leave no mate (a locked pawn wall).
    Blocked,
    /// The search found a mate, or saw every reachable position.
    Search,
    /// The budget ran out.
    Budget,
}

/// One analysis: the verdict, why, and what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Analysis {
    /// The verdict.
    pub mate: Mate,
    /// How it was reached.
    pub reason: Reason,
    /// Positions visited by the search.
    pub nodes: u32,
}

/// Whether `side` can checkmate from `pos` by some sequence of legal moves,
/// visiting at most `budget` positions.
pub fn can_mate(pos: &Chess, side: Color, budget: u32) -> Mate {
    analyse(pos, side, budget).mate
}

/// Art. 5.2.2: whether neither side can mate from `pos`. `Possible` when
/// one side can, `Impossible` when the position is dead.
pub fn either_can_mate(pos: &Chess, budget: u32) -> Mate {
    match can_mate(pos, pos.turn(), budget) {
        Mate::Impossible => can_mate(pos, !pos.turn(), budget),
        Mate::Possible => Mate::Possible,
        Mate::Undetermined => match can_mate(pos, !pos.turn(), budget) {
            Mate::Possible => Mate::Possible,
            _ => Mate::Undetermined,
        },
    }
}

/// [`can_mate`] with the reason and the cost.
pub fn analyse(pos: &Chess, side: Color, budget: u32) -> Analysis {
    let done = |mate, reason, nodes| Analysis { mate, reason, nodes };
    if pos.has_insufficient_material(side) {
        return done(Mate::Impossible, Reason::Static, 0);
    }
    if pos.legal_moves().is_empty() {
        let mated = pos.is_check() && pos.turn() != side;
        let mate = if mated { Mate::Possible } else { Mate::Impossible };
        return done(mate, Reason::Static, 0);
    }
    if blocked::cannot_mate(pos, side) {
        return done(Mate::Impossible, Reason::Blocked, 0);
    }
    let mut search = Search::new(side, budget / 2);
    if let Some(mate) = search.deepening(pos) {
        return done(mate, Reason::Search, search.nodes);
    }
    let spent = search.nodes;
    let mut walk = Search::new(side, budget.saturating_sub(spent));
    let mate = walk.exhaust(pos);
    let reason = if mate == Mate::Undetermined { Reason::Budget } else { Reason::Search };
    done(mate, reason, spent + walk.nodes)
}

/// A cheap test run at every ply: `false` when `pos` is not worth the
/// search of [`either_can_mate`] because it is not dead.
///
/// It lets through (returns `true` for) the shapes dead positions take:
///
/// - insufficient material on both sides (shakmaty's rule);
/// - a king right in front of an enemy pawn (the jams in which a side runs
///   out of moves, as a king stalemated in a corner by a pawn);
/// - a check with at most two replies, or a position reached by such
///   forced replies with at most two moves, whose replies all lead to such
///   shapes or to stalemate (forced captures into bare kings or stalemate;
///   four plies deep at most);
/// - pawns blocked head to head, when some of them are frozen for ever
///   (the static reasoning of the analysis, a few flood fills), or when
///   neither side has more than a rook's worth of pieces besides pawns
///   (walls still closing, or that pieces of their own side jam).
///
/// Cost: bitboard tests in the common case; a move generation only in
/// check; the flood fills only with pawns blocked head to head.
///
/// Not a proof, and not complete: it lets through every dead position of
/// the lichess test data, but not composed ones whose deadness rests on a
/// deep forced line, on a side to move that is out of moves without being
/// in check, or on a wall that pieces jam without frozen pawns (about a
/// quarter of the dead positions of fixtures/unwinnability/hard.txt).
/// Every move from a dead position leads to a dead position, so a game
/// that goes on from one is caught at the first ply that takes one of the
/// shapes above (at the latest at bare kings), later than the Laws say.
///
/// That also means a game has a dead position only if its last position is
/// dead: a caller can analyse the last position first and look back for
/// the first dead ply (deadness only grows along a game, so a bisection
/// works) only when it is, instead of searching at every ply this test
/// lets through.
pub fn may_be_dead(pos: &Chess) -> bool {
    shape(pos, 0)
}

/// The stricter test of a game's last position, before it is analysed while
/// replaying: insufficient material (a forced capture may have made an
/// earlier position dead), pawns frozen for ever (a wall), or a check whose
/// at most two replies all lead to those or to stalemate (a game stopped
/// in a forced line, `Rg8+` whose only answer `Kxg8` leaves a lone bishop;
/// four plies deep at most). The shapes [`may_be_dead`] adds (a king in
/// front of a pawn, pawns blocked with little material) are common in
/// live endgames, whose analysis would cost more than the replay; a game
/// whose last position is dead in one of those shapes only is not found.
pub fn worth_analysing_at_end(pos: &Chess) -> bool {
    ends_dead(pos, 0)
}

/// [`worth_analysing_at_end`] at `depth` plies into a forced line.
fn ends_dead(pos: &Chess, depth: u32) -> bool {
    if pos.is_insufficient_material()
        || (!blocked::blocked_pawns(pos.board()).is_empty()
            && blocked::Frozen::compute(pos).is_some())
    {
        return true;
    }
    // At the root only in check, where replies are few: a move generation
    // for the games that end in check, none for the others.
    if depth >= 4 || (depth == 0 && !pos.is_check()) {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Stalemate is dead; checkmate is not.
        return !pos.is_check();
    }
    moves.len() <= 2
        && moves.into_iter().all(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            ends_dead(&child, depth + 1)
        })
}

/// Whether `pos` is proved dead by walking every position reachable from
/// it, each once, generating at most `budget` positions: none is a
/// checkmate, short of positions dead by the static rules (insufficient
/// material, a stalemate, frozen pawns that leave neither side a mate).
/// `false` when a mate is reachable or the budget runs out. Both sides at
/// once and without the helpmate heuristics of [`analyse`]: the proof for
/// the short forced lines that end a game (a capture into bare kings or
/// stalemate), cheap enough to try on the positions before a dead one.
pub fn dead_by_walk(pos: &Chess, budget: u32) -> bool {
    let mut seen: HashSet<u64, KeyHash> = HashSet::default();
    seen.insert(key(pos));
    let mut stack = vec![(pos.clone(), key(pos))];
    let mut generated = 1;
    while let Some((pos, parent)) = stack.pop() {
        if pos.is_insufficient_material() {
            continue;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() {
                return false;
            }
            continue;
        }
        if blocked::cannot_mate(&pos, Color::White) && blocked::cannot_mate(&pos, Color::Black) {
            continue;
        }
        generated += moves.len() as u32;
        if generated > budget {
            return false;
        }
        for m in moves {
            if let Some((child, key)) = unseen_child(&pos, parent, m, &mut seen) {
                stack.push((child, key));
            }
        }
    }
    true
}

/// The Zobrist key of `pos`, as the searches remember positions.
fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of the position after `m` from `pos` (whose key is `parent`),
/// updated from the pieces that move when that is simple: without
/// castling rights nor an en-passant square before, and for a move that
/// cannot leave one after (not a pawn's double step), nor take en passant.
/// Otherwise `None`: the caller plays the move and hashes the position.
fn child_key(pos: &Chess, parent: u64, m: &Move) -> Option<u64> {
    let Move::Normal { role, from, capture, to, promotion } = *m else { return None };
    let double_step = role == Role::Pawn && from.distance(to) == 2;
    if double_step || pos.maybe_ep_square().is_some() || !pos.castles().is_empty() {
        return None;
    }
    let turn = pos.turn();
    let mut key = parent ^ Zobrist64::zobrist_for_white_turn().0;
    key ^= Zobrist64::zobrist_for_piece(from, role.of(turn)).0;
    key ^= Zobrist64::zobrist_for_piece(to, promotion.unwrap_or(role).of(turn)).0;
    if let Some(capture) = capture {
        key ^= Zobrist64::zobrist_for_piece(to, capture.of(!turn)).0;
    }
    Some(key)
}

/// The position after `m` from `pos` (whose key is `parent`) and its key,
/// unless `seen` has it already (then it is not built); marks it seen.
fn unseen_child(
    pos: &Chess,
    parent: u64,
    m: Move,
    seen: &mut HashSet<u64, KeyHash>,
) -> Option<(Chess, u64)> {
    match child_key(pos, parent, &m) {
        Some(key) => {
            if !seen.insert(key) {
                return None;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            debug_assert_eq!(key, self::key(&child), "{m:?}");
            Some((child, key))
        }
        None => {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let key = self::key(&child);
            seen.insert(key).then_some((child, key))
        }
    }
}

/// Zobrist keys are random already: a key is its own hash (a set of them
/// need not pay for SipHash).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeyHash = BuildHasherDefault<KeyHasher>;

/// [`may_be_dead`] at `depth` plies into a forced line.
fn shape(pos: &Chess, depth: u32) -> bool {
    if pos.is_insufficient_material() {
        return true;
    }
    let board = pos.board();
    let kings = board.kings();
    let white_pawns = board.white() & board.pawns();
    let black_pawns = board.black() & board.pawns();
    if (white_pawns & (kings & board.black()).shift(-8)).any()
        || (black_pawns & (kings & board.white()).shift(8)).any()
    {
        return true;
    }
    // Inside a forced line the moves are counted anyway; at the root, only
    // in check, where replies are few.
    if depth > 0 || pos.is_check() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Stalemate is dead; checkmate is not.
            return !pos.is_check();
        }
        // Let through when every forced reply leads to a shape; otherwise
        // the other shapes may still hold here.
        if moves.len() <= 2
            && depth < 4
            && moves.into_iter().all(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                shape(&child, depth + 1)
            })
        {
            return true;
        }
    }
    if blocked::blocked_pawns(board).is_empty() {
        return false;
    }
    let pieces = |color: Color| {
        let ours = board.by_color(color);
        (ours & board.queens()).count() * 9
            + (ours & board.rooks()).count() * 5
            + (ours & (board.bishops() | board.knights())).count() * 3
    };
    (pieces(Color::White) <= 5 && pieces(Color::Black) <= 5)
        || blocked::Frozen::compute(pos).is_some()
}

/// The deepest line either phase follows: far beyond any helpmate the
/// heuristics find, it bounds the recursion.
const MAX_PLY: u32 = 400;

/// How a move is weighed by the helpmate search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    /// Brings a mate closer: costs no depth.
    Progress,
    /// Costs one ply of depth, none after a progress move.
    Normal,
    /// Wastes material the mate may need: costs three.
    Waste,
}

/// The state of one search for a mate by `winner`.
struct Search {
    winner: Color,
    budget: u32,
    nodes: u32,
    /// Some line was cut by depth or by the budget: "no mate found" is then
    /// no proof.
    cut: bool,
    /// The budget ran out.
    exhausted: bool,
    /// Positions seen in the current iteration, with the depth left then.
    seen: HashMap<u64, i32, KeyHash>,
}

impl Search {
    fn new(winner: Color, budget: u32) -> Search {
        Search { winner, budget, nodes: 0, cut: false, exhausted: false, seen: HashMap::default() }
    }

    /// Counts a visited position; `false` when the budget is spent.
    fn visit(&mut self) -> bool {
        if self.nodes >= self.budget {
            self.exhausted = true;
            self.cut = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Iterative deepening: `Some` verdict, or `None` when the budget ran
    /// out first.
    fn deepening(&mut self, pos: &Chess) -> Option<Mate> {
        for depth in 1..=MAX_PLY as i32 {
            self.cut = false;
            self.seen.clear();
            if self.find(pos, key(pos), depth, 0, false, true) {
                return Some(Mate::Possible);
            }
            if !self.cut {
                return Some(Mate::Impossible);
            }
            if self.exhausted {
                return None;
            }
        }
        None
    }

    /// Whether a mate by the winner is found from `pos` (of Zobrist key
    /// `key`) within `depth`. `recheck`: whether the static reasoning may
    /// say something new here (see [`changes_statics`]).
    fn find(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        ply: u32,
        progress: bool,
        recheck: bool,
    ) -> bool {
        if !self.visit() {
            return false;
        }
        let weighed = weighed_moves(pos, self.winner);
        if weighed.is_empty() {
            return pos.is_check() && pos.turn() != self.winner;
        }
        if pos.has_insufficient_material(self.winner) {
            return false;
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.cut = true;
            return false;
        }
        match self.seen.get(&key) {
            Some(&seen) if seen >= depth => return false,
            _ => {}
        }
        self.seen.insert(key, depth);
        if recheck && blocked::cannot_mate(pos, self.winner) {
            return false;
        }
        for (weight, m) in weighed {
            let cost = match weight {
                Weight::Progress => 0,
                Weight::Normal if progress => 0,
                Weight::Normal => 1,
                Weight::Waste => 3,
            };
            let recheck = changes_statics(pos, &m);
            let known = child_key(pos, key, &m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = known.unwrap_or_else(|| self::key(&child));
            debug_assert_eq!(child_key, self::key(&child));
            let progress = weight == Weight::Progress;
            if self.find(&child, child_key, depth - cost, ply + 1, progress, recheck) {
                return true;
            }
            if self.exhausted {
                return false;
            }
        }
        false
    }

    /// Every position reachable from `pos`, short of those statically
    /// hopeless, each once: a mate among them or none at all.
    fn exhaust(&mut self, pos: &Chess) -> Mate {
        let mut seen: HashSet<u64, KeyHash> = HashSet::default();
        seen.insert(key(pos));
        let mut stack = vec![(pos.clone(), key(pos), true)];
        while let Some((pos, parent, recheck)) = stack.pop() {
            if !self.visit() {
                return Mate::Undetermined;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                if pos.is_check() && pos.turn() != self.winner {
                    return Mate::Possible;
                }
                continue;
            }
            if pos.has_insufficient_material(self.winner)
                || (recheck && blocked::cannot_mate(&pos, self.winner))
            {
                continue;
            }
            for m in moves {
                let recheck = changes_statics(&pos, &m);
                if let Some((child, key)) = unseen_child(&pos, parent, m, &mut seen) {
                    stack.push((child, key, recheck));
                }
            }
        }
        Mate::Impossible
    }
}

/// Whether the static reasoning of `blocked` may judge the position after
/// `m` otherwise than `pos`. It floods regions that do not depend on where
/// a piece stands inside its region, and counts no piece as an obstacle
/// but frozen pawns: a move that is neither a pawn's nor a capture, from a
/// position without castling rights or en-passant square, moves a piece
/// within its region and changes nothing, unless a king leaves check (its
/// region is flooded from where it stands, even in check from a frozen
/// pawn). Skipping the reasoning is always sound (it only prunes); this
/// keeps it off most nodes.
fn changes_statics(pos: &Chess, m: &Move) -> bool {
    m.role() == Role::Pawn
        || m.is_capture()
        || !pos.castles().is_empty()
        || pos.maybe_ep_square().is_some()
        || pos.is_check()
}

/// The legal moves of `pos`, weighed and sorted, progress first. Apart
/// from the recursion of [`Search::find`], so that the move list, large,
/// is not on the stack of every ply of a deep line.
#[inline(never)]
fn weighed_moves(pos: &Chess, winner: Color) -> Vec<(Weight, Move)> {
    let targets = Targets::new(pos, winner);
    let loser_promotes = pos.turn() != winner && needs_loser_promotion(pos, winner);
    let mut weighed: Vec<(Weight, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (weigh(pos, &m, winner, &targets, loser_promotes), m))
        .collect();
    weighed.sort_by_key(|&(w, _)| w);
    weighed
}

/// The squares the pieces head for in the mate the search aims at: a
/// corner on the loser's side, of the colour the winner's bishop (or,
/// failing one, the loser's) calls for. Our reading of Ambrona's targets:
/// the loser's king goes into the corner, a loser's piece next to it
/// blocks the exit, the winner's king comes to the third square from the
/// corner and the other pieces to the corner's neighbourhood.
struct Targets {
    /// The kings' target.
    king: Square,
    /// The other pieces'.
    other: Square,
}

impl Targets {
    fn new(pos: &Chess, winner: Color) -> Targets {
        let board = pos.board();
        let theirs = board.by_color(!winner);
        let ours = board.by_color(winner);
        let dark = (ours & board.bishops() & Bitboard::DARK_SQUARES).any()
            || ((ours & board.bishops()).is_empty()
                && (theirs & board.bishops() & Bitboard::LIGHT_SQUARES).any());
        // For White winning towards a dark corner: h8.
        let (king, other) = match pos.turn() == winner {
            true => (Square::H6, Square::H8),
            false => (Square::H8, Square::G8),
        };
        let place = |sq: Square| {
            let sq = if dark { sq } else { sq.flip_horizontal() };
            if winner == Color::Black { sq.flip_vertical().flip_horizontal() } else { sq }
        };
        Targets { king: place(king), other: place(other) }
    }

    fn of(&self, role: Role) -> Square {
        if role == Role::King { self.king } else { self.other }
    }
}

/// Knight moves between every two squares.
fn knight_distance(a: Square, b: Square) -> u8 {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
        for from in Square::ALL {
            let row = &mut table[from as usize];
            row[from as usize] = 0;
            let mut frontier = Bitboard::from_square(from);
            let mut reached = frontier;
            let mut d = 0;
            while frontier.any() {
                d += 1;
                let next = frontier
                    .into_iter()
                    .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::knight_attacks(sq))
                    & !reached;
                for sq in next {
                    row[sq as usize] = d;
                }
                reached |= next;
                frontier = next;
            }
        }
        table
    });
    table[a as usize][b as usize]
}

/// Whether the move brings a king or a knight closer to `to`.
fn closer(role: Role, from: Square, to: Square, target: Square) -> bool {
    match role {
        Role::King => to.distance(target) < from.distance(target),
        Role::Knight => knight_distance(to, target) < knight_distance(from, target),
        _ => false,
    }
}

/// Whether the winner cannot mate without a promotion of the loser (a lone
/// knight against no minor piece nor rook, or bishops of one colour
/// against no knight nor bishop of the other colour): the loser's pawn
/// moves then help.
fn needs_loser_promotion(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner);
    let theirs = board.by_color(!winner);
    let lone_knight = ours.count() == 2 && (ours & board.knights()).count() == 1;
    if lone_knight && (theirs & (board.knights() | board.bishops() | board.rooks())).is_empty() {
        return true;
    }
    let bishops = ours & board.bishops();
    let only_bishops = bishops.any() && ours.count() == bishops.count() + 1;
    let colour = if (bishops & Bitboard::DARK_SQUARES).any() {
        Bitboard::DARK_SQUARES
    } else {
        Bitboard::LIGHT_SQUARES
    };
    only_bishops && (board.bishops() & !colour).is_empty() && (theirs & board.knights()).is_empty()
}

/// How the helpmate search weighs `m`; `loser_promotes`: whether the
/// winner needs a promotion of the loser ([`needs_loser_promotion`]).
fn weigh(pos: &Chess, m: &Move, winner: Color, targets: &Targets, loser_promotes: bool) -> Weight {
    let role = m.role();
    let (Some(from), to) = (m.from(), m.to()) else { return Weight::Normal };
    let target = targets.of(role);
    if pos.turn() == winner {
        let advanced = role == Role::Pawn && winner.relative_rank(from.rank()) as u32 >= 4;
        if m.is_capture() || m.is_promotion() || advanced || closer(role, from, to, target) {
            return Weight::Progress;
        }
        return Weight::Normal;
    }
    let mut weight = Weight::Normal;
    if loser_promotes {
        let heavy = matches!(m.promotion(), Some(Role::Queen | Role::Rook));
        weight = if role == Role::Pawn && !heavy { Weight::Progress } else { Weight::Waste };
    }
    if closer(role, from, to, target) {
        Weight::Progress
    } else if m.is_capture() {
        Weight::Waste
    } else {
        weight
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("a FEN");
        fen.into_position(CastlingMode::Chess960).expect("a legal position")
    }

    fn white(fen: &str) -> Mate {
        can_mate(&pos(fen), Color::White, DEFAULT_BUDGET)
    }

    fn black(fen: &str) -> Mate {
        can_mate(&pos(fen), Color::Black, DEFAULT_BUDGET)
    }

    #[test]
    fn bare_king_cannot_mate() {
        assert_eq!(black("8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1"), Mate::Impossible);
        assert_eq!(white("8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1"), Mate::Possible);
    }

    #[test]
    fn locked_pawn_wall_with_kings_only() {
        let fen = "8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93";
        assert_eq!(white(fen), Mate::Impossible);
        assert_eq!(black(fen), Mate::Impossible);
        assert_eq!(either_can_mate(&pos(fen), DEFAULT_BUDGET), Mate::Impossible);
        assert!(may_be_dead(&pos(fen)));
    }

    #[test]
    fn locked_pawn_wall_with_bishops_of_the_wrong_colour() {
        // Dark-squared bishops cannot pass the light-squared wall.
        let fen = "2k5/b7/8/p1p1p1p1/P1P1P1P1/8/6B1/4K3 w - - 0 1";
        assert_eq!(either_can_mate(&pos(fen), DEFAULT_BUDGET), Mate::Impossible);
    }

    #[test]
    fn a_wall_with_a_gap_is_not_dead() {
        let fen = "3k4/8/8/1p1p3p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
        assert_eq!(white(fen), Mate::Possible);
        assert_eq!(black(fen), Mate::Possible);
    }

    #[test]
    fn forced_capture_into_bare_kings() {
        // White is in check and must take the queen: K against K.
        let fen = "qK6/3k4/8/8/8/8/8/8 w - - 0 60";
        assert_eq!(black(fen), Mate::Impossible);
        assert_eq!(either_can_mate(&pos(fen), DEFAULT_BUDGET), Mate::Impossible);
    }

    #[test]
    fn a_game_stopped_in_a_forced_line_is_worth_analysing() {
        // Black in check, whose only reply Kxg8 leaves a lone bishop.
        let forced = pos("6Rk/8/5K2/8/8/8/8/1B6 b - - 0 60");
        assert!(worth_analysing_at_end(&forced));
        assert_eq!(either_can_mate(&forced, DEFAULT_BUDGET), Mate::Impossible);
        // With a second reply, Kh7, it is alive and let by.
        let free = pos("6Rk/8/5K2/8/8/8/8/2B5 b - - 0 60");
        assert!(!worth_analysing_at_end(&free));
        // A check with one reply, into a live position.
        assert!(!worth_analysing_at_end(&pos("6Rk/8/5K2/8/8/8/P7/1B6 b - - 0 60")));
        // Not in check: no move generation at the root.
        assert!(!worth_analysing_at_end(&pos("7k/8/5K2/8/8/8/8/1B4R1 b - - 0 60")));
    }

    #[test]
    fn forced_capture_into_stalemate() {
        let fen = "1q2Q2k/8/5p1K/7P/8/8/8/8 b - - 0 1";
        assert_eq!(either_can_mate(&pos(fen), DEFAULT_BUDGET), Mate::Impossible);
    }

    #[test]
    fn same_coloured_bishops_cannot_mate() {
        let fen = "3b4/3k4/8/8/8/3K4/3B4/8 w - - 0 1";
        assert_eq!(white(fen), Mate::Impossible);
        assert_eq!(black(fen), Mate::Impossible);
    }

    #[test]
    fn opposite_coloured_bishops_can_help_mate() {
        let fen = "8/8/3k4/3b4/8/3K4/3B4/8 w - - 0 1";
        assert_eq!(white(fen), Mate::Possible);
        assert_eq!(black(fen), Mate::Possible);
    }

    #[test]
    fn a_lone_knight_mates_with_the_opponents_help_a_lone_bishop_does_not() {
        // Art. 6.9: the knight can mate if Black's pawn blocks the king;
        // a bishop against a bare king cannot.
        assert_eq!(white("7k/7p/8/8/8/8/8/K5N1 b - - 0 1"), Mate::Possible);
        assert_eq!(white("7k/8/8/8/8/8/8/K5B1 b - - 0 1"), Mate::Impossible);
        // A lone bishop against a pawn that promotes to a knight can.
        assert_eq!(white("7k/8/8/8/8/8/p7/K5B1 b - - 0 1"), Mate::Possible);
    }

    #[test]
    fn pawns_that_can_promote() {
        assert_eq!(white("8/8/8/3k4/3P4/3K4/8/8 w - - 0 1"), Mate::Possible);
        assert_eq!(black("8/8/8/3k4/3P4/3K4/8/8 w - - 0 1"), Mate::Impossible);
    }

    #[test]
    fn trapped_rook_behind_a_wall() {
        let fen = "2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1";
        assert_eq!(either_can_mate(&pos(fen), DEFAULT_BUDGET), Mate::Impossible);
    }

    #[test]
    fn a_pawn_held_by_a_king_that_can_never_move_is_frozen() {
        // White's king on a1 can never move (b1 is watched by the pawn on
        // a2, which b3 protects), so the a2 pawn never promotes; the kings
        // never meet and the pawn b2, next to White's king for ever, cannot
        // be taken: the wall stands. Black's light bishop cannot check a1,
        // White's dark bishop cannot mate alone.
        for fen in [
            "3B4/8/4p3/3pP2k/2pP4/1pP5/pPb5/K7 w - - 0 1",
            "k7/PpB5/1Pp5/2Pp4/3Pp2K/4P3/8/3b4 b - - 0 1",
        ] {
            let analysis = analyse(&pos(fen), Color::White, DEFAULT_BUDGET);
            assert_eq!((analysis.mate, analysis.reason), (Mate::Impossible, Reason::Blocked));
            let analysis = analyse(&pos(fen), Color::Black, DEFAULT_BUDGET);
            assert_eq!((analysis.mate, analysis.reason), (Mate::Impossible, Reason::Blocked));
        }
        // Without the pawn on b3 nothing protects a2: the king takes it.
        let fen = "3B4/8/4p3/3pP2k/2pP4/2P5/pPb5/K7 w - - 0 1";
        assert_ne!(analyse(&pos(fen), Color::White, DEFAULT_BUDGET).reason, Reason::Blocked);
    }

    #[test]
    fn a_wall_still_closing_is_dead_by_the_statics() {
        // Every pawn keeps to its file: White's second rank can only close
        // the wall, Black's fifth never passes it (`blocked`'s anchors).
        let fen = "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1";
        for side in Color::ALL {
            let analysis = analyse(&pos(fen), side, DEFAULT_BUDGET);
            assert_eq!((analysis.mate, analysis.reason), (Mate::Impossible, Reason::Blocked));
        }
        // With a white pawn on the b-file, free to promote, it is not.
        let fen = "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/1PP1P1P1/4K3 w - - 0 1";
        assert_ne!(analyse(&pos(fen), Color::White, DEFAULT_BUDGET).reason, Reason::Blocked);
    }

    #[test]
    fn checkmate_and_stalemate() {
        // Fool's mate: Black has mated.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(black(mated), Mate::Possible);
        assert_eq!(white(mated), Mate::Impossible);
        let stalemate = "k7/P1K5/8/8/8/8/8/8 b - - 0 1";
        assert_eq!(white(stalemate), Mate::Impossible);
    }

    #[test]
    fn the_start_is_winnable_and_cheap() {
        let start = Chess::default();
        let a = analyse(&start, Color::White, DEFAULT_BUDGET);
        assert_eq!(a.mate, Mate::Possible);
        assert!(a.nodes < 10_000, "{a:?}");
    }

    #[test]
    fn the_walk_proves_forced_lines_dead_and_gives_up_on_live_endgames() {
        // The only reply takes the queen: bare kings.
        assert!(dead_by_walk(&pos("qK6/3k4/8/8/8/8/8/8 w - - 0 60"), PROBE_BUDGET));
        // Black's only move takes the queen into stalemate.
        assert!(dead_by_walk(&pos("1q2Q2k/8/5p1K/7P/8/8/8/8 b - - 0 1"), PROBE_BUDGET));
        // A locked wall: dead by the statics at the root.
        let wall = "8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93";
        assert!(dead_by_walk(&pos(wall), PROBE_BUDGET));
        // A pawn that promotes: alive, or at least not proved dead.
        assert!(!dead_by_walk(&pos("8/8/8/3k4/3P4/3K4/8/8 w - - 0 1"), PROBE_BUDGET));
        // A mate in one is found.
        assert!(!dead_by_walk(&pos("k7/8/1K6/8/8/8/8/7R w - - 0 1"), 1_000));
    }

    #[test]
    fn keys_updated_from_the_move_match_keys_computed_anew() {
        for fen in [
            "8/8/3k4/3b4/8/3K4/3B4/8 w - - 0 1",
            "7k/8/8/8/8/8/p7/K5B1 b - - 0 1",
            "2k5/b7/8/p1p1p1p1/P1P1P1P1/8/6B1/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/4P3/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        ] {
            let pos = pos(fen);
            let parent = key(&pos);
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                if let Some(updated) = child_key(&pos, parent, &m) {
                    assert_eq!(updated, key(&child), "{fen} {m:?}");
                }
            }
        }
    }

    #[test]
    fn a_budget_of_zero_decides_nothing_beyond_the_static() {
        let start = Chess::default();
        assert_eq!(can_mate(&start, Color::White, 0), Mate::Undetermined);
    }
}
