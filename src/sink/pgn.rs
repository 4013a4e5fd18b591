//! PGN output for `fmt`: each game's export text, in order; or, for
//! `--check`, one line per game that formatting would change.

use std::io::{self, Write};

use super::Sink;
use crate::record::GameRecord;

/// Writes games in export format (or lists those that would change).
#[derive(Debug)]
pub struct PgnSink<W: Write> {
    wtr: W,
    check: bool,
    /// Games that formatting changes (or would change).
    pub changed: u64,
    /// Games copied through because they cannot be replayed.
    pub unformatted: u64,
}

impl<W: Write> PgnSink<W> {
    /// Writes formatted games to `wtr`, or with `check` only the list of
    /// games that would change.
    pub fn new(wtr: W, check: bool) -> Self {
        PgnSink { wtr, check, changed: 0, unformatted: 0 }
    }
}

impl<W: Write> Sink for PgnSink<W> {
    fn record(&mut self, r: &GameRecord) -> io::Result<()> {
        let Some(export) = &r.export else { return Ok(()) };
        let game = format!("{}:{}: game {}", r.file, r.line, r.index);
        if !export.formatted {
            self.unformatted += 1;
            let why = r.error.as_ref().map_or("not replayable", |e| e.message.as_str());
            writeln!(io::stderr().lock(), "{game}: not formatted, copied as it is: {why}")?;
        }
        self.changed += u64::from(export.changed);
        if self.check {
            if export.changed {
                writeln!(self.wtr, "{game} would be reformatted")?;
            }
        } else {
            self.wtr.write_all(&export.text)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
