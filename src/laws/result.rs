//! The result (FIDE Art. 5, 6.9, 9.6): whether a recorded result fits the
//! final position, and a win scored for a side that cannot mate (Art. 6.9:
//! on time, that is a draw).

use shakmaty::Color;

use super::RuleFindings;
use crate::record::{Warning, WarningKind};

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

/// Art. 6.9: the winner a decisive result names, when that side lacks
/// mating material in the final position (`cannot_mate`): on time, that
/// game is drawn. Not judged for a game that `ended` automatically or whose
/// replay stopped at an error. Finding: W127 `impossible_win`.
pub fn impossible_win(
    recorded: RecordedResult,
    ended: bool,
    cannot_mate: impl Fn(Color) -> bool,
) -> Option<Color> {
    match recorded {
        RecordedResult::Win(winner) if !ended && cannot_mate(winner) => Some(winner),
        _ => None,
    }
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
            format!("Result tag {tag} but the movetext ends with {marker}")
        }
        (Some(tag), None) => format!("Result tag {tag} but the movetext has no result marker"),
        (None, Some(marker)) => format!("no Result tag; the movetext ends with {marker}"),
        _ => return,
    };
    warnings.push(Warning { kind: WarningKind::ResultMismatch, message: message.into(), line });
}
