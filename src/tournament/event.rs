//! A game read as part of an event: its tags, round, board and result, and
//! the grouping of games into events.
//!
//! Input: `Game`s, each a record with the tags and moves hash that
//! [`GameObserver`] kept (or records alone, for the grouping and the
//! rounds); output: plain values the checks and the crosstable share.
//! Reads only what the replay kept, never PGN.

use std::{
    collections::HashMap,
    io,
    ops::{ControlFlow, Deref},
};

use crate::{
    pgn::{
        tags::TagList,
        values::{Round, stated},
    },
    record::GameRecord,
    replay::observer::{KeepTags, MovesHash},
    sink::Sink,
};

/// A game as the commands that look across games keep it: its record, its
/// tags and a hash of its moves (to find copies).
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// What the replay found.
    pub record: GameRecord,
    /// Every tag, in file order.
    pub tags: TagList,
    /// A hash of the mainline moves (see `replay::observer::MovesHash`).
    pub moves_hash: u64,
}

impl Deref for Game {
    type Target = GameRecord;

    fn deref(&self) -> &GameRecord {
        &self.record
    }
}

/// The observer that keeps what a [`Game`] holds beside its record.
pub type GameObserver = (KeepTags, MovesHash);

/// A game from its record and what [`GameObserver`] made of it.
pub fn game(record: &GameRecord, (tags, moves_hash): (TagList, u64)) -> Game {
    Game { record: record.clone(), tags, moves_hash }
}

/// A sink that keeps every game, for the commands that look across games
/// (a tournament's file is small).
#[derive(Debug, Default)]
pub struct Collect {
    /// The games, in input order.
    pub records: Vec<Game>,
}

impl Sink<(TagList, u64)> for Collect {
    fn record(
        &mut self,
        record: &GameRecord,
        output: (TagList, u64),
    ) -> io::Result<ControlFlow<()>> {
        self.records.push(game(record, output));
        Ok(ControlFlow::Continue(()))
    }
}

/// The value of tag `name` (its first occurrence), trimmed; `None` when the
/// game has no such tag.
pub fn tag<'a>(record: &'a Game, name: &str) -> Option<&'a str> {
    record.tags.get(name).map(str::trim)
}

/// Where a game stands in the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    /// The round: `N` of a `Round` tag `N` or `N.M`.
    pub round: u32,
    /// The board: the `Board` tag, else `M` of a `Round` tag `N.M` (the
    /// TWIC and broadcast convention).
    pub board: Option<u32>,
}

/// `N` and `M` of a Round tag `N` or `N.M`; `None` when the tag is
/// missing, unknown (`?`, `-`) or of another form.
fn round_numbers(record: &GameRecord) -> Option<(u32, Option<u32>)> {
    let Round::Numbered { round, sub, more: false } = Round::parse(record.round.as_deref()?)?
    else {
        return None;
    };
    let number = |n: u64| u32::try_from(n).ok();
    let sub = match sub.map(number) {
        Some(None) => return None,
        Some(Some(sub)) => Some(sub),
        None => None,
    };
    Some((number(round)?, sub))
}

/// The game's round, as [`slot`] reads it (without the board).
pub fn round(record: &GameRecord) -> Option<u32> {
    round_numbers(record).map(|(round, _)| round)
}

/// The game's round and board; `None` when the Round tag is missing,
/// unknown (`?`, `-`) or not of the form `N` or `N.M`.
pub fn slot(record: &Game) -> Option<Slot> {
    let (round, sub) = round_numbers(record)?;
    let board = tag(record, "Board").and_then(|b| b.parse().ok()).or(sub);
    Some(Slot { round, board })
}

/// A player's name as written, trimmed; `None` when missing or unknown.
pub fn player(name: Option<&str>) -> Option<&str> {
    name.and_then(stated)
}

/// Whether `name` stands for a bye rather than a player (`BYE`, `(bye)`):
/// some programs export a bye as a game without moves against it.
pub fn is_bye(name: &str) -> bool {
    let letters: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    letters.eq_ignore_ascii_case("bye")
}

/// Whether the game is a bye: one side is [`is_bye`].
pub fn has_bye(record: &Game) -> bool {
    [&record.white, &record.black].into_iter().flatten().any(|name| is_bye(name))
}

/// The games of one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The `Event` tag (trimmed), `None` for games without one.
    pub name: Option<String>,
    /// Indices into the records, in input order.
    pub games: Vec<usize>,
}

/// The name of a game's event: its `Event` tag, trimmed.
pub fn event_name(record: &GameRecord) -> Option<&str> {
    record.event.as_deref().map(str::trim)
}

/// Numbers the events of games as they come, in order of first appearance,
/// by [`event_name`] (the games without an `Event` tag are one event): the
/// one grouping of `check` (W310 and every check within an event) and
/// `crosstable` (one table per event).
#[derive(Debug, Default)]
pub struct EventIndex {
    named: HashMap<String, usize>,
    unnamed: Option<usize>,
}

impl EventIndex {
    /// The number of the event of `record`, and whether `record` is its
    /// first game.
    pub fn number(&mut self, record: &GameRecord) -> (usize, bool) {
        let name = event_name(record);
        let found = match name {
            Some(name) => self.named.get(name).copied(),
            None => self.unnamed,
        };
        if let Some(number) = found {
            return (number, false);
        }
        let number = self.named.len() + usize::from(self.unnamed.is_some());
        match name {
            Some(name) => {
                self.named.insert(name.to_owned(), number);
            }
            None => self.unnamed = Some(number),
        }
        (number, true)
    }
}

/// Groups the records by their event ([`EventIndex`]), events in order of
/// first appearance.
pub fn events(records: &[Game]) -> Vec<Event> {
    let mut events: Vec<Event> = Vec::new();
    let mut index = EventIndex::default();
    for (i, record) in records.iter().enumerate() {
        let (at, first) = index.number(record);
        if first {
            events.push(Event { name: event_name(record).map(str::to_owned), games: Vec::new() });
        }
        events[at].games.push(i);
    }
    events
}

/// An event as messages name it: `"Name" (12 games, from file.pgn:1)`,
/// from the file and line of its first game.
pub fn describe(name: Option<&str>, games: usize, file: &str, line: u64) -> String {
    let name = name.unwrap_or("no Event tag");
    format!("\"{name}\" ({}, from {file}:{line})", plural(games, "game"))
}

/// `1 game`, `3 games`.
pub fn plural(n: usize, word: &str) -> String {
    crate::sink::plural(n as u64, word)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pgn::values::GameResult;
    use crate::{replay::ReplayOptions, testing::replay_with};

    /// The games of `pgn`, replayed as `check` replays them.
    pub fn replay(pgn: &str) -> Vec<Game> {
        let games = replay_with(pgn, ReplayOptions::default(), &mut GameObserver::default());
        games.into_iter().map(|(record, output)| game(&record, output)).collect()
    }

    /// A game of one move (`1. e4`) with the given tags; its result marker
    /// is its Result tag, else `*`.
    pub fn record(tags: &[(&str, &str)]) -> Game {
        let mut pgn: String = tags.iter().map(|(n, v)| format!("[{n} \"{v}\"]\n")).collect();
        let result = tags.iter().find(|(n, _)| *n == "Result").map_or("*", |(_, v)| v);
        pgn.push_str(&format!("\n1. e4 {result}\n"));
        replay(&pgn).remove(0)
    }

    #[test]
    fn rounds_and_boards() {
        let slot_of = |round: &str, board: Option<&str>| {
            let mut tags = vec![("Round", round)];
            tags.extend(board.map(|b| ("Board", b)));
            slot(&record(&tags))
        };
        assert_eq!(slot_of("3", None), Some(Slot { round: 3, board: None }));
        assert_eq!(slot_of("3.2", None), Some(Slot { round: 3, board: Some(2) }));
        assert_eq!(slot_of("3", Some("4")), Some(Slot { round: 3, board: Some(4) }));
        // `+2` too: rounds are read as the tag checks read them.
        for bad in ["?", "-", "", "R3", "3.x", "3.1.1", "+2"] {
            assert_eq!(slot_of(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn events_are_numbered_by_trimmed_name_in_order_of_appearance() {
        let mut index = EventIndex::default();
        let numbers: Vec<(usize, bool)> = [Some("B"), None, Some(" B "), Some("A"), None]
            .into_iter()
            .map(|name| {
                index.number(&record(&name.map(|n| ("Event", n)).into_iter().collect::<Vec<_>>()))
            })
            .collect();
        assert_eq!(numbers, [(0, true), (1, true), (0, false), (2, true), (1, false)]);
    }

    #[test]
    fn the_result_tag_comes_before_the_marker() {
        let mut game = record(&[("Result", "1-0")]);
        game.record.result_marker = Some("0-1");
        assert_eq!(GameResult::of_record(&game), Some(GameResult::WhiteWins));
        game.record.result = Some("1:0".into());
        assert_eq!(GameResult::of_record(&game), Some(GameResult::BlackWins));
    }
}
