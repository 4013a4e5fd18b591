//! Predicates on what arbiter found in a game, decided from its record once
//! it is replayed: valid or not, an error of a kind, any finding code, an
//! automatic end, a claimable draw, moves after the end, a result that
//! contradicts the position, and the number of plies.

use crate::{
    diagnostic::{self, codes::Code},
    record::{ErrorKind, GameRecord, Termination},
};

use super::Range;

/// One test of a game's record.
#[derive(Debug, Clone)]
pub enum VerdictTest {
    /// Every move legal and the start position valid (`--valid`), or not
    /// (`--invalid`).
    Valid(bool),
    /// Any error at all (`--error any`): an invalid move or start, a result
    /// that contradicts the position, moves after the end.
    AnyError,
    /// The first error is of this kind (`--error KIND`).
    Error(ErrorKind),
    /// A finding with this code (`--code`).
    Code(Code),
    /// The game ended at once by this rule (`--ending`).
    Ending(Termination),
    /// A draw could be claimed (`--claimable`).
    Claimable(Claim),
    /// Moves were played after the game had ended (`--moves-after-end`).
    MovesAfterEnd,
    /// The result contradicts the final position (`--inconsistent-result`).
    InconsistentResult,
    /// The number of mainline plies replayed (`--plies`).
    Plies(Range<u32>),
}

/// A claimable draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Art. 9.2: the same position a third time.
    Threefold,
    /// Art. 9.3: fifty moves each without a capture or a pawn move.
    Fifty,
}

/// A name as the record writes it: `illegal-move`, as `--code` and
/// `check` write names, is `illegal_move`.
fn snake(text: &str) -> String {
    text.trim().replace('-', "_")
}

impl VerdictTest {
    /// `--error KIND`: a kind of the record schema, or `any`.
    pub fn error(given: &str) -> Result<VerdictTest, String> {
        let text = &snake(given);
        if text == "any" {
            return Ok(VerdictTest::AnyError);
        }
        ErrorKind::ALL
            .iter()
            .find(|kind| kind.name() == text)
            .map(|&kind| VerdictTest::Error(kind))
            .ok_or_else(|| {
                let names: Vec<_> = ErrorKind::ALL.iter().map(|kind| kind.name()).collect();
                format!("--error {given}: no such error; one of any, {}", names.join(", "))
            })
    }

    /// `--ending NAME`.
    pub fn ending(given: &str) -> Result<VerdictTest, String> {
        let text = &snake(given);
        Termination::ALL
            .iter()
            .find(|end| end.name() == text)
            .map(|&end| VerdictTest::Ending(end))
            .ok_or_else(|| {
                let names: Vec<_> = Termination::ALL.iter().map(|end| end.name()).collect();
                format!("--ending {given}: no such end; one of {}", names.join(", "))
            })
    }

    /// `--code CODE` (`W301` or its name).
    pub fn code(text: &str) -> Result<VerdictTest, String> {
        Code::parse(text).map(VerdictTest::Code).ok_or_else(|| {
            format!("--code {text}: no such code (see `arbiter check --list-codes`)")
        })
    }

    /// `--claimable threefold|fifty`.
    pub fn claimable(text: &str) -> Result<VerdictTest, String> {
        // The names `stats` prints (`threefold_repetition`) too.
        match snake(text).as_str() {
            "threefold" | "threefold_repetition" => Ok(VerdictTest::Claimable(Claim::Threefold)),
            "fifty" | "fifty_move_rule" => Ok(VerdictTest::Claimable(Claim::Fifty)),
            _ => Err(format!(
                "--claimable {text}: one of threefold (threefold_repetition), fifty \
                 (fifty_move_rule)"
            )),
        }
    }

    /// Whether `record` passes.
    pub fn matches(&self, record: &GameRecord) -> bool {
        match self {
            VerdictTest::Valid(valid) => record.valid == *valid,
            VerdictTest::AnyError => record.has_error(),
            VerdictTest::Error(kind) => record.error.as_ref().is_some_and(|e| e.kind == *kind),
            VerdictTest::Code(code) => {
                let mut findings = Vec::new();
                diagnostic::of_game(0, record, &mut findings);
                findings.iter().any(|finding| finding.code == *code)
            }
            VerdictTest::Ending(end) => record.termination == Some(*end),
            VerdictTest::Claimable(Claim::Threefold) => record.threefold_ply.is_some(),
            VerdictTest::Claimable(Claim::Fifty) => record.fifty_ply.is_some(),
            VerdictTest::MovesAfterEnd => record.moves_after_end > 0,
            VerdictTest::InconsistentResult => !record.result_consistent,
            VerdictTest::Plies(range) => range.contains(record.plies),
        }
    }
}
