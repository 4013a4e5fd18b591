//! The FIDE Laws that end or may end a game, tracked ply by ply, and
//! whether a recorded result fits the final position. `RuleTracker` finds
//! the first automatic end (Art. 5.1.1 checkmate, 5.2.1 stalemate, 5.2.2
//! dead position, 9.6.1 fivefold repetition, 9.6.2 seventy-five moves, or a
//! variant's own end) and the first claimable draws (Art. 9.2 threefold,
//! 9.3 fifty moves) from positions and moves only. Mate and stalemate are
//! decided once, at the last position (every earlier one had a legal move:
//! the next one played); the repetition window stores no boards while it is
//! short (`RepetitionTable`).

use std::collections::HashMap;

use shakmaty::{
    Bitboard, Board, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position, Square,
};

use super::resolve::Replayable;

use crate::record::Termination;

/// Hash of a position under FIDE's identity (Art. 9.2.3): pieces, side to
/// move, castling rights, and the en passant square only when a legal en
/// passant capture exists.
pub fn position_hash<P: Position>(pos: &P) -> u64 {
    pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(EnPassantMode::Legal).0
}

/// The square of a legal en passant capture, as the identity of positions
/// counts it (Art. 9.2.3): only after a double step can there be one, so
/// the move generation `legal_ep_square` does is skipped otherwise.
pub fn legal_en_passant<P: Position>(pos: &P) -> Option<Square> {
    pos.maybe_ep_square().and_then(|_| pos.legal_ep_square())
}

/// Beyond this many positions since the last irreversible move, occurrences
/// are counted in a hash map instead of by scanning (keeps hostile games of
/// millions of shuffling plies linear).
const SCAN_LIMIT: usize = 256;

/// A position as the repetition rule sees it, within one window of
/// reversible moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Seen {
    /// See [`Seen::key`].
    key: u64,
    board: Board,
}

/// Flips the key of a position with a legal en passant capture.
const EN_PASSANT_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Flips the key of a position with Black to move.
const BLACK_KEY: u64 = 0x5851_f42d_4c95_7f2d;

impl Seen {
    /// `en_passant` says whether `pos` has a legal en passant capture.
    fn of<P: Replayable>(pos: &P, en_passant: bool) -> Seen {
        Seen { key: Seen::key(pos, en_passant), board: pos.board().clone() }
    }

    /// A cheap first test, and the parts of the identity besides the board.
    /// Chess: the occupied squares, flipped by constants for Black to move
    /// and for a legal en passant capture (only ever in a window's first
    /// position, where castling rights are those of the whole window);
    /// equal boards have equal occupancy, so two positions are the same
    /// exactly when keys and boards are. Variants: the full position hash,
    /// which covers pockets, check counts and en passant too.
    /// `en_passant` says whether `pos` has a legal en passant capture.
    fn key<P: Replayable>(pos: &P, en_passant: bool) -> u64 {
        if !P::PLAIN_MOVES {
            return position_hash(pos);
        }
        pos.board().occupied().0
            ^ if en_passant { EN_PASSANT_KEY } else { 0 }
            ^ if pos.turn() == Color::Black { BLACK_KEY } else { 0 }
    }
}

/// Counts how often each position occurred since the last irreversible move.
///
/// In that window the castling rights cannot change and only the first
/// position can have an en passant capture, so in chess two positions are
/// the same exactly when their keys and boards are (occupancy compared
/// first, as python-chess does). Every move inside the window only moves a
/// piece (shakmaty's `is_irreversible` covers captures, pawn moves,
/// castling, the loss of castling rights and any move from a position with
/// an en passant capture), so the window keeps a key, a count and a step
/// per position instead of a copy of its board: an earlier board is
/// rebuilt, only when its key matches, by taking the steps back from the
/// current one. Past `SCAN_LIMIT` positions, boards go into a hash map.
#[derive(Debug, Default)]
struct RepetitionTable {
    /// The window's positions, oldest first, scanned newest first.
    window: Vec<Entry>,
    /// Past the scan limit, and always for variants (whose moves also drop,
    /// explode and capture within a window): occurrences by position.
    by_position: HashMap<Seen, u32>,
}

/// A position of the window.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// [`Seen::key`] of the position.
    key: u64,
    /// How often the position had occurred, itself included.
    count: u32,
    /// The step (from, to) that reached it from the previous entry (none
    /// for the window's first).
    step: Option<(Square, Square)>,
}

impl RepetitionTable {
    fn clear(&mut self) {
        self.window.clear();
        self.by_position.clear();
    }

    /// Records `pos`, reached by the piece `step` (from, to) of a normal
    /// move, and returns how often its position has now occurred.
    /// `en_passant` says whether `pos` has a legal en passant capture.
    fn record<P: Replayable>(
        &mut self,
        pos: &P,
        step: Option<(Square, Square)>,
        en_passant: bool,
    ) -> u32 {
        if !P::PLAIN_MOVES || !self.by_position.is_empty() {
            return self.count_by_position(Seen::of(pos, en_passant));
        }
        let key = Seen::key(pos, en_passant);
        let step = step.filter(|_| !self.window.is_empty());
        debug_assert!(step.is_some() || self.window.is_empty(), "a window move is a normal move");
        self.window.push(Entry { key, count: 1, step });
        let newest = self.window.len() - 1;
        // Same side to move only: every other earlier entry, newest first.
        let mut same_side = self.window[..newest].iter().rev().skip(1).step_by(2);
        if let Some(nth) = same_side.position(|entry| entry.key == key) {
            let count = self.count_by_board(newest - 2 - 2 * nth, pos.board());
            self.window[newest].count = count;
        }
        let count = self.window[newest].count;
        if self.window.len() >= SCAN_LIMIT {
            self.spill(pos.board());
        }
        count
    }

    /// Counts `seen` in the hash map (out of line: the rare path).
    #[inline(never)]
    fn count_by_position(&mut self, seen: Seen) -> u32 {
        let count = self.by_position.entry(seen).or_default();
        *count += 1;
        *count
    }

    /// How often the newest entry's position, on `board`, has occurred,
    /// where entry `first_match` is the latest earlier one with its key:
    /// one more than at its latest earlier occurrence.
    #[inline(never)]
    fn count_by_board(&self, first_match: usize, board: &Board) -> u32 {
        let newest = self.window.len() - 1;
        let key = self.window[newest].key;
        let mut earlier = board.clone();
        let mut at = newest;
        for i in (0..=first_match).rev().step_by(2) {
            if self.window[i].key != key {
                continue;
            }
            self.step_back(&mut earlier, &mut at, i);
            if earlier == *board {
                return self.window[i].count + 1;
            }
        }
        1
    }

    /// Takes `board`, the board of entry `*at`, back to that of entry
    /// `target`.
    fn step_back(&self, board: &mut Board, at: &mut usize, target: usize) {
        while *at > target {
            if let Some((from, to)) = self.window[*at].step
                && let Some(piece) = board.remove_piece_at(to)
            {
                board.set_piece_at(from, piece);
            }
            *at -= 1;
        }
    }

    /// Moves the window into the hash map; `board` is its newest board.
    fn spill(&mut self, board: &Board) {
        let mut earlier = board.clone();
        let mut at = self.window.len() - 1;
        for i in (0..self.window.len()).rev() {
            self.step_back(&mut earlier, &mut at, i);
            // Newest first: the latest count of a position is its total.
            let seen = Seen { key: self.window[i].key, board: earlier.clone() };
            self.by_position.entry(seen).or_insert(self.window[i].count);
        }
        self.window.clear();
    }
}

/// An automatic end that stands only if the position still has a legal move
/// (the 75-move rule yields to a mate or stalemate, Art. 9.6.2).
#[derive(Debug, Clone, Copy)]
struct Pending {
    ply: u32,
    seventyfive: bool,
    fifty: bool,
}

/// What the rules determined about a game once it is fully replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuleFindings {
    /// First automatic end and the ply after which it holds.
    pub termination: Option<(Termination, u32)>,
    /// First ply whose position occurred for the third time.
    pub threefold_ply: Option<u32>,
    /// First ply at which the fifty-move rule could be claimed.
    pub fifty_ply: Option<u32>,
    /// The winner of a decisive automatic end, if any.
    pub winner: Option<Color>,
}

/// Tracks the rules ply by ply. Reused across games (`reset`).
#[derive(Debug, Default)]
pub struct RuleTracker {
    table: RepetitionTable,
    findings: RuleFindings,
    pending: Option<Pending>,
    check_variant_end: bool,
    /// Chess: the castling rights of the last position recorded.
    castling: Bitboard,
    /// Chess: whether the last position recorded had a legal en passant
    /// capture.
    en_passant: bool,
}

impl RuleTracker {
    /// Starts a game at `pos` (ply 0). `variant` turns on the per-ply check
    /// for a variant's own ends.
    pub fn start<P: Replayable>(&mut self, pos: &P, variant: bool) {
        self.table.clear();
        self.findings = RuleFindings::default();
        self.pending = None;
        self.check_variant_end = variant;
        self.castling = pos.castles().castling_rights();
        self.observe(pos, 0, None, true);
    }

    /// Notes that `m` is about to be played legally from `before`: the
    /// position had a legal move, so a pending end stands.
    pub fn before_move<P: Replayable>(&mut self, before: &P, m: Move) {
        if let Some(pending) = self.pending.take() {
            self.confirm(pending);
        }
        // Variants have irreversible moves of their own (a check in
        // three-check); chess moves are told after the fact.
        if !P::PLAIN_MOVES && before.is_irreversible(m) {
            self.table.clear();
        }
    }

    /// Records the position `after` reached at `ply` by move `m`.
    // Inlined into the replay loop, as `observe` below and `san_to_move`:
    // the plain build called all three; inlined, `validate` took 1.9% less
    // time on master games and 3.4% less CPU on lichess games (9 rounds).
    #[inline]
    pub fn after_move<P: Replayable>(&mut self, after: &P, ply: u32, m: Move) {
        if P::PLAIN_MOVES {
            if was_irreversible(after, self.castling, self.en_passant) {
                self.table.clear();
            }
            self.castling = after.castles().castling_rights();
        }
        let (step, material_changed) = match m {
            Move::Normal { from, to, capture, promotion, .. } => {
                (Some((from, to)), capture.is_some() || promotion.is_some())
            }
            Move::EnPassant { .. } | Move::Put { .. } => (None, true),
            Move::Castle { .. } => (None, false),
        };
        self.observe(after, ply, step, material_changed);
    }

    /// Records the position `pos` reached at `ply` by the piece `step`
    /// (from, to) of a normal move, if it was one.
    #[inline]
    fn observe<P: Replayable>(
        &mut self,
        pos: &P,
        ply: u32,
        step: Option<(Square, Square)>,
        material_changed: bool,
    ) {
        let findings = &mut self.findings;
        let tracking_repetitions =
            findings.threefold_ply.is_none() || findings.termination.is_none();
        let en_passant = P::PLAIN_MOVES && legal_en_passant(pos).is_some();
        self.en_passant = en_passant;
        let occurrences =
            if tracking_repetitions { self.table.record(pos, step, en_passant) } else { 0 };
        if occurrences >= 3 && findings.threefold_ply.is_none() {
            findings.threefold_ply = Some(ply);
        }
        let clock = pos.halfmoves();
        let fifty = clock >= 100 && findings.fifty_ply.is_none();
        if findings.termination.is_some() {
            if fifty {
                self.pending = Some(Pending { ply, seventyfive: false, fifty });
            }
            return;
        }
        if self.check_variant_end
            && let Outcome::Known(outcome) = pos.variant_outcome()
        {
            self.end(outcome_termination(outcome), ply, outcome_winner(outcome));
        } else if material_changed && pos.is_insufficient_material() {
            // Art. 5.2.2: no sequence of legal moves can lead to mate.
            self.end(Termination::InsufficientMaterial, ply, None);
        } else if occurrences >= 5 {
            // Art. 9.6.1. A fivefold repetition cannot be mate or stalemate:
            // the earlier occurrences had a move played from them. The same
            // argument confirms a simultaneous 75-move end at once.
            let termination = if clock >= 150 {
                Termination::SeventyfiveMoves
            } else {
                Termination::FivefoldRepetition
            };
            self.end(termination, ply, None);
        }
        let seventyfive = clock >= 150 && self.findings.termination.is_none();
        if seventyfive || fifty {
            self.pending = Some(Pending { ply, seventyfive, fifty });
        }
    }

    fn end(&mut self, termination: Termination, ply: u32, winner: Option<Color>) {
        self.findings.termination = Some((termination, ply));
        self.findings.winner = winner;
    }

    fn confirm(&mut self, pending: Pending) {
        if pending.fifty && self.findings.fifty_ply.is_none() {
            self.findings.fifty_ply = Some(pending.ply);
        }
        if pending.seventyfive && self.findings.termination.is_none() {
            // Art. 9.6.2: 75 moves without capture or pawn move.
            self.end(Termination::SeventyfiveMoves, pending.ply, None);
        }
    }

    /// Decides the last position reached, `pos` at `ply`, and returns all
    /// findings. The only search for a legal move of the game happens here.
    pub fn finish<P: Replayable>(&mut self, pos: &P, ply: u32) -> RuleFindings {
        let pending = self.pending.take();
        if self.findings.termination.is_none() || pending.is_some() {
            let has_moves = pos.has_legal_move();
            if self.findings.termination.is_none() && !has_moves {
                if pos.is_check() {
                    // Art. 5.1.1: the side that delivered mate wins.
                    self.end(Termination::Checkmate, ply, Some(!pos.turn()));
                } else {
                    self.end(Termination::Stalemate, ply, None);
                }
            }
            if let Some(pending) = pending.filter(|_| has_moves) {
                self.confirm(pending);
            }
        }
        self.findings
    }
}

/// Whether the chess move that reached `after` was irreversible (shakmaty's
/// `is_irreversible`, told after the fact from what the tracker keeps of
/// the position before: its castling rights and whether it had a legal en
/// passant capture). A capture or pawn move zeroes the clock; castling, a
/// king or rook move that loses a right, and a capture of a rook on its
/// square change the castling rights; and no later position can equal one
/// with a legal en passant capture, whatever the move from it was.
fn was_irreversible<P: Position>(
    after: &P,
    castling_before: Bitboard,
    en_passant_before: bool,
) -> bool {
    after.halfmoves() == 0
        || after.castles().castling_rights() != castling_before
        || en_passant_before
}

fn outcome_termination(outcome: KnownOutcome) -> Termination {
    match outcome {
        KnownOutcome::Decisive { .. } => Termination::VariantWin,
        KnownOutcome::Draw => Termination::VariantDraw,
    }
}

fn outcome_winner(outcome: KnownOutcome) -> Option<Color> {
    match outcome {
        KnownOutcome::Decisive { winner } => Some(winner),
        KnownOutcome::Draw => None,
    }
}

/// A recorded result, as far as the rules are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordedResult {
    /// `1-0` or `0-1`.
    Win(Color),
    /// `1/2-1/2`.
    Draw,
    /// `*`, missing, or not one of the four results.
    Unknown,
}

impl RecordedResult {
    /// Reads `1-0`, `0-1`, `1/2-1/2`; anything else is `Unknown`.
    pub fn parse(text: Option<&str>) -> Self {
        match text {
            Some("1-0") => RecordedResult::Win(Color::White),
            Some("0-1") => RecordedResult::Win(Color::Black),
            Some("1/2-1/2") => RecordedResult::Draw,
            _ => RecordedResult::Unknown,
        }
    }
}

/// Whether `recorded` agrees with the automatic end in `findings`: a win for
/// the side that mated (or won by the variant's rule), a draw for an
/// automatic draw. A game that did not end automatically agrees with any
/// result.
pub fn result_consistent(findings: &RuleFindings, recorded: RecordedResult) -> bool {
    match findings.termination {
        None => true,
        Some((termination, _)) if termination.is_draw() => recorded == RecordedResult::Draw,
        Some(_) => findings.winner.is_some_and(|winner| recorded == RecordedResult::Win(winner)),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen, san::San};

    use super::*;

    fn replay(fen: Option<&str>, sans: &str) -> RuleFindings {
        let mut pos: Chess = match fen {
            Some(fen) => Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap(),
            None => Chess::default(),
        };
        let mut rules = RuleTracker::default();
        rules.start(&pos, false);
        let mut ply = 0;
        for san in sans.split_whitespace() {
            let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            rules.before_move(&pos, m);
            pos.play_unchecked(m);
            ply += 1;
            rules.after_move(&pos, ply, m);
        }
        rules.finish(&pos, ply)
    }

    const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

    #[test]
    fn threefold_counts_the_start_position() {
        let findings = replay(None, &[SHUFFLE, SHUFFLE].join(" "));
        assert_eq!(findings.threefold_ply, Some(8));
        assert_eq!(findings.termination, None);
    }

    #[test]
    fn fivefold_ends_the_game_at_the_fifth_occurrence() {
        let findings = replay(None, &[SHUFFLE; 5].join(" "));
        assert_eq!(findings.termination, Some((Termination::FivefoldRepetition, 16)));
        assert_eq!(findings.threefold_ply, Some(8));
    }

    #[test]
    fn fools_mate_is_won_by_black() {
        let findings = replay(None, "f3 e5 g4 Qh4");
        assert_eq!(findings.termination, Some((Termination::Checkmate, 4)));
        assert_eq!(findings.winner, Some(Color::Black));
        assert!(result_consistent(&findings, RecordedResult::Win(Color::Black)));
        assert!(!result_consistent(&findings, RecordedResult::Draw));
        assert!(!result_consistent(&findings, RecordedResult::Unknown));
    }

    #[test]
    fn stalemate_is_found_at_the_last_position() {
        let findings = replay(Some("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"), "Qf7");
        assert_eq!(findings.termination, Some((Termination::Stalemate, 1)));
        assert!(result_consistent(&findings, RecordedResult::Draw));
    }

    #[test]
    fn capture_into_bare_kings_is_insufficient_material() {
        let findings = replay(Some("k7/8/8/8/2q5/3K4/8/8 w - - 0 1"), "Kxc4");
        assert_eq!(findings.termination, Some((Termination::InsufficientMaterial, 1)));
    }

    #[test]
    fn start_position_can_already_be_dead() {
        let findings = replay(Some("8/8/8/3k4/8/3KB3/8/8 w - - 0 1"), "Kc3");
        assert_eq!(findings.termination, Some((Termination::InsufficientMaterial, 0)));
    }

    #[test]
    fn fifty_moves_claimable_from_ply_zero_when_the_fen_says_so() {
        let findings = replay(Some("8/8/8/3k4/8/3KR3/8/8 w - - 100 80"), "Kc3");
        assert_eq!(findings.fifty_ply, Some(0));
        assert_eq!(findings.termination, None);
    }

    #[test]
    fn seventyfive_moves_end_the_game_unless_the_move_mates() {
        let findings = replay(Some("8/8/8/3k4/8/3KR3/8/8 w - - 149 80"), "Kc3 Kd6");
        assert_eq!(findings.termination, Some((Termination::SeventyfiveMoves, 1)));
        // Rook mates on the 150th half-move: mate wins (Art. 9.6.2).
        let findings = replay(Some("k7/8/1K6/8/8/8/8/7R w - - 149 80"), "Rh8");
        assert_eq!(findings.termination, Some((Termination::Checkmate, 1)));
        assert_eq!(findings.fifty_ply, Some(0));
    }

    #[test]
    fn uncapturable_en_passant_square_does_not_make_a_new_position() {
        // After ...d5 the e-pawn could not capture en passant (no pawn on
        // e5/c5), so the position equals the one with the pawn already there.
        let a = replay(None, "e4 d5");
        let pos_after: Chess =
            Fen::from_ascii(b"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
        let without_ep: Chess =
            Fen::from_ascii(b"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
        assert_eq!(position_hash(&pos_after), position_hash(&without_ep));
        assert_eq!(a.termination, None);
    }

    #[test]
    fn a_capturable_en_passant_square_makes_a_different_position() {
        // After e4 (ply 1) the d4 pawn may take en passant; the same board
        // with Black to move recurs at plies 5 and 9 without that right.
        // Counting ply 1 as the same position would claim threefold at ply
        // 9. With a second shuffle, the position after ...Kd8 (plies 2, 6,
        // 10) is the first to occur three times.
        let fen = Some("4k3/8/8/8/3p4/8/4P3/4K2N w - - 0 1");
        let shuffle = "Kd8 Ng3 Ke8 Nh1";
        let findings = replay(fen, &format!("e4 Kd8 Ke2 Ke8 Ke1 {shuffle}"));
        assert_eq!(findings.threefold_ply, None);
        let findings = replay(fen, &format!("e4 Kd8 Ke2 Ke8 Ke1 {shuffle} {shuffle}"));
        assert_eq!(findings.threefold_ply, Some(10));
    }

    /// Random games from the start position and from Chess960 ones: at
    /// every ply, the irreversibility the tracker tells after the fact is
    /// shakmaty's `is_irreversible` before the move, including the moves
    /// that are irreversible only by a lost castling right or by leaving a
    /// position with a legal en passant capture.
    #[test]
    fn irreversible_moves_are_told_after_the_fact() {
        let mut rng = crate::testing::Rng(0x9e37_79b9_7f4a_7c15);
        let (mut by_castling, mut by_en_passant, mut checked) = (0, 0, 0);
        for game in 0..400 {
            let mut pos: Chess = if game % 2 == 0 {
                Chess::default()
            } else {
                let fen = [
                    "rbbqnknr/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKNR w KQkq - 0 1",
                    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
                ][game % 4 / 2];
                Fen::from_ascii(fen.as_bytes())
                    .unwrap()
                    .into_position(CastlingMode::Chess960)
                    .unwrap()
            };
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let expected = pos.is_irreversible(m);
                let castling = pos.castles().castling_rights();
                let en_passant = legal_en_passant(&pos).is_some();
                let quiet = !m.is_zeroing();
                pos.play_unchecked(m);
                assert_eq!(was_irreversible(&pos, castling, en_passant), expected, "{m:?}");
                checked += 1;
                by_castling += usize::from(quiet && castling != pos.castles().castling_rights());
                by_en_passant += usize::from(quiet && en_passant);
            }
        }
        assert!(
            checked > 20_000 && by_castling > 500 && by_en_passant > 50,
            "{checked} moves, {by_castling} quiet ones losing a right, {by_en_passant} from en passant"
        );
    }

    /// Random walks of kings and minor pieces without captures: one window
    /// of reversible moves, long past the scan limit. At every ply the
    /// table's count equals a plain count of (board, side to move).
    #[test]
    fn counts_like_a_plain_tally_through_long_windows() {
        let mut rng = crate::testing::Rng(0x2545_f491_4f6c_dd1d);
        let (mut repeated, mut other_side, mut spilled) = (0, 0, 0);
        for _ in 0..40 {
            let mut pos: Chess = Fen::from_ascii(b"1n2kb2/8/8/8/8/8/8/1N2KB2 w - - 0 1")
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let mut table = RepetitionTable::default();
            let mut tally: HashMap<(Board, Color), u32> = HashMap::new();
            // The last move's step, and the one before (the same side's).
            let (mut last, mut own_last) = (None, None);
            for ply in 0..700 {
                let expected = tally.entry((pos.board().clone(), pos.turn())).or_default();
                *expected += 1;
                assert_eq!(table.record(&pos, last, false), *expected, "ply {ply}");
                repeated += usize::from(*expected > 1);
                // Past the scan (whose parity keeps the sides apart), the
                // same board with the other side to move.
                other_side += usize::from(
                    ply > SCAN_LIMIT && tally.contains_key(&(pos.board().clone(), !pos.turn())),
                );
                spilled += usize::from(ply == SCAN_LIMIT && !table.by_position.is_empty());
                let moves: Vec<Move> =
                    pos.legal_moves().into_iter().filter(|m| !m.is_capture()).collect();
                // Often a side takes its last move back: repetitions.
                let back = |m: &&Move| {
                    own_last.is_some_and(|(from, to)| m.from() == Some(to) && m.to() == from)
                };
                let m = match moves.iter().find(back) {
                    Some(&m) if rng.below(3) > 0 => m,
                    _ => moves[rng.below(moves.len())],
                };
                own_last = last;
                last = m.from().map(|from| (from, m.to()));
                pos.play_unchecked(m);
            }
        }
        let counts = format!("{repeated} {other_side} {spilled}");
        assert!(repeated > 1000 && other_side > 20 && spilled == 40, "{counts}");
    }
}
