//! The end of the game at once (FIDE Art. 5.1.1, 5.2.1, 5.2.2) and the
//! ends of lichess's variants: checkmate, stalemate, a dead position.

use shakmaty::{Chess, Color, KnownOutcome, Outcome, Position};

use super::dead::{self, Mate};
use crate::{chess::resolve::Replayable, record::Termination};

/// Art. 5.1.1 (checkmate: the side that mated wins) and Art. 5.2.1
/// (stalemate: drawn), decided at the last position of a game: every
/// earlier one had a legal move, the next one played. `None` when the
/// side to move has a legal move. Findings: the `checkmate` and
/// `stalemate` terminations (E110 when the result disagrees).
pub fn mate_or_stalemate<P: Replayable>(pos: &P) -> Option<(Termination, Option<Color>)> {
    if pos.has_legal_move() {
        None
    } else if pos.is_check() {
        Some((Termination::Checkmate, Some(!pos.turn())))
    } else {
        Some((Termination::Stalemate, None))
    }
}

/// Art. 5.2.2, dead position, as far as material decides it: neither side
/// has the material to mate by any legal sequence. Finding: the
/// `insufficient_material` termination.
#[inline]
pub fn dead_by_material<P: Position>(pos: &P) -> bool {
    pos.is_insufficient_material()
}

/// Art. 5.2.2 beyond material: `Some(true)` when neither side can mate
/// `pos` by any series of legal moves (proved), `Some(false)` when one can,
/// `None` when the analysis of [`dead`] ran out of its budget.
pub fn dead_position(pos: &Chess) -> Option<bool> {
    match dead::either_can_mate(pos, dead::GAME_BUDGET) {
        Mate::Impossible => Some(true),
        Mate::Possible => Some(false),
        Mate::Undetermined => None,
    }
}

/// Art. 5.2.2: the first position of a game proved dead, given that the
/// one at `known_dead` is (by material, or analysed); `position(i)` gives
/// the game's position after `i` plies. Every move from a dead position
/// leads to a dead position, so the dead ones are a tail of the game:
/// found by galloping back from `known_dead` and bisecting, a few probes
/// (one, when the position before a capture into bare kings is alive).
///
/// A probe is [`dead::may_be_dead`], then [`dead::dead_by_walk`]: a proof
/// only by statics and the walk of a few hundred positions (forced lines,
/// captures into bare kings or stalemate, a wall locked by the last pawn
/// move). A probe that proves nothing counts as alive: the first ply
/// *proved* dead is given, perhaps later than the first dead one.
pub fn first_dead_position(known_dead: usize, mut position: impl FnMut(usize) -> Chess) -> usize {
    let mut dead = |i: usize| {
        let pos = position(i);
        dead::may_be_dead(&pos) && dead::dead_by_walk(&pos, dead::PROBE_BUDGET)
    };
    // Invariant: the position at `hi` is proved dead.
    let mut hi = known_dead;
    let mut step = 1;
    let mut lo = loop {
        if hi == 0 {
            return 0;
        }
        let probe = hi.saturating_sub(step);
        if !dead(probe) {
            break probe + 1;
        }
        (hi, step) = (probe, step * 2);
    };
    // None in `lo - 1`..`lo` was proved dead; bisect `lo..hi`.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if dead(mid) { hi = mid } else { lo = mid + 1 }
    }
    hi
}

/// A variant's own end (king of the hill, three checks, atomic...), with
/// its winner. Findings: the `variant_win` and `variant_draw` terminations.
pub fn variant_end<P: Position>(pos: &P) -> Option<(Termination, Option<Color>)> {
    match pos.variant_outcome() {
        Outcome::Known(outcome) => Some((outcome_termination(outcome), outcome_winner(outcome))),
        Outcome::Unknown => None,
    }
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
