//! The text emitter: compiler-style diagnostics, one line per finding,
//! `file:line: error[E101 illegal-move]: game 12 (White - Black, round 6):
//! 37. Nf3: illegal move`, then the position as FEN for a move, and for
//! `check` a hint. `DiagnosticsSink` is `validate`'s sink: the findings of
//! each game as they come.

use std::{
    collections::BTreeSet,
    io::{self, Write},
    ops::ControlFlow,
};

use super::{Finding, GameLabel, codes::Code, of_game};
use crate::{record::GameRecord, sink::Sink};

/// Writes one finding about `r`, with the code's hint when `hint`.
/// `severity` is how the command ranks it.
pub fn write(
    wtr: &mut dyn Write,
    r: &GameRecord,
    f: &Finding,
    severity: &str,
    hint: bool,
) -> io::Result<()> {
    let code = f.code;
    writeln!(
        wtr,
        "{}:{}: {severity}[{} {}]: {}: {}",
        r.file,
        f.line,
        code.code(),
        code.name(),
        GameLabel(r),
        f.message
    )?;
    if let Some(fen) = &f.fen {
        writeln!(wtr, "    FEN: {fen}")?;
    }
    if hint {
        writeln!(wtr, "    hint: {}", code.hint())?;
    }
    Ok(())
}

/// Writes the findings of each game as diagnostics (`validate`).
#[derive(Debug)]
pub struct DiagnosticsSink<W: Write> {
    wtr: W,
    errors_only: bool,
    disabled: BTreeSet<Code>,
    findings: Vec<Finding>,
    /// Games with an error finding whose code is not disabled.
    pub games_with_errors: u64,
}

impl<W: Write> DiagnosticsSink<W> {
    /// Writes to `wtr`; `errors_only` leaves warnings out, and findings of
    /// the `disabled` codes are left out.
    pub fn new(wtr: W, errors_only: bool, disabled: BTreeSet<Code>) -> Self {
        DiagnosticsSink { wtr, errors_only, disabled, findings: Vec::new(), games_with_errors: 0 }
    }
}

impl<W: Write, T> Sink<T> for DiagnosticsSink<W> {
    fn record(&mut self, r: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        // A clean game has nothing to say: no findings to build.
        if !r.has_error() && r.warnings.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        self.findings.clear();
        of_game(0, r, &mut self.findings);
        // validate ranks a game's own findings: its error, a result against
        // the position, moves after the end are errors; the rest warnings.
        let errors = usize::from(r.error.is_some())
            + usize::from(r.termination.is_some() && !r.result_consistent)
            + usize::from(r.termination.is_some() && r.moves_after_end > 0);
        let mut any_error = false;
        for (i, f) in self.findings.iter().enumerate() {
            if self.disabled.contains(&f.code) {
                continue;
            }
            let error = i < errors;
            any_error |= error;
            if error || !self.errors_only {
                write(&mut self.wtr, r, f, if error { "error" } else { "warning" }, false)?;
            }
        }
        self.games_with_errors += u64::from(any_error);
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
