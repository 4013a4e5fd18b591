//! The text emitter: compiler-style diagnostics, one line per finding,
//! `file:line: error[E101 illegal-move]: game 12 (White - Black, round 6):
//! 37. Nf3: illegal move`, then the position as FEN for a move, and for
//! `check` a hint. `DiagnosticsSink` is `validate`'s sink: the findings of
//! each game as they come.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use super::{Finding, GameLabel, Reported};
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
    /// Which findings are written.
    pub reported: Reported,
}

impl<W: Write> DiagnosticsSink<W> {
    /// Writes to `wtr` the findings `reported` keeps.
    pub fn new(wtr: W, reported: Reported) -> Self {
        DiagnosticsSink { wtr, reported }
    }
}

impl<W: Write, T> Sink<T> for DiagnosticsSink<W> {
    fn record(&mut self, r: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        let Self { wtr, reported } = self;
        for (f, error) in reported.of(r) {
            write(wtr, r, f, if *error { "error" } else { "warning" }, false)?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
