//! Typed tag values, one parser each, used by every command: the result
//! (`Result` and the movetext's marker), dates, rounds, ratings, time
//! controls and their speed classes. A value is read the same way wherever
//! it is read, so `validate`, `check`, `stats`, `crosstable` and the
//! predicates cannot disagree about a game. Values are trimmed first; a value that does not parse is absent.

use serde::{Deserialize, Serialize};

use crate::record::GameRecord;

/// A tag value that is known: trimmed, neither empty nor `?` (unknown).
pub fn known(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !matches!(*v, "" | "?"))
}

/// A tag value that states something: [`known`], and not `-` (not
/// applicable), as a player, a site or a rating of a tournament game.
pub fn stated(value: &str) -> Option<&str> {
    known(value).filter(|v| *v != "-")
}

/// A game's result (PGN standard 8.1.1.7; FIDE Art. 11.5 scores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl GameResult {
    /// One of the four results, as written (trimmed).
    pub fn parse(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }

    /// A game's result: its `Result` tag when that is one of the four,
    /// else the result marker ending its movetext.
    pub fn of(tag: Option<&str>, marker: Option<&str>) -> Option<GameResult> {
        tag.and_then(GameResult::parse).or_else(|| marker.and_then(GameResult::parse))
    }

    /// The result of the game of `record`, read as [`GameResult::of`]
    /// reads it (every command counts results this way).
    pub fn of_record(record: &GameRecord) -> Option<GameResult> {
        GameResult::of(record.result.as_deref(), record.result_marker)
    }

    /// The result as the PGN standard writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// White's points in half-points (win 2, draw 1, loss 0); `None` for
    /// an unfinished game.
    pub fn white_halves(self) -> Option<u32> {
        match self {
            GameResult::WhiteWins => Some(2),
            GameResult::Draw => Some(1),
            GameResult::BlackWins => Some(0),
            GameResult::Unfinished => None,
        }
    }

    /// Whether one side won.
    pub fn is_decisive(self) -> bool {
        matches!(self, GameResult::WhiteWins | GameResult::BlackWins)
    }
}

/// A PGN date (`YYYY.MM.DD`), each part `None` when unknown (`??`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Date {
    /// The year.
    pub year: Option<u32>,
    /// The month, as written (not checked against the calendar).
    pub month: Option<u32>,
    /// The day, as written.
    pub day: Option<u32>,
    /// Whether it is written in the standard's form: four digits, two and
    /// two, or question marks for each.
    pub standard: bool,
}

impl Date {
    /// `YYYY.MM.DD` (trimmed), each part digits or all question marks; a
    /// month or day of one digit is read too (`2013.5.6`), as not
    /// [`standard`](Date::standard).
    pub fn parse(text: &str) -> Option<Date> {
        let text = text.trim();
        // The standard's form, read by place: the tag checks read a date in
        // every game.
        if let &[y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = text.as_bytes() {
            let part = |digits: &[u8]| -> Option<Option<u32>> {
                if digits.iter().all(|&b| b == b'?') {
                    Some(None)
                } else if digits.iter().all(u8::is_ascii_digit) {
                    Some(Some(digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'))))
                } else {
                    None
                }
            };
            let (year, month, day) = (part(&[y0, y1, y2, y3])?, part(&[m0, m1])?, part(&[d0, d1])?);
            return Some(Date { year, month, day, standard: true });
        }
        let mut parts = text.split('.');
        let mut standard = true;
        let mut part = |lengths: &[usize]| -> Option<Option<u32>> {
            let part = parts.next().filter(|p| lengths.contains(&p.len()))?;
            standard &= part.len() == lengths[0];
            if part.bytes().all(|b| b == b'?') {
                Some(None)
            } else if part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse().ok().map(Some)
            } else {
                None
            }
        };
        let (year, month, day) = (part(&[4])?, part(&[2, 1])?, part(&[2, 1])?);
        parts.next().is_none().then_some(Date { year, month, day, standard })
    }

    /// Why the date is not in the calendar, if it is not.
    pub fn calendar_problem(self) -> Option<String> {
        if let Some(month) = self.month
            && !(1..=12).contains(&month)
        {
            return Some(format!("there is no month {month}"));
        }
        let day = self.day?;
        let last = match self.month {
            Some(2) => match self.year {
                Some(y) if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
                Some(_) => 28,
                None => 29,
            },
            Some(4 | 6 | 9 | 11) => 30,
            _ => 31,
        };
        (!(1..=last).contains(&day)).then(|| match self.month {
            Some(month) if day > 0 => format!("month {month} has {last} days"),
            _ => format!("there is no day {day}"),
        })
    }

    /// Whether the date is certainly before `other`: compared part by part
    /// while both parts are known.
    pub fn before(self, other: Date) -> bool {
        let pairs = [(self.year, other.year), (self.month, other.month), (self.day, other.day)];
        for (a, b) in pairs {
            match (a, b) {
                (Some(a), Some(b)) if a != b => return a < b,
                (Some(_), Some(_)) => {}
                _ => return false,
            }
        }
        false
    }

    /// `year × 100 + month` (month 0 when unknown or not in the calendar);
    /// `None` when the year is unknown or 0 (which would read as undated).
    pub fn month_key(self) -> Option<u32> {
        let year = self.year.filter(|&y| y > 0)?;
        Some(year * 100 + self.month.filter(|m| (1..=12).contains(m)).unwrap_or(0))
    }
}

/// A `Round` tag (PGN standard 8.1.1.4): `?`, `-`, or numbers separated by
/// dots (`3`, `3.1` for round 3, board 1 or game 1 of a match).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// `?`.
    Unknown,
    /// `-`: not applicable.
    NotApplicable,
    /// Numbers: the first, the second if any (saturated at `u64::MAX`),
    /// and whether more follow.
    Numbered {
        /// The round.
        round: u64,
        /// The number after the first dot.
        sub: Option<u64>,
        /// Whether a third number or more follows.
        more: bool,
    },
}

impl Round {
    /// Reads a round (trimmed); `None` when it is none of the forms.
    pub fn parse(text: &str) -> Option<Round> {
        match text.trim() {
            "?" => return Some(Round::Unknown),
            "-" => return Some(Round::NotApplicable),
            _ => {}
        }
        let mut numbers = text.trim().split('.').map(number);
        let round = numbers.next()??;
        let sub = numbers.next().map(|n| n.ok_or(())).transpose().ok()?;
        let mut more = false;
        for n in numbers {
            n?;
            more = true;
        }
        Some(Round::Numbered { round, sub, more })
    }
}

/// A whole number of ASCII digits only (saturated at `u64::MAX`).
fn number(text: &str) -> Option<u64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| {
        text.bytes().fold(0u64, |n, d| n.saturating_mul(10).saturating_add(u64::from(d - b'0')))
    })
}

/// Ratings outside this range are typing errors or placeholders (`0`),
/// read as no rating.
pub const RATINGS: std::ops::RangeInclusive<u32> = 1..=4000;

/// A rating tag (`WhiteElo`, `BlackElo`): a whole number in [`RATINGS`]
/// (a `+` sign and leading zeros are read).
pub fn rating(text: &str) -> Option<u32> {
    let text = text.trim();
    let elo = match number(text) {
        Some(elo) => u32::try_from(elo).ok()?,
        None => text.parse::<u32>().ok()?,
    };
    Some(elo).filter(|elo| RATINGS.contains(elo))
}

/// A number tag written as at most `digits` digits, or `-`/`?` for none or
/// unknown (`WhiteElo`, `WhiteFideId`): the form the PGN standard asks
/// for.
pub fn is_number_or_unknown(text: &str, digits: usize) -> bool {
    matches!(text, "-" | "?") || (text.len() <= digits && number(text).is_some())
}

/// Whether a `Termination` tag says the game was decided on time: lichess
/// writes `Time forfeit`, chess.com `… won on time`.
pub fn on_time(termination: &str) -> bool {
    let termination = termination.trim();
    termination.eq_ignore_ascii_case("time forfeit")
        || termination.to_ascii_lowercase().ends_with("won on time")
}

/// A `TimeControl` tag (PGN standard 9.6.1): periods separated by `:`,
/// each `moves/seconds`, `seconds`, `seconds+increment` or `*seconds`
/// (sandclock); `moves/seconds+increment` is read too (FIDE classical
/// controls are written so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// `?`.
    Unknown,
    /// `-`: no time control (lichess writes it for correspondence).
    Untimed,
    /// The first period's base time and increment in seconds (what a
    /// game's speed is judged by).
    Timed {
        /// Base time of the first period.
        base: u64,
        /// Increment per move in the first period.
        increment: u64,
    },
}

impl TimeControl {
    /// Reads a time control (trimmed); `None` when it is none of the forms.
    pub fn parse(text: &str) -> Option<TimeControl> {
        let text = text.trim();
        match text {
            "?" => return Some(TimeControl::Unknown),
            "-" => return Some(TimeControl::Untimed),
            _ => {}
        }
        let mut first = None;
        for period in text.split(':') {
            let timing = period_timing(period)?;
            first.get_or_insert(timing);
        }
        let (base, increment) = first?;
        Some(TimeControl::Timed { base, increment })
    }

    /// What a game's speed is judged by: `-` and `?` as [`Self::parse`]
    /// reads them, else the first period alone (a later period may be
    /// malformed), `None` when it is malformed or its numbers overflow.
    pub fn first_period(text: &str) -> Option<TimeControl> {
        let text = text.trim();
        match text {
            "?" => return Some(TimeControl::Unknown),
            "-" => return Some(TimeControl::Untimed),
            _ => {}
        }
        let first = text.split(':').next()?;
        let (base, increment) = period_timing(first)?;
        let saturated = base == u64::MAX || increment == u64::MAX;
        (!saturated).then_some(TimeControl::Timed { base, increment })
    }
}

/// One period's base time and increment.
fn period_timing(period: &str) -> Option<(u64, u64)> {
    if let Some(sandclock) = period.strip_prefix('*') {
        return Some((number(sandclock)?, 0));
    }
    let timed = match period.split_once('/') {
        Some((moves, rest)) => {
            number(moves)?;
            rest
        }
        None => period,
    };
    match timed.split_once('+') {
        Some((base, increment)) => Some((number(base)?, number(increment)?)),
        None => Some((number(timed)?, 0)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_stated_ones() {
        assert_eq!(known(" C60 "), Some("C60"));
        assert_eq!([known(""), known(" ? ")], [None, None]);
        // `-` is known (an ECO code of `-` is kept as written), but states
        // nothing (a player or a site of `-`).
        assert_eq!((known("-"), stated("-")), (Some("-"), None));
    }

    #[test]
    fn results_come_from_the_tag_else_the_marker() {
        for result in ["1-0", "0-1", "1/2-1/2", "*"] {
            assert_eq!(GameResult::parse(result).map(GameResult::as_str), Some(result));
        }
        assert_eq!(GameResult::parse(" 1-0 "), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::parse("½-½"), None);
        assert_eq!(GameResult::of(Some("1-0"), Some("0-1")), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::of(Some("1:0"), Some("0-1")), Some(GameResult::BlackWins));
        assert_eq!(GameResult::of(Some("*"), Some("1-0")), Some(GameResult::Unfinished));
        assert_eq!(GameResult::of(None, None), None);
        assert_eq!(GameResult::Draw.white_halves(), Some(1));
        assert!(GameResult::BlackWins.is_decisive() && !GameResult::Draw.is_decisive());
    }

    #[test]
    fn dates_have_the_pgn_form() {
        let date = |y, m, d| Some(Date { year: y, month: m, day: d, standard: true });
        assert_eq!(Date::parse("2024.03.01"), date(Some(2024), Some(3), Some(1)));
        assert_eq!(Date::parse(" 1951.??.?? "), date(Some(1951), None, None));
        let sloppy = Date::parse("2013.5.6").unwrap();
        assert_eq!((sloppy.month, sloppy.day, sloppy.standard), (Some(5), Some(6), false));
        for bad in ["2024-03-01", "2024", "2024.03.01.", "2024.0?.01", "", "2021.05.09`", "24.3.1"]
        {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        let problem = |text: &str| Date::parse(text).and_then(Date::calendar_problem);
        for good in ["2024.02.29", "2023.12.31", "????.??.??", "2024.??.??", "????.02.29"] {
            assert_eq!(problem(good), None, "{good}");
        }
        assert_eq!(problem("2023.02.29").as_deref(), Some("month 2 has 28 days"));
        assert_eq!(problem("1900.02.29").as_deref(), Some("month 2 has 28 days"));
        assert_eq!(problem("2024.13.01").as_deref(), Some("there is no month 13"));
        assert_eq!(problem("2024.04.31").as_deref(), Some("month 4 has 30 days"));
        assert_eq!(problem("2024.01.00").as_deref(), Some("there is no day 0"));
        let key = |text: &str| Date::parse(text).and_then(Date::month_key);
        assert_eq!(
            [key("2023.05.10"), key("1951.13.01"), key("????.01.01")],
            [Some(202305), Some(195100), None]
        );
        assert_eq!(key("0000.01.01"), None, "year 0 would collide with undated");
        let d = |text: &str| Date::parse(text).unwrap();
        assert!(d("2024.01.12").before(d("2024.01.13")));
        assert!(!d("2024.01.13").before(d("2024.01.13")));
        assert!(!d("2024.??.??").before(d("2024.01.13")), "unknown parts compare as not before");
        assert!(d("2023.??.??").before(d("2024.01.13")));
    }

    #[test]
    fn rounds_are_numbers_with_dots() {
        assert_eq!(Round::parse("?"), Some(Round::Unknown));
        assert_eq!(Round::parse("-"), Some(Round::NotApplicable));
        assert_eq!(Round::parse("3"), Some(Round::Numbered { round: 3, sub: None, more: false }));
        assert_eq!(
            Round::parse("3.2.1"),
            Some(Round::Numbered { round: 3, sub: Some(2), more: true })
        );
        for bad in ["", "R3", "3.x", "3.", ".3", "3..1"] {
            assert_eq!(Round::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn ratings_and_numbers() {
        assert_eq!(rating("2983"), Some(2983));
        assert_eq!(rating(" 1500 "), Some(1500));
        assert_eq!(rating("+1500"), Some(1500));
        assert_eq!(rating("0999"), Some(999));
        for none in ["0", "4001", "4294967295", "12345678901", "?", "-", ""] {
            assert_eq!(rating(none), None, "{none}");
        }
        assert!(is_number_or_unknown("2700", 4) && is_number_or_unknown("?", 4));
        assert!(!is_number_or_unknown("27000", 4) && !is_number_or_unknown("", 4));
    }

    #[test]
    fn time_controls() {
        let timed = |base, increment| Some(TimeControl::Timed { base, increment });
        assert_eq!(TimeControl::parse("300+2"), timed(300, 2));
        assert_eq!(TimeControl::parse("40/7200:3600"), timed(7200, 0));
        assert_eq!(TimeControl::parse("40/5400+30:1800+30"), timed(5400, 30));
        assert_eq!(TimeControl::parse("*180"), timed(180, 0));
        assert_eq!(TimeControl::parse("-"), Some(TimeControl::Untimed));
        assert_eq!(TimeControl::parse("?"), Some(TimeControl::Unknown));
        // A game's speed reads the first period only.
        assert_eq!(TimeControl::parse("300:"), None);
        assert_eq!(TimeControl::first_period("300:"), timed(300, 0));
        assert_eq!(TimeControl::first_period("300+2:x"), timed(300, 2));
        assert_eq!(TimeControl::first_period("99999999999999999999999"), None);
        for bad in ["", "5 min", "300+", "+2", "40/", "300:", "1/2/3", "G/90", "90'+30''"] {
            assert_eq!(TimeControl::parse(bad), None, "{bad}");
        }
    }
}
