//! Compiler-style diagnostics for `validate`: one line per finding,
//! `file:line: error: game 12 (White - Black, round 6): 37. Nf3: illegal move`,
//! followed by the position as FEN for move errors.

use std::{
    fmt,
    io::{self, Write},
    ops::ControlFlow,
};

use super::Sink;
use crate::record::GameRecord;

/// Writes the findings of each game as diagnostics.
#[derive(Debug)]
pub struct DiagnosticsSink<W: Write> {
    wtr: W,
    errors_only: bool,
}

impl<W: Write> DiagnosticsSink<W> {
    /// Writes to `wtr`; `errors_only` leaves warnings out.
    pub fn new(wtr: W, errors_only: bool) -> Self {
        DiagnosticsSink { wtr, errors_only }
    }

    fn line(&mut self, r: &GameRecord, line: u64, severity: &str, message: &str) -> io::Result<()> {
        writeln!(self.wtr, "{}:{line}: {severity}: {}: {message}", r.file, GameLabel(r))
    }
}

/// `game 12 (Carlsen - Nepomniachtchi, round 6)`: how every diagnostic
/// names a game. Written straight to the output (a label built as a string
/// for each line took three allocations, on the thread that writes the
/// output: 3.6% of `validate`'s samples on lichess games, where every game
/// has a warning).
#[derive(Debug, Clone, Copy)]
pub struct GameLabel<'a>(pub &'a GameRecord);

impl fmt::Display for GameLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0;
        let (white, black) = (r.white.as_deref(), r.black.as_deref());
        write!(f, "game {} ({} - {}", r.index, white.unwrap_or("?"), black.unwrap_or("?"))?;
        if let Some(round) = r.round.as_deref().filter(|round| !matches!(*round, "?" | "-" | "")) {
            write!(f, ", round {round}")?;
        }
        f.write_str(")")
    }
}

/// `37. Nf3` or `37... Nf6`, read off the FEN of the position before it.
pub fn move_label(fen: &str, san: &str) -> String {
    let mut fields = fen.split(' ');
    let turn = fields.nth(1);
    let number = fields.nth(3).unwrap_or("?");
    match turn {
        Some("b") => format!("{number}... {san}"),
        Some(_) => format!("{number}. {san}"),
        None => san.to_owned(),
    }
}

impl<W: Write, T> Sink<T> for DiagnosticsSink<W> {
    fn record(&mut self, r: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        if let Some(error) = &r.error {
            let what = if error.fen.is_empty() {
                format!("FEN \"{}\"", error.san)
            } else {
                move_label(&error.fen, &error.san)
            };
            self.line(r, error.line, "error", &format!("{what}: {}", error.message))?;
            if !error.fen.is_empty() {
                writeln!(self.wtr, "    FEN: {}", error.fen)?;
            }
        }
        if let (Some(termination), Some(end)) = (r.termination, r.termination_ply) {
            if !r.result_consistent {
                let result = r.result.as_deref().or(r.result_marker).unwrap_or("none");
                let message = format!(
                    "result {result} contradicts the final position: {} after ply {end}",
                    termination.describe()
                );
                self.line(r, r.line, "error", &message)?;
            }
            if r.moves_after_end > 0 {
                let message = format!(
                    "{} plies played after the game ended by {} after ply {end}",
                    r.moves_after_end,
                    termination.describe()
                );
                self.line(r, r.line, "error", &message)?;
            }
        }
        if !self.errors_only {
            for warning in &r.warnings {
                self.line(r, warning.line, "warning", &warning.message)?;
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_labels_follow_the_side_to_move() {
        assert_eq!(move_label("8/8/8/8/8/8/8/K6k w - - 0 37", "Nf3"), "37. Nf3");
        assert_eq!(move_label("8/8/8/8/8/8/8/K6k b - - 0 37", "Nf6"), "37... Nf6");
    }
}
