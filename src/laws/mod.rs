//! The FIDE Laws of Chess that end or may end a game, one file per
//! Article group, and [`RuleTracker`], which applies them ply by ply from
//! positions and moves only.
//!
//! | Article | what | function | finding |
//! |---|---|---|---|
//! | 5.1.1 | checkmate | [`end::mate_or_stalemate`] | `checkmate` |
//! | 5.2.1 | stalemate | [`end::mate_or_stalemate`] | `stalemate` |
//! | 5.2.2 | dead position (by material) | [`end::dead_by_material`] | `insufficient_material` |
//! | 5.2.2 | dead position (any other) | [`end::first_dead_position`], [`dead`] | `dead_position` |
//! | 9.2 | threefold repetition (claim) | [`repetition::threefold`] | `threefold_ply` |
//! | 9.2.3 | the same position | `chess::identity` | |
//! | 9.3 | fifty moves (claim) | [`clocks::fifty_moves`] | `fifty_ply` |
//! | 9.6.1 | fivefold repetition | [`repetition::fivefold`] | `fivefold_repetition` |
//! | 9.6.2 | seventy-five moves | [`clocks::seventyfive_moves`] | `seventyfive_moves` |
//! | 5, 9.6 | the result fits the end | [`result::result_consistent`] | E110 |
//! | 6.9 | a win for a side that cannot mate | [`result::impossible_win`] | W127 |
//! | 6.9 | a win on time for a side that cannot mate | [`result::impossible_win`], `on_time` | E115 |
//!
//! Mate and stalemate are decided once, at the last position (every
//! earlier one had a legal move: the next one played). So is a dead
//! position beyond material: a game reaches one only if its last position
//! is dead (every move from a dead position leads to a dead position), so
//! the last position is looked at, cheaply, and only when it may be dead
//! are the game's positions rebuilt from its moves to find the first.

pub mod clocks;
pub mod dead;
pub mod end;
pub mod repetition;
pub mod result;

use shakmaty::{Bitboard, Chess, Color, Move, Position, Square};

use self::repetition::{RepetitionTable, was_irreversible};
use crate::{
    chess::{identity::legal_en_passant, resolve::Replayable},
    record::Termination,
};

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
    /// The last position's ply, when the dead-position analysis could not
    /// decide it within its budget (Art. 5.2.2 undetermined there; the
    /// positions before a dead one are only probed, see
    /// [`end::first_dead_position`]).
    pub undetermined_ply: Option<u32>,
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
    /// Chess: the start position and the moves since, to rebuild the
    /// game's positions when its last one may be dead.
    start: Option<Chess>,
    moves: Vec<Move>,
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
        self.start = pos.as_chess().cloned();
        self.moves.clear();
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
    // Inlined, as are `observe` and `san_to_move`: runs every ply, and the
    // plain build would call it (see `benches/HISTORY.md`).
    #[inline]
    pub fn after_move<P: Replayable>(&mut self, after: &P, ply: u32, m: Move) {
        if P::PLAIN_MOVES {
            self.moves.push(m);
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
        if repetition::threefold(occurrences) && findings.threefold_ply.is_none() {
            findings.threefold_ply = Some(ply);
        }
        let clock = pos.halfmoves();
        let fifty = clocks::fifty_moves(clock) && findings.fifty_ply.is_none();
        if findings.termination.is_some() {
            if fifty {
                self.pending = Some(Pending { ply, seventyfive: false, fifty });
            }
            return;
        }
        if self.check_variant_end
            && let Some((termination, winner)) = end::variant_end(pos)
        {
            self.end(termination, ply, winner);
        } else if material_changed && end::dead_by_material(pos) {
            // Art. 5.2.2: no sequence of legal moves can lead to mate.
            self.end(Termination::InsufficientMaterial, ply, None);
        } else if repetition::fivefold(occurrences) {
            // Art. 9.6.1. A fivefold repetition cannot be mate or stalemate:
            // the earlier occurrences had a move played from them. The same
            // argument confirms a simultaneous 75-move end at once.
            let termination = if clocks::seventyfive_moves(clock) {
                Termination::SeventyfiveMoves
            } else {
                Termination::FivefoldRepetition
            };
            self.end(termination, ply, None);
        }
        let seventyfive = clocks::seventyfive_moves(clock) && self.findings.termination.is_none();
        if seventyfive || fifty {
            self.pending = Some(Pending { ply, seventyfive, fifty });
        }
    }

    /// Art. 5.2.2 beyond material, when the last position `last` (at
    /// `ply`) is dead: the first dead position ends the game there, unless
    /// the game had ended already (insufficient material, the more specific
    /// name, stands at the same ply). A game that ended by insufficient
    /// material is dead from there without an analysis; otherwise the last
    /// position is analysed only when [`dead::worth_analysing_at_end`] says
    /// so. Only when it is dead are the positions before rebuilt from the
    /// moves, each probe replaying them from the start (most games need
    /// one probe).
    fn dead_position(&mut self, last: &Chess, ply: u32) {
        let Some(start) = self.start.as_ref() else { return };
        let ended = self.findings.termination.map(|(_, end)| end);
        let known_dead = match self.findings.termination {
            // A mate is not dead, nor (deadness only grows along a game) any
            // position before it.
            Some((Termination::Checkmate, _)) => return,
            // Insufficient material is dead without a search.
            Some((Termination::InsufficientMaterial, end)) => end,
            _ if !dead::worth_analysing_at_end(last) => return,
            _ => match end::dead_position(last) {
                Some(true) => ply,
                Some(false) => return,
                None => {
                    self.findings.undetermined_ply = Some(ply);
                    return;
                }
            },
        };
        // The moves replayed rebuild `last`.
        debug_assert_eq!(self.moves.len() as u32, ply);
        let moves = &self.moves;
        let first = end::first_dead_position(known_dead as usize, |i| {
            let mut pos = start.clone();
            for &m in &moves[..i] {
                pos.play_unchecked(m);
            }
            pos
        }) as u32;
        if ended.is_none_or(|end| first < end) {
            self.end(Termination::DeadPosition, first, None);
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
            let end = end::mate_or_stalemate(pos);
            if self.findings.termination.is_none()
                && let Some((termination, winner)) = end
            {
                self.end(termination, ply, winner);
            }
            // A pending end stands only if the last position has a move.
            if let Some(pending) = pending.filter(|_| end.is_none()) {
                self.confirm(pending);
            }
        }
        if let Some(last) = pos.as_chess() {
            self.dead_position(last, ply);
        }
        self.findings
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen, san::San};

    use shakmaty::Position;

    use super::*;
    use crate::{
        chess::identity::position_hash, laws::result::result_consistent, pgn::values::GameResult,
    };

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
        assert!(result_consistent(&findings, Some(GameResult::BlackWins)));
        assert!(!result_consistent(&findings, Some(GameResult::Draw)));
        assert!(!result_consistent(&findings, None));
    }

    #[test]
    fn stalemate_is_found_at_the_last_position() {
        let findings = replay(Some("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"), "Qf7");
        assert_eq!(findings.termination, Some((Termination::Stalemate, 1)));
        assert!(result_consistent(&findings, Some(GameResult::Draw)));
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
}
