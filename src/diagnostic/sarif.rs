//! The SARIF 2.1.0 emitter, for code hosts: one run, every code as a rule,
//! one result per finding located by file and line (`check --format
//! sarif`).

use std::io::{self, Write};

use serde_json::json;

use super::{Finding, GameLabel, codes::Code};
use crate::record::GameRecord;

/// Writes one log of the findings, each with the record of its game.
pub fn write<'a>(
    wtr: &mut dyn Write,
    located: impl Iterator<Item = (&'a Finding, &'a GameRecord)>,
) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *wtr, &log(located))?;
    wtr.write_all(b"\n")
}

/// The SARIF 2.1.0 log: one run, every code as a rule, one result per
/// finding located by file and line.
fn log<'a>(located: impl Iterator<Item = (&'a Finding, &'a GameRecord)>) -> serde_json::Value {
    let rules: Vec<serde_json::Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.code(),
                "name": code.name(),
                "shortDescription": { "text": code.what() },
                "help": { "text": code.hint() },
                "defaultConfiguration": { "level": code.severity().name() },
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = located
        .map(|(f, r)| {
            let index = Code::ALL.iter().position(|c| *c == f.code);
            json!({
                "ruleId": f.code.code(),
                "ruleIndex": index,
                "level": f.code.severity().name(),
                "message": { "text": format!("{}: {}", GameLabel(r), f.message) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(&r.file) },
                        "region": { "startLine": f.line },
                    }
                }],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "arbiter",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

/// A path as a URI reference: percent-encoded, absolute paths as `file:`.
fn uri(path: &str) -> String {
    let mut encoded = String::new();
    if path.starts_with('/') {
        encoded.push_str("file://");
    }
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                encoded.push(char::from(byte));
            }
            b'\\' => encoded.push('/'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri("fixtures/a b.pgn"), "fixtures/a%20b.pgn");
        assert_eq!(uri("/tmp/x.pgn"), "file:///tmp/x.pgn");
        assert_eq!(uri("-"), "-");
    }
}
