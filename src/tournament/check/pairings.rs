//! Pairings: duplicated games across the input, and per event a player at
//! most once per round, one game per board, rounds within the event's
//! number of rounds, no player against themselves, and no pair meeting
//! more often than its format allows.
//!
//! Input: records, the events, the resolved players and the options;
//! output: `Finding`s at the later of the two games concerned (the earlier
//! one is named in the message).

use std::collections::{HashMap, HashSet};

use compact_str::CompactString;

use super::CheckOptions;
use crate::{
    diagnostic::{Finding, codes::Code},
    tournament::{
        EventFormat, Game,
        event::{self, Event},
        players::{self, Players},
    },
};

/// Identical move sequences at least this long are one game even under
/// different names: two real games do not repeat 40 plies by chance, so
/// the copy carries the wrong names.
const COPIED_GAME_PLIES: u32 = 40;

/// `game 3 (line 40)`.
fn refer(r: &Game) -> String {
    format!("game {} (line {})", r.index, r.line)
}

/// Short games with the same moves are compared by their players with at
/// most this many earlier ones; past them, only a game whose players' names
/// fold to the same words is found. (A file of thousands of forfeits
/// `1. e4 1-0` would otherwise compare every pair of them.)
const MAX_COMPARED: usize = 64;

/// The earlier games with one sequence of moves.
#[derive(Default)]
struct SameMoves {
    /// The first [`MAX_COMPARED`], with their players' folded names.
    compared: Vec<(usize, Sides)>,
    /// Every one by its players' folded names, the first of each pair.
    by_names: HashMap<PairKey, usize>,
}

/// White's and Black's names, folded ([`players::fold`]).
type Sides = [Vec<String>; 2];

/// Two players' folded names, with their words sorted, in either colour:
/// equal for games that [`same_players`] joins because their names are
/// the same words.
type PairKey = [Vec<String>; 2];

fn pair_key([white, black]: &Sides) -> Option<PairKey> {
    let sorted = |words: &Vec<String>| {
        let mut words = words.clone();
        words.sort_unstable();
        words
    };
    let (white, black) = (sorted(white), sorted(black));
    // Empty names are no one's: `same_players` joins them with no name.
    if white.is_empty() || black.is_empty() {
        return None;
    }
    Some(if white <= black { [white, black] } else { [black, white] })
}

/// Reports duplicated games: equal moves (at least one) and the same two
/// players in either colour, or names that are spellings of theirs, or
/// any names when the game is long. Returns the copies (every game after
/// the first of its kind), which the pairing checks then skip.
pub fn duplicates(records: &[Game], findings: &mut Vec<Finding>) -> HashSet<usize> {
    let mut by_moves: HashMap<(u64, u32), SameMoves> = HashMap::new();
    let mut copies = HashSet::new();
    for (i, r) in records.iter().enumerate().filter(|(_, r)| r.plies > 0) {
        let earlier = by_moves.entry((r.moves_hash, r.plies)).or_default();
        let original = if r.plies >= COPIED_GAME_PLIES {
            let first = earlier.compared.first().map(|&(j, _)| j);
            if first.is_none() {
                earlier.compared.push((i, Sides::default()));
            }
            first
        } else {
            let fold = |name: &Option<CompactString>| players::fold(name.as_deref().unwrap_or(""));
            let sides = [fold(&r.white), fold(&r.black)];
            let key = pair_key(&sides);
            let compared = earlier
                .compared
                .iter()
                .find(|(_, other)| same_players(&sides, other))
                .map(|&(j, _)| j);
            let named = key.as_ref().and_then(|key| earlier.by_names.get(key).copied());
            let original = compared.into_iter().chain(named).min();
            if original.is_none() {
                if let Some(key) = key {
                    earlier.by_names.insert(key, i);
                }
                if earlier.compared.len() < MAX_COMPARED {
                    earlier.compared.push((i, sides));
                }
            }
            original
        };
        if let Some(j) = original {
            copies.insert(i);
            let o = &records[j];
            let names = |g: &Game| {
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
    }
    copies
}

/// Whether two games, by their players' folded names, are between the
/// same two people, in either colour.
fn same_players([white, black]: &Sides, [other_white, other_black]: &Sides) -> bool {
    let same = |a: &[String], b: &[String]| players::compatible(a, b);
    (same(white, other_white) && same(black, other_black))
        || (same(white, other_black) && same(black, other_white))
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
    records: &[Game],
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
        // In a match every round is a game (or several: `Round "1.1"`,
        // `"1.2"`) of the same two players, so playing twice in a round is
        // the format, not a fault.
        let is_match = options.format == Some(EventFormat::Match);
        if let Some(slot) = slot
            && !is_match
        {
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
        }
        if let Some(slot) = slot
            && let Some(board) = slot.board
        {
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
        if let [Some(white), Some(black)] = sides
            && white == black
        {
            let written = [&r.white, &r.black].map(|n| n.as_deref().unwrap_or("?"));
            let message = if written[0] == written[1] {
                format!("{} plays against themselves", players.names[white])
            } else {
                format!(
                    "\"{}\" and \"{}\", one player's names, play each other",
                    written[0], written[1]
                )
            };
            findings.push(Finding::game(Code::SelfPairing, i, r, message));
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
    use crate::tournament::event::tests::record;

    #[test]
    fn a_short_copy_is_found_past_the_games_compared_by_spelling() {
        // More games of the same single move than are compared one by one.
        let game = |white: &str, black: &str| record(&[("White", white), ("Black", black)]);
        let mut games: Vec<Game> = (0..MAX_COMPARED + 20)
            .map(|n| game(&format!("Wplayer{n}, Anna"), &format!("Bplayer{n}, Bert")))
            .collect();
        let late = MAX_COMPARED + 10;
        // A spelling of an early game's players; a late game's players in
        // the other colours; a spelling of a late game's players, which is
        // past what is compared one by one.
        games.push(game("Wplayer3, A", "Bplayer3, B"));
        games.push(game(&format!("Bplayer{late}, Bert"), &format!("Wplayer{late}, Anna")));
        games.push(game(&format!("Wplayer{late}, A"), &format!("Bplayer{late}, B")));
        let mut findings = Vec::new();
        let copies = duplicates(&games, &mut findings);
        let first_copy = MAX_COMPARED + 20;
        assert_eq!(copies, HashSet::from([first_copy, first_copy + 1]));
        let originals: Vec<(usize, bool)> = findings
            .iter()
            .map(|f| (f.record, f.message.contains(&format!("Wplayer{late}, Anna - "))))
            .collect();
        assert_eq!(originals, [(first_copy, false), (first_copy + 1, true)]);
        assert!(findings[0].message.contains("(Wplayer3, Anna - Bplayer3, Bert)"));
    }

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
