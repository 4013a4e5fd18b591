//! Sinks: where records go, in file order.
//!
//! The pipeline hands every `GameRecord` to one `Sink`, in input order, and
//! tells it about inputs that could not be read. Sinks format and write;
//! they never look at positions and never decide validity. Together with
//! `progress` they are the only code that writes to the terminal.

mod csv;
mod diagnostics;
mod jsonl;
mod pgn;
mod summary;

use std::io;

pub use self::{
    csv::CsvSink,
    diagnostics::{DiagnosticsSink, GameLabel, move_label},
    jsonl::JsonlSink,
    pgn::PgnSink,
    summary::Summary,
};
pub use crate::record::Selection;
use crate::{input::InputError, record::GameRecord};

/// Receives records in file order.
pub trait Sink {
    /// One game's record.
    fn record(&mut self, record: &GameRecord) -> io::Result<()>;

    /// An input that could not be opened or read to its end. Reported on
    /// standard error; the run goes on with the next input.
    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        report_input_error(error)
    }

    /// Called once after the last record.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes one line about an unreadable input to standard error.
pub fn report_input_error(error: &InputError) -> io::Result<()> {
    use io::Write;
    writeln!(io::stderr().lock(), "arbiter: error: cannot read {error}")
}
