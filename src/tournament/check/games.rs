//! One game's own findings: what `validate` reports (`diagnostic::of_game`),
//! where a game without moves is a bye or a forfeit to review, unfinished
//! games, and the count of draws the final position confirms.
//!
//! Input: one `Game`; output: `Finding`s. No cross-game knowledge.

use std::collections::BTreeMap;

use crate::{
    diagnostic::{self, Finding, codes::Code},
    pgn::values::GameResult,
    record::{Termination, WarningKind},
    tournament::{Game, event},
};

/// Appends the findings of game `i` and counts a confirmed draw: the
/// game's own findings (as `validate` reports them), where a game without
/// moves is a bye (no finding) or, scored as a win, a forfeit; and an
/// unfinished game.
pub fn check(
    i: usize,
    r: &Game,
    findings: &mut Vec<Finding>,
    confirmed_draws: &mut BTreeMap<Termination, u64>,
) {
    let outcome = GameResult::of_record(r);
    if let Some(termination) = r.termination
        && r.result_consistent
        && termination.is_draw()
        && outcome == Some(GameResult::Draw)
    {
        *confirmed_draws.entry(termination).or_default() += 1;
    }
    let first = findings.len();
    diagnostic::of_game(i, r, findings);
    let empty = Code::of_warning(WarningKind::EmptyGame);
    if let Some(at) = findings[first..].iter().position(|f| f.code == empty).map(|at| first + at) {
        if event::has_bye(r) {
            findings.remove(at);
        } else if outcome.is_some_and(GameResult::is_decisive) {
            let result = r.result.as_deref().or(r.result_marker).unwrap_or("?");
            findings[at].code = Code::Forfeit;
            findings[at].message = format!("no moves, scored {result}: a forfeit?");
        }
    }
    if outcome == Some(GameResult::Unfinished) {
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
    use crate::tournament::event::tests::replay;

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
