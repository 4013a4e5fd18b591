//! What the statistics read from one game: the tags they are keyed by
//! (ratings, date, time control, opening, `Termination`).
//!
//! Input: a game's tags and the book opening it was classified as;
//! output: `GameFacts`, borrowed from the tags. Tag values are read by
//! `pgn::values`, as every command reads them; malformed values count as
//! absent. No I/O, no aggregation.

use std::borrow::Cow;

pub use crate::pgn::values::Speed;
use crate::{
    openings::{OpeningBook, OpeningId},
    pgn::{
        tags::TagSet,
        values::{Date, known, rating},
    },
};

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

/// The names of the tags in [`StatsTags`], in its order.
const STATS_TAGS: [&str; 8] =
    ["WhiteElo", "BlackElo", "Date", "UTCDate", "TimeControl", "ECO", "Opening", "Termination"];

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

    /// The values `get` gives for each tag, by name (the first value of a
    /// duplicated tag, as [`StatsTags::of`] reads them).
    pub fn from_fn(mut get: impl FnMut(&str) -> Option<Cow<'a, str>>) -> StatsTags<'a> {
        StatsTags(STATS_TAGS.map(&mut get))
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
