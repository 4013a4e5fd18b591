//! Writing a [`Crosstable`]: an aligned terminal table, CSV, or a
//! self-contained HTML page (inline style, no script) a website can embed.
//!
//! A round's cell is the opponent's number in the table, the colour and
//! the result: `5w1`, `3b½`, `7w0`; `+`, `=`, `-` for a forfeit (or bye)
//! won, drawn or lost; `*` for an unfinished game; `bye+` for a bye; `-`
//! alone when the player has no game in the round.

use std::io::{self, Write};

use unicode_width::UnicodeWidthStr;

use super::{Colour, Column, Crosstable, Entry, Format};

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

/// The header and the rows as strings: No, Rk, Name, Rtg, Pts, Gms, the
/// rounds, the tie-breaks.
fn table(ct: &Crosstable) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header: Vec<String> =
        ["No", "Rk", "Name", "Rtg", "Pts", "Gms"].iter().map(|s| (*s).to_owned()).collect();
    header.extend(ct.columns.iter().map(|c| match c {
        Column::Round(n) => n.to_string(),
        Column::Unknown => "?".to_owned(),
    }));
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

/// Writes CSV: a header row, then one row per player in rank order.
pub fn render_csv(ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
    let (header, rows) = table(ct);
    let mut csv = csv::Writer::from_writer(wtr);
    csv.write_record(&header)?;
    for row in &rows {
        csv.write_record(row)?;
    }
    csv.flush()
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

/// Writes a self-contained HTML page holding the crosstable.
pub fn render_html(ct: &Crosstable, wtr: &mut dyn Write) -> io::Result<()> {
    let (header, rows) = table(ct);
    let title = escape(&title(ct));
    writeln!(wtr, "<!DOCTYPE html>")?;
    writeln!(wtr, "<html lang=\"en\">")?;
    writeln!(wtr, "<head>")?;
    writeln!(wtr, "<meta charset=\"utf-8\">")?;
    writeln!(wtr, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(wtr, "<title>{title}</title>")?;
    writeln!(wtr, "<style>\n{STYLE}\n</style>")?;
    writeln!(wtr, "</head>")?;
    writeln!(wtr, "<body>")?;
    writeln!(wtr, "<table class=\"arbiter-crosstable\">")?;
    writeln!(wtr, "<caption>{title}</caption>")?;
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
    writeln!(wtr, "</table>")?;
    writeln!(wtr, "</body>")?;
    writeln!(wtr, "</html>")?;
    wtr.flush()
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
