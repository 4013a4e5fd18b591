//! The games of each event as the crosstable reads them, kept as they are
//! replayed, and the limits past which an event is not a tournament.
//!
//! Input: each record with its tags (`KeepTags`), in input order; output:
//! one [`EventGames`] per event ([`event::EventIndex`], as `check` groups
//! them), each either within the [`Limits`] or refused with its counts. A
//! game is kept in a few bytes (round, player numbers, result); an event
//! over the limits keeps no games at all, only its counts, so memory is
//! linear in the games and nothing is sized by players × players or
//! players × rounds before the limits are known to hold.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    io,
    ops::ControlFlow,
    sync::Arc,
};

use super::{Column, Format};
use crate::{
    pgn::{
        tags::TagList,
        values::{Date, GameResult, stated},
    },
    record::GameRecord,
    sink::Sink,
    tournament::{EventFormat, event, players::plural},
};

/// How large an event may be and still get a crosstable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Players (rows).
    pub players: usize,
    /// Rounds (columns): distinct round numbers; also the most games one
    /// player may have, as a player plays once a round.
    pub rounds: usize,
}

/// The default of `--max-players`: more than the largest open sections.
pub const MAX_PLAYERS: u32 = 2000;

/// The default of `--max-rounds`: twice the longest title match (48 games,
/// 1984–85), and more than a double round robin of 40 players.
pub const MAX_ROUNDS: u32 = 100;

impl Limits {
    /// The defaults, far below a server's pool of casual games.
    pub const DEFAULT: Limits =
        Limits { players: MAX_PLAYERS as usize, rounds: MAX_ROUNDS as usize };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// One game as the crosstable reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pairing {
    /// The round number, `None` when the Round tag has none.
    pub round: Option<u32>,
    /// White's and Black's player numbers; `None` for a bye.
    pub sides: [Option<u32>; 2],
    /// White's half-points (2, 1, 0); `None` for `*` or no result.
    pub white_halves: Option<u8>,
    /// Whether it has moves.
    pub played: bool,
}

/// A player of an event, numbered in order of first appearance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entrant {
    /// The name as written (`?` when missing or unknown).
    pub name: Box<str>,
    /// The first numeric `WhiteElo`/`BlackElo` given for the player.
    pub rating: Option<u32>,
    /// Games in the event.
    pub games: usize,
}

/// The games of one event.
#[derive(Debug)]
pub struct EventGames {
    /// The event's name (its `Event` tag, trimmed); `None` for the games
    /// without one.
    pub name: Option<String>,
    /// Games in the event.
    pub games: usize,
    /// The file and line of its first game, for messages.
    first: (Arc<str>, u64),
    /// The players, by number.
    pub(super) players: Vec<Entrant>,
    number: HashMap<Box<str>, u32>,
    /// The round numbers that have games.
    pub(super) rounds: BTreeSet<u32>,
    /// Whether some game has no round number.
    pub(super) unknown_round: bool,
    /// The most games one player has.
    most_games: usize,
    /// The games, in input order; emptied (and no longer kept) once the
    /// event is over the limits.
    pub(super) pairings: Vec<Pairing>,
    /// Whether the event is over the limits.
    over: bool,
    /// The first `Site` stated, for the table's header.
    pub(super) site: Option<String>,
    /// The earliest and latest dates with a known year, for the header.
    pub(super) dates: Option<(DateKey, DateKey)>,
    /// Games left out of the table: one name on both sides.
    pub left_out: usize,
    /// The first [`MAX_LEFT_OUT_NAMED`] of them, described.
    left_out_games: Vec<String>,
}

/// The games left out of an event's table that its message names; the
/// others are counted.
const MAX_LEFT_OUT_NAMED: usize = 5;

/// A date that sorts: year, month, day (0 when unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct DateKey(u32, u32, u32);

impl DateKey {
    /// The key of a `Date` tag; `None` without a known year.
    fn of(text: &str) -> Option<DateKey> {
        let date = Date::parse(text)?;
        Some(DateKey(date.year?, date.month.unwrap_or(0), date.day.unwrap_or(0)))
    }
}

impl std::fmt::Display for DateKey {
    /// As PGN writes it: `2024.05.11`, `??` for an unknown part.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let part = |n: u32| if n == 0 { "??".to_owned() } else { format!("{n:02}") };
        write!(f, "{}.{}.{}", self.0, part(self.1), part(self.2))
    }
}

impl EventGames {
    fn new(record: &GameRecord) -> EventGames {
        EventGames {
            name: event::event_name(record).map(str::to_owned),
            games: 0,
            first: (record.file.clone(), record.line),
            players: Vec::new(),
            number: HashMap::new(),
            rounds: BTreeSet::new(),
            unknown_round: false,
            most_games: 0,
            pairings: Vec::new(),
            over: false,
            site: None,
            dates: None,
            left_out: 0,
            left_out_games: Vec::new(),
        }
    }

    /// What was left out of the event's table, and why; `None` when
    /// nothing was.
    pub fn left_out_message(&self) -> Option<String> {
        if self.left_out == 0 {
            return None;
        }
        let mut named = self.left_out_games.join("; ");
        if self.left_out > self.left_out_games.len() {
            named.push_str(&format!("; and {} more", self.left_out - self.left_out_games.len()));
        }
        Some(format!(
            "{}: {} left out of the crosstable, one name on both sides: {named}",
            event::describe(self.name.as_deref(), self.games, &self.first.0, self.first.1),
            plural(self.left_out, "game"),
        ))
    }

    /// Adds a game, then refuses the event if it is now over `limits`.
    fn add(&mut self, record: &GameRecord, tags: &TagList, limits: Limits) {
        self.games += 1;
        let names = [&record.white, &record.black].map(|n| event::player(n.as_deref()));
        // Players are told apart by their names: one name on both sides
        // cannot be placed in a table (`check` reports it, E406).
        if names[0] == names[1] && !names[0].is_some_and(event::is_bye) {
            self.left_out += 1;
            if self.left_out <= MAX_LEFT_OUT_NAMED {
                let who = names[0].map_or("two players without a name".to_owned(), |name| {
                    format!("{name} against themselves")
                });
                self.left_out_games.push(format!(
                    "game {} ({}:{}): {who}",
                    record.index, record.file, record.line
                ));
            }
            return;
        }
        if self.site.is_none() {
            self.site = tags.get("Site").and_then(stated).map(str::to_owned);
        }
        if let Some(date) = tags.get("Date").and_then(DateKey::of) {
            let (first, last) = self.dates.get_or_insert((date, date));
            *first = (*first).min(date);
            *last = (*last).max(date);
        }
        let round = event::round(record);
        match round {
            Some(round) => {
                self.rounds.insert(round);
            }
            None => self.unknown_round = true,
        }
        let mut sides = [None, None];
        for (side, (name, elo)) in
            [(names[0], "WhiteElo"), (names[1], "BlackElo")].into_iter().enumerate()
        {
            let name = name.unwrap_or("?");
            if event::is_bye(name) {
                continue;
            }
            let id = match self.number.get(name) {
                Some(&id) => id,
                None => {
                    // Four billion names would not fit in memory first.
                    let id = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
                    self.players.push(Entrant { name: name.into(), rating: None, games: 0 });
                    self.number.insert(name.into(), id);
                    id
                }
            };
            let player = &mut self.players[id as usize];
            player.games += 1;
            player.rating =
                player.rating.or_else(|| tags.get(elo).map(str::trim).and_then(|e| e.parse().ok()));
            self.most_games = self.most_games.max(player.games);
            sides[side] = Some(id);
        }
        if self.over {
            return;
        }
        let white_halves = GameResult::of_record(record)
            .and_then(GameResult::white_halves)
            .and_then(|h| u8::try_from(h).ok());
        self.pairings.push(Pairing { round, sides, white_halves, played: record.plies > 0 });
        if !self.within(limits) {
            self.over = true;
            // Its games are never read: free them, and keep no more.
            self.pairings = Vec::new();
        }
    }

    /// Whether the event is within `limits`: it gets a crosstable.
    pub fn within(&self, limits: Limits) -> bool {
        self.players.len() <= limits.players
            && self.rounds.len() <= limits.rounds
            && self.most_games <= limits.rounds
    }

    /// Why the event gets no crosstable under `limits`: its counts, each
    /// over its limit marked; `None` when it is within them.
    pub fn refusal(&self, limits: Limits) -> Option<String> {
        if self.within(limits) {
            return None;
        }
        let (players, rounds) = (self.players.len(), self.rounds.len());
        let over = |n: usize, limit: usize, option: &str| {
            if n > limit { format!(" (more than {option} {limit})") } else { String::new() }
        };
        Some(format!(
            "{} is not a tournament: {}{}, {}{}, up to {} for one player{}; no crosstable written",
            event::describe(self.name.as_deref(), self.games, &self.first.0, self.first.1),
            plural(players, "player"),
            over(players, limits.players, "--max-players"),
            plural(rounds, "round"),
            over(rounds, limits.rounds, "--max-rounds"),
            plural(self.most_games, "game"),
            over(self.most_games, limits.rounds, "--max-rounds"),
        ))
    }

    /// The columns of its crosstable: the rounds that have games, in order
    /// (a Round tag's number is data: it is not trusted to size anything),
    /// then the games without a round.
    pub fn columns(&self) -> Vec<Column> {
        let mut columns: Vec<Column> = self.rounds.iter().copied().map(Column::Round).collect();
        if self.unknown_round {
            columns.push(Column::Unknown);
        }
        columns
    }

    /// The format `given` (`--event-format`, arbiter.toml), else as
    /// detected: round robin when every pair of players has a game, else
    /// Swiss.
    pub fn format(&self, given: Option<EventFormat>) -> Format {
        match given {
            Some(EventFormat::Swiss) => return Format::Swiss,
            Some(EventFormat::RoundRobin) => return Format::RoundRobin,
            Some(EventFormat::DoubleRoundRobin) => return Format::DoubleRoundRobin,
            Some(EventFormat::Match) => return Format::Match,
            None => {}
        }
        let met: HashSet<(u32, u32)> = self
            .pairings
            .iter()
            .filter_map(|p| match p.sides {
                [Some(a), Some(b)] if a != b => Some((a.min(b), a.max(b))),
                _ => None,
            })
            .collect();
        let n = self.players.len();
        if n >= 2 && met.len() == n * (n - 1) / 2 { Format::RoundRobin } else { Format::Swiss }
    }
}

/// The sink of `crosstable`: every game into its event's [`EventGames`].
#[derive(Debug, Default)]
pub struct Events {
    /// The limits each event is held to.
    pub limits: Limits,
    index: event::EventIndex,
    /// The events, in order of first appearance.
    pub events: Vec<EventGames>,
}

impl Events {
    /// An empty sink that holds events to `limits`.
    pub fn new(limits: Limits) -> Events {
        Events { limits, ..Events::default() }
    }
}

impl Sink<TagList> for Events {
    fn record(&mut self, record: &GameRecord, tags: TagList) -> io::Result<ControlFlow<()>> {
        let (at, first) = self.index.number(record);
        if first {
            self.events.push(EventGames::new(record));
        }
        self.events[at].add(record, &tags, self.limits);
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{replay::ReplayOptions, replay::observer::KeepTags, testing::replay_with};

    /// The events of `pgn`, collected as `crosstable` collects them.
    pub fn collect(pgn: &str, limits: Limits) -> Vec<EventGames> {
        let mut events = Events::new(limits);
        for (record, tags) in replay_with(pgn, ReplayOptions::default(), &mut KeepTags) {
            let _ = events.record(&record, tags);
        }
        events.events
    }

    fn game(event: &str, round: u32, white: &str, black: &str) -> String {
        format!(
            "[Event \"{event}\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
        )
    }

    #[test]
    fn one_entry_per_event_in_input_order() {
        let pgn = game("B", 1, "x", "y") + &game(" A ", 1, "x", "z") + &game("B", 2, "y", "x");
        let events = collect(&pgn, Limits::DEFAULT);
        let names: Vec<_> = events.iter().map(|e| (e.name.as_deref(), e.games)).collect();
        assert_eq!(names, [(Some("B"), 2), (Some("A"), 1)]);
        assert_eq!(events[0].format(None), Format::RoundRobin);
        assert_eq!(events[0].columns(), [Column::Round(1), Column::Round(2)]);
    }

    #[test]
    fn an_event_over_the_limits_keeps_only_its_counts() {
        let limits = Limits { players: 3, rounds: 2 };
        let within = game("E", 1, "a", "b") + &game("E", 2, "c", "a");
        assert!(collect(&within, limits)[0].refusal(limits).is_none());
        let players = within.clone() + &game("E", 2, "b", "d");
        let event = &collect(&players, limits)[0];
        assert!(event.pairings.is_empty());
        let message = event.refusal(limits).unwrap_or_default();
        assert!(message.contains("4 players (more than --max-players 3), 2 rounds, up to 2 games"));
        let rounds = within.clone() + &game("E", 3, "b", "c");
        let message = collect(&rounds, limits)[0].refusal(limits).unwrap_or_default();
        assert!(message.contains("3 rounds (more than --max-rounds 2)"), "{message}");
        let games = within + &game("E", 2, "b", "a");
        let message = collect(&games, limits)[0].refusal(limits).unwrap_or_default();
        assert!(
            message.ends_with(
                "3 games for one player (more than --max-rounds 2); no crosstable written"
            ),
            "{message}"
        );
    }
}
