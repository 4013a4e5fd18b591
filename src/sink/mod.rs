//! Sinks: where records go, in file order.
//!
//! The pipeline hands every `GameRecord`, with what the run's observer made
//! of the game, to one `Sink`, in input order, and tells it about inputs
//! that could not be read; a sink may stop the run. Sinks format and
//! write; they never look at positions and never decide validity.

pub mod atomic;
mod csv;
pub mod join;
mod jsonl;
mod pgn;
mod summary;

use std::{
    io::{self, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
};

pub use self::{
    csv::CsvSink,
    jsonl::JsonlSink,
    pgn::PgnSink,
    summary::{Summary, plural},
};
use crate::{record::GameRecord, source::InputError};

/// `error`, met while writing `path`, naming it: an error from deep in a
/// sink ("No space left on device") says which output it was.
pub fn writing(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("writing {}: {error}", path.display()))
}

/// A writer whose errors name the file it writes (the user's name for it,
/// not its temporary file's).
#[derive(Debug)]
pub struct Named<W> {
    inner: W,
    path: PathBuf,
}

impl<W> Named<W> {
    /// The writer inside.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// `inner`, which writes `path` (or its temporary file).
    pub fn new(inner: W, path: &Path) -> Self {
        Named { inner, path: path.to_owned() }
    }

    /// The file named in errors.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|error| writing(&self.path, error))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|error| writing(&self.path, error))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|error| writing(&self.path, error))
    }
}

/// Receives records in file order, each with `T`, what the run's observer
/// made of the game (`()` when it observes nothing).
pub trait Sink<T = ()> {
    /// One game's record. `Break` stops the run: no more records come, and
    /// the inputs are not read further (`--limit`; the few chunks already
    /// being replayed are finished and dropped).
    fn record(&mut self, record: &GameRecord, output: T) -> io::Result<ControlFlow<()>>;

    /// An input that could not be opened or read to its end. Reported on
    /// standard error; the run goes on with the next input.
    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        report_input_error(error)
    }

    /// Called after the records of each chunk of input. A sink that
    /// writes flushes here: what it found shows while the input is still
    /// read (`arbiter validate big.pgn | head -3`), and a closed output
    /// ends the run at the next chunk that writes, not at the end.
    fn chunk_end(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Called once after the last record.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<T, S: Sink<T> + ?Sized> Sink<T> for Box<S> {
    fn record(&mut self, record: &GameRecord, output: T) -> io::Result<ControlFlow<()>> {
        (**self).record(record, output)
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        (**self).input_error(error)
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        (**self).chunk_end()
    }

    fn finish(&mut self) -> io::Result<()> {
        (**self).finish()
    }
}

/// Passes the first `limit` records on to `sink`, then stops the run.
#[derive(Debug)]
pub struct Limit<S> {
    /// Where records go.
    pub sink: S,
    /// Records still to pass on.
    left: u64,
}

impl<S> Limit<S> {
    /// Passes at most `limit` records to `sink`.
    pub fn new(sink: S, limit: u64) -> Self {
        Limit { sink, left: limit }
    }
}

impl<T, S: Sink<T>> Sink<T> for Limit<S> {
    fn record(&mut self, record: &GameRecord, output: T) -> io::Result<ControlFlow<()>> {
        let Some(left) = self.left.checked_sub(1) else { return Ok(ControlFlow::Break(())) };
        self.left = left;
        let flow = self.sink.record(record, output)?;
        Ok(if left == 0 { ControlFlow::Break(()) } else { flow })
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        self.sink.input_error(error)
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.sink.chunk_end()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.sink.finish()
    }
}

/// Writes one line about an unreadable input to standard error.
pub fn report_input_error(error: &InputError) -> io::Result<()> {
    use io::Write;
    let not_pgn = error.source.get_ref().is_some_and(|e| e.is::<crate::pgn::sniff::NotPgn>());
    if not_pgn {
        writeln!(io::stderr().lock(), "arbiter: error: {error}")
    } else {
        writeln!(io::stderr().lock(), "arbiter: error: cannot read {error}")
    }
}
