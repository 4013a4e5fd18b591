//! The result (FIDE Art. 5, 6.9, 9.6): whether a recorded result fits the
//! final position, and a win scored for a side that cannot mate (Art. 6.9:
//! on time, that is a draw).

use shakmaty::{Chess, Color, Position};

use super::RuleFindings;
use crate::{
    pgn::values::GameResult,
    record::{Warning, WarningKind, quoted},
};

/// The side a result names as the winner.
pub fn winner(result: GameResult) -> Option<Color> {
    match result {
        GameResult::WhiteWins => Some(Color::White),
        GameResult::BlackWins => Some(Color::Black),
        GameResult::Draw | GameResult::Unfinished => None,
    }
}

/// Whether `recorded` agrees with the automatic end in `findings`
/// (Art. 5.1.1, 5.2, 9.6): a win for the side that mated (or won by the
/// variant's rule), a draw for an automatic draw. A game that did not end
/// automatically agrees with any result. Finding: E110.
pub fn result_consistent(findings: &RuleFindings, recorded: Option<GameResult>) -> bool {
    match findings.termination {
        None => true,
        Some((termination, _)) if termination.is_draw() => recorded == Some(GameResult::Draw),
        Some(_) => findings.winner.is_some_and(|w| recorded.and_then(winner) == Some(w)),
    }
}

/// Art. 6.9: the winner a decisive result names, when that side cannot
/// mate from the final position (`cannot_mate`: by material, or by the
/// analysis of [`super::dead`], its search only for a win on time): on
/// time, that game is drawn. Not judged for a game that `ended` automatically or whose
/// replay stopped at an error. Finding: W127 `impossible_win`.
pub fn impossible_win(
    recorded: Option<GameResult>,
    ended: bool,
    cannot_mate: impl Fn(Color) -> bool,
) -> Option<Color> {
    let winner = recorded.and_then(winner)?;
    (!ended && cannot_mate(winner)).then_some(winner)
}

/// Art. 6.9: whether `side` may be unable to mate from `pos` beyond what
/// material says, worth the analysis of [`super::dead`]: `side` has one
/// minor piece and nothing else (a lone knight or bishop, which mates only
/// if the other side's own men box its king in), or pawns are frozen for
/// ever ([`super::dead::worth_analysing_at_end`]). `false` otherwise: a
/// queen, rook, pawn or two minor pieces are taken to mate with help.
pub fn may_be_unwinnable(pos: &Chess, side: Color) -> bool {
    let men = pos.board().by_color(side) & !pos.board().kings();
    let minor = pos.board().knights() | pos.board().bishops();
    (men.count() == 1 && (men & minor).any()) || super::dead::worth_analysing_at_end(pos)
}

/// PGN standard 8.2.6: the movetext ends with the result the `Result` tag
/// gives. Warns when they disagree, or one is missing. Finding: E112 in
/// `check`, a warning in `validate`.
pub fn tag_and_marker(
    tag: Option<&str>,
    marker: Option<&str>,
    line: u64,
    warnings: &mut Vec<Warning>,
) {
    let message = match (tag, marker) {
        (Some(tag), Some(marker)) if tag != marker => {
            format!("Result tag {} but the movetext ends with {marker}", quoted(tag.as_bytes()))
        }
        (Some(tag), None) => {
            format!("Result tag {} but the movetext has no result marker", quoted(tag.as_bytes()))
        }
        (None, Some(marker)) => format!("no Result tag; the movetext ends with {marker}"),
        _ => return,
    };
    warnings.push(Warning { kind: WarningKind::ResultMismatch, message: message.into(), line });
}
