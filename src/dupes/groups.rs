//! Finding the groups of duplicates among the games an [`Index`](super::index::Index) kept.
//!
//! Two games with the same moves (the same mainline from the same start,
//! in the same variant) are copies: `exact` when their players are the
//! same two people in either colour (names folded as `check` folds them),
//! `same-moves` otherwise. A game whose moves are a proper prefix of a
//! longer game's is `embedded` in it when the two have the same players,
//! their dates and times do not differ where both are known, and the
//! shorter one is unfinished (`*`, or no result) or ended as the longer did:
//! a broadcast captured mid-game, or a copy that lost its last moves. (A
//! shorter game that ended otherwise, or on another day, is another game:
//! the same players often repeat an opening.)
//!
//! A group is one longest game (its `main`, the first of them in input
//! order), its copies, and the games embedded in it with their copies.
//! Each game is in one group at most: a game that several longer games
//! extend, which are not copies of each other, goes with the longest
//! (then the first), so two different games never share a group.
//!
//! How: the entries are sorted by players then length; for each game `B`
//! and each shorter length `l` among the games of the same players, `B`'s
//! prefix of `l` plies is read from the spill file (the reads sorted by
//! game, so the file is read once, front to back, per batch) and looked
//! up among those games by length and hash. Then the entries are sorted
//! by moves, and games with equal moves are the copies. The work is
//! `O(n log n)` plus one read per game and distinct length of its players'
//! other games.

use std::{
    fs::File,
    io::{self, BufReader, Read, Seek},
};

use hashbrown::{HashMap, HashSet};
use rayon::slice::ParallelSliceMut;

use super::{
    fingerprint::fingerprint,
    index::{Entry, NO_NAME},
};

/// How a game of a group relates to the group's main game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The group's longest game (the first of them).
    Main,
    /// The same moves, the same players.
    Exact,
    /// The same moves, other names.
    SameMoves,
    /// A proper prefix of the main game's moves.
    Embedded,
}

impl Kind {
    /// The name used in every output format.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Main => "main",
            Kind::Exact => "exact",
            Kind::SameMoves => "same-moves",
            Kind::Embedded => "embedded",
        }
    }
}

/// A game of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// The ordinal of the group's main game.
    pub group: u32,
    /// The game's ordinal.
    pub ordinal: u32,
    /// How it relates to the main game.
    pub kind: Kind,
    /// Its line.
    pub line: u64,
    /// Its plies.
    pub plies: u32,
    /// Its players' name ids.
    pub white: u32,
    /// Black's.
    pub black: u32,
}

/// The groups found.
#[derive(Debug, Default)]
pub struct Groups {
    /// Every game of every group, a group's games together, in input order.
    pub members: Vec<Member>,
    /// Each group's games in `members`, in the input order of their first
    /// games.
    pub groups: Vec<std::ops::Range<usize>>,
}

/// A game's moves, as equal copies share them.
type Moves = (u64, u32);

fn moves(e: &Entry) -> Moves {
    (e.moves, e.plies)
}

/// The longest game found so far that a game is embedded in.
#[derive(Debug, Clone, Copy)]
struct Longer {
    plies: u32,
    ordinal: u32,
    moves: Moves,
}

impl Longer {
    fn better(self, than: Longer) -> bool {
        (self.plies, std::cmp::Reverse(self.ordinal))
            > (than.plies, std::cmp::Reverse(than.ordinal))
    }
}

/// Whether `a`, if its moves are a prefix of `b`'s, may be `b` cut short
/// (their players are the same): `a` is unfinished or ended as `b` did,
/// and they were played on the same day, as far as both say.
fn may_extend(a: &Entry, b: &Entry) -> bool {
    let (a_result, b_result) = (a.stamp.result(), b.stamp.result());
    (a_result <= 1 || a_result == b_result) && a.stamp.when().agrees(b.stamp.when())
}

/// Players with more games than this have the prefixes of each game read
/// at every shorter length among their games, rather than at the lengths
/// of the games that it may extend (which takes a comparison per pair).
const PAIRWISE: usize = 1024;

/// Reads of the spill file made at once, at most (16 bytes each).
const BATCH: usize = 1 << 22;

/// One prefix to read: game `b`'s after `ply` plies.
#[derive(Debug, Clone, Copy)]
struct Query {
    b: u32,
    ply: u32,
    /// Where `b`'s players' games start in the sorted entries.
    group: u32,
    /// Where they end.
    end: u32,
    /// Where `b` is in them.
    b_index: u32,
}

/// Finds the groups among `entries` (reordered), where `people` gives each
/// name id its person's (names of one player share it) and `spill` has
/// the prefixes.
pub fn find(entries: &mut [Entry], people: &[u32], spill: Option<File>) -> io::Result<Groups> {
    // Two people, in either colour; `None` for a game not compared or
    // with a player unknown.
    let pair = |e: &Entry| -> Option<u64> {
        let person = |id: u32| people.get(id as usize).copied().unwrap_or(NO_NAME);
        let (w, b) = (person(e.white), person(e.black));
        (e.stamp.compared() && w != NO_NAME && b != NO_NAME)
            .then(|| u64::from(w.min(b)) << 32 | u64::from(w.max(b)))
    };
    let embedded = match spill {
        Some(spill) => embedded(entries, &pair, spill)?,
        None => HashMap::new(),
    };
    Ok(group(entries, &pair, &embedded))
}

/// For each game embedded in a longer one, the longest.
fn embedded(
    entries: &mut [Entry],
    pair: &(impl Fn(&Entry) -> Option<u64> + Sync),
    spill: File,
) -> io::Result<HashMap<u32, (Moves, Longer)>> {
    entries.par_sort_unstable_by_key(|e| {
        let pair = pair(e);
        (pair.is_none(), pair, e.plies, fingerprint(e.moves), e.ordinal)
    });
    let paired = entries.partition_point(|e| pair(e).is_some());
    let mut found = HashMap::new();
    let mut queries = Vec::new();
    let mut lengths = Vec::new();
    let mut start = 0;
    while start < paired {
        let key = pair(&entries[start]);
        let end = start + entries[start..paired].partition_point(|e| pair(e) == key);
        let games = &entries[start..end];
        lengths.clear();
        lengths.extend(games.iter().map(|e| e.plies));
        lengths.dedup();
        if lengths.len() > 1 {
            for (i, b) in games.iter().enumerate().filter(|(_, b)| b.stamp.spilled()) {
                let (group, b_index) = (start as u32, (start + i) as u32);
                let end = end as u32;
                let mut query =
                    |ply| queries.push(Query { b: b.ordinal, ply, group, end, b_index });
                let shorter = &games[..games.partition_point(|a| a.plies < b.plies)];
                if games.len() > PAIRWISE {
                    lengths.iter().take_while(|&&ply| ply < b.plies).for_each(|&ply| query(ply));
                    continue;
                }
                // The lengths of the shorter games that `b` may extend.
                let mut k = 0;
                while let Some(a) = shorter.get(k) {
                    k += 1;
                    if may_extend(a, b) {
                        query(a.plies);
                        k += shorter[k..].partition_point(|next| next.plies == a.plies);
                    }
                }
            }
        }
        if queries.len() >= BATCH {
            resolve(&mut queries, entries, &spill, &mut found)?;
        }
        start = end;
    }
    resolve(&mut queries, entries, &spill, &mut found)?;
    Ok(found)
}

/// Reads the prefixes `queries` ask for and records each game they show
/// embedded in a longer one.
fn resolve(
    queries: &mut Vec<Query>,
    entries: &[Entry],
    mut spill: &File,
    found: &mut HashMap<u32, (Moves, Longer)>,
) -> io::Result<()> {
    if queries.is_empty() {
        return Ok(());
    }
    queries.sort_unstable_by_key(|q| u64::from(q.b) << 32 | u64::from(q.ply));
    spill.rewind()?;
    let mut rdr = BufReader::with_capacity(1 << 20, spill);
    let mut prefixes: Vec<u32> = Vec::new();
    let mut next = 0;
    let mut word = [0; 4];
    let mut read_u32 = |rdr: &mut BufReader<&File>| -> io::Result<u32> {
        rdr.read_exact(&mut word)?;
        Ok(u32::from_le_bytes(word))
    };
    while next < queries.len() {
        let (ordinal, count) = (read_u32(&mut rdr)?, read_u32(&mut rdr)?);
        if ordinal != queries[next].b {
            rdr.seek_relative(i64::from(count) * 4)?;
            continue;
        }
        prefixes.clear();
        for _ in 0..count {
            prefixes.push(read_u32(&mut rdr)?);
        }
        while let Some(query) = queries.get(next).filter(|q| q.b == ordinal) {
            next += 1;
            let Some(&prefix) = prefixes.get(query.ply as usize - 1) else { continue };
            let b = &entries[query.b_index as usize];
            let games = &entries[query.group as usize..query.end as usize];
            let first =
                games.partition_point(|e| (e.plies, fingerprint(e.moves)) < (query.ply, prefix));
            let same = |a: &&Entry| a.plies == query.ply && fingerprint(a.moves) == prefix;
            for a in games[first..].iter().take_while(same) {
                if !may_extend(a, b) {
                    continue;
                }
                let longer = Longer { plies: b.plies, ordinal: b.ordinal, moves: moves(b) };
                let best = found.entry(a.ordinal).or_insert((moves(a), longer));
                if longer.better(best.1) {
                    best.1 = longer;
                }
            }
        }
    }
    queries.clear();
    Ok(())
}

/// Groups copies (equal moves) and the embedded games with the games they
/// are embedded in.
fn group(
    entries: &mut [Entry],
    pair: &(impl Fn(&Entry) -> Option<u64> + Sync),
    embedded: &HashMap<u32, (Moves, Longer)>,
) -> Groups {
    entries.par_sort_unstable_by_key(|e| (!e.stamp.compared(), e.moves, e.plies, e.ordinal));
    let compared = entries.partition_point(|e| e.stamp.compared());
    let entries = &entries[..compared];
    // Each set of moves embedded in a longer one goes with the longest.
    let mut parent: HashMap<Moves, Longer> = HashMap::new();
    for &(shorter, longer) in embedded.values() {
        let best = parent.entry(shorter).or_insert(longer);
        if longer.better(*best) {
            *best = longer;
        }
    }
    let longer: HashSet<Moves> = parent.values().map(|l| l.moves).collect();
    let root = |mut moves: Moves| {
        while let Some(longer) = parent.get(&moves) {
            moves = longer.moves;
        }
        moves
    };
    let runs = || {
        entries.chunk_by(|a, b| moves(a) == moves(b)).filter(|run| {
            let key = moves(&run[0]);
            run.len() > 1 || parent.contains_key(&key) || longer.contains(&key)
        })
    };
    // The first game of each set of moves: a group's main game.
    let heads: HashMap<Moves, (u32, Option<u64>)> =
        runs().map(|run| (moves(&run[0]), (run[0].ordinal, pair(&run[0])))).collect();
    let mut members = Vec::new();
    for run in runs() {
        let key = moves(&run[0]);
        let top = root(key);
        let (main, main_pair) = heads[&top];
        for e in run {
            let kind = if key != top {
                Kind::Embedded
            } else if e.ordinal == main {
                Kind::Main
            } else if main_pair.is_some() && pair(e) == main_pair {
                Kind::Exact
            } else {
                Kind::SameMoves
            };
            let (line, plies, white, black) = (e.line, e.plies, e.white, e.black);
            members.push(Member {
                group: main,
                ordinal: e.ordinal,
                kind,
                line,
                plies,
                white,
                black,
            });
        }
    }
    members.sort_unstable_by_key(|m| (m.group, m.ordinal));
    let mut groups = Vec::new();
    let mut start = 0;
    for run in members.chunk_by(|a, b| a.group == b.group) {
        groups.push(start..start + run.len());
        start += run.len();
    }
    groups.sort_unstable_by_key(|g| members[g.start].ordinal);
    Groups { members, groups }
}
