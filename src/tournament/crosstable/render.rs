//! Writing crosstables, one per event: aligned terminal tables, one CSV
//! table (the event in the first column), or one self-contained HTML page
//! (inline style, no script) a website can embed, a table per event.
//!
//! A round's cell is the opponent's number in the table, the colour and
//! the result: `5w1`, `3b½`, `7w0`; `+`, `=`, `-` for a forfeit (or bye)
//! won, drawn or lost; `*` for an unfinished game; `bye+` for a bye; `-`
//! alone when the player has no game in the round.

use std::{
    collections::{BTreeSet, HashMap},
    io::{self, Write},
};

use unicode_width::UnicodeWidthStr;

use super::{Colour, Column, Crosstable, Entry, Format, Tiebreak};

/// The text of one cell.
fn cell(entries: &[Entry]) -> String {
    if entries.is_empty() {
        return "-".to_owned();
    }
    let one = |e: &Entry| {
        let result = match (e.halves, e.counts_as_played()) {
            (None, _) => "*",
            (Some(2), true) => "1",
            (Some(1), true) => "½",
            (Some(_), true) => "0",
            (Some(2), false) => "+",
            (Some(1), false) => "=",
            (Some(_), false) => "-",
        };
        match e.opponent {
            Some(o) => {
                let colour = if e.colour == Colour::White { "w" } else { "b" };
                format!("{}{colour}{result}", o + 1)
            }
            None => format!("bye{result}"),
        }
    };
    entries.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// The columns before the rounds.
const FIXED: [&str; 6] = ["No", "Rk", "Name", "Rtg", "Pts", "Gms"];

/// A round's column heading: its number, `?` for games without one.
fn label(column: &Column) -> String {
    match column {
        Column::Round(n) => n.to_string(),
        Column::Unknown => "?".to_owned(),
    }
}

/// The header and the rows as strings: No, Rk, Name, Rtg, Pts, Gms, the
/// rounds, the tie-breaks.
fn table(ct: &Crosstable) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header: Vec<String> = FIXED.iter().map(|s| (*s).to_owned()).collect();
    header.extend(ct.columns.iter().map(label));
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
                p.score.to_string(),
                p.played.to_string(),
            ];
            row.extend(p.cells.iter().map(|entries| cell(entries)));
            row.extend(p.tiebreaks.iter().map(|v| v.map(|v| v.to_string()).unwrap_or_default()));
            row
        })
        .collect();
    (header, rows)
}

/// A title line: the event, its format, players and rounds.
fn title(ct: &Crosstable) -> String {
    let format = match ct.format {
        Format::RoundRobin => "round robin",
        Format::Swiss => "Swiss",
    };
    let rounds = ct.columns.iter().filter(|c| matches!(c, Column::Round(_))).count();
    format!(
        "{} ({format}, {} players, {} rounds)",
        ct.event.as_deref().unwrap_or("Crosstable"),
        ct.players.len(),
        rounds
    )
}

/// Writes an aligned table for the terminal.
pub fn render_text(ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
    let (header, rows) = table(ct);
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (w, text) in widths.iter_mut().zip(row) {
            *w = (*w).max(text.width());
        }
    }
    writeln!(wtr, "{}", title(ct))?;
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
.arbiter-crosstable tbody tr:nth-child(even){background:#fafafa}";

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
    let (header, rows) = table(ct);
    writeln!(wtr, "<table class=\"arbiter-crosstable\">")?;
    writeln!(wtr, "<caption>{}</caption>", escape(&title(ct)))?;
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

/// Writes crosstables one after another in one style, with what comes
/// before the first (the CSV header, the page's head) and after the last
/// (the page's end): a table is built, written and dropped before the
/// next is built.
#[derive(Debug)]
pub(super) enum Out {
    /// Terminal tables, a blank line between two.
    Text {
        /// Whether no table is written yet.
        first: bool,
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
    /// One page, a table per event.
    Html {
        /// The tables it will hold (the title depends on it).
        tables: usize,
        /// Whether no table is written yet.
        first: bool,
    },
}

impl Out {
    /// A CSV table for tables of the given columns and tie-breaks: `Event`,
    /// `No`, `Rk`, `Name`, `Rtg`, `Pts`, `Gms`, every round of any of them
    /// in order (`?` last), then every tie-break, first seen first. A
    /// table's row leaves the columns it does not have empty.
    pub fn csv(shapes: impl Iterator<Item = (Vec<Column>, Vec<Tiebreak>)>) -> Out {
        let mut columns: BTreeSet<Column> = BTreeSet::new();
        let mut tiebreaks: Vec<Tiebreak> = Vec::new();
        for (c, t) in shapes {
            columns.extend(c);
            for tiebreak in t {
                if !tiebreaks.contains(&tiebreak) {
                    tiebreaks.push(tiebreak);
                }
            }
        }
        let header: Vec<String> = std::iter::once("Event")
            .chain(FIXED)
            .map(str::to_owned)
            .chain(columns.iter().map(label))
            .chain(tiebreaks.iter().map(|t| t.label().to_owned()))
            .collect();
        let at = header.iter().enumerate().map(|(i, h)| (h.clone(), i)).collect();
        Out::Csv { header, at, first: true }
    }

    /// Writes one table.
    pub fn table(&mut self, ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
        match self {
            Out::Text { first } => {
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
                let (labels, rows) = table(ct);
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
            Out::Html { tables, first } => {
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
        if let Out::Html { .. } = self {
            writeln!(wtr, "</body>")?;
            writeln!(wtr, "</html>")?;
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
    }
}
