//! PGN output for `fmt`: each game's export text, in order; or, for
//! `--check`, one line per game that formatting would change, with its
//! diff when the exporter made one.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use super::{Sink, join::Joiner};
use crate::{export::Export, record::GameRecord};

/// Writes games in export format (or lists those that would change).
#[derive(Debug)]
pub struct PgnSink<W: Write> {
    wtr: W,
    check: bool,
    /// Games that formatting changes (or would change).
    pub changed: u64,
    /// Games copied through because they cannot be replayed.
    pub unformatted: u64,
    /// Games left out: too large, and read from a stream (not held).
    pub left_out: u64,
    /// Whether each game not formatted is named on standard error.
    notes: bool,
    /// Joins the games: one copied as it is may end mid-line.
    joiner: Joiner,
    /// The file name games are reported under, when not their record's
    /// (see [`PgnSink::reported_as`]).
    name: Option<String>,
}

impl<W: Write> PgnSink<W> {
    /// Writes formatted games to `wtr`, or with `check` only the list of
    /// games that would change.
    pub fn new(wtr: W, check: bool) -> Self {
        PgnSink {
            wtr,
            check,
            changed: 0,
            unformatted: 0,
            left_out: 0,
            notes: true,
            joiner: Joiner::default(),
            name: None,
        }
    }

    /// Names the games' file `name` on standard error instead of as their
    /// records do: `fmt --in-place` reads a file by its resolved path (so
    /// that a link changed meanwhile cannot swap the file it rewrites),
    /// but reports it by the path as given, as `fmt --check` does.
    pub fn reported_as(self, name: String) -> Self {
        PgnSink { name: Some(name), ..self }
    }

    /// Counts the games not formatted without naming each on standard
    /// error (where a caller has no user to tell: the fuzz targets).
    pub fn without_notes(self) -> Self {
        PgnSink { notes: false, ..self }
    }
}

impl<W: Write> Sink<Export> for PgnSink<W> {
    fn record(&mut self, r: &GameRecord, export: Export) -> io::Result<ControlFlow<()>> {
        let file = self.name.as_deref().unwrap_or(&r.file);
        let game = format!("{file}:{}: game {}", r.line, r.index);
        if let Some(why) = export.unformatted {
            self.unformatted += 1;
            // A game with an error says which.
            let why = r.error.as_ref().map_or(why, |e| e.message.as_str());
            let done = match export.left_out {
                true if !self.check => "not formatted, left out",
                _ => "not formatted, copied as it is",
            };
            self.left_out += u64::from(export.left_out && !self.check);
            if self.notes {
                writeln!(io::stderr().lock(), "{game}: {done}: {why}")?;
            }
        }
        self.changed += u64::from(export.changed);
        if self.check {
            if export.changed {
                writeln!(self.wtr, "{game} would be reformatted")?;
                if let Some(diff) = &export.diff {
                    diff.write(&mut self.wtr, file, r.line)?;
                }
            }
        } else {
            self.joiner.write(&mut self.wtr, &export.text, false)?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
