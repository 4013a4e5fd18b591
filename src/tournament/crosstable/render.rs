//! Writing crosstables, one per event: aligned terminal tables, one CSV
//! table (the event in the first column), or one self-contained HTML page
//! (inline style, no script) a website can embed, a table per event.
//!
//! A round's cell is the opponent's number in the table, the colour and
//! the result: `5w1`, `3b½`, `7w0`; `+`, `=`, `-` for a forfeit (or bye)
//! won, drawn or lost; `*` for an unfinished game; `bye+` for a bye; `-`
//! alone when the player has no game in the round. Points are written
//! with `½` (`2½`) in the terminal and HTML tables, as in the cells, and
//! as decimals (`2.5`) in CSV, where each round is four columns
//! (opponent, colour, result, kind) a program reads without parsing a
//! cell. The terminal and HTML outputs end with a legend of the notation
//! and of the tie-breaks used.

use std::{
    borrow::Cow,
    collections::{BTreeSet, HashMap},
    io::{self, Write},
};

use unicode_width::UnicodeWidthStr;

use super::{Colour, Column, Crosstable, Entry, Format, Points, Tiebreak};
use crate::record::printable;

/// Points as the terminal and HTML tables write them, the way the cells
/// do: `2½`, `½`, `12¼`, `3`.
fn vulgar(points: Points) -> String {
    let (whole, quarters) = (points.0 / 4, points.0 % 4);
    let fraction = ["", "¼", "½", "¾"][quarters as usize];
    if whole == 0 && quarters > 0 { fraction.to_owned() } else { format!("{whole}{fraction}") }
}

/// The result of one entry as its cell shows it.
fn result(e: &Entry) -> &'static str {
    match (e.halves, e.counts_as_played()) {
        (None, _) => "*",
        (Some(2), true) => "1",
        (Some(1), true) => "½",
        (Some(_), true) => "0",
        (Some(2), false) => "+",
        (Some(1), false) => "=",
        (Some(_), false) => "-",
    }
}

/// The text of one cell.
fn cell(entries: &[Entry]) -> String {
    if entries.is_empty() {
        return "-".to_owned();
    }
    let one = |e: &Entry| match e.opponent {
        Some(o) => {
            let colour = if e.colour == Colour::White { "w" } else { "b" };
            format!("{}{colour}{}", o + 1, result(e))
        }
        None => format!("bye{}", result(e)),
    };
    entries.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// The four CSV columns of one cell: opponent's number, colour (`w`,
/// `b`), points (`1`, `0.5`, `0`; empty for `*`), kind (`game`,
/// `forfeit`, `bye`, `unfinished`); all empty when the player has no game
/// in the round. Several games in a round (a match) are joined by spaces.
fn csv_cell(entries: &[Entry]) -> [String; 4] {
    let part = |f: &dyn Fn(&Entry) -> String| entries.iter().map(f).collect::<Vec<_>>().join(" ");
    [
        part(&|e| e.opponent.map(|o| (o + 1).to_string()).unwrap_or_default()),
        part(&|e| if e.colour == Colour::White { "w" } else { "b" }.to_owned()),
        part(&|e| e.halves.map(|h| Points::halves(h.into()).to_string()).unwrap_or_default()),
        part(&|e| {
            match (e.opponent, e.halves, e.played) {
                (None, ..) => "bye",
                (_, None, _) => "unfinished",
                (_, _, true) => "game",
                (_, _, false) => "forfeit",
            }
            .to_owned()
        }),
    ]
}

/// The columns before the rounds.
const FIXED: [&str; 6] = ["No", "Rk", "Name", "Rtg", "Pts", "Gms"];

/// What the CSV's four columns of a round are called after `r1_`.
const CSV_PARTS: [&str; 4] = ["opponent", "colour", "result", "kind"];

/// A round's column heading: its number, `?` for games without one.
fn label(column: &Column) -> String {
    match column {
        Column::Round(n) => n.to_string(),
        Column::Unknown => "?".to_owned(),
    }
}

/// A round's CSV headings: `r1_opponent`, `r1_colour`, `r1_result`,
/// `r1_kind`.
fn csv_labels(column: &Column) -> impl Iterator<Item = String> {
    let round = label(column);
    CSV_PARTS.into_iter().map(move |part| format!("r{round}_{part}"))
}

/// The header and the rows as strings: No, Rk, Name, Rtg, Pts, Gms, the
/// rounds, the tie-breaks; for CSV (`csv`), points as decimals and each
/// round as its four columns.
fn table(ct: &Crosstable, csv: bool) -> (Vec<String>, Vec<Vec<String>>) {
    let points = |p: Points| if csv { p.to_string() } else { vulgar(p) };
    let mut header: Vec<String> = FIXED.iter().map(|s| (*s).to_owned()).collect();
    if csv {
        header.extend(ct.columns.iter().flat_map(csv_labels));
    } else {
        header.extend(ct.columns.iter().map(label));
    }
    header.extend(ct.tiebreaks.iter().map(|t| t.label().to_owned()));
    let rows = ct
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = vec![
                (i + 1).to_string(),
                p.rank.to_string(),
                p.name.clone(),
                p.rating.map(|r| r.to_string()).unwrap_or_default(),
                points(p.score),
                p.played.to_string(),
            ];
            if csv {
                row.extend(p.cells.iter().flat_map(|entries| csv_cell(entries)));
            } else {
                row.extend(p.cells.iter().map(|entries| cell(entries)));
            }
            row.extend(p.tiebreaks.iter().map(|v| v.map(points).unwrap_or_default()));
            row
        })
        .collect();
    (header, rows)
}

/// A title line: the event, its format, players and rounds.
fn title(ct: &Crosstable) -> String {
    let format = match ct.format {
        Format::RoundRobin => "round robin",
        Format::DoubleRoundRobin => "double round robin",
        Format::Swiss => "Swiss",
        Format::Match => "match",
    };
    let rounds = ct.columns.iter().filter(|c| matches!(c, Column::Round(_))).count();
    format!(
        "{} ({format}, {} players, {} rounds)",
        ct.event.as_deref().unwrap_or("Crosstable"),
        ct.players.len(),
        rounds
    )
}

/// The line under the title: the site and the dates of the first and
/// last games (`Leiden NED, 2024.05.11 – 2024.05.13`); `None` when the
/// games state neither.
fn subtitle(ct: &Crosstable) -> Option<String> {
    let dates = ct.dates.as_ref().map(|(first, last)| {
        if first == last { first.clone() } else { format!("{first} – {last}") }
    });
    let parts: Vec<String> = ct.site.iter().cloned().chain(dates).collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The legend: the notation of the columns and cells, then each
/// tie-break of `tiebreaks` (those of every table written), as
/// `(term, meaning)` pairs.
fn legend(tiebreaks: &[Tiebreak]) -> Vec<(String, String)> {
    let fixed = [
        ("No", "the player's number in the table, which cells refer to"),
        ("Rk", "rank (players tied on every tie-break share it)"),
        ("Rtg", "rating (the first WhiteElo or BlackElo given)"),
        ("Pts", "points"),
        ("Gms", "games played over the board (forfeits, byes and unfinished games excluded)"),
        (
            "3w1, 3b½, 3b0",
            "against No. 3, with White (w) or Black (b): won (1), drawn (½) or lost (0)",
        ),
        ("4w+, 4b=, 4b-", "against No. 4, won, drawn or lost by forfeit (no moves)"),
        ("bye+", "a bye, scored 1 (bye= for ½, bye- for 0)"),
        ("3w*", "an unfinished game: no points"),
        ("-", "no game in the round"),
    ];
    let mut lines: Vec<(String, String)> =
        fixed.iter().map(|(term, meaning)| ((*term).to_owned(), (*meaning).to_owned())).collect();
    lines.extend(tiebreaks.iter().map(|t| (t.label().to_owned(), t.describe().to_owned())));
    lines
}

/// The tie-breaks of several tables, first seen first, each once.
fn union(lists: impl Iterator<Item = Vec<Tiebreak>>) -> Vec<Tiebreak> {
    let mut all: Vec<Tiebreak> = Vec::new();
    for tiebreak in lists.flatten() {
        if !all.contains(&tiebreak) {
            all.push(tiebreak);
        }
    }
    all
}

/// Writes the legend for the terminal: `term  meaning`, terms aligned.
fn text_legend(tiebreaks: &[Tiebreak], wtr: &mut dyn Write) -> io::Result<()> {
    let lines = legend(tiebreaks);
    let width = lines.iter().map(|(term, _)| term.width()).max().unwrap_or(0);
    writeln!(wtr)?;
    writeln!(wtr, "Legend:")?;
    for (term, meaning) in lines {
        writeln!(wtr, "  {term}{}  {meaning}", " ".repeat(width - term.width()))?;
    }
    Ok(())
}

/// Writes an aligned table for the terminal.
pub fn render_text(ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
    let (header, mut rows) = table(ct, false);
    // Names come from the PGN: shown printable (aligned as shown).
    for cell in rows.iter_mut().flatten() {
        if let Cow::Owned(shown) = printable(cell) {
            *cell = shown;
        }
    }
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (w, text) in widths.iter_mut().zip(row) {
            *w = (*w).max(text.width());
        }
    }
    writeln!(wtr, "{}", printable(&title(ct)))?;
    if let Some(subtitle) = subtitle(ct) {
        writeln!(wtr, "{}", printable(&subtitle))?;
    }
    writeln!(wtr)?;
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (column, (text, width)) in row.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(width - text.width());
            if column > 0 {
                line.push_str("  ");
            }
            // The name is left-aligned, everything else right-aligned.
            if column == 2 {
                line.push_str(text);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(text);
            }
        }
        writeln!(wtr, "{}", line.trim_end())?;
    }
    wtr.flush()
}

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// The page's style: readable alone, and scoped to the table's class so
/// that it does not leak into a page that embeds it.
const STYLE: &str = "\
.arbiter-crosstable{border-collapse:collapse;font:14px/1.4 system-ui,sans-serif}
.arbiter-crosstable caption{font-weight:bold;padding:.5em;text-align:left}
.arbiter-crosstable th,.arbiter-crosstable td{border:1px solid #ccc;padding:.2em .5em;text-align:right;white-space:nowrap}
.arbiter-crosstable td.name,.arbiter-crosstable th.name{text-align:left}
.arbiter-crosstable thead th{background:#f2f2f2}
.arbiter-crosstable tbody tr:nth-child(even){background:#fafafa}
.arbiter-crosstable caption .where{font-weight:normal;display:block}
.arbiter-legend{font:13px/1.4 system-ui,sans-serif;display:grid;grid-template-columns:max-content auto;gap:.1em 1em}
.arbiter-legend dt{font-weight:bold;white-space:nowrap}
.arbiter-legend dd{margin:0}";

/// Writes the page's head, up to `<body>`, titled `title`.
fn html_head(title: &str, wtr: &mut dyn Write) -> io::Result<()> {
    writeln!(wtr, "<!DOCTYPE html>")?;
    writeln!(wtr, "<html lang=\"en\">")?;
    writeln!(wtr, "<head>")?;
    writeln!(wtr, "<meta charset=\"utf-8\">")?;
    writeln!(wtr, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(wtr, "<title>{}</title>", escape(title))?;
    writeln!(wtr, "<style>\n{STYLE}\n</style>")?;
    writeln!(wtr, "</head>")?;
    writeln!(wtr, "<body>")
}

/// Writes one crosstable as an HTML table captioned with its title.
fn html_table(ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
    let (header, rows) = table(ct, false);
    writeln!(wtr, "<table class=\"arbiter-crosstable\">")?;
    match subtitle(ct) {
        Some(subtitle) => writeln!(
            wtr,
            "<caption>{} <span class=\"where\">{}</span></caption>",
            escape(&title(ct)),
            escape(&subtitle)
        )?,
        None => writeln!(wtr, "<caption>{}</caption>", escape(&title(ct)))?,
    }
    let class = |column: usize| if column == 2 { " class=\"name\"" } else { "" };
    let cells = |tag: &str, row: &[String]| -> String {
        row.iter()
            .enumerate()
            .map(|(c, text)| format!("<{tag}{}>{}</{tag}>", class(c), escape(text)))
            .collect()
    };
    writeln!(wtr, "<thead><tr>{}</tr></thead>", cells("th", &header))?;
    writeln!(wtr, "<tbody>")?;
    for row in &rows {
        writeln!(wtr, "<tr>{}</tr>", cells("td", row))?;
    }
    writeln!(wtr, "</tbody>")?;
    writeln!(wtr, "</table>")
}

/// Writes the legend as an HTML definition list.
fn html_legend(tiebreaks: &[Tiebreak], wtr: &mut dyn Write) -> io::Result<()> {
    writeln!(wtr, "<h2 style=\"font:bold 14px system-ui,sans-serif\">Legend</h2>")?;
    writeln!(wtr, "<dl class=\"arbiter-legend\">")?;
    for (term, meaning) in legend(tiebreaks) {
        writeln!(wtr, "<dt>{}</dt><dd>{}</dd>", escape(&term), escape(&meaning))?;
    }
    writeln!(wtr, "</dl>")
}

/// Writes crosstables one after another in one style, with what comes
/// before the first (the CSV header, the page's head) and after the last
/// (the page's end): a table is built, written and dropped before the
/// next is built.
#[derive(Debug)]
pub(super) enum Out {
    /// Terminal tables, a blank line between two, then the legend.
    Text {
        /// Whether no table is written yet.
        first: bool,
        /// The tie-breaks the legend explains.
        tiebreaks: Vec<Tiebreak>,
    },
    /// One CSV table: the `Event` column, the columns of every table.
    Csv {
        /// The header row, written before the first table's rows.
        header: Vec<String>,
        /// Where each label of the header is.
        at: HashMap<String, usize>,
        /// Whether no table is written yet.
        first: bool,
    },
    /// One page, a table per event, then the legend.
    Html {
        /// The tables it will hold (the title depends on it).
        tables: usize,
        /// Whether no table is written yet.
        first: bool,
        /// The tie-breaks the legend explains.
        tiebreaks: Vec<Tiebreak>,
    },
}

impl Out {
    /// A CSV table for tables of the given columns and tie-breaks: `Event`,
    /// `No`, `Rk`, `Name`, `Rtg`, `Pts`, `Gms`, every round of any of them
    /// in order (`?` last), then every tie-break, first seen first. A
    /// table's row leaves the columns it does not have empty.
    pub fn csv(shapes: impl Iterator<Item = (Vec<Column>, Vec<Tiebreak>)>) -> Out {
        let mut columns: BTreeSet<Column> = BTreeSet::new();
        let mut tiebreaks: Vec<Vec<Tiebreak>> = Vec::new();
        for (c, t) in shapes {
            columns.extend(c);
            tiebreaks.push(t);
        }
        let header: Vec<String> = std::iter::once("Event")
            .chain(FIXED)
            .map(str::to_owned)
            .chain(columns.iter().flat_map(csv_labels))
            .chain(union(tiebreaks.into_iter()).iter().map(|t| t.label().to_owned()))
            .collect();
        let at = header.iter().enumerate().map(|(i, h)| (h.clone(), i)).collect();
        Out::Csv { header, at, first: true }
    }

    /// Terminal tables whose legend explains the tie-breaks of every one
    /// of `tiebreaks`.
    pub fn text(tiebreaks: impl Iterator<Item = Vec<Tiebreak>>) -> Out {
        Out::Text { first: true, tiebreaks: union(tiebreaks) }
    }

    /// A page of `tables` tables whose legend explains the tie-breaks of
    /// every one of `tiebreaks`.
    pub fn html(tables: usize, tiebreaks: impl Iterator<Item = Vec<Tiebreak>>) -> Out {
        Out::Html { tables, first: true, tiebreaks: union(tiebreaks) }
    }

    /// Writes one table.
    pub fn table(&mut self, ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
        match self {
            Out::Text { first, .. } => {
                if !std::mem::take(first) {
                    writeln!(wtr)?;
                }
                render_text(ct, wtr)
            }
            Out::Csv { header, at, first } => {
                let mut csv = csv::Writer::from_writer(wtr);
                if std::mem::take(first) {
                    csv.write_record(header.iter())?;
                }
                let (labels, rows) = table(ct, true);
                for row in rows {
                    let mut line = vec![String::new(); header.len()];
                    line[0] = ct.event.clone().unwrap_or_default();
                    for (label, value) in labels.iter().zip(row) {
                        if let Some(&i) = at.get(label) {
                            line[i] = value;
                        }
                    }
                    csv.write_record(&line)?;
                }
                csv.flush()
            }
            Out::Html { tables, first, .. } => {
                if std::mem::take(first) {
                    let page = if *tables == 1 {
                        title(ct)
                    } else {
                        format!("Crosstables of {tables} events")
                    };
                    html_head(&page, wtr)?;
                }
                html_table(ct, wtr)
            }
        }
    }

    /// Ends the output, after the last table.
    pub fn finish(&mut self, wtr: &mut dyn Write) -> io::Result<()> {
        match self {
            Out::Text { tiebreaks, .. } => text_legend(tiebreaks, wtr)?,
            Out::Html { tiebreaks, .. } => {
                html_legend(tiebreaks, wtr)?;
                writeln!(wtr, "</body>")?;
                writeln!(wtr, "</html>")?;
            }
            Out::Csv { .. } => {}
        }
        wtr.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_say_opponent_colour_and_result() {
        let e = |opponent, colour, halves, played| Entry { opponent, colour, halves, played };
        assert_eq!(cell(&[]), "-");
        assert_eq!(cell(&[e(Some(4), Colour::White, Some(2), true)]), "5w1");
        assert_eq!(cell(&[e(Some(0), Colour::Black, Some(1), true)]), "1b½");
        assert_eq!(cell(&[e(Some(2), Colour::Black, Some(0), false)]), "3b-");
        assert_eq!(cell(&[e(Some(2), Colour::White, None, true)]), "3w*");
        assert_eq!(cell(&[e(None, Colour::White, Some(2), false)]), "bye+");
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        let forfeit = [e(Some(2), Colour::Black, Some(0), false)];
        assert_eq!(csv_cell(&forfeit), ["3", "b", "0", "forfeit"].map(str::to_owned));
        let bye = [e(None, Colour::White, Some(2), false)];
        assert_eq!(csv_cell(&bye), ["", "w", "1", "bye"].map(str::to_owned));
        assert_eq!(csv_cell(&[]), ["", "", "", ""].map(str::to_owned));
    }

    #[test]
    fn points_are_written_as_the_cells_write_them() {
        let written: Vec<String> = [0, 2, 4, 10, 49].map(|q| vulgar(Points(q))).to_vec();
        assert_eq!(written, ["0", "½", "1", "2½", "12¼"]);
    }
}
