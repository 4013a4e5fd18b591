//! Players: who is who across the games of an event.
//!
//! Input: the records of one event; output: a player number for each side
//! of each game (spelling variants of one name resolved to one player) and
//! the findings `name-variant` (W203), `rating-changed` (W201),
//! `title-changed` (W202) and `fide-id-changed` (W204). Names are compared
//! folded: case, accents, punctuation and word order ignored; initials
//! match the names they abbreviate ("Carlsen,M" ~ "Magnus Carlsen").

use std::collections::{HashMap, HashSet};

pub use crate::pgn::names::{compatible, fold, same_person, sorted};
// Where the reports of players have long found it.
pub use crate::tournament::event::plural;
use crate::{
    diagnostic::{Finding, codes::Code},
    pgn::values::stated,
    tournament::{Game, event},
};

/// The players of one event.
#[derive(Debug, Default)]
pub struct Players {
    /// The spelling used most often for each player (the first seen on a
    /// tie), indexed by player number.
    pub names: Vec<String>,
    /// White's and Black's player numbers for each game, by record index;
    /// `None` for a side whose name is missing or `?`.
    pub sides: HashMap<usize, [Option<usize>; 2]>,
}

/// One way a name is written in the event.
struct Spelling<'a> {
    text: &'a str,
    words: Vec<String>,
    games: usize,
    /// Record index of the first game with this spelling.
    first: usize,
}

/// A tiny union-find over spellings.
struct Clusters(Vec<usize>);

impl Clusters {
    fn root(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        // The earlier spelling stays the root: deterministic output.
        let (low, high) = (a.min(b), a.max(b));
        self.0[high] = low;
    }
}

/// Buckets larger than this (a very common word such as "Li" in a large
/// open) are not searched for initials: it would be quadratic.
const MAX_BUCKET: usize = 64;

/// Resolves the players of the event made of `games` (record indices in
/// input order, copies of other games left out) and reports spelling
/// variants and changing player data.
pub fn identify(records: &[Game], games: &[usize], findings: &mut Vec<Finding>) -> Players {
    let mut spellings: Vec<Spelling<'_>> = Vec::new();
    let mut by_text: HashMap<&str, usize> = HashMap::new();
    let mut side_spellings: Vec<(usize, [Option<usize>; 2])> = Vec::new();
    for &i in games {
        let record = &records[i];
        let mut sides = [None, None];
        for (side, name) in [&record.white, &record.black].into_iter().enumerate() {
            let Some(text) = event::player(name.as_deref()).filter(|n| !event::is_bye(n)) else {
                continue;
            };
            let id = *by_text.entry(text).or_insert_with(|| {
                spellings.push(Spelling { text, words: fold(text), games: 0, first: i });
                spellings.len() - 1
            });
            spellings[id].games += 1;
            sides[side] = Some(id);
        }
        side_spellings.push((i, sides));
    }
    // Two spellings that face each other in a game are two people, unless
    // they are one name but for case, accents and punctuation (E406).
    let faced: HashSet<(usize, usize)> = side_spellings
        .iter()
        .filter_map(|(_, sides)| match *sides {
            [Some(a), Some(b)] if spellings[a].words != spellings[b].words => {
                Some((a.min(b), a.max(b)))
            }
            _ => None,
        })
        .collect();
    let mut clusters = cluster(&spellings, &faced);
    // Player numbers in order of first appearance; the name is the
    // spelling used most often.
    let mut number_of_root: HashMap<usize, usize> = HashMap::new();
    let mut players = Players::default();
    let mut best: Vec<usize> = Vec::new();
    let mut player_of = Vec::with_capacity(spellings.len());
    for id in 0..spellings.len() {
        let root = clusters.root(id);
        let number = *number_of_root.entry(root).or_insert_with(|| {
            best.push(id);
            best.len() - 1
        });
        if spellings[id].games > spellings[best[number]].games {
            best[number] = id;
        }
        player_of.push(number);
    }
    players.names = best.iter().map(|&id| spellings[id].text.to_owned()).collect();
    for (id, spelling) in spellings.iter().enumerate() {
        let canonical = &spellings[best[player_of[id]]];
        if best[player_of[id]] != id {
            findings.push(Finding::game(
                Code::NameVariant,
                spelling.first,
                &records[spelling.first],
                format!(
                    "\"{}\" ({}) looks like a spelling of \"{}\" ({})",
                    spelling.text,
                    plural(spelling.games, "game"),
                    canonical.text,
                    plural(canonical.games, "game"),
                ),
            ));
        }
    }
    for (i, sides) in side_spellings {
        players.sides.insert(i, sides.map(|s| s.map(|id| player_of[id])));
    }
    check_player_data(records, games, &players, findings);
    players
}

/// Joins spellings that are one player's: equal after folding, or
/// matching by initials one single other player; never two of the pairs
/// `faced` (spelling ids, the lower first), which met in a game. (Not by
/// FIDE ID: a game copied with its names swapped carries the other
/// player's ID; W204 reports it.)
fn cluster(spellings: &[Spelling<'_>], faced: &HashSet<(usize, usize)>) -> Clusters {
    let met = |a: usize, b: usize| faced.contains(&(a.min(b), a.max(b)));
    let mut clusters = Clusters((0..spellings.len()).collect());
    let mut by_key: HashMap<Vec<&str>, usize> = HashMap::new();
    for (id, spelling) in spellings.iter().enumerate() {
        if spelling.words.is_empty() {
            continue;
        }
        let first = *by_key.entry(sorted(&spelling.words)).or_insert(id);
        if !met(first, id) {
            clusters.join(first, id);
        }
    }
    let mut buckets: HashMap<&str, Vec<usize>> = HashMap::new();
    for (id, spelling) in spellings.iter().enumerate() {
        for word in spelling.words.iter().filter(|w| w.chars().nth(1).is_some()) {
            buckets.entry(word).or_default().push(id);
        }
    }
    // Spellings matching by initials: neighbours.
    let neighbours: Vec<Vec<usize>> = spellings
        .iter()
        .enumerate()
        .map(|(id, spelling)| {
            let mut found: Vec<usize> = spelling
                .words
                .iter()
                .filter_map(|word| buckets.get(word.as_str()).filter(|b| b.len() <= MAX_BUCKET))
                .flatten()
                .copied()
                .filter(|&other| {
                    other != id && compatible(&spelling.words, &spellings[other].words)
                })
                .collect();
            found.sort_unstable();
            found.dedup();
            found
        })
        .collect();
    // An abbreviation that fits two players ("Li, C" beside "Li, Chao" and
    // "Li, Cheng") cannot be resolved: it joins no one.
    let ambiguous: Vec<bool> = neighbours
        .iter()
        .map(|found| {
            found.iter().enumerate().any(|(k, &a)| {
                found[k + 1..].iter().any(|&b| {
                    clusters.root(a) != clusters.root(b)
                        && !compatible(&spellings[a].words, &spellings[b].words)
                })
            })
        })
        .collect();
    for (id, found) in neighbours.iter().enumerate() {
        for &other in found {
            if !ambiguous[id] && !ambiguous[other] && !met(id, other) {
                clusters.join(id, other);
            }
        }
    }
    clusters
}

/// The player each of `names` (folded, [`fold`]) is, as [`identify`] joins
/// spellings: equal words in any order, or initials matching one single
/// other name. Returns, for each name, the index of the first name of its
/// player (`dupes` compares players across a whole collection with it).
pub fn people(names: Vec<Vec<String>>) -> Vec<usize> {
    let spellings: Vec<Spelling<'_>> = names
        .into_iter()
        .enumerate()
        .map(|(first, words)| Spelling { text: "", words, games: 0, first })
        .collect();
    let mut clusters = cluster(&spellings, &HashSet::new());
    (0..spellings.len()).map(|id| clusters.root(id)).collect()
}

/// `WhiteElo` for White (`side` 0) and `BlackElo` for Black, and so on.
fn side_tag<'a>(record: &'a Game, side: usize, suffix: &str) -> Option<&'a str> {
    let colour = if side == 0 { "White" } else { "Black" };
    event::tag(record, &format!("{colour}{suffix}")).and_then(stated)
}

/// Reports ratings, titles and FIDE IDs that change for one player: each
/// value other than the one in the player's first game, once, where it
/// first appears. Ratings and FIDE IDs that are not numbers are left to
/// W306/W307.
fn check_player_data(
    records: &[Game],
    games: &[usize],
    players: &Players,
    findings: &mut Vec<Finding>,
) {
    for (suffix, code, numeric) in [
        ("Elo", Code::RatingChanged, true),
        ("Title", Code::TitleChanged, false),
        ("FideId", Code::FideIdChanged, true),
    ] {
        // Per player: the values seen, the first with its game.
        let mut seen: HashMap<usize, Vec<(&str, usize)>> = HashMap::new();
        for &i in games {
            let Some(sides) = players.sides.get(&i) else { continue };
            for (side, player) in sides.iter().enumerate() {
                let (Some(player), Some(value)) = (player, side_tag(&records[i], side, suffix))
                else {
                    continue;
                };
                if numeric && !value.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                let values = seen.entry(*player).or_default();
                if values.iter().any(|(v, _)| *v == value) {
                    continue;
                }
                if let Some(&(first, game)) = values.first() {
                    let colour = if side == 0 { "White" } else { "Black" };
                    findings.push(Finding::game(
                        code,
                        i,
                        &records[i],
                        format!(
                            "{colour}{suffix} \"{value}\" for {}, but \"{first}\" in game {} (line {})",
                            players.names[*player], records[game].index, records[game].line
                        ),
                    ));
                }
                values.push((value, i));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::event::tests::record;

    #[test]
    fn folding_ignores_case_accents_punctuation() {
        assert_eq!(fold("Carlsén,  Magnus"), ["carlsen", "magnus"]);
        assert_eq!(fold("VACHIER-LAGRAVE, M."), ["vachier", "lagrave", "m"]);
        assert_eq!(fold("Øystein Łukasz Straße"), ["oystein", "lukasz", "strasse"]);
        assert_eq!(fold("Ding Liren"), ["ding", "liren"]);
        assert_eq!(
            fold(" van der Wiel,J.T.H. (NED) "),
            ["van", "der", "wiel", "j", "t", "h", "ned"]
        );
    }

    #[test]
    fn spelling_variants_of_one_name() {
        for (a, b) in [
            ("Carlsen, Magnus", "Carlsen,M"),
            ("Carlsen, Magnus", "Magnus Carlsen"),
            ("Carlsen, Magnus", "carlsen, magnus"),
            ("Carlsen, Magnus", "Carlsén, Magnus"),
            ("Carlsen, Magnus", "M. Carlsen"),
            ("Carlsen, Magnus Oen", "Carlsen, M"),
            ("Kasparov, G. K.", "Garry Kasparov"),
            ("Kasparov, Garry Kimovich", "Garry Kasparov"),
        ] {
            assert!(same_person(a, b), "{a} ~ {b}");
        }
        for (a, b) in [
            ("Carlsen, Magnus", "Carlsen, Martin"),
            ("Carlsen, Magnus", "Carlsen"),
            ("Li, C", "Wang, C"),
            ("M, C", "Magnus Carlsen"),
            // A surname is not an initial of another player's name.
            ("Adams, Michael", "Brooks, Michael A"),
            ("Adams, Michael", "Rohde Michael A (USA)"),
        ] {
            assert!(!same_person(a, b), "{a} !~ {b}");
        }
    }

    #[test]
    fn an_ambiguous_abbreviation_joins_no_one() {
        let games: Vec<Game> =
            [("Li, Chao", "Li, Cheng"), ("Li, C", "Carlsen, Magnus"), ("Carlsen,M", "Li, Chao")]
                .iter()
                .map(|(w, b)| record(&[("White", w), ("Black", b)]))
                .collect();
        let mut findings = Vec::new();
        let players = identify(&games, &[0, 1, 2], &mut findings);
        assert_eq!(players.names, ["Li, Chao", "Li, Cheng", "Li, C", "Carlsen, Magnus"]);
        let variants: Vec<_> = findings.iter().map(|f| (f.code, f.record)).collect();
        assert_eq!(variants, [(Code::NameVariant, 2)]);
    }

    /// Two spellings that meet in a game are two people (`Kim, M` may be
    /// Kim Minho against Kim Minsu), unless they are one name but for case
    /// and accents: a player entered on both sides (E406).
    #[test]
    fn spellings_that_meet_are_two_players_unless_one_name() {
        let pairs = [
            ("Kim, M", "Kim, Minsu"),
            ("Li, Wei", "Wei, Li"),
            ("Carlsen, Magnus", "CARLSÉN, Magnus"),
            ("Kim, Minsu", "Anand, V"),
        ];
        let games: Vec<Game> =
            pairs.iter().map(|(w, b)| record(&[("White", w), ("Black", b)])).collect();
        let mut findings = Vec::new();
        let players = identify(&games, &[0, 1, 2, 3], &mut findings);
        let sides: Vec<[Option<usize>; 2]> = (0..4).map(|i| players.sides[&i]).collect();
        assert_eq!(
            sides,
            [[Some(0), Some(1)], [Some(2), Some(3)], [Some(4), Some(4)], [Some(1), Some(5)]]
        );
        let variants: Vec<_> = findings.iter().map(|f| (f.code, f.record)).collect();
        assert_eq!(variants, [(Code::NameVariant, 2)]);
        // Elsewhere, `Kim, M` is a spelling of the one other Kim M.
        let apart = [("Kim, M", "Anand, V"), ("Kim, Minsu", "Carlsen, Magnus")]
            .map(|(w, b)| record(&[("White", w), ("Black", b)]));
        let players = identify(&apart, &[0, 1], &mut Vec::new());
        assert_eq!(players.sides[&0][0], players.sides[&1][0]);
    }
}
