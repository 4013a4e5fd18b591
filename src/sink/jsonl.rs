//! JSON Lines: one `GameRecord` object per line (the schema is `record.rs`).

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use super::{Selection, Sink};
use crate::record::GameRecord;

/// Writes selected records as JSON Lines.
#[derive(Debug)]
pub struct JsonlSink<W: Write> {
    wtr: W,
    selection: Selection,
}

impl<W: Write> JsonlSink<W> {
    /// A sink writing to `wtr` the records `selection` picks.
    pub fn new(wtr: W, selection: Selection) -> Self {
        JsonlSink { wtr, selection }
    }
}

impl<W: Write, T> Sink<T> for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        if self.selection.selects(record) {
            serde_json::to_writer(&mut self.wtr, record)?;
            self.wtr.write_all(b"\n")?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
