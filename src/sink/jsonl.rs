//! JSON Lines: one `GameRecord` object per line (the schema is `record.rs`).

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use super::Sink;
use crate::record::GameRecord;

/// Writes records as JSON Lines.
#[derive(Debug)]
pub struct JsonlSink<W: Write> {
    wtr: W,
}

impl<W: Write> JsonlSink<W> {
    /// A sink writing every record to `wtr`.
    pub fn new(wtr: W) -> Self {
        JsonlSink { wtr }
    }
}

impl<W: Write, T> Sink<T> for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        serde_json::to_writer(&mut self.wtr, record)?;
        self.wtr.write_all(b"\n")?;
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
