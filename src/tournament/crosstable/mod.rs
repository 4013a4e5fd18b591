//! `arbiter crosstable`: standings and a crosstable from the results.
//!
//! Input: `Game`s with tags (names, ratings, rounds, results);
//! output: a [`Crosstable`] in rank order, which `render` writes as a
//! terminal table, CSV or HTML. Players are told apart by their name as
//! written (run `arbiter check` first: it reports spelling variants).
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

mod render;
mod tiebreak;

use std::collections::{BTreeSet, HashMap};

pub use render::{render_csv, render_html, render_text};
pub use tiebreak::{Points, Tiebreak};

use crate::{pgn::values::GameResult, tournament::Game, tournament::event};

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

/// Whether the players all met each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Every pair of players has a game: a round robin.
    RoundRobin,
    /// Anything else.
    Swiss,
}

/// Standings with their crosstable.
#[derive(Debug, Clone, PartialEq)]
pub struct Crosstable {
    /// The Event tag of the first game.
    pub event: Option<String>,
    /// Round robin or Swiss, as detected.
    pub format: Format,
    /// The columns: the rounds that have games, in order, then games
    /// without a round number.
    pub columns: Vec<Column>,
    /// The tie-breaks, in ranking order.
    pub tiebreaks: Vec<Tiebreak>,
    /// The players in rank order; `Entry::opponent` indexes this list.
    pub players: Vec<Player>,
}

/// Builds the crosstable of `records`; `tiebreaks` empty means the
/// default for the detected format (see [`Tiebreak::defaults`]).
pub fn build(records: &[Game], tiebreaks: &[Tiebreak]) -> Crosstable {
    let mut players: Vec<Player> = Vec::new();
    let mut number: HashMap<&str, usize> = HashMap::new();
    // The rounds that have games (a Round tag's number is data: it is not
    // trusted to size anything), then the games without a round.
    let rounds: BTreeSet<u32> =
        records.iter().filter_map(|r| event::slot(r).map(|s| s.round)).collect();
    let column_of: HashMap<u32, usize> = rounds.iter().enumerate().map(|(i, &r)| (r, i)).collect();
    let mut columns: Vec<Column> = rounds.iter().copied().map(Column::Round).collect();
    if records.iter().any(|r| event::slot(r).is_none()) {
        columns.push(Column::Unknown);
    }
    let mut met: BTreeSet<(usize, usize)> = BTreeSet::new();
    for r in records {
        // A game without a round goes to the last column, `Unknown`.
        let column = event::slot(r)
            .and_then(|slot| column_of.get(&slot.round).copied())
            .unwrap_or(columns.len().saturating_sub(1));
        let halves = GameResult::of_record(r).and_then(GameResult::white_halves);
        let mut ids = [None, None];
        for (side, (name, elo)) in
            [(&r.white, "WhiteElo"), (&r.black, "BlackElo")].into_iter().enumerate()
        {
            let name = event::player(name.as_deref()).unwrap_or("?");
            if event::is_bye(name) {
                continue;
            }
            let id = *number.entry(name).or_insert_with(|| {
                players.push(Player {
                    name: name.to_owned(),
                    rating: None,
                    score: Points::default(),
                    played: 0,
                    cells: vec![Vec::new(); columns.len()],
                    tiebreaks: Vec::new(),
                    rank: 0,
                });
                players.len() - 1
            });
            let player = &mut players[id];
            player.rating = player.rating.or_else(|| event::tag(r, elo)?.parse().ok());
            ids[side] = Some(id);
        }
        for side in 0..2 {
            let Some(id) = ids[side] else { continue };
            let entry = Entry {
                opponent: ids[1 - side],
                colour: if side == 0 { Colour::White } else { Colour::Black },
                halves: halves.map(|h| if side == 0 { h } else { 2 - h }),
                played: r.plies > 0,
            };
            players[id].cells[column].push(entry);
        }
        if let [Some(a), Some(b)] = ids {
            met.insert((a.min(b), a.max(b)));
        }
    }
    let n = players.len();
    let format = if n >= 2 && met.iter().filter(|(a, b)| a != b).count() == n * (n - 1) / 2 {
        Format::RoundRobin
    } else {
        Format::Swiss
    };
    let tiebreaks =
        if tiebreaks.is_empty() { Tiebreak::defaults(format).to_vec() } else { tiebreaks.to_vec() };
    tiebreak::rank(&mut players, rounds.len(), &tiebreaks);
    let event = records.first().and_then(|r| r.event.as_deref().map(str::to_owned));
    Crosstable { event, format, columns, tiebreaks, players }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::event::tests::replay;

    #[test]
    fn round_numbers_are_labels_not_sizes() {
        let game = |round: &str, white: &str, black: &str| {
            format!(
                "[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
                 [Result \"1-0\"]\n\n1. e4 1-0\n\n"
            )
        };
        let pgn = game("4000000000", "A", "B") + &game("0", "B", "A") + &game("?", "A", "B");
        let table = build(&replay(&pgn), &[]);
        assert_eq!(
            table.columns,
            [Column::Round(0), Column::Round(4_000_000_000), Column::Unknown]
        );
        assert_eq!(table.format, Format::RoundRobin);
        let a = &table.players[0];
        assert_eq!((a.name.as_str(), a.score, a.played), ("A", Points::halves(4), 3));
    }
}
