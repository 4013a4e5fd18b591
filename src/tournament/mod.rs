//! Tournaments: the games of one event seen together. [`event`] groups
//! games by event and reads rounds, boards and results; [`players`] tells
//! who is who across games; [`check`] runs an arbiter's checks before
//! publishing, reading [`Game`]s: records kept with their tags and a hash
//! of their moves; [`crosstable`] builds the standings of each event from
//! the few values of each game it keeps.

pub mod check;
pub mod crosstable;
pub mod event;
pub mod players;

use serde::Deserialize;

pub use self::event::{Collect, Game, GameObserver};

/// How often two players may meet, by the event's format: `[event]
/// format` in arbiter.toml, or `--event-format` (which overrides it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum EventFormat {
    /// Swiss system: no two players meet twice (FIDE C.04.1).
    Swiss,
    /// Each player meets each other once.
    RoundRobin,
    /// Each player meets each other twice.
    DoubleRoundRobin,
    /// A match or a knock-out mini-match: the same two players meet in
    /// every round, and a round (`Round "1.1"`, `"1.2"`) may hold several
    /// of their games.
    Match,
}
