//! Predicates on a game's tags, decided from its tag section before any
//! move is replayed: players (with `check`'s name folding), event, site,
//! round, date and rating ranges, result, ECO range, opening, variant,
//! speed, lichess's `Termination`, and any tag by value or pattern.

use std::borrow::Cow;

use regex::Regex;

use crate::{
    chess::setup::variant_name,
    pgn::{
        names::{compatible, fold},
        tags::TagSet,
        values::{Date, GameResult, Speed, rating},
    },
};

use super::Range;

/// One test of a game's tags.
#[derive(Debug, Clone)]
pub enum TagTest {
    /// A player (`--player`, `--white`, `--black`), folded.
    Player {
        /// Which side's name is compared.
        side: Side,
        /// The name asked for, folded (`pgn::names::fold`).
        name: Vec<String>,
    },
    /// `tag` contains `text`, ignoring case (`--event`, `--site`, `--opening`).
    Contains {
        /// The tag's name.
        tag: &'static str,
        /// Lower case.
        text: String,
    },
    /// `tag` is `text`, ignoring case (`--termination-tag`).
    Equals {
        /// The tag's name.
        tag: &'static str,
        /// Lower case.
        text: String,
    },
    /// `Round` is `round`, or a game of it (`round.board`).
    Round(String),
    /// The date lies wholly within the range (`--date`).
    Date(Range<u32>),
    /// Ratings in a range (`--elo` and its kin).
    Elo(EloOf, Range<u32>),
    /// The rating gap, either way (`--elo-diff`).
    EloDiff(Range<u32>),
    /// The `Result` tag (`--result`).
    Result(GameResult),
    /// The `ECO` code within a range (`--eco`).
    Eco(String, String),
    /// The variant, by its record name (`--variant`).
    Variant(String),
    /// The speed class of `TimeControl` (`--speed`).
    Speed(Speed),
    /// Any tag (`--tag NAME=VALUE`, `--tag NAME~REGEX`).
    Tag {
        /// The tag's name, as written (case counts).
        name: String,
        /// What its value must be.
        value: TagValue,
    },
}

/// Whose name a player test reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// White or Black.
    Either,
    /// `White`.
    White,
    /// `Black`.
    Black,
}

/// Whose rating a rating range reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EloOf {
    /// Both players (`--elo`).
    Both,
    /// At least one player (`--either-elo`).
    Either,
    /// The mean of the two (`--average-elo`).
    Average,
    /// White (`--white-elo`).
    White,
    /// Black (`--black-elo`).
    Black,
}

/// A tag value asked for.
#[derive(Debug, Clone)]
pub enum TagValue {
    /// Exactly this text, after trimming.
    Exact(String),
    /// Matched anywhere by this pattern (anchor it with `^…$`).
    Pattern(Regex),
}

impl TagTest {
    /// A player test: `name` as written on the command line.
    pub fn player(side: Side, name: &str) -> Result<TagTest, String> {
        let name = fold(name);
        if name.is_empty() {
            return Err("a name needs a letter or a digit".into());
        }
        Ok(TagTest::Player { side, name })
    }

    /// A date range: `FROM..TO`, either end open, each end `YYYY`,
    /// `YYYY.MM` or `YYYY.MM.DD`; one date alone is its own range.
    pub fn date(text: &str) -> Result<TagTest, String> {
        let bound = |text: &str, last: bool| -> Result<u32, String> {
            let parts: Vec<&str> = text.split('.').collect();
            let number = |part: &str, max: u32| {
                part.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| format!("not a date: {text} (YYYY, YYYY.MM or YYYY.MM.DD)"))
            };
            let year = number(parts[0], 9999)?;
            let month = parts.get(1).map(|m| number(m, 12)).transpose()?;
            let day = parts.get(2).map(|d| number(d, 31)).transpose()?;
            if parts.len() > 3 {
                return Err(format!("not a date: {text} (YYYY, YYYY.MM or YYYY.MM.DD)"));
            }
            let (month, day) = if last {
                (month.unwrap_or(12), day.unwrap_or(31))
            } else {
                (month.unwrap_or(1), day.unwrap_or(1))
            };
            Ok(day_number(year, month, day))
        };
        let (from, to) = split_range(text);
        let range = Range {
            min: from.map(|from| bound(from, false)).transpose()?,
            max: to.map(|to| bound(to, true)).transpose()?,
        };
        if range.min.is_none() && range.max.is_none() {
            return Err("an empty date range".into());
        }
        if let (Some(min), Some(max)) = (range.min, range.max)
            && min > max
        {
            return Err(format!(
                "{text}: a date range whose start is after its end matches nothing"
            ));
        }
        Ok(TagTest::Date(range))
    }

    /// An ECO range: `B90..B99`, or one code or its prefix (`B9`: B90 to
    /// B99).
    pub fn eco(text: &str) -> Result<TagTest, String> {
        let code = |text: &str, fill: char| -> Result<String, String> {
            let text = text.trim().to_ascii_uppercase();
            let mut chars = text.chars();
            let ok = text.len() <= 3
                && chars.next().is_some_and(|c| ('A'..='E').contains(&c))
                && chars.all(|c| c.is_ascii_digit());
            if !ok {
                return Err(format!("not an ECO code: {text} (A00 to E99, or a prefix)"));
            }
            let mut code = text;
            while code.len() < 3 {
                code.push(fill);
            }
            Ok(code)
        };
        match text.split_once("..") {
            Some((from, to)) => {
                let from = if from.is_empty() { "A00".into() } else { code(from, '0')? };
                let to = if to.is_empty() { "E99".into() } else { code(to, '9')? };
                if from > to {
                    return Err(format!("{text}: an ECO range whose start is after its end"));
                }
                Ok(TagTest::Eco(from, to))
            }
            None => Ok(TagTest::Eco(code(text, '0')?, code(text, '9')?)),
        }
    }

    /// `NAME=VALUE` or `NAME~PATTERN`.
    pub fn tag(text: &str) -> Result<TagTest, String> {
        let at = text.find(['=', '~']).ok_or_else(|| {
            format!("--tag {text}: write NAME=VALUE, or NAME~PATTERN for a regular expression")
        })?;
        let (name, value) = (text[..at].trim(), &text[at + 1..]);
        if name.is_empty() {
            return Err(format!("--tag {text}: no tag name before `{}`", &text[at..=at]));
        }
        let value = if text.as_bytes()[at] == b'=' {
            TagValue::Exact(value.trim().to_owned())
        } else {
            TagValue::Pattern(Regex::new(value).map_err(|error| format!("--tag {text}: {error}"))?)
        };
        Ok(TagTest::Tag { name: name.to_owned(), value })
    }

    /// A variant by any of its names (`standard` is `chess`).
    pub fn variant(text: &str) -> TagTest {
        TagTest::Variant(variant_name(Some(text)).into_owned())
    }

    /// Whether the game's tags pass.
    pub fn matches(&self, tags: &TagSet<'_>) -> bool {
        match self {
            TagTest::Player { side, name } => {
                let is =
                    |tag: &str| tag_value(tags, tag).is_some_and(|value| same_player(name, &value));
                match side {
                    Side::Either => is("White") || is("Black"),
                    Side::White => is("White"),
                    Side::Black => is("Black"),
                }
            }
            TagTest::Contains { tag, text } => tag_value(tags, tag)
                .is_some_and(|value| value.to_lowercase().contains(text.as_str())),
            TagTest::Equals { tag, text } => {
                tag_value(tags, tag).is_some_and(|value| value.trim().to_lowercase() == *text)
            }
            TagTest::Round(round) => tag_value(tags, "Round").is_some_and(|value| {
                let value = value.trim();
                value == round
                    || value.strip_prefix(round.as_str()).is_some_and(|rest| rest.starts_with('.'))
            }),
            TagTest::Date(range) => {
                tag_value(tags, "Date").and_then(|v| Date::parse(&v)).is_some_and(|date| {
                    let Some(year) = date.year else { return false };
                    let first = day_number(year, date.month.unwrap_or(1), date.day.unwrap_or(1));
                    let last = day_number(year, date.month.unwrap_or(12), date.day.unwrap_or(31));
                    range.min.is_none_or(|min| first >= min)
                        && range.max.is_none_or(|max| last <= max)
                })
            }
            TagTest::Elo(of, range) => {
                let white = elo(tags, "WhiteElo");
                let black = elo(tags, "BlackElo");
                let within = |elo: Option<u32>| elo.is_some_and(|elo| range.contains(elo));
                match of {
                    EloOf::Both => within(white) && within(black),
                    EloOf::Either => within(white) || within(black),
                    EloOf::White => within(white),
                    EloOf::Black => within(black),
                    EloOf::Average => within(white.zip(black).map(|(w, b)| (w + b) / 2)),
                }
            }
            TagTest::EloDiff(range) => elo(tags, "WhiteElo")
                .zip(elo(tags, "BlackElo"))
                .is_some_and(|(white, black)| range.contains(white.abs_diff(black))),
            TagTest::Result(result) => {
                tag_value(tags, "Result").and_then(|r| GameResult::parse(&r)) == Some(*result)
            }
            TagTest::Eco(from, to) => tag_value(tags, "ECO").is_some_and(|eco| {
                let eco = eco.trim().to_ascii_uppercase();
                eco.len() == 3 && *from <= eco && eco <= *to
            }),
            TagTest::Variant(variant) => {
                *variant_name(tag_value(tags, "Variant").as_deref()) == **variant
            }
            TagTest::Speed(speed) => Speed::of(tag_value(tags, "TimeControl").as_deref()) == *speed,
            TagTest::Tag { name, value } => tag_value(tags, name).is_some_and(|text| match value {
                TagValue::Exact(exact) => text.trim() == exact,
                TagValue::Pattern(pattern) => pattern.is_match(&text),
            }),
        }
    }
}

/// Whether a name as written is the player asked for: `check`'s rule (the
/// same words in any order, or initials for some), or, for a one-word
/// query (a surname, a lichess username), that word among the name's.
fn same_player(query: &[String], name: &str) -> bool {
    let name = fold(name);
    compatible(query, &name) || (query.len() == 1 && name.contains(&query[0]))
}

/// The value of tag `name`: a roster tag's from its slot, any other's by
/// looking through the tags.
fn tag_value<'a>(tags: &TagSet<'a>, name: &str) -> Option<Cow<'a, str>> {
    match name {
        "Variant" => tags.variant.map(|raw| tags.text(raw)),
        _ => tags.get(name).or_else(|| tags.first(name)),
    }
}

fn elo(tags: &TagSet<'_>, tag: &str) -> Option<u32> {
    tag_value(tags, tag).and_then(|value| rating(&value))
}

/// A day as a number that orders dates (not a calendar count).
fn day_number(year: u32, month: u32, day: u32) -> u32 {
    year * 10_000 + month * 100 + day
}

/// `A..B`, `A..`, `..B`, or `A` (both ends).
pub(super) fn split_range(text: &str) -> (Option<&str>, Option<&str>) {
    fn some(s: &str) -> Option<&str> {
        Some(s.trim()).filter(|s| !s.is_empty())
    }
    match text.split_once("..") {
        Some((from, to)) => (some(from), some(to)),
        None => (some(text), some(text)),
    }
}
