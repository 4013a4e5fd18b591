//! Rendering `check`'s findings: compiler-style text, JSON Lines (one
//! object per finding) or SARIF 2.1.0 (for code hosts), the summary, and
//! the code table of `--list-codes`. Every format renders from the same
//! [`Finding`]s and the `codes.rs` table.
//!
//! Input: a [`Report`] and the records it refers to; output: bytes on the
//! writer the command gives. Decides nothing.

use std::{
    collections::{BTreeMap, BTreeSet},
    io::{self, Write},
};

use serde::Serialize;
use serde_json::json;

use super::Report;
use crate::{
    diagnostic::{
        Finding, GameLabel,
        codes::{Code, Severity},
        text,
    },
    tournament::{Game, players::plural},
};

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `file:line: error[E101 illegal-move]: game ...: message` + hint.
    Text,
    /// One JSON object per finding.
    Jsonl,
    /// One SARIF 2.1.0 log.
    Sarif,
}

/// One finding as a JSON Lines object.
#[derive(Debug, Serialize)]
struct JsonFinding<'a> {
    code: Code,
    name: &'static str,
    severity: Severity,
    file: &'a str,
    line: u64,
    game: u64,
    ply: Option<u32>,
    white: Option<&'a str>,
    black: Option<&'a str>,
    round: Option<&'a str>,
    message: &'a str,
    fen: Option<&'a str>,
    hint: &'static str,
}

impl<'a> JsonFinding<'a> {
    fn new(f: &'a Finding, r: &'a Game) -> Self {
        JsonFinding {
            code: f.code,
            name: f.code.name(),
            severity: f.code.severity(),
            file: &r.file,
            line: f.line,
            game: r.index,
            ply: f.ply,
            white: r.white.as_deref(),
            black: r.black.as_deref(),
            round: r.round.as_deref(),
            message: &f.message,
            fen: f.fen.as_deref(),
            hint: f.code.hint(),
        }
    }
}

/// Writes the findings of `report` about `records` in `format`.
pub fn render(
    report: &Report,
    records: &[Game],
    format: Format,
    wtr: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Text => {
            for f in &report.findings {
                let r = &records[f.record];
                text::write(wtr, r, f, f.code.severity().name(), true)?;
            }
        }
        Format::Jsonl => {
            for f in &report.findings {
                serde_json::to_writer(&mut *wtr, &JsonFinding::new(f, &records[f.record]))?;
                wtr.write_all(b"\n")?;
            }
        }
        Format::Sarif => {
            serde_json::to_writer_pretty(&mut *wtr, &sarif(report, records))?;
            wtr.write_all(b"\n")?;
        }
    }
    wtr.flush()
}

/// The SARIF 2.1.0 log: one run, every code as a rule, one result per
/// finding located by file and line.
fn sarif(report: &Report, records: &[Game]) -> serde_json::Value {
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
    let results: Vec<serde_json::Value> = report
        .findings
        .iter()
        .map(|f| {
            let r = &records[f.record];
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

/// Counts for the summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
}

impl Totals {
    /// Counts the findings of `report` by severity.
    pub fn of(report: &Report) -> Totals {
        let errors =
            report.findings.iter().filter(|f| f.code.severity() == Severity::Error).count();
        Totals { errors, warnings: report.findings.len() - errors }
    }
}

/// Writes the summary for people: games, findings by severity and by
/// code, the draws the final position confirms, the codes disabled.
pub fn summary(
    report: &Report,
    games: usize,
    files: u64,
    disabled: &BTreeSet<Code>,
    wtr: &mut dyn Write,
) -> io::Result<()> {
    let totals = Totals::of(report);
    writeln!(
        wtr,
        "{} in {}: {}, {}",
        plural(games, "game"),
        plural(usize::try_from(files).unwrap_or(usize::MAX), "file"),
        plural(totals.errors, "error"),
        plural(totals.warnings, "warning"),
    )?;
    let mut by_code: BTreeMap<Code, u64> = BTreeMap::new();
    for f in &report.findings {
        *by_code.entry(f.code).or_default() += 1;
    }
    if !by_code.is_empty() {
        let parts: Vec<String> =
            by_code.iter().map(|(c, n)| format!("{} {} {n}", c.code(), c.name())).collect();
        writeln!(wtr, "by code: {}", parts.join(", "))?;
    }
    let confirmed: u64 = report.confirmed_draws.values().sum();
    if confirmed > 0 {
        let parts: Vec<String> =
            report.confirmed_draws.iter().map(|(t, n)| format!("{} {n}", t.describe())).collect();
        writeln!(wtr, "draws confirmed by the final position: {confirmed} ({})", parts.join(", "))?;
    }
    if !disabled.is_empty() {
        let codes: Vec<&str> = disabled.iter().map(|c| c.code()).collect();
        writeln!(wtr, "disabled: {}", codes.join(", "))?;
    }
    Ok(())
}

/// Writes the code table as Markdown (the user guide's table).
pub fn list_codes(wtr: &mut dyn Write) -> io::Result<()> {
    writeln!(wtr, "| code | name | severity | meaning | fix |")?;
    writeln!(wtr, "|---|---|---|---|---|")?;
    for code in Code::ALL {
        writeln!(
            wtr,
            "| {} | `{}` | {} | {} | {} |",
            code.code(),
            code.name(),
            code.severity().name(),
            code.what(),
            code.hint()
        )?;
    }
    wtr.flush()
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
