//! JSON Lines: one `GameRecord` object per line (the schema is `record.rs`);
//! with `games --tags`, the tags' fields after the record's.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use serde::{Serialize, Serializer, ser::SerializeMap};

use super::Sink;
use crate::{
    record::GameRecord,
    replay::tag_columns::{PREFIX, TagValues},
};

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

    /// Writes `line` and ends the line.
    fn line(&mut self, line: &impl Serialize) -> io::Result<ControlFlow<()>> {
        serde_json::to_writer(&mut self.wtr, line)?;
        self.wtr.write_all(b"\n")?;
        Ok(ControlFlow::Continue(()))
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, (): ()) -> io::Result<ControlFlow<()>> {
        self.line(record)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

impl<W: Write> Sink<TagValues> for JsonlSink<W> {
    fn record(&mut self, record: &GameRecord, tags: TagValues) -> io::Result<ControlFlow<()>> {
        self.line(&WithTags { record, tags: TagFields(&tags) })
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

/// A record with its tags' fields after its own, in one object (serde
/// writes flattened fields as they come: nothing is buffered).
#[derive(Serialize)]
struct WithTags<'a> {
    #[serde(flatten)]
    record: &'a GameRecord,
    #[serde(flatten)]
    tags: TagFields<'a>,
}

/// The tags as fields `tag_NAME`: text, or null where the game has no
/// such tag.
struct TagFields<'a>(&'a TagValues);

impl Serialize for TagFields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0.iter() {
            map.serialize_entry(&Key(name), &value)?;
        }
        map.end()
    }
}

/// A tag's field name, written without building it.
struct Key<'a>(&'a str);

impl Serialize for Key<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{PREFIX}{}", self.0))
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
        tags.push("Odd\"Name", Some(""));
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
                "{plain},\"tag_Site\":\"x \\\"y\\\"\",\"tag_Opening\":null,\"tag_Odd\\\"Name\":\"\"}}\n"
            )
        );
    }
}
