//! The groups for people (a table per group) or as JSON Lines (an object
//! per group), and the run's summary.

use std::io::{self, Write};

use serde::Serialize;

use crate::record::printable;

use super::{
    groups::{Groups, Kind, Member},
    index::{Index, LeftOut},
};

/// Which game of each group `--unique` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The first in input order.
    First,
    /// The main game: the longest, the first of them.
    Longest,
}

/// The game of `group` (a range of `groups.members`) that `keep` keeps.
pub fn kept(groups: &Groups, group: &std::ops::Range<usize>, keep: Keep) -> usize {
    match keep {
        Keep::First => group.start,
        Keep::Longest => {
            group.clone().find(|&i| groups.members[i].kind == Kind::Main).unwrap_or(group.start)
        }
    }
}

/// The ordinals of the games `--unique` leaves out, in increasing order.
pub fn dropped(groups: &Groups, keep: Keep) -> Vec<u32> {
    let mut dropped: Vec<u32> = groups
        .groups
        .iter()
        .flat_map(|group| {
            let kept = kept(groups, group, keep);
            group.clone().filter(move |&i| i != kept).map(|i| groups.members[i].ordinal)
        })
        .collect();
    dropped.sort_unstable();
    dropped
}

/// A game of a group, as JSON Lines show it.
#[derive(Serialize)]
struct Game<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    plies: u32,
    white: &'a str,
    black: &'a str,
    kind: &'static str,
    kept: bool,
}

/// A group, as one JSON object.
#[derive(Serialize)]
struct Group<'a> {
    group: usize,
    games: Vec<Game<'a>>,
}

fn game<'a>(index: &'a Index, member: &Member, kept: bool) -> Game<'a> {
    let (file, game) = index.place(member.ordinal);
    Game {
        file,
        game,
        line: member.line,
        plies: member.plies,
        white: index.names.get(member.white),
        black: index.names.get(member.black),
        kind: member.kind.name(),
        kept,
    }
}

/// Writes each group as one JSON object on a line.
pub fn jsonl(index: &Index, groups: &Groups, keep: Keep, wtr: &mut dyn Write) -> io::Result<()> {
    for (number, range) in groups.groups.iter().enumerate() {
        let kept = kept(groups, range, keep);
        let games = range.clone().map(|i| game(index, &groups.members[i], i == kept)).collect();
        serde_json::to_writer(&mut *wtr, &Group { group: number + 1, games })?;
        wtr.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes each group as a small table: kind, file:line, game number,
/// plies, players, and which game `--unique` keeps.
pub fn text(index: &Index, groups: &Groups, keep: Keep, wtr: &mut dyn Write) -> io::Result<()> {
    let mut rows: Vec<(Game<'_>, String)> = Vec::new();
    for (number, range) in groups.groups.iter().enumerate() {
        let kept = kept(groups, range, keep);
        rows.clear();
        rows.extend(range.clone().map(|i| {
            let g = game(index, &groups.members[i], i == kept);
            let place = format!("{}:{}", printable(g.file), g.line);
            (g, place)
        }));
        let width =
            |f: &dyn Fn(&(Game<'_>, String)) -> usize| rows.iter().map(f).max().unwrap_or(0);
        let kind = width(&|(g, _)| g.kind.len());
        let place = width(&|(_, p)| p.chars().count());
        let game = width(&|(g, _)| digits(g.game));
        let plies = width(&|(g, _)| digits(g.plies.into()));
        writeln!(wtr, "group {}: {} games", number + 1, rows.len())?;
        for (g, p) in &rows {
            let pad = place - p.chars().count() + 2;
            writeln!(
                wtr,
                "  {:kind$}  {p}{:pad$}game {:<game$}  {:>plies$} plies  {} - {}{}",
                g.kind,
                "",
                g.game,
                g.plies,
                printable(g.white),
                printable(g.black),
                if g.kept { "   (kept)" } else { "" },
            )?;
        }
        writeln!(wtr)?;
    }
    Ok(())
}

/// How many digits `n` has.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Counts for the summary.
#[derive(Debug, Default, Clone, Copy)]
pub struct Totals {
    /// Games read.
    pub games: u64,
    /// Inputs.
    pub files: u64,
    /// Groups of duplicates.
    pub groups: u64,
    /// Games in groups other than their main game, by kind.
    pub exact: u64,
    /// Same moves, other names.
    pub same_moves: u64,
    /// Embedded in a longer game.
    pub embedded: u64,
    /// Games not compared.
    pub left_out: LeftOut,
}

impl Totals {
    /// The counts of `groups` among `games` games in `files` inputs.
    pub fn of(groups: &Groups, games: u64, files: u64, left_out: LeftOut) -> Totals {
        let count = |kind| groups.members.iter().filter(|m| m.kind == kind).count() as u64;
        Totals {
            games,
            files,
            groups: groups.groups.len() as u64,
            exact: count(Kind::Exact),
            same_moves: count(Kind::SameMoves),
            embedded: count(Kind::Embedded),
            left_out,
        }
    }
}

use crate::sink::plural;

/// Writes the summary: games, groups and duplicates by kind, games not
/// compared, and what `--unique` wrote.
pub fn summary(
    totals: &Totals,
    min_plies: u32,
    written: Option<(&str, u64)>,
    wtr: &mut dyn Write,
) -> io::Result<()> {
    let duplicates = totals.exact + totals.same_moves + totals.embedded;
    writeln!(
        wtr,
        "{} in {}: {} in {} ({} exact, {} same moves, {} embedded)",
        plural(totals.games, "game"),
        plural(totals.files, "file"),
        plural(duplicates, "duplicate"),
        plural(totals.groups, "group"),
        totals.exact,
        totals.same_moves,
        totals.embedded,
    )?;
    let LeftOut { not_selected, errors, short } = totals.left_out;
    if not_selected + errors + short > 0 {
        // Not selected is said only when predicates were given.
        let selection =
            if not_selected > 0 { format!("{not_selected} not selected, ") } else { String::new() };
        writeln!(
            wtr,
            "{} not compared: {selection}{errors} not replayed to the end (an error), {short} shorter than {min_plies} {}",
            plural(not_selected + errors + short, "game"),
            if min_plies == 1 { "ply" } else { "plies" },
        )?;
    }
    if let Some((file, written)) = written {
        let removed = totals.games - written;
        writeln!(wtr, "wrote {} to {file}, {removed} removed", plural(written, "game"))?;
    }
    Ok(())
}
