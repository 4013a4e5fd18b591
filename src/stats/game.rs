//! What the statistics read from one game: the tags they are keyed by
//! (ratings, date, time control, opening, `Termination`).
//!
//! Input: a game's tags and the book opening it was classified as;
//! output: `GameFacts`, borrowed from the tags. Tag values are read by
//! `pgn::values`, as every command reads them; malformed values count as
//! absent. No I/O, no aggregation.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::{
    openings::{OpeningBook, OpeningId},
    pgn::{
        tags::TagSet,
        values::{Date, TimeControl, known, rating},
    },
};

/// Lichess's speed classes, by estimated duration = base + 40 × increment
/// seconds (lila's `Speed`), plus `unknown`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Under 30 s.
    UltraBullet,
    /// 30 s to 179 s.
    Bullet,
    /// 180 s to 479 s.
    Blitz,
    /// 480 s to 1499 s.
    Rapid,
    /// 1500 s to 21599 s, and `moves/seconds` controls of classical games.
    Classical,
    /// 21600 s (6 h) or more, or `-` (lichess's tag for correspondence).
    Correspondence,
    /// No `TimeControl` tag, `?`, or a value that cannot be read.
    Unknown,
}

impl Speed {
    /// Every class, fastest first.
    pub const ALL: [Speed; 7] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unknown,
    ];

    /// The class's name in every output.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unknown => "unknown",
        }
    }

    /// The estimated durations in seconds the class covers, inclusive
    /// (`None` for an open end, or for `unknown`).
    pub fn seconds(self) -> (Option<u64>, Option<u64>) {
        match self {
            Speed::UltraBullet => (Some(0), Some(29)),
            Speed::Bullet => (Some(30), Some(179)),
            Speed::Blitz => (Some(180), Some(479)),
            Speed::Rapid => (Some(480), Some(1499)),
            Speed::Classical => (Some(1500), Some(21599)),
            Speed::Correspondence => (Some(21600), None),
            Speed::Unknown => (None, None),
        }
    }

    /// The class of a `TimeControl` tag value (`pgn::values`): by the
    /// first period's base and increment; `-` (lichess's correspondence)
    /// is correspondence.
    pub fn of(time_control: Option<&str>) -> Speed {
        match time_control.and_then(TimeControl::first_period) {
            None | Some(TimeControl::Unknown) => Speed::Unknown,
            Some(TimeControl::Untimed) => Speed::Correspondence,
            Some(TimeControl::Timed { base, increment }) => {
                let estimate = base.saturating_add(increment.saturating_mul(40));
                Speed::ALL
                    .into_iter()
                    .find(|speed| speed.seconds().1.is_none_or(|max| estimate <= max))
                    .unwrap_or(Speed::Correspondence)
            }
        }
    }
}

/// The tags the statistics are keyed by, interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFacts<'a> {
    /// White's and Black's rating (`WhiteElo`, `BlackElo`), when a whole
    /// number from 1 to 4000.
    pub elo: [Option<u32>; 2],
    /// `year × 100 + month` from `UTCDate`, else `Date` (month 0 when
    /// unknown); `None` when the year is unknown.
    pub month: Option<u32>,
    /// The time-control class.
    pub speed: Speed,
    /// ECO code and opening name (see [`GameFacts::of`]); empty when
    /// unknown.
    pub opening: (&'a str, &'a str),
    /// The book opening whose ECO code and name `opening` is, when its
    /// name came from the book.
    pub book_opening: Option<OpeningId>,
    /// The `Termination` tag (ignoring `?`).
    pub termination: Option<&'a str>,
}

/// The values of the tags the statistics read (the first of duplicated
/// tags), decoded: `WhiteElo`, `BlackElo`, `Date`, `UTCDate`,
/// `TimeControl`, `ECO`, `Opening`, `Termination`.
#[derive(Debug, Default)]
pub struct StatsTags<'a>([Option<Cow<'a, str>>; 8]);

impl<'a> StatsTags<'a> {
    /// Reads them off a game's tags, in one pass over the tags.
    pub fn of(tags: &TagSet<'a>) -> StatsTags<'a> {
        let mut values: [Option<Cow<'a, str>>; 8] = Default::default();
        for (name, value) in tags.pairs() {
            let slot = match name {
                b"WhiteElo" => 0,
                b"BlackElo" => 1,
                b"Date" => 2,
                b"UTCDate" => 3,
                b"TimeControl" => 4,
                b"ECO" => 5,
                b"Opening" => 6,
                b"Termination" => 7,
                _ => continue,
            };
            values[slot].get_or_insert_with(|| tags.text(value));
        }
        StatsTags(values)
    }

    /// The same values, owned.
    pub fn into_owned(self) -> StatsTags<'static> {
        StatsTags(self.0.map(|value| value.map(|value| Cow::Owned(value.into_owned()))))
    }
}

impl<'a> GameFacts<'a> {
    /// Interprets a game's tags, with `opening`, the book opening the
    /// replay classified it as. The opening is the `ECO` and `Opening` tags
    /// when present (ignoring `?`); what is missing comes from the book
    /// opening, whose name is taken only when its ECO code is the one used.
    pub fn of(tags: &'a StatsTags<'_>, opening: Option<OpeningId>) -> GameFacts<'a> {
        let [white_elo, black_elo, date, utc_date, time_control, eco, name, termination] =
            tags.0.each_ref().map(Option::as_deref);
        let (mut eco, mut name) = (eco.and_then(known), name.and_then(known));
        let mut book_opening = None;
        // The book is built on first use: not at all for games that name
        // their openings.
        let in_book = |id| Some((id, OpeningBook::standard().get(id)?));
        if let Some((id, opening)) = opening.and_then(in_book) {
            let eco = eco.get_or_insert(&opening.eco);
            if *eco == opening.eco && name.is_none() {
                name = Some(&opening.name);
                book_opening = Some(id);
            }
        }
        GameFacts {
            elo: [white_elo.and_then(rating), black_elo.and_then(rating)],
            month: utc_date.or(date).and_then(Date::parse).and_then(Date::month_key),
            speed: Speed::of(time_control),
            opening: (eco.unwrap_or_default(), name.unwrap_or_default()),
            book_opening,
            termination: termination.and_then(known),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_fall_in_lichess_classes() {
        let cases = [
            ("15+0", Speed::UltraBullet),
            ("0+1", Speed::Bullet),
            ("60+0", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("120+2", Speed::Blitz),
            ("180+0", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("900+15", Speed::Classical),
            ("1800+0", Speed::Classical),
            ("40/7200:3600", Speed::Classical),
            ("*60", Speed::Bullet),
            ("-", Speed::Correspondence),
            ("86400", Speed::Correspondence),
            ("?", Speed::Unknown),
            ("300+", Speed::Unknown),
            ("1/180+2", Speed::Blitz),
            ("blitz", Speed::Unknown),
        ];
        for (tag, speed) in cases {
            assert_eq!(Speed::of(Some(tag)), speed, "{tag}");
        }
        assert_eq!(Speed::of(None), Speed::Unknown);
    }
}
