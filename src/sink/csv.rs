//! CSV: one row per game, the record flattened (nested error and warnings
//! become columns), with a header row; with `games --tags`, a column per
//! tag after the record's.
//!
//! Text is always quoted, numbers and booleans never, and a null is an
//! empty field. DuckDB's sniffer takes the quote character from its sample
//! of the first rows: quoting only where a value needed it (the csv
//! crate's default) made a file whose first needed quote came late (an
//! event "FRC Daily 3+0, 8h Team Battle", game 44,360 of the lichess bench
//! file) fail to load without options. Quoting by the column's type, not
//! by the value, also keeps a null (empty) apart from an empty text (`""`).

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use memchr::memchr;

use super::Sink;
use crate::{
    record::{GameRecord, Warning},
    replay::tag_columns::{self, TagValues},
};

/// A cell, written as its column's type in the schema says.
#[derive(Debug, Clone, Copy)]
enum Cell<'a> {
    /// Text, quoted; `None` is null.
    Text(Option<&'a str>),
    /// A count, ply or line; `None` is null.
    Number(Option<u64>),
    /// `true` or `false`.
    Bool(bool),
    /// The warnings' kinds, `;`-separated, quoted like text.
    Kinds(&'a [Warning]),
}

/// The record's cells in column order, each with its column's name: the
/// record's fields in schema order, the error object spread over `error_*`
/// columns (its message left out) and the warnings as their kinds.
fn cells(r: &GameRecord, mut cell: impl FnMut(&'static str, Cell<'_>)) {
    use Cell::{Bool, Kinds, Number, Text};
    let error = r.error.as_ref();
    cell("file", Text(Some(&r.file)));
    cell("index", Number(Some(r.index)));
    cell("line", Number(Some(r.line)));
    cell("white", Text(r.white.as_deref()));
    cell("black", Text(r.black.as_deref()));
    cell("event", Text(r.event.as_deref()));
    cell("round", Text(r.round.as_deref()));
    cell("result", Text(r.result.as_deref()));
    cell("result_marker", Text(r.result_marker));
    cell("variant", Text(Some(&r.variant)));
    cell("valid", Bool(r.valid));
    cell("error_ply", Number(r.error_ply.map(u64::from)));
    cell("error_kind", Text(error.map(|e| e.kind.name())));
    cell("error_san", Text(error.map(|e| e.san.as_str())));
    cell("error_fen", Text(error.map(|e| e.fen.as_str())));
    cell("error_line", Number(error.map(|e| e.line)));
    cell("plies", Number(Some(r.plies.into())));
    cell("termination", Text(r.termination.map(|t| t.name())));
    cell("termination_ply", Number(r.termination_ply.map(u64::from)));
    cell("threefold_ply", Number(r.threefold_ply.map(u64::from)));
    cell("fifty_ply", Number(r.fifty_ply.map(u64::from)));
    cell("moves_after_end", Number(Some(r.moves_after_end.into())));
    cell("result_consistent", Bool(r.result_consistent));
    cell("on_time", Bool(r.on_time));
    cell("timeout_draw", Bool(r.timeout_draw));
    cell("undetermined_ply", Number(r.undetermined_ply.map(u64::from)));
    cell("warnings", Kinds(&r.warnings));
    cell("final_fen", Text(Some(&r.final_fen)));
}

/// The header row: the names [`cells`] gives (a test keeps them in step).
const HEADER: [&str; 28] = [
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
    "on_time",
    "timeout_draw",
    "undetermined_ply",
    "warnings",
    "final_fen",
];

/// Appends `cell` to `line`.
fn write_cell(line: &mut Vec<u8>, cell: Cell<'_>) {
    match cell {
        Cell::Text(None) | Cell::Number(None) => {}
        Cell::Text(Some(text)) => quote(line, text.as_bytes()),
        // Writing to a Vec cannot fail.
        Cell::Number(Some(n)) => write!(line, "{n}").unwrap_or(()),
        Cell::Bool(b) => line.extend_from_slice(if b { b"true" } else { b"false" }),
        Cell::Kinds(warnings) => {
            line.push(b'"');
            for (i, warning) in warnings.iter().enumerate() {
                if i > 0 {
                    line.push(b';');
                }
                // Kind names are snake_case: nothing to double.
                line.extend_from_slice(warning.kind.name().as_bytes());
            }
            line.push(b'"');
        }
    }
}

/// Appends `text` quoted, its quotes doubled (RFC 4180).
fn quote(line: &mut Vec<u8>, mut text: &[u8]) {
    line.push(b'"');
    while let Some(at) = memchr(b'"', text) {
        line.extend_from_slice(&text[..=at]);
        line.push(b'"');
        text = &text[at + 1..];
    }
    line.extend_from_slice(text);
    line.push(b'"');
}

/// Writes every record as a CSV row, after a header row that is written
/// even when there is no game.
pub struct CsvSink<W: Write> {
    wtr: W,
    /// The row being written (kept, so that its allocation is).
    line: Vec<u8>,
    /// How many tag columns follow the record's.
    tags: usize,
}

impl<W: Write> CsvSink<W> {
    /// A sink writing the records as CSV to `wtr`.
    pub fn new(wtr: W) -> io::Result<Self> {
        Self::with_tags(wtr, &[])
    }

    /// A sink writing the records as CSV to `wtr`, each followed by the
    /// values of the tags `names` (`games --tags`), in columns named
    /// [`tag_columns::key`]: the names must need no quoting (as
    /// `TagSelection::parse` ensures).
    pub fn with_tags(mut wtr: W, names: &[String]) -> io::Result<Self> {
        let mut header = HEADER.join(",");
        for name in names {
            header.push(',');
            header.push_str(&tag_columns::key(name));
        }
        header.push('\n');
        wtr.write_all(header.as_bytes())?;
        Ok(CsvSink { wtr, line: Vec::new(), tags: names.len() })
    }

    /// A sink writing the records as CSV to `wtr`, each followed by the
    /// integer columns `names` (plain names, which need no quoting), as
    /// `db find` adds `ply`.
    pub fn with_int_columns(mut wtr: W, names: &[&str]) -> io::Result<Self> {
        let header = [HEADER.as_slice(), names].concat().join(",");
        wtr.write_all(header.as_bytes())?;
        wtr.write_all(b"\n")?;
        Ok(CsvSink { wtr, line: Vec::new(), tags: names.len() })
    }

    /// Writes the record's row followed by `values`, one for each column
    /// [`CsvSink::with_int_columns`] named.
    pub fn record_with_ints(&mut self, record: &GameRecord, values: &[i64]) -> io::Result<()> {
        debug_assert_eq!(values.len(), self.tags, "values do not match the header");
        self.row(record, |line| {
            for value in values {
                line.push(b',');
                line.extend_from_slice(value.to_string().as_bytes());
            }
        })
    }

    /// Writes the record's row, with the cells `tags` adds.
    fn row(&mut self, record: &GameRecord, tags: impl FnOnce(&mut Vec<u8>)) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        let mut first = true;
        cells(record, |_, cell| {
            if !std::mem::take(&mut first) {
                line.push(b',');
            }
            write_cell(line, cell);
        });
        tags(line);
        line.push(b'\n');
        self.wtr.write_all(line)
    }
}

impl<W: Write> Sink for CsvSink<W> {
    fn record(&mut self, record: &GameRecord, (): ()) -> io::Result<ControlFlow<()>> {
        debug_assert_eq!(self.tags, 0, "a tag column without values");
        self.row(record, |_| ())?;
        Ok(ControlFlow::Continue(()))
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

impl<W: Write> Sink<TagValues> for CsvSink<W> {
    fn record(&mut self, record: &GameRecord, tags: TagValues) -> io::Result<ControlFlow<()>> {
        // The values of the tags the header names, one per column.
        debug_assert_eq!(tags.len(), self.tags, "tag values do not match the header");
        self.row(record, |line| {
            for (_, value) in tags.iter() {
                line.push(b',');
                write_cell(line, Cell::Text(value));
            }
        })?;
        Ok(ControlFlow::Continue(()))
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ErrorKind, GameError, WarningKind};

    fn record() -> GameRecord {
        GameRecord {
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
            on_time: false,
            timeout_draw: false,
            undetermined_ply: None,
            warnings: Vec::new(),
            final_fen: String::new(),
        }
    }

    fn output(write: impl FnOnce(&mut CsvSink<&mut Vec<u8>>)) -> String {
        let mut out = Vec::new();
        let mut sink = CsvSink::with_tags(&mut out, &["Site".into(), "WhiteElo".into()]).unwrap();
        write(&mut sink);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_names_the_cells_in_order() {
        let mut names = Vec::new();
        cells(&record(), |name, _| names.push(name));
        assert_eq!(names, HEADER);
    }

    #[test]
    fn text_is_quoted_numbers_and_booleans_are_not_null_is_empty() {
        let record = GameRecord {
            white: Some("A, \"B\"".into()),
            black: Some("".into()),
            round: Some("1.10".into()),
            valid: false,
            error_ply: Some(3),
            error: Some(GameError {
                kind: ErrorKind::IllegalMove,
                san: "Ke9".into(),
                fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                line: 7,
                message: "not written".into(),
                reason: None,
                excerpt: None,
            }),
            warnings: vec![
                Warning { kind: WarningKind::MissingTag, message: "".into(), line: 1 },
                Warning { kind: WarningKind::MoveNumber, message: "".into(), line: 2 },
            ],
            ..record()
        };
        let mut tags = TagValues::default();
        tags.push("Site", Some("x\ny"));
        tags.push("WhiteElo", None);
        let text = output(|sink| {
            let flow = Sink::<TagValues>::record(sink, &record, tags).unwrap();
            assert!(flow.is_continue());
        });
        let row = text.split_once('\n').unwrap().1;
        assert_eq!(
            row,
            "\"f\",1,1,\"A, \"\"B\"\"\",\"\",,\"1.10\",,,\"chess\",false,3,\"illegal_move\",\
             \"Ke9\",\"8/8/8/8/8/8/8/K6k w - - 0 1\",7,0,,,,,0,true,false,false,,\
             \"missing_tag;move_number\",\"\",\"x\ny\",\n"
        );
        // What a CSV reader makes of it: the same values.
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(header.len(), row.len());
        assert_eq!(&header[HEADER.len()], "tag_Site");
        assert_eq!(&row[3], "A, \"B\"");
        assert_eq!(&row[HEADER.len()], "x\ny");
    }

    #[test]
    fn header_ends_with_the_tag_columns_and_is_written_without_games() {
        let text = output(|sink| Sink::<TagValues>::finish(sink).unwrap());
        assert_eq!(text, format!("{},tag_Site,tag_WhiteElo\n", HEADER.join(",")));
    }
}
