//! Headers: the tags of each game beyond what `validate` checks (roster
//! order, calendar dates, EventDate, ratings, FIDE IDs, TimeControl), and
//! across the games of the input (several events, differing sites).
//!
//! Input: records with their tags; output: `Finding`s at the game's first
//! line (records keep tags without their lines), naming the tag.

use std::collections::{HashMap, HashSet};

use crate::{
    diagnostic::{Finding, codes::Code},
    pgn::{
        tags::ROSTER,
        values::{Date, TimeControl, is_number_or_unknown, stated},
    },
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
    // Dates in the standard's form only: another form is reported as
    // malformed (by the tag checks for Date, here for EventDate).
    let standard = |text: &str| Date::parse(text).filter(|date| date.standard);
    let date = event::tag(r, "Date").and_then(standard);
    let event_date = event::tag(r, "EventDate");
    let parsed_event_date = event_date.and_then(standard);
    if let (Some(value), None) = (event_date, parsed_event_date) {
        push(
            Code::MalformedTag,
            format!("EventDate \"{value}\": not a date of the form YYYY.MM.DD (?? for unknown)"),
        );
    }
    for (name, parsed) in [("Date", date), ("EventDate", parsed_event_date)] {
        if let Some(problem) = parsed.and_then(Date::calendar_problem) {
            let value = event::tag(r, name).unwrap_or_default();
            push(Code::InvalidDate, format!("{name} \"{value}\": {problem}"));
        }
    }
    if let (Some(date), Some(start)) = (date, parsed_event_date)
        && date.before(start)
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
        && TimeControl::parse(value).is_none()
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

/// The events W310 names; the others are counted.
const LISTED_EVENTS: usize = 5;

/// Reports several events in the input (one finding, with the list) and,
/// per event, games whose Site differs from the event's usual one.
pub fn check_events(records: &[Game], events: &[Event], findings: &mut Vec<Finding>) {
    if let [_, second, ..] = events {
        // The first few by name: a line, not a list of thousands.
        let mut list: Vec<String> = events
            .iter()
            .take(LISTED_EVENTS)
            .map(|e| {
                let first = &records[e.games[0]];
                event::describe(e.name.as_deref(), e.games.len(), &first.file, first.line)
            })
            .collect();
        if events.len() > LISTED_EVENTS {
            list.push(format!("and {} more", events.len() - LISTED_EVENTS));
        }
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
            .filter_map(|&i| event::tag(&records[i], "Site").and_then(stated).map(|s| (i, s)))
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
