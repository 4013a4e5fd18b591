//! Pairings: duplicated games across the input, and per event a player at
//! most once per round, one game per board, rounds within the event's
//! number of rounds, and no pair meeting more often than its format allows.
//!
//! Input: records, the events, the resolved players and the options;
//! output: `Finding`s at the later of the two games concerned (the earlier
//! one is named in the message).

use std::collections::{HashMap, HashSet};

use compact_str::CompactString;

use super::{
    CheckOptions, EventFormat, Finding,
    event::{self, Event},
    players::{self, Players},
};
use crate::{codes::Code, record::GameRecord};

/// Identical move sequences at least this long are one game even under
/// different names: two real games do not repeat 40 plies by chance, so
/// the copy carries the wrong names.
const COPIED_GAME_PLIES: u32 = 40;

/// `game 3 (line 40)`.
fn refer(r: &GameRecord) -> String {
    format!("game {} (line {})", r.index, r.line)
}

/// Reports duplicated games: equal moves (at least one) and the same two
/// players in either colour, or names that are spellings of theirs, or
/// any names when the game is long. Returns the copies (every game after
/// the first of its kind), which the pairing checks then skip.
pub fn duplicates(records: &[GameRecord], findings: &mut Vec<Finding>) -> HashSet<usize> {
    let mut by_moves: HashMap<(u64, u32), Vec<usize>> = HashMap::new();
    let mut copies = HashSet::new();
    for (i, r) in records.iter().enumerate().filter(|(_, r)| r.plies > 0) {
        let earlier = by_moves.entry((r.moves_hash, r.plies)).or_default();
        let original = earlier
            .iter()
            .copied()
            .find(|&j| r.plies >= COPIED_GAME_PLIES || same_players(r, &records[j]));
        match original {
            Some(j) => {
                copies.insert(i);
                let o = &records[j];
                let names = |g: &GameRecord| {
                    format!(
                        "{} - {}",
                        g.white.as_deref().unwrap_or("?"),
                        g.black.as_deref().unwrap_or("?")
                    )
                };
                findings.push(Finding::game(
                    Code::DuplicateGame,
                    i,
                    r,
                    format!(
                        "the same {} as {} in {} ({})",
                        if r.plies == 1 { "move".to_owned() } else { format!("{} plies", r.plies) },
                        refer(o),
                        o.file,
                        names(o)
                    ),
                ));
            }
            None => earlier.push(i),
        }
    }
    copies
}

/// Whether two games are between the same two people, in either colour.
fn same_players(a: &GameRecord, b: &GameRecord) -> bool {
    let same = |x: &Option<CompactString>, y: &Option<CompactString>| {
        players::same_person(x.as_deref().unwrap_or(""), y.as_deref().unwrap_or(""))
    };
    (same(&a.white, &b.white) && same(&a.black, &b.black))
        || (same(&a.white, &b.black) && same(&a.black, &b.white))
}

/// How often a pair may meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Meetings {
    /// The format is not known: any repeat is listed for review.
    Unknown,
    /// At most this many times.
    AtMost(usize),
    /// Any number of times (a match).
    Any,
}

fn meetings(options: &CheckOptions, players: usize) -> Meetings {
    match (options.format, options.rounds) {
        (Some(EventFormat::Swiss | EventFormat::RoundRobin), _) => Meetings::AtMost(1),
        (Some(EventFormat::DoubleRoundRobin), _) => Meetings::AtMost(2),
        (Some(EventFormat::Match), _) => Meetings::Any,
        (None, Some(rounds)) => {
            // One cycle of a round robin takes n - 1 rounds for an even
            // number of players, n (with a bye each round) for an odd one.
            let cycle = if players.is_multiple_of(2) { players.saturating_sub(1) } else { players };
            Meetings::AtMost((rounds as usize / cycle.max(1)).max(1))
        }
        (None, None) => Meetings::Unknown,
    }
}

/// Checks the pairings of one event; `copies` are skipped.
pub fn check(
    records: &[GameRecord],
    event: &Event,
    players: &Players,
    copies: &HashSet<usize>,
    options: &CheckOptions,
    findings: &mut Vec<Finding>,
) {
    let mut in_round: HashMap<(u32, usize), usize> = HashMap::new();
    let mut on_board: HashMap<(u32, u32), usize> = HashMap::new();
    let mut pairs: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    let mut order: Vec<(usize, usize)> = Vec::new();
    for &i in event.games.iter().filter(|i| !copies.contains(i)) {
        let r = &records[i];
        let slot = event::slot(r);
        let sides = players.sides.get(&i).copied().unwrap_or_default();
        if let (Some(slot), Some(rounds)) = (slot, options.rounds)
            && !(1..=rounds).contains(&slot.round)
        {
            let message = format!("round {} in an event of {rounds} rounds", slot.round);
            findings.push(Finding::game(Code::RoundOutOfRange, i, r, message));
        }
        if let Some(slot) = slot {
            let mut seen = sides.iter().flatten().collect::<Vec<_>>();
            seen.dedup();
            for player in seen {
                if let Some(&j) = in_round.get(&(slot.round, *player)) {
                    let message = format!(
                        "{} plays twice in round {}: also {}",
                        players.names[*player],
                        slot.round,
                        refer(&records[j])
                    );
                    findings.push(Finding::game(Code::PlayerTwiceInRound, i, r, message));
                } else {
                    in_round.insert((slot.round, *player), i);
                }
            }
            if let Some(board) = slot.board {
                if let Some(&j) = on_board.get(&(slot.round, board)) {
                    let message = format!(
                        "round {}, board {board} holds two games: also {}",
                        slot.round,
                        refer(&records[j])
                    );
                    findings.push(Finding::game(Code::DuplicateBoard, i, r, message));
                } else {
                    on_board.insert((slot.round, board), i);
                }
            }
        }
        if let [Some(white), Some(black)] = sides
            && white != black
        {
            let pair = (white.min(black), white.max(black));
            let games = pairs.entry(pair).or_default();
            if games.is_empty() {
                order.push(pair);
            }
            games.push(i);
        }
    }
    let allowed = meetings(options, players.names.len());
    for pair in order {
        let mut games = pairs.remove(&pair).unwrap_or_default();
        // Meetings count in round order (input order within a round).
        games.sort_by_key(|&i| (event::slot(&records[i]).map_or(u32::MAX, |s| s.round), i));
        let (code, limit) = match allowed {
            Meetings::Any => continue,
            Meetings::Unknown => (Code::RepeatPairing, 1),
            Meetings::AtMost(n) => (Code::TooManyMeetings, n),
        };
        let first = &records[games[0]];
        for (nth, &i) in games.iter().enumerate().skip(limit) {
            let mut message = format!(
                "{} and {} meet for the {} time (first: {})",
                players.names[pair.0],
                players.names[pair.1],
                ordinal(nth + 1),
                refer(first)
            );
            if code == Code::TooManyMeetings {
                message.push_str(&format!("; the format allows {limit}"));
            }
            findings.push(Finding::game(code, i, &records[i], message));
        }
    }
}

/// `2nd`, `3rd`, `11th`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meetings_follow_the_format_or_the_rounds() {
        let options = |format, rounds| CheckOptions { format, rounds, ..CheckOptions::default() };
        assert_eq!(meetings(&options(None, None), 10), Meetings::Unknown);
        assert_eq!(meetings(&options(Some(EventFormat::Swiss), None), 10), Meetings::AtMost(1));
        assert_eq!(
            meetings(&options(Some(EventFormat::DoubleRoundRobin), None), 10),
            Meetings::AtMost(2)
        );
        // 10 players: 9 rounds a cycle; 18 rounds = a double round robin.
        assert_eq!(meetings(&options(None, Some(9)), 10), Meetings::AtMost(1));
        assert_eq!(meetings(&options(None, Some(18)), 10), Meetings::AtMost(2));
        // 5 players: 5 rounds a cycle (one bye each round); a 3-round Swiss.
        assert_eq!(meetings(&options(None, Some(10)), 5), Meetings::AtMost(2));
        assert_eq!(meetings(&options(None, Some(3)), 5), Meetings::AtMost(1));
    }

    #[test]
    fn ordinals() {
        let all: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].into_iter().map(ordinal).collect();
        assert_eq!(all, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
    }
}
