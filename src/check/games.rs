//! One game's own findings: what `validate` found (each error and warning
//! kind mapped to its code), unfinished games and forfeits for review, and
//! the count of draws the final position confirms.
//!
//! Input: one `Game`; output: `Finding`s. No cross-game knowledge.

use std::collections::BTreeMap;

use super::{
    Finding,
    event::{self, Outcome},
};
use crate::{
    check::Game,
    codes::Code,
    record::{Termination, WarningKind},
    sink::move_label,
};

/// Appends the findings of game `i` and counts a confirmed draw.
pub fn check(
    i: usize,
    r: &Game,
    findings: &mut Vec<Finding>,
    confirmed_draws: &mut BTreeMap<Termination, u64>,
) {
    let outcome = event::outcome(r);
    if let Some(error) = &r.error {
        let (what, fen) = if error.fen.is_empty() {
            (format!("FEN \"{}\"", error.san), None)
        } else {
            (move_label(&error.fen, &error.san), Some(error.fen.clone()))
        };
        findings.push(Finding {
            code: Code::of_error(error.kind),
            record: i,
            line: error.line,
            ply: r.error_ply,
            message: format!("{what}: {}", error.message),
            fen,
        });
    }
    if let (Some(termination), Some(end)) = (r.termination, r.termination_ply) {
        if !r.result_consistent {
            let result = r.result.as_deref().or(r.result_marker).unwrap_or("none");
            let mut finding = Finding::game(
                Code::ResultContradictsPosition,
                i,
                r,
                format!(
                    "result {result} contradicts the final position: {} after ply {end}",
                    termination.describe()
                ),
            );
            finding.ply = Some(end);
            findings.push(finding);
        } else if termination.is_draw() && outcome == Some(Outcome::Draw) {
            *confirmed_draws.entry(termination).or_default() += 1;
        }
        if r.moves_after_end > 0 {
            let mut finding = Finding::game(
                Code::MovesAfterEnd,
                i,
                r,
                format!(
                    "{} plies played after the game ended by {} after ply {end}",
                    r.moves_after_end,
                    termination.describe()
                ),
            );
            finding.ply = Some(end + 1);
            findings.push(finding);
        }
    }
    let decisive = outcome.is_some_and(Outcome::is_decisive);
    for warning in &r.warnings {
        let (code, message) = match warning.kind {
            // A bye exported as a game without moves is no finding.
            WarningKind::EmptyGame if event::has_bye(r) => continue,
            WarningKind::EmptyGame if decisive => {
                let result = r.result.as_deref().or(r.result_marker).unwrap_or("?");
                (Code::Forfeit, format!("no moves, scored {result}: a forfeit?"))
            }
            kind => (Code::of_warning(kind), warning.message.to_string()),
        };
        findings.push(Finding {
            code,
            record: i,
            line: warning.line,
            ply: None,
            message,
            fen: None,
        });
    }
    if outcome == Some(Outcome::Unfinished) {
        findings.push(Finding::game(
            Code::UnfinishedGame,
            i,
            r,
            "scored * (unfinished or unknown result)".to_owned(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::event::tests::replay;

    #[test]
    fn a_decisive_game_without_moves_is_a_forfeit_and_a_draw_is_confirmed() {
        let roster = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
                      [White \"A\"]\n[Black \"B\"]\n";
        let pgn = format!(
            "{roster}[Result \"1-0\"]\n\n1-0\n\n{roster}[Result \"1/2-1/2\"]\n\n\
             1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 \
             8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2\n"
        );
        let records = replay(&pgn);
        let (mut findings, mut draws) = (Vec::new(), BTreeMap::new());
        for (i, record) in records.iter().enumerate() {
            check(i, record, &mut findings, &mut draws);
        }
        let codes: Vec<(Code, usize)> = findings.iter().map(|f| (f.code, f.record)).collect();
        assert_eq!(codes, [(Code::Forfeit, 0)]);
        assert_eq!(draws, BTreeMap::from([(Termination::Stalemate, 1)]));
    }
}
