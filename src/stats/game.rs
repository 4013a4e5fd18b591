//! What the statistics read from one game: its outcome and the tags they
//! are keyed by (ratings, date, time control, opening, `Termination`).
//!
//! Input: a game's tags and the book opening it was classified as;
//! output: `GameFacts`, borrowed from the tags. Tag values are
//! interpreted here and nowhere else; malformed values count as absent.
//! No I/O, no aggregation.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::{
    openings::{OpeningBook, OpeningId},
    pgn::tags::{TagSet, given},
    record::GameRecord,
};

/// A game's result, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    WhiteWin,
    /// `1/2-1/2`.
    Draw,
    /// `0-1`.
    BlackWin,
    /// `*`: the game is not finished.
    Unfinished,
    /// No result, or none of the four.
    Other,
}

impl Outcome {
    /// The outcome a result string stands for.
    pub fn parse(result: Option<&str>) -> Outcome {
        match result {
            Some("1-0") => Outcome::WhiteWin,
            Some("1/2-1/2") => Outcome::Draw,
            Some("0-1") => Outcome::BlackWin,
            Some("*") => Outcome::Unfinished,
            _ => Outcome::Other,
        }
    }

    /// The game's outcome: its `Result` tag; when that is missing or none
    /// of `1-0`, `0-1`, `1/2-1/2`, `*`, the movetext's result marker (as
    /// replay judges results).
    pub fn of(record: &GameRecord) -> Outcome {
        match Outcome::parse(record.result.as_deref()) {
            Outcome::Other => Outcome::parse(record.result_marker),
            outcome => outcome,
        }
    }

    /// White's points doubled (win 2, draw 1, loss 0), for decided games.
    pub fn white_points_x2(self) -> Option<u64> {
        match self {
            Outcome::WhiteWin => Some(2),
            Outcome::Draw => Some(1),
            Outcome::BlackWin => Some(0),
            Outcome::Unfinished | Outcome::Other => None,
        }
    }
}

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

    /// The class of a `TimeControl` tag value: `base+increment` or `base`
    /// in seconds (lichess, PGN standard), `moves/seconds` with further
    /// periods after `:` (the first period's time counts), `*seconds`
    /// (sandclock), `-` (correspondence on lichess).
    pub fn of(time_control: Option<&str>) -> Speed {
        let Some(value) = time_control.map(str::trim) else { return Speed::Unknown };
        if value == "-" {
            return Speed::Correspondence;
        }
        // Cut at ASCII bytes (char boundaries): `str::split` costs more
        // than the rest of a game's statistics.
        let first = &value[..find(value, b':').unwrap_or(value.len())];
        let (base, increment) = match find(first, b'+') {
            Some(plus) => (&first[..plus], &first[plus + 1..]),
            None => (first, "0"),
        };
        let base = &base[base.bytes().rposition(|b| b == b'/').map_or(0, |slash| slash + 1)..];
        let base = base.strip_prefix('*').unwrap_or(base);
        let (Ok(base), Ok(increment)) = (base.parse::<u64>(), increment.parse::<u64>()) else {
            return Speed::Unknown;
        };
        let estimate = base.saturating_add(increment.saturating_mul(40));
        Speed::ALL
            .into_iter()
            .find(|speed| speed.seconds().1.is_none_or(|max| estimate <= max))
            .unwrap_or(Speed::Correspondence)
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
        let (mut eco, mut name) = (eco.and_then(given), name.and_then(given));
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
            elo: [rating(white_elo), rating(black_elo)],
            month: utc_date.or(date).and_then(month),
            speed: Speed::of(time_control),
            opening: (eco.unwrap_or_default(), name.unwrap_or_default()),
            book_opening,
            termination: termination.and_then(given),
        }
    }
}

/// Ratings outside this range are typing errors or placeholders (`0`),
/// read as no rating.
const RATINGS: std::ops::RangeInclusive<u32> = 1..=4000;

/// A rating tag: a whole number in [`RATINGS`].
fn rating(value: Option<&str>) -> Option<u32> {
    let value = value?;
    let elo = match plain_number(value) {
        Some(elo) => elo,
        None => value.trim().parse::<u32>().ok()?,
    };
    Some(elo).filter(|elo| RATINGS.contains(elo))
}

/// A number of one to nine ASCII digits and nothing else, the common
/// spelling, read without `str::parse`.
fn plain_number(text: &str) -> Option<u32> {
    let plain = (1..=9).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| text.bytes().fold(0, |n, digit| n * 10 + u32::from(digit - b'0')))
}

/// The first position of the ASCII byte `byte` in `text`.
fn find(text: &str, byte: u8) -> Option<usize> {
    text.bytes().position(|b| b == byte)
}

/// `year × 100 + month` of a `YYYY.MM.DD` date whose year is known (month
/// 0 when `??` or out of range).
fn month(date: &str) -> Option<u32> {
    let date = date.trim();
    let (year, rest) = match find(date, b'.') {
        Some(dot) => (&date[..dot], &date[dot + 1..]),
        None => (date, ""),
    };
    let year = Some(year).filter(|y| y.len() == 4)?.parse::<u32>().ok().filter(|&y| y > 0)?;
    let month = &rest[..find(rest, b'.').unwrap_or(rest.len())];
    let month = month.parse::<u32>().ok().filter(|m| (1..=12).contains(m));
    Some(year * 100 + month.unwrap_or(0))
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

    #[test]
    fn dates_give_year_and_month() {
        assert_eq!(month("2023.05.10"), Some(202305));
        assert_eq!(month("1951.??.??"), Some(195100));
        assert_eq!(month("1951.13.01"), Some(195100));
        assert_eq!(month("????.??.??"), None);
        assert_eq!(month("95.01.01"), None);
        assert_eq!(month(" 2023 "), Some(202300));
        assert_eq!(month("2023.7"), Some(202307));
        assert_eq!(month("0000.01.01"), None, "year 0 would collide with undated");
    }

    #[test]
    fn results_fall_back_to_the_marker() {
        assert_eq!(Outcome::parse(Some("1/2-1/2")), Outcome::Draw);
        assert_eq!(Outcome::parse(Some("½-½")), Outcome::Other);
        assert_eq!(Outcome::parse(None), Outcome::Other);
        assert_eq!(Outcome::Draw.white_points_x2(), Some(1));
        assert_eq!(Outcome::Unfinished.white_points_x2(), None);
    }

    #[test]
    fn ratings_are_positive_numbers() {
        assert_eq!(rating(Some("2983")), Some(2983));
        assert_eq!(rating(Some(" 1500 ")), Some(1500));
        assert_eq!(rating(Some("0")), None);
        assert_eq!(rating(Some("4000")), Some(4000));
        assert_eq!(rating(Some("4294967295")), None);
        assert_eq!(rating(Some("?")), None);
        assert_eq!(rating(Some("+1500")), Some(1500));
        assert_eq!(rating(Some("0999")), Some(999));
        assert_eq!(rating(Some("12345678901")), None);
        assert_eq!(rating(Some("-")), None);
        assert_eq!(rating(None), None);
    }
}
