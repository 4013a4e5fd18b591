//! Writing statistics out: the terminal summary, the CSV files, the JSON
//! document, the charts and the partial file.
//!
//! Input: `Stats` and the `Outputs` asked for; the tables come from
//! [`Report`]. Decides what is written where (the charts are drawn by
//! `plot`, the partial serialized by `partial`); it formats but computes
//! nothing beyond choosing the rows shown on screen.

use std::{
    borrow::Cow,
    fs,
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
};

use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use crate::{record::printable, sink::atomic};

use super::{
    Stats, partial, plot,
    tables::{
        self, EndingRow, LengthRow, MonthRow, OpeningRow, PlayerRow, RatingGapRow, Report,
        ResultRow, TimeControlRow,
    },
};

/// Rows of the players and openings tables on screen unless told.
pub const DEFAULT_TOP: usize = 20;

/// Plies per line of the terminal's length histogram.
const LENGTH_BIN: u32 = 20;

/// Rating gaps shown on screen (the CSV has them all).
const SCREEN_GAP: i64 = 400;

/// Widest bar of the terminal's length histogram, in characters.
const BAR: u64 = 40;

/// What to write, resolved from the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Write one CSV file per table into this directory.
    pub csv: Option<PathBuf>,
    /// Write the whole report as one JSON document on standard output.
    pub json: bool,
    /// Draw the charts into this directory.
    pub plot: Option<PathBuf>,
    /// Rows of the players and openings tables on screen (default
    /// [`DEFAULT_TOP`]) and in JSON (default: all).
    pub top: Option<usize>,
    /// Write the partial aggregates to this file (`-`: standard output).
    pub partial: Option<PathBuf>,
}

impl Outputs {
    /// The terminal summary is printed unless standard output carries the
    /// JSON document or a partial.
    fn terminal(&self) -> bool {
        !self.json && self.partial.is_none()
    }
}

/// A failed write, naming what was being written.
#[derive(Debug, thiserror::Error)]
#[error("writing {what}")]
pub struct ReportError {
    /// The file or directory.
    pub what: String,
    /// Why.
    #[source]
    pub source: io::Error,
}

fn context<T>(what: impl AsRef<Path>, result: io::Result<T>) -> Result<T, ReportError> {
    result.map_err(|source| ReportError { what: what.as_ref().display().to_string(), source })
}

/// Writes every output asked for, `stdout` taking the terminal summary,
/// the JSON document or a partial sent to `-`.
pub fn write(stats: &Stats, outputs: &Outputs, stdout: &mut dyn Write) -> Result<(), ReportError> {
    if let Some(path) = &outputs.partial {
        if path.as_os_str() == "-" {
            context("the partial to standard output", partial::write(stdout, stats))?;
        } else {
            context(path, atomic::write(path, |wtr| partial::write(wtr, stats)))?;
        }
    }
    let wanted =
        outputs.json || outputs.terminal() || outputs.csv.is_some() || outputs.plot.is_some();
    if !wanted {
        return Ok(());
    }
    // CSV files are complete; JSON and the screen show the first rows.
    let top = if outputs.csv.is_some() {
        None
    } else if outputs.json {
        outputs.top
    } else {
        Some(outputs.top.unwrap_or(DEFAULT_TOP))
    };
    let report = Report::new(stats, top);
    if let Some(dir) = &outputs.csv {
        context(dir, fs::create_dir_all(dir))?;
        write_csv(&report, dir)?;
    }
    if let Some(dir) = &outputs.plot {
        context(dir, fs::create_dir_all(dir))?;
        context(dir, plot::draw(&report, dir))?;
    }
    if outputs.json {
        context("JSON to standard output", write_json(report, outputs.top, stdout))?;
    } else if outputs.terminal() {
        let top = outputs.top.unwrap_or(DEFAULT_TOP);
        context("the summary to standard output", render(stats, &report, top, stdout))?;
    }
    Ok(())
}

/// The CSV files and their tables.
fn write_csv(report: &Report, dir: &Path) -> Result<(), ReportError> {
    csv_file(&dir.join("results.csv"), ResultRow::HEADER, &report.results)?;
    csv_file(&dir.join("endings.csv"), EndingRow::HEADER, &report.endings)?;
    csv_file(&dir.join("lengths.csv"), LengthRow::HEADER, &report.lengths.histogram)?;
    csv_file(&dir.join("openings.csv"), OpeningRow::HEADER, &report.openings)?;
    csv_file(&dir.join("players.csv"), PlayerRow::HEADER, &report.players)?;
    csv_file(&dir.join("rating_gap.csv"), RatingGapRow::HEADER, &report.rating_gap)?;
    csv_file(&dir.join("by_month.csv"), MonthRow::HEADER, &report.by_month)?;
    csv_file(&dir.join("time_controls.csv"), TimeControlRow::HEADER, &report.time_controls)
}

/// One CSV file: the header (also for an empty table), then the rows.
fn csv_file<R: Serialize>(path: &Path, header: &[&str], rows: &[R]) -> Result<(), ReportError> {
    let write = |out: &mut dyn Write| -> io::Result<()> {
        let mut wtr = csv::WriterBuilder::new().has_headers(false).from_writer(out);
        wtr.write_record(header)?;
        for row in rows {
            wtr.serialize(row)?;
        }
        wtr.flush()
    };
    context(path, atomic::write(path, write))
}

/// The report as one pretty-printed JSON document, its players and
/// openings tables cut to `top` rows when given.
fn write_json(mut report: Report, top: Option<usize>, wtr: &mut dyn Write) -> io::Result<()> {
    if let Some(top) = top {
        report.players.truncate(top);
        report.openings.truncate(top);
    }
    serde_json::to_writer_pretty(&mut *wtr, &report)?;
    writeln!(wtr)?;
    wtr.flush()
}

/// A table for people: columns aligned, text left, numbers right.
struct Table {
    title: String,
    header: Vec<&'static str>,
    /// How many leading columns hold text.
    text_columns: usize,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(title: impl Into<String>, text_columns: usize, header: &[&'static str]) -> Table {
        Table { title: title.into(), header: header.to_vec(), text_columns, rows: Vec::new() }
    }

    /// Adds a row; text from the PGN (names, openings) is shown
    /// printable, and aligned as shown.
    fn row(&mut self, cells: Vec<String>) {
        let shown = |cell: String| match printable(&cell) {
            Cow::Borrowed(_) => cell,
            Cow::Owned(shown) => shown,
        };
        self.rows.push(cells.into_iter().map(shown).collect());
    }

    fn render(&self, wtr: &mut dyn Write) -> io::Result<()> {
        // Padded by display width, not by `char`s: a combining accent
        // takes no column and a CJK character two.
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.width()).collect();
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.width());
            }
        }
        writeln!(wtr, "{}", self.title)?;
        let header = self.header.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>();
        for cells in std::iter::once(&header).chain(&self.rows) {
            let mut line = String::new();
            for (i, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
                let pad = " ".repeat(width - cell.width());
                line.push_str("  ");
                if i < self.text_columns {
                    line.push_str(cell);
                    line.push_str(&pad);
                } else {
                    line.push_str(&pad);
                    line.push_str(cell);
                }
            }
            writeln!(wtr, "{}", line.trim_end())?;
        }
        writeln!(wtr)
    }
}

/// A percentage or `-`.
fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// A figure with `decimals` places, or `-`.
fn figure(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.decimals$}"))
}

/// The terminal summary: headline figures first, then each table, the
/// long ones cut to `top` rows.
fn render(stats: &Stats, report: &Report, top: usize, wtr: &mut dyn Write) -> io::Result<()> {
    let mut wtr = BufWriter::new(wtr);
    headline(report, &mut wtr)?;
    results(report).render(&mut wtr)?;
    endings(report, top).render(&mut wtr)?;
    lengths(report).render(&mut wtr)?;
    openings(stats, report, top).render(&mut wtr)?;
    players(stats, report, top).render(&mut wtr)?;
    rating_gap(report).render(&mut wtr)?;
    years(stats, top).render(&mut wtr)?;
    time_controls(report).render(&mut wtr)?;
    wtr.flush()
}

fn headline(report: &Report, wtr: &mut dyn Write) -> io::Result<()> {
    let s = &report.summary;
    writeln!(
        wtr,
        "{} games: {} valid, {} invalid (invalid games count in every table but lengths)",
        s.games, s.valid, s.invalid
    )?;
    match (s.white_score_pct, s.white_score_ci95_pct) {
        (Some(score), ci) => {
            let ci =
                ci.map_or_else(String::new, |(low, high)| format!(" (95% CI {low:.2}-{high:.2}%)"));
            writeln!(
                wtr,
                "White scores {score:.2}%{ci} in {} decided games; {}% of them drawn",
                s.decided,
                percent(s.draw_pct)
            )?;
        }
        (None, _) => writeln!(wtr, "no decided games")?,
    }
    if let Some(elo) = s.white_advantage_elo {
        writeln!(
            wtr,
            "White's first move is worth {elo:+.1} rating points (Elo fit over {} rated games)",
            s.rated_games
        )?;
    }
    if let (Some(median), Some(mean)) = (s.median_plies, s.mean_plies) {
        writeln!(wtr, "Games last {median} plies (median), {mean:.2} on average")?;
    }
    writeln!(wtr)
}

fn results(report: &Report) -> Table {
    let mut table = Table::new(
        "Results",
        1,
        &["scope", "games", "1-0", "1/2-1/2", "0-1", "*", "other", "White %", "95% CI", "draw %"],
    );
    for r in &report.results {
        let ci = match (r.ci95_low_pct, r.ci95_high_pct) {
            (Some(low), Some(high)) => format!("{low:.2}-{high:.2}"),
            _ => "-".to_owned(),
        };
        table.row(vec![
            r.scope.to_owned(),
            r.games.to_string(),
            r.white_wins.to_string(),
            r.draws.to_string(),
            r.black_wins.to_string(),
            r.unfinished.to_string(),
            r.other.to_string(),
            percent(r.white_score_pct),
            ci,
            percent(r.draw_pct),
        ]);
    }
    table
}

fn endings(report: &Report, top: usize) -> Table {
    let mut table = Table::new("How games ended", 2, &["category", "kind", "games", "%"]);
    let mut tags = 0;
    for r in &report.endings {
        // Every automatic end and claim is shown, even at zero; other
        // categories only when they happened, tag values up to `top`.
        let shown = match r.category {
            "automatic" | "claimable" => true,
            "termination_tag" => {
                tags += 1;
                tags <= top
            }
            _ => r.games > 0,
        };
        if shown {
            table.row(vec![
                r.category.to_owned(),
                r.name.clone(),
                r.games.to_string(),
                percent(r.pct),
            ]);
        }
    }
    table
}

fn lengths(report: &Report) -> Table {
    let l = &report.lengths;
    let percentiles = l
        .percentiles
        .iter()
        .map(|(p, v)| format!("p{p} {}", v.map_or_else(|| "-".to_owned(), |v| v.to_string())))
        .collect::<Vec<_>>()
        .join(", ");
    let title = format!(
        "Length in plies of the {} valid games: mean {}, min {}, {percentiles}, max {}",
        l.games,
        figure(l.mean, 2),
        l.min.map_or_else(|| "-".to_owned(), |v| v.to_string()),
        l.max.map_or_else(|| "-".to_owned(), |v| v.to_string()),
    );
    let mut table = Table::new(title, 2, &["plies", "", "games", "%"]);
    // Bins up to the 99th percentile; the longest games share the last line.
    let last = l.percentiles.get("99").copied().flatten().unwrap_or(0);
    let last = last - last % LENGTH_BIN;
    let mut bins = std::collections::BTreeMap::<u32, u64>::new();
    for row in &l.histogram {
        *bins.entry((row.plies - row.plies % LENGTH_BIN).min(last)).or_default() += row.games;
    }
    let widest = bins.values().copied().max().unwrap_or(1).max(1);
    for (&start, &games) in &bins {
        let range = if start == last {
            format!("{start}+")
        } else {
            format!("{start}-{}", start + LENGTH_BIN - 1)
        };
        let bar = "#".repeat(usize::try_from(games * BAR / widest).unwrap_or(0));
        table.row(vec![range, bar, games.to_string(), percent(tables::pct(games, l.games))]);
    }
    table
}

/// "top N of M" for a title.
fn of(top: usize, total: usize) -> String {
    if total > top { format!("top {top} of {total}") } else { format!("{total}") }
}

fn openings(stats: &Stats, report: &Report, top: usize) -> Table {
    let total = stats.openings.values().map(hashbrown::HashMap::len).sum();
    let title = format!("Openings ({}, by games)", of(top, total));
    let mut table = Table::new(title, 2, &["ECO", "name", "games", "White %", "draw %"]);
    for r in report.openings.iter().take(top) {
        let dash = |s: &str| if s.is_empty() { "-".to_owned() } else { s.to_owned() };
        table.row(vec![
            dash(&r.eco),
            dash(&r.name),
            r.games.to_string(),
            percent(r.white_score_pct),
            percent(r.draw_pct),
        ]);
    }
    table
}

fn players(stats: &Stats, report: &Report, top: usize) -> Table {
    let title = format!("Players ({}, by games)", of(top, stats.players.len()));
    let mut table = Table::new(
        title,
        1,
        &[
            "player", "games", "points", "score %", "White", "W %", "Black", "B %", "opp. avg",
            "perf.",
        ],
    );
    for r in report.players.iter().take(top) {
        table.row(vec![
            r.player.clone(),
            r.games.to_string(),
            r.points.to_string(),
            percent(r.score_pct),
            r.white_games.to_string(),
            percent(r.white_score_pct),
            r.black_games.to_string(),
            percent(r.black_score_pct),
            figure(r.avg_opponent_rating, 0),
            figure(r.performance, 0),
        ]);
    }
    table
}

fn rating_gap(report: &Report) -> Table {
    let title = format!(
        "White's score by rating gap, WhiteElo - BlackElo (within {SCREEN_GAP}; all in rating_gap.csv)"
    );
    let mut table =
        Table::new(title, 1, &["gap", "decided", "White %", "expected %", "difference"]);
    for r in &report.rating_gap {
        if r.gap_from < -SCREEN_GAP || r.gap_to > SCREEN_GAP {
            continue;
        }
        table.row(vec![
            format!("{}..{}", r.gap_from, r.gap_to),
            r.decided.to_string(),
            percent(r.white_score_pct),
            percent(r.expected_score_pct),
            figure(r.difference_pct, 2),
        ]);
    }
    table
}

fn years(stats: &Stats, top: usize) -> Table {
    let years = tables::by_year(&stats.months);
    let title = format!("By year ({}, latest; months in by_month.csv)", of(top, years.len()));
    let mut table = Table::new(title, 1, &["year", "games", "White %", "draw %"]);
    let skip = years.len().saturating_sub(top);
    for (year, tally) in years.iter().skip(skip) {
        table.row(vec![
            year.map_or_else(|| "no date".to_owned(), |y| y.to_string()),
            tally.games.to_string(),
            percent(tables::white_score(tally)),
            percent(tables::pct(tally.draws, tally.decided())),
        ]);
    }
    table
}

fn time_controls(report: &Report) -> Table {
    let mut table = Table::new(
        "Time controls (base + 40 x increment seconds)",
        1,
        &["class", "seconds", "games", "White %", "draw %"],
    );
    for r in &report.time_controls {
        let seconds = match (r.min_seconds, r.max_seconds) {
            (Some(min), Some(max)) => format!("{min}-{max}"),
            (Some(min), None) => format!("{min}+"),
            _ => "-".to_owned(),
        };
        table.row(vec![
            r.class.to_owned(),
            seconds,
            r.games.to_string(),
            percent(r.white_score_pct),
            percent(r.draw_pct),
        ]);
    }
    table
}
