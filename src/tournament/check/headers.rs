//! Headers: the tags of each game beyond what `validate` checks (roster
//! order, calendar dates, EventDate, ratings, FIDE IDs, TimeControl), and
//! across the games of the input (several events, differing sites).
//!
//! Input: records with their tags; output: `Finding`s at the game's first
//! line (records keep tags without their lines), naming the tag.

use std::collections::{HashMap, HashSet};

use crate::{
    diagnostic::{Finding, codes::Code},
    pgn::tags::ROSTER,
    tournament::{
        Game,
        event::{self, Event},
        players::plural,
    },
};

/// Appends the header findings of game `i`.
pub fn check(i: usize, r: &Game, findings: &mut Vec<Finding>) {
    let mut push = |code, message| findings.push(Finding::game(code, i, r, message));
    if let Some(order) = roster_order(r) {
        push(Code::RosterOrder, order);
    }
    let date = event::tag(r, "Date").and_then(parse_date);
    let event_date = event::tag(r, "EventDate");
    let parsed_event_date = event_date.and_then(parse_date);
    if let (Some(value), None) = (event_date, parsed_event_date) {
        push(
            Code::MalformedTag,
            format!("EventDate \"{value}\": not a date of the form YYYY.MM.DD (?? for unknown)"),
        );
    }
    for (name, parsed) in [("Date", date), ("EventDate", parsed_event_date)] {
        if let Some(problem) = parsed.and_then(calendar_problem) {
            let value = event::tag(r, name).unwrap_or_default();
            push(Code::InvalidDate, format!("{name} \"{value}\": {problem}"));
        }
    }
    if let (Some(date), Some(start)) = (date, parsed_event_date)
        && before(date, start)
    {
        let (d, e) = (event::tag(r, "Date").unwrap_or_default(), event_date.unwrap_or_default());
        push(Code::DateBeforeEvent, format!("Date \"{d}\" is before EventDate \"{e}\""));
    }
    for (name, code, digits, what) in [
        ("WhiteElo", Code::MalformedRating, 4, "a rating"),
        ("BlackElo", Code::MalformedRating, 4, "a rating"),
        ("WhiteFideId", Code::MalformedFideId, 10, "a FIDE ID"),
        ("BlackFideId", Code::MalformedFideId, 10, "a FIDE ID"),
    ] {
        if let Some(value) = event::tag(r, name)
            && !is_number_or_unknown(value, digits)
        {
            push(code, format!("{name} \"{value}\": not {what} (digits, or - when there is none)"));
        }
    }
    if let Some(value) = event::tag(r, "TimeControl")
        && !is_time_control(value)
    {
        push(
            Code::MalformedTimeControl,
            format!(
                "TimeControl \"{value}\": not of the form 40/7200:3600, 5400+30, 300, *60, ? or -"
            ),
        );
    }
}

/// What is out of order when the tags present of the Seven Tag Roster are
/// not the first tags, in roster order.
fn roster_order(r: &Game) -> Option<String> {
    // Each name once, where it first stands (a set: a hostile game may
    // have a hundred thousand tags).
    let mut seen = HashSet::new();
    let names: Vec<&str> =
        r.tags.iter().map(|(name, _)| name).filter(|n| seen.insert(*n)).collect();
    let expected: Vec<&str> = ROSTER.iter().copied().filter(|n| seen.contains(n)).collect();
    let first = &names[..expected.len()];
    (first != expected).then(|| {
        format!(
            "the first tags are {}; the Seven Tag Roster comes first, in the order {}",
            first.join(", "),
            expected.join(", ")
        )
    })
}

/// A PGN date's year, month and day; `None` for an unknown part (`??`).
type Date = (Option<u32>, Option<u32>, Option<u32>);

/// `YYYY.MM.DD`, each part digits or all question marks.
fn parse_date(value: &str) -> Option<Date> {
    let mut parts = value.split('.');
    let mut part = |len: usize| -> Option<Option<u32>> {
        let part = parts.next().filter(|p| p.len() == len)?;
        if part.bytes().all(|b| b == b'?') {
            Some(None)
        } else if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().ok().map(Some)
        } else {
            None
        }
    };
    let date = (part(4)?, part(2)?, part(2)?);
    parts.next().is_none().then_some(date)
}

/// Why a well-formed date is not in the calendar, if it is not.
fn calendar_problem((year, month, day): Date) -> Option<String> {
    if let Some(month) = month
        && !(1..=12).contains(&month)
    {
        return Some(format!("there is no month {month}"));
    }
    let day = day?;
    let last = match month {
        Some(2) => match year {
            Some(y) if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
            Some(_) => 28,
            None => 29,
        },
        Some(4 | 6 | 9 | 11) => 30,
        _ => 31,
    };
    (!(1..=last).contains(&day)).then(|| match month {
        Some(month) if day > 0 => format!("month {month} has {last} days"),
        _ => format!("there is no day {day}"),
    })
}

/// Whether `date` is certainly before `start`: compared part by part
/// while both parts are known.
fn before(date: Date, start: Date) -> bool {
    for (a, b) in [(date.0, start.0), (date.1, start.1), (date.2, start.2)] {
        match (a, b) {
            (Some(a), Some(b)) if a != b => return a < b,
            (Some(_), Some(_)) => {}
            _ => return false,
        }
    }
    false
}

/// At most `digits` digits, or `-`/`?` for none or unknown.
fn is_number_or_unknown(value: &str, digits: usize) -> bool {
    matches!(value, "-" | "?")
        || (!value.is_empty() && value.len() <= digits && value.bytes().all(|b| b.is_ascii_digit()))
}

/// PGN standard 9.6.1: `?`, `-`, or periods separated by `:`, each
/// `moves/seconds`, `seconds`, `seconds+increment` or `*seconds`
/// (sandclock); `moves/seconds+increment` is accepted too (FIDE classical
/// controls are written so).
fn is_time_control(value: &str) -> bool {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let period = |p: &str| {
        if let Some(sandclock) = p.strip_prefix('*') {
            return number(sandclock);
        }
        let timed =
            p.split_once('/').map_or(p, |(moves, rest)| if number(moves) { rest } else { "" });
        match timed.split_once('+') {
            Some((base, increment)) => number(base) && number(increment),
            None => number(timed),
        }
    };
    matches!(value, "?" | "-") || value.split(':').all(period)
}

/// Reports several events in the input (one finding, with the list) and,
/// per event, games whose Site differs from the event's usual one.
pub fn check_events(records: &[Game], events: &[Event], findings: &mut Vec<Finding>) {
    if let [_, second, ..] = events {
        let list: Vec<String> = events
            .iter()
            .map(|e| {
                let first = &records[e.games[0]];
                format!(
                    "\"{}\" ({}, from {}:{})",
                    e.name.as_deref().unwrap_or("no Event tag"),
                    plural(e.games.len(), "game"),
                    first.file,
                    first.line
                )
            })
            .collect();
        let at = second.games[0];
        findings.push(Finding::game(
            Code::SeveralEvents,
            at,
            &records[at],
            format!("{} events in the input: {}", events.len(), list.join(", ")),
        ));
    }
    for event in events {
        let sites: Vec<(usize, &str)> = event
            .games
            .iter()
            .filter_map(|&i| event::known(event::tag(&records[i], "Site")).map(|s| (i, s)))
            .collect();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for (_, site) in &sites {
            *counts.entry(site).or_default() += 1;
        }
        // The most common site; the first seen among equally common ones.
        let Some(usual) = sites
            .iter()
            .map(|(_, s)| *s)
            .reduce(|best, s| if counts[s] > counts[best] { s } else { best })
        else {
            continue;
        };
        for &(i, site) in sites.iter().filter(|(_, s)| *s != usual) {
            findings.push(Finding::game(
                Code::SiteMismatch,
                i,
                &records[i],
                format!(
                    "Site \"{site}\", but \"{usual}\" in {} of the event",
                    plural(counts[usual], "game")
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::event::tests::record;

    #[test]
    fn calendar_dates() {
        let problem = |value: &str| parse_date(value).and_then(calendar_problem);
        for good in ["2024.02.29", "2023.12.31", "????.??.??", "2024.??.??", "????.02.29"] {
            assert_eq!(problem(good), None, "{good}");
        }
        assert_eq!(problem("2023.02.29").as_deref(), Some("month 2 has 28 days"));
        assert_eq!(problem("1900.02.29").as_deref(), Some("month 2 has 28 days"));
        assert_eq!(problem("2024.13.01").as_deref(), Some("there is no month 13"));
        assert_eq!(problem("2024.04.31").as_deref(), Some("month 4 has 30 days"));
        assert_eq!(problem("2024.01.00").as_deref(), Some("there is no day 0"));
        assert_eq!(parse_date("2024-01-01"), None);
    }

    #[test]
    fn dates_compare_while_known() {
        let d = |v: &str| parse_date(v).unwrap_or_default();
        assert!(before(d("2024.01.12"), d("2024.01.13")));
        assert!(!before(d("2024.01.13"), d("2024.01.13")));
        assert!(!before(d("2024.??.??"), d("2024.01.13")));
        assert!(before(d("2023.??.??"), d("2024.01.13")));
    }

    #[test]
    fn time_controls() {
        for good in ["40/7200:3600", "5400+30", "300", "*60", "?", "-", "40/5400+30:1800+30"] {
            assert!(is_time_control(good), "{good}");
        }
        for bad in ["90+30 min", "", "40/", "+30", "G/90", "90'+30''"] {
            assert!(!is_time_control(bad), "{bad}");
        }
    }

    #[test]
    fn the_roster_comes_first_in_order() {
        let tags = |names: &[&'static str]| {
            let tags: Vec<(&str, &str)> = names.iter().map(|n| (*n, "x")).collect();
            roster_order(&record(&tags))
        };
        assert_eq!(
            tags(&["Event", "Site", "Date", "Round", "White", "Black", "Result", "ECO"]),
            None
        );
        assert_eq!(tags(&["Event", "Site", "White", "Black", "Result"]), None);
        assert!(tags(&["Event", "Date", "Site", "Round", "White", "Black", "Result"]).is_some());
        assert!(
            tags(&["ECO", "Event", "Site", "Date", "Round", "White", "Black", "Result"]).is_some()
        );
    }
}
