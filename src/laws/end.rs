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
/// `pos` by any series of legal moves (proved), `Some(false)` when one can
/// or the cheap pre-filter rules it out, `None` when the analysis ran out
/// of its budget. Finding: the `dead_position` termination.
pub fn dead_position(pos: &Chess) -> Option<bool> {
    if !dead::may_be_dead(pos) {
        return Some(false);
    }
    match dead::either_can_mate(pos, dead::DEFAULT_BUDGET) {
        Mate::Impossible => Some(true),
        Mate::Possible => Some(false),
        Mate::Undetermined => None,
    }
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
