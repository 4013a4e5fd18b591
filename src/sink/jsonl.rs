//! JSON Lines: one `GameRecord` object per line (the schema is `record.rs`);
//! with `games --tags`, the tags' fields after the record's.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use super::Sink;
use crate::{
    record::GameRecord,
    replay::tag_columns::{PREFIX, TagValues},
};

/// Writes records as JSON Lines.
#[derive(Debug)]
pub struct JsonlSink<W: Write> {
    wtr: W,
    /// The line being written (kept, so that its allocation is). A line
    /// is made in memory and written at once: serde's many small writes
    /// cost more through the sink's `dyn Write` than into a `Vec`
    /// (benches/HISTORY.md, issue 22).
    line: Vec<u8>,
}

impl<W: Write> JsonlSink<W> {
    /// A sink writing every record to `wtr`.
    pub fn new(wtr: W) -> Self {
        JsonlSink { wtr, line: Vec::new() }
    }

    /// Writes the record's line with the integer fields `fields` after
    /// the record's (`db find`'s `ply`; plain names, which need no
    /// escaping).
    pub fn record_with_ints(
        &mut self,
        record: &GameRecord,
        fields: &[(&str, i64)],
    ) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        serde_json::to_writer(&mut *line, record)?;
        let brace = line.pop();
        debug_assert_eq!(brace, Some(b'}'), "a record is a JSON object");
        for (name, value) in fields {
            line.extend_from_slice(format!(",\"{name}\":{value}").as_bytes());
        }
        line.extend_from_slice(b"}\n");
        self.wtr.write_all(line)
    }

    /// Writes the record's line, with the fields of `tags` after the
    /// record's.
    fn write(&mut self, record: &GameRecord, tags: Option<&TagValues>) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        serde_json::to_writer(&mut *line, record)?;
        if let Some(tags) = tags {
            // The tags' fields `tag_NAME` (text, or null where the game
            // has no such tag) go in before the record's closing brace, by
            // hand: through serde (`#[serde(flatten)]`, keys written with
            // `collect_str`) they cost far more (benches/HISTORY.md).
            let brace = line.pop();
            debug_assert_eq!(brace, Some(b'}'), "a record is a JSON object");
            for (name, value) in tags.iter() {
                line.push(b',');
                // The name as a JSON string, escaped, and the prefix put
                // in after its opening quote.
                let at = line.len() + 1;
                serde_json::to_writer(&mut *line, name)?;
                line.splice(at..at, PREFIX.bytes());
                line.push(b':');
                serde_json::to_writer(&mut *line, &value)?;
            }
            line.push(b'}');
        }
        line.push(b'\n');
        self.wtr.write_all(line)
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, (): ()) -> io::Result<ControlFlow<()>> {
        self.write(record, None)?;
        Ok(ControlFlow::Continue(()))
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

impl<W: Write> Sink<TagValues> for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, tags: TagValues) -> io::Result<ControlFlow<()>> {
        self.write(record, Some(&tags))?;
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
    use crate::testing::replay;

    #[test]
    fn tags_follow_the_record_s_fields_unchanged() {
        let record = &replay("[Event \"E\"]\n\n1. e4 e5 *\n")[0];
        let mut tags = TagValues::default();
        tags.push("Site", Some("x \"y\""));
        tags.push("Opening", None);
        tags.push("Odd\"Name\u{1}", Some(""));
        let mut plain = JsonlSink::new(Vec::new());
        assert!(plain.record(record, ()).unwrap().is_continue());
        let mut tagged = JsonlSink::new(Vec::new());
        assert!(tagged.record(record, tags).unwrap().is_continue());
        let (plain, tagged) =
            (String::from_utf8(plain.wtr).unwrap(), String::from_utf8(tagged.wtr).unwrap());
        let plain = plain.strip_suffix("}\n").unwrap();
        assert_eq!(
            tagged,
            format!(
                "{plain},\"tag_Site\":\"x \\\"y\\\"\",\"tag_Opening\":null,\"tag_Odd\\\"Name\\u0001\":\"\"}}\n"
            )
        );
    }
}
