//! The tree for people and programs: its rows, and the text table, the CSV
//! and the JSON document made of them, or the partial file.
//!
//! Input: a [`Tree`] and the [`Outputs`] asked for. The rows are a tree
//! drawn over the positions: each position once, under the position one
//! ply nearer the root from which most games came to it, children by
//! games. Percentages, means and performances are derived here (as
//! `stats::tables` derives them); nothing is counted.

use std::{
    fs,
    io::{self, BufWriter, Write},
    path::PathBuf,
};

use anyhow::Context;
use serde::Serialize;
use shakmaty::Color;

use super::{Counts, Tree, fen, numbered, partial, turn};
use crate::{
    sink::atomic,
    stats::tables::{pct, rating_difference, white_score},
};

/// What to write, resolved from the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Write the rows as CSV: to standard output for `-`, else into this
    /// directory as `tree.csv`.
    pub csv: Option<PathBuf>,
    /// Write the rows as one JSON document on standard output.
    pub json: bool,
    /// Write the partial file here (`-`: standard output) for `arbiter
    /// merge`, instead of the rows.
    pub partial: Option<PathBuf>,
    /// Leave out positions of fewer games, and those shown under them.
    pub min_games: u64,
}

/// One position of the tree, as the CSV and JSON write it (the field names
/// are the columns, documented in docs/GUIDE.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Plies from the root (0: the root).
    pub depth: u32,
    /// The moves from the root to here, numbered (`1. d4 Nf6 2. c4`);
    /// empty for the root.
    pub path: String,
    /// The last of them, in SAN; empty for the root.
    #[serde(rename = "move")]
    pub san: String,
    /// The position: a FEN without move counters.
    pub fen: String,
    /// Games that stood in the position within the plies counted (once
    /// each).
    pub games: u64,
    /// Those games as % of the root's.
    pub share_pct: Option<f64>,
    /// Games won by White.
    pub white_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Games without one of those three results (`*`, or none).
    pub unscored: u64,
    /// White's score over the scored games, %.
    pub white_score_pct: Option<f64>,
    /// Draws, % of the scored games.
    pub draw_pct: Option<f64>,
    /// The mean rating of the players who have one.
    pub avg_rating: Option<f64>,
    /// Whose performance `performance` is: the side that played `move`
    /// (for the root, the side to move in it).
    pub side: &'static str,
    /// That side's scored games against a rated opponent.
    pub rated_games: u64,
    /// That side's performance rating over them: the mean opponent
    /// rating + 400 × log10(p / (1 − p)) for the score p, within ±800.
    pub performance: Option<f64>,
    /// The first year of the games' dates.
    pub first_year: Option<u32>,
    /// The last year.
    pub last_year: Option<u32>,
    /// How many moves from other positions of the tree lead here (more
    /// than 1: transpositions).
    pub routes: u64,
}

/// The CSV header: `Row`'s fields, in order.
pub const HEADER: [&str; 19] = [
    "depth",
    "path",
    "move",
    "fen",
    "games",
    "share_pct",
    "white_wins",
    "draws",
    "black_wins",
    "unscored",
    "white_score_pct",
    "draw_pct",
    "avg_rating",
    "side",
    "rated_games",
    "performance",
    "first_year",
    "last_year",
    "routes",
];

/// The root and its size, as the JSON document opens.
#[derive(Debug, Serialize)]
struct Summary {
    /// The root position.
    fen: String,
    /// The moves to it (`--moves`), numbered; null otherwise.
    moves: Option<String>,
    /// Plies counted after the root.
    depth: u32,
    /// Games that reached the root.
    games: u64,
    /// Positions in the tree.
    positions: usize,
    /// Of them, rows written (`--min-games`).
    rows: usize,
}

/// The JSON document.
#[derive(Debug, Serialize)]
struct Document<'a> {
    root: Summary,
    rows: &'a [Row],
}

/// Rounds to `decimals` places, as `stats` rounds.
fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// The row of a position, at `depth` after `path`.
fn row(counts: &Counts, root_games: u64, side: Color, routes: u64) -> Row {
    let results = &counts.results;
    let rated = counts.of(side);
    let performance = (rated.games > 0).then(|| {
        let average = rated.opponent_rating_sum as f64 / rated.games as f64;
        let score = rated.points_x2 as f64 / 2.0 / rated.games as f64;
        round(average + rating_difference(score), 1)
    });
    Row {
        depth: 0,
        path: String::new(),
        san: String::new(),
        fen: String::new(),
        games: results.games,
        share_pct: pct(results.games, root_games),
        white_wins: results.white_wins,
        draws: results.draws,
        black_wins: results.black_wins,
        unscored: results.games - results.decided(),
        white_score_pct: white_score(results),
        draw_pct: pct(results.draws, results.decided()),
        avg_rating: (counts.rated > 0)
            .then(|| round(counts.rating_sum as f64 / counts.rated as f64, 1)),
        side: match side {
            Color::White => "white",
            Color::Black => "black",
        },
        rated_games: rated.games,
        performance,
        first_year: counts.years.map(|(first, _)| first),
        last_year: counts.years.map(|(_, last)| last),
        routes,
    }
}

/// The rows of `tree`, root first, then depth first: each position once,
/// under the position one ply nearer the root from which the most games
/// came to it (ties: the one of more games, then by FEN); children by
/// games, then SAN. A position of fewer than `min_games` games is left out
/// with those under it; the root is always there (when a game reached
/// it).
pub fn rows(tree: &Tree, min_games: u64) -> Vec<Row> {
    let spec = tree.spec();
    let Some(root) = tree.find(&spec.root.position) else { return Vec::new() };
    let nodes = tree.nodes();
    let games = |i: u32| nodes[i as usize].counts.results.games;
    // The moves sorted by where they start, and by where they end: a
    // position's are a run of each (a few bytes a move, as the tree may
    // hold millions).
    let mut from_to: Vec<(u32, u32)> = tree.edges().keys().copied().collect();
    from_to.sort_unstable();
    let mut to_from: Vec<(u32, u32, u64)> =
        tree.edges().iter().map(|(&(from, to), edge)| (to, from, edge.games)).collect();
    to_from.sort_unstable();
    let out = |i: u32| {
        let first = from_to.partition_point(|&(from, _)| from < i);
        from_to[first..].iter().take_while(move |&&(from, _)| from == i).map(|&(_, to)| to)
    };
    let into = |i: u32| {
        let first = to_from.partition_point(|&(to, ..)| to < i);
        to_from[first..].iter().take_while(move |&&(to, ..)| to == i).map(|&(_, from, g)| (from, g))
    };
    // Breadth first from the root: a position's level is its fewest plies
    // from the root along moves games played.
    let mut level = vec![u32::MAX; nodes.len()];
    let mut parent: Vec<(u32, u32)> = Vec::new();
    level[root as usize] = 0;
    let mut current = vec![root];
    let mut depth = 0;
    while !current.is_empty() {
        let mut next: Vec<u32> = current
            .iter()
            .flat_map(|&from| out(from))
            .filter(|&to| level[to as usize] == u32::MAX)
            .collect();
        next.sort_unstable();
        next.dedup();
        for &to in &next {
            level[to as usize] = depth + 1;
        }
        for &to in &next {
            let best =
                into(to).filter(|&(from, _)| level[from as usize] == depth).max_by(|a, b| {
                    (a.1, games(a.0)).cmp(&(b.1, games(b.0))).then_with(|| {
                        fen(&nodes[b.0 as usize].position).cmp(&fen(&nodes[a.0 as usize].position))
                    })
                });
            if let Some((from, _)) = best {
                parent.push((from, to));
            }
        }
        current = next;
        depth += 1;
    }
    drop(level);
    let san = |from: u32, to: u32| tree.edges()[&(from, to)].san.to_string();
    // Children by parent, then by games and SAN.
    parent.sort_by(|&(p, a), &(q, b)| {
        p.cmp(&q).then_with(|| games(b).cmp(&games(a))).then_with(|| san(p, a).cmp(&san(q, b)))
    });
    let children = |i: u32| {
        let first = parent.partition_point(|&(from, _)| from < i);
        parent[first..].iter().take_while(move |&&(from, _)| from == i).map(|&(_, to)| to)
    };
    let root_games = games(root);
    let root_turn = turn(&spec.root.position);
    let routes = |i: u32| into(i).count() as u64;
    let mut rows = vec![Row {
        fen: fen(&spec.root.position),
        ..row(&nodes[root as usize].counts, root_games, root_turn, routes(root))
    }];
    // Depth first, each with the moves from the root.
    let mut stack: Vec<(u32, u32, Vec<String>)> =
        children(root).map(|c| (root, c, Vec::new())).collect();
    stack.reverse();
    while let Some((from, i, mut path)) = stack.pop() {
        if games(i) < min_games {
            continue;
        }
        path.push(san(from, i));
        let node = &nodes[i as usize];
        rows.push(Row {
            depth: path.len() as u32,
            path: numbered(path.iter().cloned(), root_turn, spec.root.fullmoves),
            san: path.last().cloned().unwrap_or_default(),
            fen: fen(&node.position),
            ..row(&node.counts, root_games, !turn(&node.position), routes(i))
        });
        let first = stack.len();
        stack.extend(children(i).map(|child| (i, child, path.clone())));
        stack[first..].reverse();
    }
    rows
}

/// Writes what `outputs` asks for: the partial, else the CSV and/or the
/// JSON document, else the text table; `stdout` takes what goes to
/// standard output.
pub fn write(tree: &Tree, outputs: &Outputs, stdout: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(path) = &outputs.partial {
        if path.as_os_str() == "-" {
            partial::write(stdout, tree).context("writing the partial to standard output")?;
        } else {
            atomic::write(path, |wtr| partial::write(wtr, tree))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        return Ok(());
    }
    let rows = rows(tree, outputs.min_games);
    match &outputs.csv {
        Some(path) if path.as_os_str() == "-" => {
            write_csv(&rows, stdout).context("writing CSV to standard output")?;
        }
        Some(dir) => {
            let path = dir.join("tree.csv");
            fs::create_dir_all(dir).with_context(|| format!("writing {}", dir.display()))?;
            atomic::write(&path, |wtr| write_csv(&rows, wtr))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        None => {}
    }
    if outputs.json {
        write_json(tree, &rows, stdout).context("writing JSON to standard output")?;
    } else if outputs.csv.is_none() {
        write_text(tree, &rows, outputs.min_games, stdout)
            .context("writing the tree to standard output")?;
    }
    Ok(())
}

/// The rows as CSV, with a header (also when there is no row).
fn write_csv(rows: &[Row], wtr: &mut dyn Write) -> io::Result<()> {
    let mut wtr = csv::WriterBuilder::new().has_headers(false).from_writer(wtr);
    wtr.write_record(HEADER)?;
    for row in rows {
        wtr.serialize(row)?;
    }
    wtr.flush()
}

fn summary(tree: &Tree, rows: &[Row]) -> Summary {
    let root = &tree.spec().root;
    Summary {
        fen: fen(&root.position),
        moves: (!root.moves.is_empty()).then(|| root.moves_text()),
        depth: tree.spec().depth,
        games: rows.first().map_or(0, |row| row.games),
        positions: tree.nodes().len(),
        rows: rows.len(),
    }
}

/// The root and the rows as one pretty-printed JSON document.
fn write_json(tree: &Tree, rows: &[Row], wtr: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *wtr, &Document { root: summary(tree, rows), rows })?;
    writeln!(wtr)?;
    wtr.flush()
}

/// A percentage or figure with one decimal, or `-`.
fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
}

/// The table for people: a headline, then a line a position, indented by
/// depth, the move numbered (`2. c4`, `2... e6`).
fn write_text(tree: &Tree, rows: &[Row], min_games: u64, wtr: &mut dyn Write) -> io::Result<()> {
    let mut wtr = BufWriter::new(wtr);
    let s = summary(tree, rows);
    let root = &tree.spec().root;
    let shown = match min_games {
        0 | 1 => String::new(),
        k => format!(", {} shown (--min-games {k})", s.rows),
    };
    writeln!(
        wtr,
        "Tree of {} ({}), depth {}: {} games, {} positions{shown}",
        root.label(),
        s.fen,
        s.depth,
        s.games,
        s.positions,
    )?;
    if rows.is_empty() {
        writeln!(wtr, "no game reached the root")?;
        return wtr.flush();
    }
    let header = [
        "move", "games", "share", "1-0", "1/2", "0-1", "White %", "draw %", "rating", "perf",
        "years",
    ];
    let root_turn = turn(&root.position);
    let cells = |row: &Row| -> [String; 11] {
        let label = match row.depth {
            0 => root.label(),
            depth => {
                let ply = depth - 1;
                let black_first = root_turn == Color::Black;
                let number = root.fullmoves + (ply + u32::from(black_first)) / 2;
                let white = (ply % 2 == 0) != black_first;
                let dots = if white { "." } else { "..." };
                format!("{}{number}{dots} {}", "  ".repeat(ply as usize), row.san)
            }
        };
        let years = match (row.first_year, row.last_year) {
            (Some(first), Some(last)) if first == last => first.to_string(),
            (Some(first), Some(last)) => format!("{first}-{last}"),
            _ => "-".to_owned(),
        };
        [
            label,
            row.games.to_string(),
            figure(row.share_pct),
            row.white_wins.to_string(),
            row.draws.to_string(),
            row.black_wins.to_string(),
            figure(row.white_score_pct),
            figure(row.draw_pct),
            row.avg_rating.map_or_else(|| "-".to_owned(), |r| format!("{r:.0}")),
            row.performance.map_or_else(|| "-".to_owned(), |p| format!("{p:.0}")),
            years,
        ]
    };
    // Two passes, the cells made again in the second rather than kept: a
    // tree may have millions of rows.
    let mut widths = header.map(str::len);
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(cells(row)) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let header = header.map(str::to_owned);
    for line in std::iter::once(header).chain(rows.iter().map(cells)) {
        let mut text = String::new();
        for (i, (cell, &width)) in line.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(width - cell.chars().count());
            if i > 0 {
                text.push_str("  ");
            }
            // The move left, the figures right.
            if i == 0 {
                text.push_str(cell);
                text.push_str(&pad);
            } else {
                text.push_str(&pad);
                text.push_str(cell);
            }
        }
        writeln!(wtr, "{}", text.trim_end())?;
    }
    wtr.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Rated;

    #[test]
    fn header_is_the_row_fields() {
        let row = row(&Counts::default(), 0, Color::White, 0);
        let value = serde_json::to_value(&row).unwrap();
        let names: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
        let mut header = HEADER.to_vec();
        header.sort_unstable();
        let mut names = names;
        names.sort_unstable();
        assert_eq!(names, header);
    }

    #[test]
    fn performance_is_the_stats_formula() {
        let counts = Counts {
            white: Rated { games: 4, points_x2: 6, opponent_rating_sum: 4 * 2400 },
            ..Counts::default()
        };
        // 75%: 400 × log10(3) = 190.8 above the opponents' 2400.
        assert_eq!(row(&counts, 4, Color::White, 1).performance, Some(2590.8));
        assert_eq!(row(&counts, 4, Color::Black, 1).performance, None);
    }
}
