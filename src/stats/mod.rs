//! Statistics over games: `Stats`, the exact aggregates `arbiter stats`
//! computes and `arbiter merge` combines.
//!
//! `Counter` observes the replay and folds each game into an
//! `Accumulator`; `Merge::merge` combines two
//! aggregates. Everything is an exact integer count or sum, kept in maps
//! (hashed maps are written in key order), so merging is associative and commutative with
//! `Stats::default()` as identity, and any split of the games into shards
//! gives the same totals and the same output. Percentages, means and
//! ratings are derived only when a report is made ([`tables`]). No I/O
//! here except in [`report`], [`partial`] and [`plot`].

pub mod game;
pub mod histogram;
pub mod partial;
pub mod plot;
pub mod report;
pub mod tables;

use std::{
    collections::{BTreeMap, btree_map::Entry},
    hash::Hash,
    ops::ControlFlow,
};

use compact_str::CompactString;
use hashbrown::{HashMap, hash_map};
use serde::{Deserialize, Serialize, Serializer};

use shakmaty::{Move, Position};

use self::{
    game::{GameFacts, Speed, StatsTags},
    histogram::Histogram,
};
pub use crate::pipeline::Merge;
use crate::{
    openings::{Classifier, OpeningBook, OpeningId},
    pgn::{tags::TagSet, values::GameResult},
    record::{GameRecord, WarningKind},
    replay::observer::{GameEnd, Observer},
};

impl Merge for u64 {
    fn merge(&mut self, other: Self) {
        *self = self.saturating_add(other);
    }
}

impl<K: Eq + Hash, V: Merge> Merge for HashMap<K, V> {
    fn merge(&mut self, mut other: Self) {
        // The larger table takes in the smaller (merging commutes): the
        // fewest entries move, and none one by one into an empty table,
        // which is how the workers' tables arrive at the end of a run.
        if other.len() > self.len() {
            std::mem::swap(self, &mut other);
        }
        for (key, value) in other {
            match self.entry(key) {
                hash_map::Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                hash_map::Entry::Occupied(entry) => entry.into_mut().merge(value),
            }
        }
    }
}

impl<K: Ord, V: Merge> Merge for BTreeMap<K, V> {
    fn merge(&mut self, mut other: Self) {
        // As for `HashMap`: the larger map takes in the smaller.
        if other.len() > self.len() {
            std::mem::swap(self, &mut other);
        }
        for (key, value) in other {
            match self.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                Entry::Occupied(entry) => entry.into_mut().merge(value),
            }
        }
    }
}

/// Results of a set of games, from White's side.
///
/// Serialized as `[games, white_wins, draws, black_wins, unfinished]`;
/// `games` also counts games with no or another result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "[u64; 5]", try_from = "[u64; 5]")]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games won by White (`1-0`).
    pub white_wins: u64,
    /// Games drawn (`1/2-1/2`).
    pub draws: u64,
    /// Games won by Black (`0-1`).
    pub black_wins: u64,
    /// Games not finished (`*`).
    pub unfinished: u64,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, outcome: Option<GameResult>) {
        self.games += 1;
        match outcome {
            Some(GameResult::WhiteWins) => self.white_wins += 1,
            Some(GameResult::Draw) => self.draws += 1,
            Some(GameResult::BlackWins) => self.black_wins += 1,
            Some(GameResult::Unfinished) => self.unfinished += 1,
            None => {}
        }
    }

    /// Games with a result of 1-0, 0-1 or ½-½.
    pub fn decided(&self) -> u64 {
        self.white_wins.saturating_add(self.draws).saturating_add(self.black_wins)
    }

    /// Games with no result, or none of the four.
    pub fn other(&self) -> u64 {
        self.games.saturating_sub(self.decided()).saturating_sub(self.unfinished)
    }

    /// White's points, doubled to stay whole (win 2, draw 1).
    pub fn white_points_x2(&self) -> u64 {
        self.white_wins.saturating_mul(2).saturating_add(self.draws)
    }

    /// Black's points, doubled.
    pub fn black_points_x2(&self) -> u64 {
        self.black_wins.saturating_mul(2).saturating_add(self.draws)
    }
}

impl Merge for Tally {
    fn merge(&mut self, other: Self) {
        let Tally { games, white_wins, draws, black_wins, unfinished } = other;
        Merge::merge(&mut self.games, games);
        Merge::merge(&mut self.white_wins, white_wins);
        Merge::merge(&mut self.draws, draws);
        Merge::merge(&mut self.black_wins, black_wins);
        Merge::merge(&mut self.unfinished, unfinished);
    }
}

impl From<Tally> for [u64; 5] {
    fn from(t: Tally) -> Self {
        [t.games, t.white_wins, t.draws, t.black_wins, t.unfinished]
    }
}

impl TryFrom<[u64; 5]> for Tally {
    type Error = String;

    fn try_from(
        [games, white_wins, draws, black_wins, unfinished]: [u64; 5],
    ) -> Result<Self, String> {
        let parts = [white_wins, draws, black_wins, unfinished];
        match parts.iter().try_fold(0u64, |total, &n| total.checked_add(n)) {
            Some(total) if total <= games => {
                Ok(Tally { games, white_wins, draws, black_wins, unfinished })
            }
            _ => Err(format!("results {parts:?} add up to more than {games} games")),
        }
    }
}

/// One player's games.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The games the player had White in (from White's side).
    pub white: Tally,
    /// The games the player had Black in (from White's side: the player's
    /// wins are `black_wins`).
    pub black: Tally,
    /// The decided games in which the opponent had a rating.
    pub rated: Rated,
}

impl Player {
    /// All the player's games.
    pub fn games(&self) -> u64 {
        self.white.games.saturating_add(self.black.games)
    }

    /// The player's points, doubled.
    pub fn points_x2(&self) -> u64 {
        self.white.white_points_x2().saturating_add(self.black.black_points_x2())
    }

    /// The player's decided games.
    pub fn decided(&self) -> u64 {
        self.white.decided().saturating_add(self.black.decided())
    }
}

impl Merge for Player {
    fn merge(&mut self, other: Self) {
        let Player { white, black, rated } = other;
        Merge::merge(&mut self.white, white);
        Merge::merge(&mut self.black, black);
        Merge::merge(&mut self.rated, rated);
    }
}

/// A player's decided games against rated opponents: what the average
/// opponent rating and the performance rating come from.
///
/// Serialized as `[games, points_x2, opponent_rating_sum]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "[u64; 3]", try_from = "[u64; 3]")]
pub struct Rated {
    /// Games.
    pub games: u64,
    /// Points scored in them, doubled.
    pub points_x2: u64,
    /// Sum of the opponents' ratings.
    pub opponent_rating_sum: u64,
}

impl Merge for Rated {
    fn merge(&mut self, other: Self) {
        let Rated { games, points_x2, opponent_rating_sum } = other;
        Merge::merge(&mut self.games, games);
        Merge::merge(&mut self.points_x2, points_x2);
        Merge::merge(&mut self.opponent_rating_sum, opponent_rating_sum);
    }
}

impl From<Rated> for [u64; 3] {
    fn from(r: Rated) -> Self {
        [r.games, r.points_x2, r.opponent_rating_sum]
    }
}

impl TryFrom<[u64; 3]> for Rated {
    type Error = String;

    fn try_from([games, points_x2, opponent_rating_sum]: [u64; 3]) -> Result<Self, String> {
        if games.checked_mul(2).is_some_and(|most| points_x2 <= most) {
            Ok(Rated { games, points_x2, opponent_rating_sum })
        } else {
            Err(format!("{points_x2} half-points in {games} rated games"))
        }
    }
}

/// The exact aggregates of a set of games. Field names are the keys of the
/// partial file's `stats` object (see `partial`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Results of the valid games.
    pub valid: Tally,
    /// Results of the invalid games (an illegal or unreadable move, or a
    /// bad start position).
    pub invalid: Tally,
    /// Invalid games by the kind of their first error.
    pub errors: BTreeMap<String, u64>,
    /// Games by the automatic end replay found (`checkmate`, ...).
    pub automatic: BTreeMap<String, u64>,
    /// Games in which a threefold repetition could be claimed.
    pub threefold: u64,
    /// Games in which the fifty-move rule could be claimed.
    pub fifty: u64,
    /// Results of the games in which a draw could be claimed (threefold or
    /// fifty moves) and that reached no automatic end.
    pub after_claim: Tally,
    /// Games that went on after an automatic end.
    pub continued: u64,
    /// Games whose result contradicts their final position.
    pub inconsistent: u64,
    /// Games won on time by a side that cannot mate by any series of legal
    /// moves: draws under Art. 6.9.
    #[serde(default)]
    pub timeout_draws: u64,
    /// Games with a position the dead-position analysis could not decide
    /// within its budget.
    #[serde(default)]
    pub undetermined: u64,
    /// Games by their `Termination` tag.
    pub termination_tags: BTreeMap<String, u64>,
    /// Plies of the valid games (games of unsupported variants, whose moves
    /// are not replayed, left out).
    pub lengths: Histogram,
    /// Games by ECO code, then opening name (empty when unknown). Hashed,
    /// like `players`, as a B-tree walk compares strings all the way down;
    /// written sorted.
    #[serde(serialize_with = "sorted_twice")]
    pub openings: HashMap<String, HashMap<String, Tally>>,
    /// Games by player name (`White`/`Black` tags; missing, empty and `?`
    /// names left out). Hashed, which is cheaper than a B-tree walk
    /// through tens of thousands of names for every game; written sorted
    /// by name, so that partials do not depend on the order of counting.
    /// Names of up to 24 bytes (nearly all) sit inside the entries: no
    /// pointer to follow to compare, no allocation for a new name (see
    /// `benches/HISTORY.md`).
    #[serde(serialize_with = "sorted")]
    pub players: HashMap<CompactString, Player>,
    /// Games in which both players have a rating, by `WhiteElo − BlackElo`.
    pub rating_gaps: BTreeMap<i64, Tally>,
    /// Games by `year × 100 + month` (month 0: unknown; key 0: no date).
    pub months: BTreeMap<u32, Tally>,
    /// Games by time-control class.
    pub speeds: BTreeMap<Speed, Tally>,
}

/// `Stats` as a worker counts them, in tables that are cheaper to add to
/// than those of `Stats`; [`Accumulator::finish`] moves them there.
///
/// Games whose opening is named by the book are tallied by book opening,
/// in a table indexed by its id, instead of by ECO code and name (two
/// lookups of strings a game). Rating gaps, months and time-control classes
/// are hashed, as a B-tree lookup touches more cache lines a game (see
/// `benches/HISTORY.md`).
#[derive(Debug, Default)]
pub struct Accumulator {
    stats: Stats,
    /// Games by book opening id (see `GameFacts::book_opening`).
    by_book: Vec<Tally>,
    /// See `Stats::rating_gaps`.
    rating_gaps: HashMap<i64, Tally>,
    /// See `Stats::months`.
    months: HashMap<u32, Tally>,
    /// See `Stats::speeds`.
    speeds: HashMap<Speed, Tally>,
}

/// The observer `stats` folds games with, one per worker: it classifies
/// each game's opening and counts the game into its accumulator.
#[derive(Debug, Default)]
pub struct Counter {
    classifier: Classifier,
    /// The games counted so far.
    pub counted: Accumulator,
}

impl Observer for Counter {
    type Output = ();

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        self.classifier.tags(tags)
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        self.classifier.start(pos, standard);
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        self.classifier.after_move(pos, m, ply, mainline);
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) {
        let opening = self.classifier.end_game(game);
        self.counted.add(game.record, &StatsTags::of(game.tags), opening);
    }
}

impl Merge for Counter {
    fn merge(&mut self, other: Counter) {
        self.counted.merge(other.counted);
    }
}

impl Accumulator {
    /// Counts one game, with its tags and its book opening.
    pub fn add(&mut self, record: &GameRecord, tags: &StatsTags<'_>, opening: Option<OpeningId>) {
        let outcome = GameResult::of_record(record);
        let facts = GameFacts::of(tags, opening);
        match facts.book_opening {
            Some(id) => {
                let id = id as usize;
                if self.by_book.len() <= id {
                    self.by_book.resize(id + 1, Tally::default());
                }
                self.by_book[id].add(outcome);
            }
            None => {
                let (eco, name) = facts.opening;
                let names = self.stats.openings.entry_ref(eco).or_default();
                names.entry_ref(name).or_default().add(outcome);
            }
        }
        if let [Some(white), Some(black)] = facts.elo {
            let gap = i64::from(white) - i64::from(black);
            self.rating_gaps.entry(gap).or_default().add(outcome);
        }
        self.months.entry(facts.month.unwrap_or(0)).or_default().add(outcome);
        self.speeds.entry(facts.speed).or_default().add(outcome);
        self.stats.add_rest(record, &facts, outcome);
    }

    /// The statistics of the games counted.
    pub fn finish(self) -> Stats {
        let Accumulator { mut stats, by_book, rating_gaps, months, speeds } = self;
        for (id, tally) in by_book.into_iter().enumerate().filter(|(_, t)| t.games > 0) {
            if let Some(opening) = OpeningBook::standard().get(id as OpeningId) {
                let names = stats.openings.entry_ref(opening.eco.as_str()).or_default();
                names.entry_ref(opening.name.as_str()).or_default().merge(tally);
            }
        }
        Merge::merge(&mut stats.rating_gaps, rating_gaps.into_iter().collect());
        Merge::merge(&mut stats.months, months.into_iter().collect());
        Merge::merge(&mut stats.speeds, speeds.into_iter().collect());
        stats
    }
}

impl Merge for Accumulator {
    fn merge(&mut self, other: Self) {
        let Accumulator { stats, by_book, rating_gaps, months, speeds } = other;
        self.stats.merge(stats);
        if self.by_book.len() < by_book.len() {
            self.by_book.resize(by_book.len(), Tally::default());
        }
        self.by_book.iter_mut().zip(by_book).for_each(|(mine, theirs)| mine.merge(theirs));
        Merge::merge(&mut self.rating_gaps, rating_gaps);
        Merge::merge(&mut self.months, months);
        Merge::merge(&mut self.speeds, speeds);
    }
}

impl Stats {
    /// Counts one game in the tables `Accumulator` does not keep itself.
    fn add_rest(&mut self, record: &GameRecord, facts: &GameFacts, outcome: Option<GameResult>) {
        if record.valid {
            self.valid.add(outcome);
        } else {
            self.invalid.add(outcome);
        }
        if let Some(error) = &record.error {
            count(&mut self.errors, error.kind.name());
        }
        if let Some(termination) = record.termination {
            count(&mut self.automatic, termination.name());
        }
        self.threefold += u64::from(record.threefold_ply.is_some());
        self.fifty += u64::from(record.fifty_ply.is_some());
        let claimable = record.threefold_ply.is_some() || record.fifty_ply.is_some();
        if claimable && record.termination.is_none() {
            self.after_claim.add(outcome);
        }
        self.continued += u64::from(record.moves_after_end > 0);
        self.inconsistent += u64::from(!record.result_consistent);
        self.timeout_draws += u64::from(record.timeout_draw);
        self.undetermined += u64::from(record.undetermined_ply.is_some());
        if let Some(termination) = facts.termination {
            count(&mut self.termination_tags, termination);
        }
        let replayed = !record.warnings.iter().any(|w| w.kind == WarningKind::UnsupportedVariant);
        if record.valid && replayed {
            self.lengths.add(record.plies);
        }
        let [white_elo, black_elo] = facts.elo;
        let white_points = outcome.and_then(GameResult::white_halves).map(u64::from);
        for (name, as_white, opponent_elo) in
            [(&record.white, true, black_elo), (&record.black, false, white_elo)]
        {
            let Some(name) = name.as_deref().filter(|n| !n.is_empty() && *n != "?") else {
                continue;
            };
            let player = match self.players.entry_ref(name) {
                hash_map::EntryRef::Occupied(entry) => entry.into_mut(),
                hash_map::EntryRef::Vacant(entry) => {
                    entry.insert_entry_with_key(name.into(), Player::default()).into_mut()
                }
            };
            let (tally, points) = if as_white {
                (&mut player.white, white_points)
            } else {
                (&mut player.black, white_points.map(|p| 2 - p))
            };
            tally.add(outcome);
            if let (Some(points), Some(elo)) = (points, opponent_elo) {
                player.rated.games += 1;
                player.rated.points_x2 += points;
                player.rated.opponent_rating_sum += u64::from(elo);
            }
        }
    }

    /// All games.
    pub fn games(&self) -> Tally {
        let mut all = self.valid;
        all.merge(self.invalid);
        all
    }
}

impl Merge for Stats {
    fn merge(&mut self, other: Self) {
        // Destructured so that a new field cannot be forgotten here; called
        // as `Merge::merge` because `BTreeMap` may get a `merge` of its own.
        let Stats {
            valid,
            invalid,
            errors,
            automatic,
            threefold,
            fifty,
            after_claim,
            continued,
            inconsistent,
            timeout_draws,
            undetermined,
            termination_tags,
            lengths,
            openings,
            players,
            rating_gaps,
            months,
            speeds,
        } = other;
        Merge::merge(&mut self.valid, valid);
        Merge::merge(&mut self.invalid, invalid);
        Merge::merge(&mut self.errors, errors);
        Merge::merge(&mut self.automatic, automatic);
        Merge::merge(&mut self.threefold, threefold);
        Merge::merge(&mut self.fifty, fifty);
        Merge::merge(&mut self.after_claim, after_claim);
        Merge::merge(&mut self.continued, continued);
        Merge::merge(&mut self.inconsistent, inconsistent);
        Merge::merge(&mut self.timeout_draws, timeout_draws);
        Merge::merge(&mut self.undetermined, undetermined);
        Merge::merge(&mut self.termination_tags, termination_tags);
        Merge::merge(&mut self.lengths, lengths);
        Merge::merge(&mut self.openings, openings);
        Merge::merge(&mut self.players, players);
        Merge::merge(&mut self.rating_gaps, rating_gaps);
        Merge::merge(&mut self.months, months);
        Merge::merge(&mut self.speeds, speeds);
    }
}

/// Runs `update` on the value of `key`, inserted as default when missing
/// (the key is copied only then).
fn with<V: Default>(map: &mut BTreeMap<String, V>, key: &str, update: impl FnOnce(&mut V)) {
    match map.get_mut(key) {
        Some(value) => update(value),
        None => update(map.entry(key.to_owned()).or_default()),
    }
}

/// A hashed map that serializes in the order of its keys, so that the
/// output does not depend on the order of counting.
struct InKeyOrder<'a, K, V>(&'a HashMap<K, V>);

impl<K: Ord + Serialize, V: Serialize> Serialize for InKeyOrder<'_, K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().collect::<BTreeMap<_, _>>())
    }
}

/// Serializes a map in the order of its keys.
fn sorted<S: Serializer, K: Ord + Serialize, V: Serialize>(
    map: &HashMap<K, V>,
    s: S,
) -> Result<S::Ok, S::Error> {
    InKeyOrder(map).serialize(s)
}

/// Serializes a map of maps in the order of the keys, at both levels.
fn sorted_twice<S: Serializer, V: Serialize>(
    map: &HashMap<String, HashMap<String, V>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(
        map.iter().map(|(key, inner)| (key, InKeyOrder(inner))).collect::<BTreeMap<_, _>>(),
    )
}

/// Adds one to the count of `key`.
fn count(map: &mut BTreeMap<String, u64>, key: &str) {
    with(map, key, |n| *n += 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{replay::ReplayOptions, testing::replay_with};

    fn tally(white_wins: u64, draws: u64, black_wins: u64, unfinished: u64, other: u64) -> Tally {
        Tally {
            games: white_wins + draws + black_wins + unfinished + other,
            white_wins,
            draws,
            black_wins,
            unfinished,
        }
    }

    /// Three aggregates that differ in every kind of field.
    fn samples() -> [Stats; 3] {
        let mut a = Stats { valid: tally(3, 2, 1, 0, 1), ..Stats::default() };
        a.errors.insert("illegal_move".into(), 2);
        a.automatic.insert("checkmate".into(), 3);
        a.threefold = 1;
        a.lengths.add(40);
        a.lengths.add(80);
        a.openings
            .entry("C65".into())
            .or_default()
            .insert("Ruy Lopez".into(), tally(1, 1, 0, 0, 0));
        a.players.insert(
            "Carlsen".into(),
            Player {
                white: tally(1, 0, 0, 0, 0),
                black: Tally::default(),
                rated: Rated { games: 1, points_x2: 2, opponent_rating_sum: 2800 },
            },
        );
        a.rating_gaps.insert(-30, tally(0, 1, 0, 0, 0));
        a.months.insert(202305, tally(1, 0, 0, 0, 0));
        a.speeds.insert(Speed::Blitz, tally(2, 0, 0, 0, 0));
        let mut b = a.clone();
        b.invalid = tally(0, 0, 1, 1, 0);
        b.fifty = 4;
        b.lengths.add(7);
        b.players.insert("Nakamura".into(), Player::default());
        b.termination_tags.insert("Normal".into(), 5);
        b.openings.entry("C65".into()).or_default().insert("".into(), tally(0, 0, 1, 0, 0));
        let mut c = Stats {
            after_claim: tally(0, 3, 0, 0, 0),
            continued: 1,
            inconsistent: 2,
            ..Stats::default()
        };
        c.rating_gaps.insert(120, tally(1, 0, 0, 0, 0));
        c.months.insert(0, tally(0, 0, 0, 0, 1));
        c.speeds.insert(Speed::Unknown, tally(0, 0, 0, 1, 0));
        [a, b, c]
    }

    fn merged(mut left: Stats, right: Stats) -> Stats {
        left.merge(right);
        left
    }

    #[test]
    fn merge_is_associative() {
        let [a, b, c] = samples();
        let left = merged(merged(a.clone(), b.clone()), c.clone());
        let right = merged(a, merged(b, c));
        assert_eq!(left, right);
    }

    #[test]
    fn merge_is_commutative() {
        let [a, b, c] = samples();
        for (x, y) in [(&a, &b), (&a, &c), (&b, &c)] {
            assert_eq!(merged(x.clone(), y.clone()), merged(y.clone(), x.clone()));
        }
    }

    #[test]
    fn default_is_the_identity() {
        for s in samples() {
            assert_eq!(merged(s.clone(), Stats::default()), s);
            assert_eq!(merged(Stats::default(), s.clone()), s);
        }
    }

    #[test]
    fn merging_adds_counts_per_key() {
        let [a, b, _] = samples();
        let both = merged(a, b);
        assert_eq!(both.errors["illegal_move"], 4);
        assert_eq!(both.openings["C65"]["Ruy Lopez"], tally(2, 2, 0, 0, 0));
        assert_eq!(both.openings["C65"][""], tally(0, 0, 1, 0, 0));
        assert_eq!(both.players["Carlsen"].rated.opponent_rating_sum, 5600);
        assert_eq!(both.lengths.count(), 5);
        assert_eq!(both.games(), tally(6, 4, 3, 1, 2));
    }

    #[test]
    fn counts_saturate_instead_of_wrapping() {
        let mut n = u64::MAX - 1;
        n.merge(5);
        assert_eq!(n, u64::MAX);
    }

    #[test]
    fn tallies_that_do_not_add_up_are_refused() {
        assert!(Tally::try_from([3, 1, 1, 1, 0]).is_ok());
        assert!(Tally::try_from([2, 1, 1, 1, 0]).is_err());
        assert!(Tally::try_from([2, u64::MAX, 1, 0, 0]).is_err());
        assert!(Rated::try_from([1, 3, 2000]).is_err());
    }

    /// What `Counter` counts of each game of the committed sample.
    #[derive(Default)]
    struct Games(Classifier);

    impl Observer for Games {
        type Output = (StatsTags<'static>, Option<OpeningId>);

        fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
            self.0.tags(tags)
        }

        fn start<P: Position>(&mut self, pos: &P, standard: bool) {
            self.0.start(pos, standard);
        }

        fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
            self.0.after_move(pos, m, ply, mainline);
        }

        fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
            (StatsTags::of(game.tags).into_owned(), self.0.end_game(game))
        }
    }

    /// Games counted by book id, by name, and in the hashed tables come
    /// out of `finish` the same whichever accumulator counted them.
    #[test]
    fn accumulators_of_any_split_merge_and_finish_as_one() {
        let bytes = include_bytes!("../../fixtures/sample.pgn");
        let records: Vec<_> = replay_with(bytes, ReplayOptions::default(), &mut Games::default())
            .into_iter()
            .map(|(record, (tags, opening))| (record, tags, opening))
            .collect();
        let count = |records: &[(GameRecord, StatsTags, Option<OpeningId>)]| {
            let mut accumulator = Accumulator::default();
            for (record, tags, opening) in records {
                accumulator.add(record, tags, *opening);
            }
            accumulator
        };
        let whole = count(&records);
        let by_book: u64 = whole.by_book.iter().map(|tally| tally.games).sum();
        assert!(by_book > 0 && whole.stats.openings.len() > 10, "{by_book} games by book id");
        let one = whole.finish();
        assert_eq!(one.games().games, records.len() as u64);
        let named: u64 =
            one.openings.values().flat_map(|names| names.values()).map(|t| t.games).sum();
        assert_eq!(named, records.len() as u64);
        for split in [1, records.len() / 3, records.len() - 1] {
            let (left, mut right) = (count(&records[..split]), count(&records[split..]));
            // Later games first: tables of other lengths and orders.
            right.merge(left);
            assert_eq!(right.finish(), one, "split at {split}");
        }
    }
}
