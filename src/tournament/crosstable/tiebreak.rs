//! Tie-breaks and ranking, after the FIDE Tie-Break Regulations (C.07),
//! with exact arithmetic (quarter points).
//!
//! Every round of a player *contributes* to the tie-breaks: a played game
//! with the opponent and the points scored, or an *unplayed round* (a
//! forfeit, a bye, a `*` game, or a round without a game) with the points
//! scored in it (0 for `*` or no game). Then:
//! - **adjusted score** of a player, used for the opponents' tie-breaks:
//!   the points from played games plus ½ for each unplayed round (an
//!   unplayed round counts as a draw for the opponents, as C.07 has it);
//! - **Buchholz (BH)**: the sum of the adjusted scores of the opponents of
//!   the played games, plus the player's own score for each unplayed round
//!   (C.07's "dummy opponent" with the player's own score);
//! - **Buchholz cut 1 (BH-C1)**: BH less its smallest contribution;
//! - **Sonneborn-Berger (SB)**: each contribution to BH multiplied by the
//!   points scored in that round (1, ½ or 0);
//! - **wins (WIN)**: games won, forfeit wins and full-point byes included;
//! - **direct encounter (DE)**: among the players tied when it is applied,
//!   the points each scored against the others (every game between them,
//!   forfeits included), used only when each pair of them has a result;
//!   otherwise it does not separate them (shown empty).
//!
//! Players are ranked by score, then by the tie-breaks in order; players
//! still tied share a rank and are listed by name.

use std::fmt;

use super::{Format, Player};

/// Points in quarter points: exact for scores, Buchholz and
/// Sonneborn-Berger. Shown as decimals (`4.5`, `12.25`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u64);

impl Points {
    /// Points from half-points.
    pub fn halves(halves: u64) -> Points {
        Points(halves * 2)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fraction = ["", ".25", ".5", ".75"][(self.0 % 4) as usize];
        write!(f, "{}{fraction}", self.0 / 4)
    }
}

/// A tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Buchholz.
    Buchholz,
    /// Buchholz less its smallest contribution.
    BuchholzCut1,
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Number of wins.
    Wins,
    /// Direct encounter among the tied players.
    DirectEncounter,
}

impl Tiebreak {
    /// The column heading: `BH`, `BH-C1`, `SB`, `WIN`, `DE`.
    pub fn label(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::Wins => "WIN",
            Tiebreak::DirectEncounter => "DE",
        }
    }

    /// What the tie-break is, for the legend under a table.
    pub fn describe(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "Buchholz: the sum of the opponents' scores",
            Tiebreak::BuchholzCut1 => {
                "Buchholz cut 1: Buchholz without the lowest opponent's score"
            }
            Tiebreak::SonnebornBerger => {
                "Sonneborn-Berger: the opponents' scores, each times the points scored against them"
            }
            Tiebreak::Wins => "wins, forfeit wins and byes included",
            Tiebreak::DirectEncounter => {
                "direct encounter: the points scored against the other tied players"
            }
        }
    }

    /// The default order: for a round robin DE, SB, WIN, BH, BH-C1 (the
    /// Buchholz of a complete round robin only mirrors the score); for a
    /// Swiss BH-C1, BH, DE, WIN, SB; none for a match.
    pub fn defaults(format: Format) -> &'static [Tiebreak] {
        use Tiebreak::*;
        match format {
            Format::RoundRobin | Format::DoubleRoundRobin => {
                &[DirectEncounter, SonnebornBerger, Wins, Buchholz, BuchholzCut1]
            }
            // Two players: the score decides, or the match is tied.
            Format::Match => &[],
            Format::Swiss => &[BuchholzCut1, Buchholz, DirectEncounter, Wins, SonnebornBerger],
        }
    }
}

/// One round of a player, for the tie-breaks.
#[derive(Debug, Clone, Copy)]
enum Contribution {
    /// A played game: the opponent and the player's half-points.
    Played { opponent: usize, halves: u64 },
    /// An unplayed round and the half-points the player got in it.
    Unplayed { halves: u64 },
}

fn contributions(player: &Player, rounds: usize) -> Vec<Contribution> {
    let mut list = Vec::new();
    for (column, entries) in player.cells.iter().enumerate() {
        if entries.is_empty() && column < rounds {
            list.push(Contribution::Unplayed { halves: 0 });
        }
        for entry in entries {
            let halves = u64::from(entry.halves.unwrap_or(0));
            list.push(match entry.opponent {
                Some(opponent) if entry.counts_as_played() => {
                    Contribution::Played { opponent, halves }
                }
                _ => Contribution::Unplayed { halves },
            });
        }
    }
    list
}

/// The tie-break values of every player but DE, by tie-break.
struct Values {
    bh: Vec<Points>,
    bh_c1: Vec<Points>,
    sb: Vec<Points>,
    wins: Vec<Points>,
}

impl Values {
    fn compute(players: &[Player], rounds: usize) -> Values {
        let all: Vec<Vec<Contribution>> =
            players.iter().map(|p| contributions(p, rounds)).collect();
        let score_halves: Vec<u64> = players.iter().map(|p| p.score.0 / 2).collect();
        let adjusted: Vec<u64> = all
            .iter()
            .map(|list| {
                list.iter()
                    .map(|c| match c {
                        Contribution::Played { halves, .. } => *halves,
                        Contribution::Unplayed { .. } => 1,
                    })
                    .sum()
            })
            .collect();
        let mut values =
            Values { bh: Vec::new(), bh_c1: Vec::new(), sb: Vec::new(), wins: Vec::new() };
        for (p, list) in all.iter().enumerate() {
            // Each contribution to Buchholz (half-points) with the points
            // scored in that round.
            let parts: Vec<(u64, u64)> = list
                .iter()
                .map(|c| match *c {
                    Contribution::Played { opponent, halves } => (adjusted[opponent], halves),
                    Contribution::Unplayed { halves } => (score_halves[p], halves),
                })
                .collect();
            let bh: u64 = parts.iter().map(|(v, _)| v).sum();
            let lowest = parts.iter().map(|(v, _)| *v).min().unwrap_or(0);
            values.bh.push(Points::halves(bh));
            values.bh_c1.push(Points::halves(bh - lowest));
            // Half-points times half-points are quarter points.
            values.sb.push(Points(parts.iter().map(|(v, h)| v * h).sum()));
            let wins = players[p].cells.iter().flatten().filter(|e| e.halves == Some(2)).count();
            values.wins.push(Points(wins as u64 * 4));
        }
        values
    }

    fn of(&self, tiebreak: Tiebreak) -> Option<&[Points]> {
        match tiebreak {
            Tiebreak::Buchholz => Some(&self.bh),
            Tiebreak::BuchholzCut1 => Some(&self.bh_c1),
            Tiebreak::SonnebornBerger => Some(&self.sb),
            Tiebreak::Wins => Some(&self.wins),
            Tiebreak::DirectEncounter => None,
        }
    }
}

/// Direct encounter within `group`: each member's points against the
/// others, or `None` when some pair of them has no result.
fn direct_encounter(players: &[Player], group: &[usize]) -> Option<Vec<Points>> {
    let against = |p: usize, q: usize| {
        players[p]
            .cells
            .iter()
            .flatten()
            .filter(move |e| e.opponent == Some(q) && e.halves.is_some())
    };
    let complete =
        group.iter().all(|&p| group.iter().all(|&q| p == q || against(p, q).next().is_some()));
    complete.then(|| {
        group
            .iter()
            .map(|&p| {
                let halves = group
                    .iter()
                    .flat_map(|&q| against(p, q))
                    .map(|e| u64::from(e.halves.unwrap_or(0)))
                    .sum();
                Points::halves(halves)
            })
            .collect()
    })
}

/// Scores, tie-breaks and ranks `players`, and puts them in rank order
/// (renumbering the opponents of their entries). `rounds` is the number
/// of round columns (the first columns of each player's cells): one
/// without a game is an unplayed round.
pub(super) fn rank(players: &mut Vec<Player>, rounds: usize, tiebreaks: &[Tiebreak]) {
    for player in players.iter_mut() {
        let entries = player.cells.iter().flatten();
        player.score =
            Points::halves(entries.clone().filter_map(|e| e.halves).map(u64::from).sum());
        player.played = entries.filter(|e| e.counts_as_played()).count();
    }
    let values = Values::compute(players, rounds);
    let n = players.len();
    let mut de: Vec<Option<Points>> = vec![None; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        players[b].score.cmp(&players[a].score).then_with(|| players[a].name.cmp(&players[b].name))
    });
    let mut groups: Vec<Vec<usize>> = split(order, |p| players[p].score);
    for &tiebreak in tiebreaks {
        let mut next = Vec::new();
        for group in groups {
            if group.len() < 2 {
                next.push(group);
                continue;
            }
            let key: Vec<Points> = match values.of(tiebreak) {
                Some(all) => group.iter().map(|&p| all[p]).collect(),
                None => match direct_encounter(players, &group) {
                    Some(points) => {
                        for (&p, &v) in group.iter().zip(&points) {
                            de[p] = Some(v);
                        }
                        points
                    }
                    None => {
                        next.push(group);
                        continue;
                    }
                },
            };
            let mut keyed: Vec<(usize, Points)> = group.into_iter().zip(key).collect();
            // Stable: equal values keep the name order.
            keyed.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
            let value: std::collections::HashMap<usize, Points> = keyed.iter().copied().collect();
            next.extend(split(keyed.into_iter().map(|(p, _)| p).collect(), |p| value[&p]));
        }
        groups = next;
    }
    let mut ranks = vec![0; n];
    let mut position = 0;
    for group in &groups {
        for &p in group {
            ranks[p] = position + 1;
        }
        position += group.len();
    }
    for (p, player) in players.iter_mut().enumerate() {
        player.rank = ranks[p];
        player.tiebreaks = tiebreaks
            .iter()
            .map(|&t| match values.of(t) {
                Some(all) => Some(all[p]),
                None => de[p],
            })
            .collect();
    }
    let order: Vec<usize> = groups.into_iter().flatten().collect();
    let mut new_index = vec![0; n];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut taken: Vec<Option<Player>> = std::mem::take(players).into_iter().map(Some).collect();
    for &old in &order {
        if let Some(mut player) = taken[old].take() {
            for entry in player.cells.iter_mut().flatten() {
                entry.opponent = entry.opponent.map(|o| new_index[o]);
            }
            players.push(player);
        }
    }
}

/// Splits `order` into runs of equal `key`.
fn split(order: Vec<usize>, key: impl Fn(usize) -> Points) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in order {
        match groups.last_mut() {
            Some(group) if key(group[0]) == key(p) => group.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_as_decimals() {
        let shown: Vec<String> =
            [0, 1, 2, 3, 4, 18].into_iter().map(|q| Points(q).to_string()).collect();
        assert_eq!(shown, ["0", "0.25", "0.5", "0.75", "1", "4.5"]);
    }
}
