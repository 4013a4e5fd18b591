//! The SARIF 2.1.0 emitter, for code hosts: one run, every code as a rule,
//! one result per finding located by file and line (`check --format
//! sarif`).

use std::io::{self, Write};

use serde_json::json;

use super::{Finding, GameLabel, codes::Code};
use crate::record::GameRecord;

/// Writes one log of the findings, each with the record of its game,
/// one result at a time: the log is never built whole (a tree of every
/// finding took gigabytes on a large file). The bytes are those of
/// `serde_json`'s pretty printing of the whole log (keys in order).
pub fn write<'a>(
    wtr: &mut dyn Write,
    located: impl Iterator<Item = (&'a Finding, &'a GameRecord)>,
) -> io::Result<()> {
    wtr.write_all(b"{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n")?;
    wtr.write_all(b"  \"runs\": [\n    {\n      \"results\": [")?;
    let mut first = true;
    for (f, r) in located {
        wtr.write_all(if first { b"\n" } else { b",\n" })?;
        first = false;
        write_indented(wtr, &result(f, r), 8, true)?;
    }
    wtr.write_all(if first { b"],\n" } else { b"\n      ],\n" })?;
    wtr.write_all(b"      \"tool\": ")?;
    write_indented(wtr, &tool(), 6, false)?;
    wtr.write_all(b"\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n")
}

/// Writes `value` pretty-printed, each line indented by `indent` spaces
/// (the first too, when `first_line`), without a final line break.
fn write_indented(
    wtr: &mut dyn Write,
    value: &serde_json::Value,
    indent: usize,
    first_line: bool,
) -> io::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    let pad = " ".repeat(indent);
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            wtr.write_all(b"\n")?;
        }
        if i > 0 || first_line {
            wtr.write_all(pad.as_bytes())?;
        }
        wtr.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// The tool: arbiter, with every code as a rule.
fn tool() -> serde_json::Value {
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
    json!({ "driver": {
        "name": "arbiter",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }})
}

/// One finding as a SARIF result, located by file and line.
fn result(f: &Finding, r: &GameRecord) -> serde_json::Value {
    let index = Code::ALL.iter().position(|c| *c == f.code);
    let mut result = json!({
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
    });
    // Why a move is not legal, as its stable code, where SARIF keeps
    // what is the tool's own.
    if let Some(reason) = f.reason {
        result["properties"] = json!({ "reason": reason });
    }
    result
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
