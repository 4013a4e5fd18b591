//! `arbiter crosstable`: standings and a crosstable from the results, one
//! per event.
//!
//! Input: the games of each event as [`Events`] keeps them (names,
//! ratings, rounds, results), each event within its [`Limits`] or refused;
//! output: a [`Crosstable`] in rank order per event within them, built
//! one at a time by [`write()`], which `render` writes as terminal tables,
//! CSV or HTML. Players are told apart by their name as written (run
//! `arbiter check` first: it reports spelling variants).
//!
//! How games count (the rules the tie-breaks below rely on):
//! - A **played** game has at least one move and a result `1-0`, `0-1` or
//!   `1/2-1/2`: 1, ½ or 0 points, and the opponent counts in tie-breaks.
//! - A **forfeit** is a game without moves and with a result: its points
//!   count in the score (as the arbiter scored it), but it is an unplayed
//!   round for tie-breaks. A game against a player named `BYE` is a bye:
//!   the same, and `BYE` is not listed.
//! - An **unfinished** game (`*`, or no result) gives no points and is an
//!   unplayed round for both players; so is a round of the input in which
//!   a player has no game (PGN does not record byes: their points are not
//!   known).

mod events;
mod render;
mod tiebreak;

use std::{
    collections::HashMap,
    io::{self, Write},
};

use super::EventFormat;
use crate::record::printable;

pub use events::{EventGames, Events, Limits, MAX_PLAYERS, MAX_ROUNDS};
pub use render::render_text;
pub use tiebreak::{Points, Tiebreak};

/// A player's colour in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// One game from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The opponent (index into [`Crosstable::players`]), `None` for a bye.
    pub opponent: Option<usize>,
    /// The player's colour.
    pub colour: Colour,
    /// The player's points in half-points (2, 1, 0); `None` for `*`.
    pub halves: Option<u32>,
    /// Whether it was played over the board (it has moves).
    pub played: bool,
}

impl Entry {
    /// Whether it counts as a played game in tie-breaks.
    pub fn counts_as_played(&self) -> bool {
        self.played && self.opponent.is_some() && self.halves.is_some()
    }
}

/// The round a game is shown under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Column {
    /// Round `n` of the Round tag.
    Round(u32),
    /// Games without a round number.
    Unknown,
}

/// One row of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// The name as written in the games.
    pub name: String,
    /// The first numeric `WhiteElo`/`BlackElo` given for the player.
    pub rating: Option<u32>,
    /// Points: wins, draws and losses, played or forfeited.
    pub score: Points,
    /// Games played over the board (forfeits, byes and `*` excluded).
    pub played: usize,
    /// Per column, the player's games in it (usually one).
    pub cells: Vec<Vec<Entry>>,
    /// The tie-break values, in the order of [`Crosstable::tiebreaks`];
    /// `None` for direct encounter where it does not apply.
    pub tiebreaks: Vec<Option<Points>>,
    /// The rank: players still tied after every tie-break share it.
    pub rank: usize,
}

/// The event's format: given (`--event-format`, arbiter.toml), or
/// detected from whether the players all met each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Every pair of players has a game: a round robin.
    RoundRobin,
    /// A double round robin (only when given).
    DoubleRoundRobin,
    /// Anything else.
    Swiss,
    /// A match between two players (only when given): no tie-breaks.
    Match,
}

/// Standings with their crosstable.
#[derive(Debug, Clone, PartialEq)]
pub struct Crosstable {
    /// The event's name (its Event tag, trimmed).
    pub event: Option<String>,
    /// The first Site tag stated.
    pub site: Option<String>,
    /// The first and last game's dates (`2024.05.11`), from the games
    /// whose Date tag has a year.
    pub dates: Option<(String, String)>,
    /// As given, else round robin or Swiss as detected.
    pub format: Format,
    /// The columns: the rounds that have games, in order, then games
    /// without a round number.
    pub columns: Vec<Column>,
    /// The tie-breaks, in ranking order.
    pub tiebreaks: Vec<Tiebreak>,
    /// The players in rank order; `Entry::opponent` indexes this list.
    pub players: Vec<Player>,
}

/// Builds the crosstable of `event` (one within its limits: the table has
/// a cell per player and column) in the format `given`, else as detected;
/// `tiebreaks` empty means the default for the format (see
/// [`Tiebreak::defaults`]).
pub fn build(event: &EventGames, tiebreaks: &[Tiebreak], given: Option<EventFormat>) -> Crosstable {
    let columns = event.columns();
    let column_of: HashMap<u32, usize> = columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Column::Round(round) => Some((*round, i)),
            Column::Unknown => None,
        })
        .collect();
    let mut players: Vec<Player> = event
        .players
        .iter()
        .map(|p| Player {
            name: p.name.to_string(),
            rating: p.rating,
            score: Points::default(),
            played: 0,
            cells: vec![Vec::new(); columns.len()],
            tiebreaks: Vec::new(),
            rank: 0,
        })
        .collect();
    for game in &event.pairings {
        // A game without a round goes to the last column, `Unknown`.
        let column = game
            .round
            .and_then(|round| column_of.get(&round).copied())
            .unwrap_or(columns.len().saturating_sub(1));
        let ids = game.sides.map(|id| id.map(|id| id as usize));
        for side in 0..2 {
            let Some(id) = ids[side] else { continue };
            let halves = game.white_halves.map(u32::from);
            let entry = Entry {
                opponent: ids[1 - side],
                colour: if side == 0 { Colour::White } else { Colour::Black },
                halves: halves.map(|h| if side == 0 { h } else { 2 - h }),
                played: game.played,
            };
            players[id].cells[column].push(entry);
        }
    }
    let format = event.format(given);
    let tiebreaks =
        if tiebreaks.is_empty() { Tiebreak::defaults(format).to_vec() } else { tiebreaks.to_vec() };
    tiebreak::rank(&mut players, event.rounds.len(), &tiebreaks);
    Crosstable {
        event: event.name.clone(),
        site: event.site.clone(),
        dates: event.dates.map(|(first, last)| (first.to_string(), last.to_string())),
        format,
        columns,
        tiebreaks,
        players,
    }
}

/// How `crosstable` writes its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Aligned terminal tables, each under its title line.
    Text,
    /// One CSV table: an `Event` column, then every event's columns.
    Csv,
    /// One HTML page, a table per event, each with its title as caption.
    Html,
}

/// Writes the crosstable of each event within the limits to `wtr`, in
/// input order, building one at a time; an event over the limits is
/// skipped with an error on `messages`, at its place in the order, and so
/// are the games an event's table leaves out. Writes nothing to `wtr` when
/// no event is within the limits. Returns the number of errors written
/// (events refused, events with games left out). `given` is the format of
/// every event, when known.
pub fn write(
    events: &Events,
    tiebreaks: &[Tiebreak],
    given: Option<EventFormat>,
    style: Style,
    wtr: &mut dyn Write,
    messages: &mut dyn Write,
) -> io::Result<usize> {
    let limits = events.limits;
    let within: Vec<&EventGames> = events.events.iter().filter(|e| e.within(limits)).collect();
    let chosen = |e: &EventGames| {
        if tiebreaks.is_empty() {
            Tiebreak::defaults(e.format(given)).to_vec()
        } else {
            tiebreaks.to_vec()
        }
    };
    // The CSV header and the page's title come before the first table.
    let mut out = match style {
        Style::Text => render::Out::text(within.iter().map(|e| chosen(e))),
        Style::Csv => render::Out::csv(within.iter().map(|e| (e.columns(), chosen(e)))),
        Style::Html => render::Out::html(within.len(), within.iter().map(|e| chosen(e))),
    };
    let mut refused = 0;
    for event in &events.events {
        if let Some(message) = event.refusal(limits) {
            // What is written so far goes before the message.
            wtr.flush()?;
            writeln!(messages, "arbiter: error: {}", printable(&message))?;
            refused += 1;
        } else {
            if let Some(message) = event.left_out_message() {
                wtr.flush()?;
                writeln!(messages, "arbiter: error: {}", printable(&message))?;
                refused += 1;
            }
            out.table(&build(event, tiebreaks, given), wtr)?;
        }
    }
    if !within.is_empty() {
        out.finish(wtr)?;
    }
    Ok(refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::crosstable::events::tests::collect;

    #[test]
    fn round_numbers_are_labels_not_sizes() {
        let game = |round: &str, white: &str, black: &str| {
            format!(
                "[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
                 [Result \"1-0\"]\n\n1. e4 1-0\n\n"
            )
        };
        let pgn = game("4000000000", "A", "B") + &game("0", "B", "A") + &game("?", "A", "B");
        let table = build(&collect(&pgn, Limits::DEFAULT)[0], &[], None);
        assert_eq!(
            table.columns,
            [Column::Round(0), Column::Round(4_000_000_000), Column::Unknown]
        );
        assert_eq!(table.format, Format::RoundRobin);
        let a = &table.players[0];
        assert_eq!((a.name.as_str(), a.score, a.played), ("A", Points::halves(4), 3));
    }
}
