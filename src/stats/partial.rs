//! The partial file: exact `Stats` on disk, for `arbiter merge`.
//!
//! One JSON document on one line: `{"format": "arbiter-stats-partial",
//! "version": 1, "stats": {...}}`, `stats` being `Stats` field by field
//! (counts, histograms and per-key tables; never a rounded figure). A
//! stream may hold several documents one after another (`cat` of partials,
//! a reducer's standard input); reading merges them. A document of another
//! format or version, or whose counts do not add up, is a `PartialError`.

use std::io::{self, BufRead, Write};

use serde::Serialize;
use serde_json::Value;

use super::{Merge, Stats};

/// The `format` field of every partial.
pub const FORMAT: &str = "arbiter-stats-partial";

/// The version of the partial format this arbiter writes and reads. Bumped
/// whenever the meaning or shape of `stats` changes.
pub const VERSION: u64 = 1;

/// Why a partial could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PartialError {
    /// Not JSON, or the stream could not be read.
    #[error("not a JSON document")]
    Json(#[source] serde_json::Error),
    /// JSON, but not a partial of arbiter's statistics.
    #[error("not an arbiter stats partial (no \"format\": \"{FORMAT}\")")]
    Format,
    /// A partial of another format version.
    #[error("partial format version {0}, but this arbiter reads version {VERSION}")]
    Version(String),
    /// The right header, but the statistics are malformed or inconsistent.
    #[error("corrupt partial")]
    Corrupt(#[source] serde_json::Error),
    /// No document at all.
    #[error("empty: no partial in it")]
    Empty,
}

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    version: u64,
    stats: &'a Stats,
}

/// Writes `stats` as one partial document and a newline.
pub fn write(wtr: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    serde_json::to_writer(&mut *wtr, &Document { format: FORMAT, version: VERSION, stats })?;
    writeln!(wtr)?;
    wtr.flush()
}

/// Reads every partial document of `rdr` and returns their merge.
pub fn read(rdr: impl BufRead) -> Result<Stats, PartialError> {
    let mut total = None::<Stats>;
    for document in serde_json::Deserializer::from_reader(rdr).into_iter::<Value>() {
        let stats = parse(document.map_err(PartialError::Json)?)?;
        match &mut total {
            Some(total) => total.merge(stats),
            None => total = Some(stats),
        }
    }
    total.ok_or(PartialError::Empty)
}

/// Checks a document's header and reads its statistics.
fn parse(mut document: Value) -> Result<Stats, PartialError> {
    if document.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(PartialError::Format);
    }
    match document.get("version") {
        Some(version) if version.as_u64() == Some(VERSION) => {}
        Some(version) => return Err(PartialError::Version(version.to_string())),
        None => return Err(PartialError::Version("missing".to_owned())),
    }
    let stats = document.get_mut("stats").map(Value::take).unwrap_or(Value::Null);
    serde_json::from_value(stats).map_err(PartialError::Corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Tally;

    fn sample() -> Stats {
        let valid = Tally { games: 3, white_wins: 1, draws: 1, black_wins: 0, unfinished: 1 };
        let mut stats = Stats { valid, ..Stats::default() };
        stats.lengths.add(42);
        stats.rating_gaps.insert(-17, stats.valid);
        stats.months.insert(202305, stats.valid);
        stats
    }

    fn bytes(stats: &Stats) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, stats).unwrap();
        out
    }

    #[test]
    fn round_trips_exactly() {
        let out = bytes(&sample());
        assert!(out.ends_with(b"}\n"));
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
        assert_eq!(read(&out[..]).unwrap(), sample());
    }

    #[test]
    fn concatenated_partials_are_merged() {
        let mut out = bytes(&sample());
        out.extend(bytes(&Stats::default()));
        out.extend(bytes(&sample()));
        let mut expected = sample();
        expected.merge(sample());
        assert_eq!(read(&out[..]).unwrap(), expected);
    }

    #[test]
    fn wrong_or_corrupt_partials_are_errors() {
        type Expected = fn(&PartialError) -> bool;
        let cases: [(&str, Expected); 7] = [
            ("", |e| matches!(e, PartialError::Empty)),
            ("{\"format\": ", |e| matches!(e, PartialError::Json(_))),
            ("[1, 2]", |e| matches!(e, PartialError::Format)),
            (
                r#"{"format":"arbiter-stats-partial","version":2,"stats":{}}"#,
                |e| matches!(e, PartialError::Version(v) if v == "2"),
            ),
            (r#"{"format":"arbiter-stats-partial","stats":{}}"#, |e| {
                matches!(e, PartialError::Version(_))
            }),
            (
                r#"{"format":"arbiter-stats-partial","version":1,"stats":{"valid":[1,2,0,0,0]}}"#,
                |e| matches!(e, PartialError::Corrupt(_)),
            ),
            (r#"{"format":"arbiter-stats-partial","version":1,"stats":{"surprise":1}}"#, |e| {
                matches!(e, PartialError::Corrupt(_))
            }),
        ];
        for (text, expected) in cases {
            let error = read(text.as_bytes()).unwrap_err();
            assert!(expected(&error), "{text}: {error}");
        }
    }
}
