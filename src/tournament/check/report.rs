//! Rendering `check`'s report: its findings through the emitters of
//! `diagnostic` (compiler-style text with hints, JSON Lines, SARIF 2.1.0),
//! and the summary.
//!
//! Input: a [`Report`] and the records it refers to; output: bytes on the
//! writer the command gives. Decides nothing.

use std::{
    collections::{BTreeMap, BTreeSet},
    io::{self, Write},
};

use super::Report;
use crate::{
    diagnostic::{
        codes::{Code, Severity},
        jsonl, sarif,
        text::{self, Palette},
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

/// Writes the findings of `report` about `records` in `format` (text in
/// the colours of `palette`).
pub fn render(
    report: &Report,
    records: &[Game],
    format: Format,
    palette: &Palette,
    wtr: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Text => {
            for f in &report.findings {
                let r = &records[f.record];
                text::write(wtr, r, f, f.code.severity().name(), true, palette)?;
            }
        }
        Format::Jsonl => {
            for f in &report.findings {
                jsonl::write(wtr, f, &records[f.record])?;
            }
        }
        Format::Sarif => {
            let located = report.findings.iter().map(|f| (f, &*records[f.record]));
            sarif::write(wtr, located)?;
        }
    }
    wtr.flush()
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
