//! CSV: one row per game, the record flattened (nested error and warnings
//! become columns), with a header row.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use serde::Serialize;

use super::Sink;
use crate::record::GameRecord;

/// One CSV row: the record's fields in schema order, the error object
/// spread over `error_*` columns and the warnings as `;`-separated kinds.
#[derive(Serialize)]
struct Row<'a> {
    file: &'a str,
    index: u64,
    line: u64,
    white: Option<&'a str>,
    black: Option<&'a str>,
    event: Option<&'a str>,
    round: Option<&'a str>,
    result: Option<&'a str>,
    result_marker: Option<&'a str>,
    variant: &'a str,
    valid: bool,
    error_ply: Option<u32>,
    error_kind: Option<&'static str>,
    error_san: Option<&'a str>,
    error_fen: Option<&'a str>,
    error_line: Option<u64>,
    plies: u32,
    termination: Option<&'static str>,
    termination_ply: Option<u32>,
    threefold_ply: Option<u32>,
    fifty_ply: Option<u32>,
    moves_after_end: u32,
    result_consistent: bool,
    warnings: String,
    final_fen: &'a str,
}

impl<'a> From<&'a GameRecord> for Row<'a> {
    fn from(r: &'a GameRecord) -> Self {
        Row {
            file: &r.file,
            index: r.index,
            line: r.line,
            white: r.white.as_deref(),
            black: r.black.as_deref(),
            event: r.event.as_deref(),
            round: r.round.as_deref(),
            result: r.result.as_deref(),
            result_marker: r.result_marker,
            variant: &r.variant,
            valid: r.valid,
            error_ply: r.error_ply,
            error_kind: r.error.as_ref().map(|e| e.kind.name()),
            error_san: r.error.as_ref().map(|e| e.san.as_str()),
            error_fen: r.error.as_ref().map(|e| e.fen.as_str()),
            error_line: r.error.as_ref().map(|e| e.line),
            plies: r.plies,
            termination: r.termination.map(|t| t.name()),
            termination_ply: r.termination_ply,
            threefold_ply: r.threefold_ply,
            fifty_ply: r.fifty_ply,
            moves_after_end: r.moves_after_end,
            result_consistent: r.result_consistent,
            warnings: r.warnings.iter().map(|w| w.kind.name()).collect::<Vec<_>>().join(";"),
            final_fen: &r.final_fen,
        }
    }
}

/// The header row: `Row`'s field names (a test keeps them in step).
const HEADER: [&str; 25] = [
    "file",
    "index",
    "line",
    "white",
    "black",
    "event",
    "round",
    "result",
    "result_marker",
    "variant",
    "valid",
    "error_ply",
    "error_kind",
    "error_san",
    "error_fen",
    "error_line",
    "plies",
    "termination",
    "termination_ply",
    "threefold_ply",
    "fifty_ply",
    "moves_after_end",
    "result_consistent",
    "warnings",
    "final_fen",
];

/// Writes every record as a CSV row, after a header row that is written
/// even when there is no game.
pub struct CsvSink<W: Write> {
    wtr: csv::Writer<W>,
}

impl<W: Write> CsvSink<W> {
    /// A sink writing CSV to `wtr`.
    pub fn new(wtr: W) -> io::Result<Self> {
        let mut wtr = csv::WriterBuilder::new().has_headers(false).from_writer(wtr);
        wtr.write_record(HEADER).map_err(into_io)?;
        Ok(CsvSink { wtr })
    }
}

impl<W: Write, T> Sink<T> for CsvSink<W> {
    fn record(&mut self, record: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        self.wtr.serialize(Row::from(record)).map_err(into_io)?;
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

/// Keeps I/O errors (a closed pipe) recognisable as such.
fn into_io(error: csv::Error) -> io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_the_row_fields_in_order() {
        let record = GameRecord {
            file: "f".into(),
            index: 1,
            line: 1,
            white: None,
            black: None,
            event: None,
            round: None,
            result: None,
            result_marker: None,
            variant: "chess".into(),
            valid: true,
            error_ply: None,
            error: None,
            plies: 0,
            termination: None,
            termination_ply: None,
            threefold_ply: None,
            fifty_ply: None,
            moves_after_end: 0,
            result_consistent: true,
            warnings: Vec::new(),
            final_fen: String::new(),
        };
        let mut wtr = csv::Writer::from_writer(Vec::new());
        wtr.serialize(Row::from(&record)).unwrap();
        let text = String::from_utf8(wtr.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), HEADER.join(","));
    }
}
