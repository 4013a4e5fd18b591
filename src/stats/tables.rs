//! The tables of a report, derived from exact `Stats`: percentages, means,
//! percentiles, confidence intervals and ratings, computed only here.
//!
//! Input: `&Stats`; output: `Report`, one `Vec` of rows per table (the CSV
//! files) plus the headline figures. Each row type's field docs are the
//! documentation of its CSV columns. The same `Stats` always give the same
//! report, to the byte. No I/O.

use std::{cmp::Ordering, collections::BTreeMap};

use compact_str::CompactString;
use hashbrown::HashMap;
use serde::Serialize;

use super::{Merge, Player, Stats, Tally, game::Speed, histogram::Histogram};
use crate::record::{ErrorKind, Termination};

/// Width of the rating-gap buckets, in rating points.
pub const GAP_BUCKET: i64 = 50;

/// The percentiles of game length reported.
pub const PERCENTILES: [u8; 7] = [1, 10, 25, 50, 75, 90, 99];

/// Declares a table row: a struct whose field names are its CSV header, in
/// order, and the `HEADER` constant listing them.
macro_rules! row {
    ($(#[$meta:meta])* pub struct $name:ident {
        $($(#[$doc:meta])* pub $field:ident: $ty:ty,)*
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        pub struct $name {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl $name {
            /// The CSV header: the field names, in order.
            pub const HEADER: &[&str] = &[$(stringify!($field)),*];
        }
    };
}

/// The headline figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Headline {
    /// Games read.
    pub games: u64,
    /// Valid games.
    pub valid: u64,
    /// Invalid games (counted in every table but `lengths`).
    pub invalid: u64,
    /// Games scored 1-0, 0-1 or ½-½.
    pub decided: u64,
    /// White's score over the decided games, in %.
    pub white_score_pct: Option<f64>,
    /// 95% confidence interval of White's score, in %.
    pub white_score_ci95_pct: Option<(f64, f64)>,
    /// Draws among the decided games, in %.
    pub draw_pct: Option<f64>,
    /// Decided games in which both players have a rating.
    pub rated_games: u64,
    /// The rating points White's first move is worth: the shift of the
    /// rating gap that makes the Elo expectation equal White's actual score
    /// over the rated games.
    pub white_advantage_elo: Option<f64>,
    /// Median plies of the valid games.
    pub median_plies: Option<u32>,
    /// Mean plies of the valid games.
    pub mean_plies: Option<f64>,
}

row! {
    /// `results.csv`: results of all games, the valid and the invalid.
    pub struct ResultRow {
        /// `all`, `valid` or `invalid`.
        pub scope: &'static str,
        /// Games.
        pub games: u64,
        /// Games won by White (1-0).
        pub white_wins: u64,
        /// Draws (1/2-1/2).
        pub draws: u64,
        /// Games won by Black (0-1).
        pub black_wins: u64,
        /// Unfinished games (`*`).
        pub unfinished: u64,
        /// Games without any of the four results.
        pub other: u64,
        /// Decided games: white_wins + draws + black_wins.
        pub decided: u64,
        /// White's points over the decided games (win 1, draw ½).
        pub white_points: f64,
        /// White's score, % of the points of the decided games.
        pub white_score_pct: Option<f64>,
        /// Lower end of its 95% confidence interval (normal approximation
        /// with the sample variance of the per-game scores).
        pub ci95_low_pct: Option<f64>,
        /// Upper end of the 95% confidence interval.
        pub ci95_high_pct: Option<f64>,
        /// Draws, % of the decided games.
        pub draw_pct: Option<f64>,
    }
}

row! {
    /// `endings.csv`: how games ended, one count per row.
    pub struct EndingRow {
        /// `automatic` (ends found by replay), `claimable` (draws that
        /// could be claimed), `after_claim` (results of games with a
        /// claimable draw and no automatic end: `drawn` by claim or
        /// agreement, or played on to `white_won`, `black_won`,
        /// `unfinished`, `other`), `continued` (moves after an automatic
        /// end), `inconsistent` (result contradicts the final position;
        /// wins on time that Art. 6.9 scores as draws), `undetermined`
        /// (games with a position the dead-position analysis could not
        /// decide), `error` (invalid games by first error), `termination_tag`
        /// (the `Termination` tag's values).
        pub category: &'static str,
        /// The kind within the category.
        pub name: String,
        /// Games.
        pub games: u64,
        /// % of all games.
        pub pct: Option<f64>,
    }
}

row! {
    /// `lengths.csv`: the exact length histogram of the valid games.
    pub struct LengthRow {
        /// Plies (half-moves) replayed.
        pub plies: u32,
        /// Games of exactly that many plies.
        pub games: u64,
        /// % of the valid games.
        pub pct: Option<f64>,
        /// % of the valid games this long or shorter.
        pub cumulative_pct: Option<f64>,
    }
}

/// Game lengths: summary figures and the histogram.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lengths {
    /// Games measured (the valid games of replayed variants).
    pub games: u64,
    /// Mean plies.
    pub mean: Option<f64>,
    /// Shortest game.
    pub min: Option<u32>,
    /// Exact nearest-rank percentiles (`"50"` is the median).
    pub percentiles: BTreeMap<String, Option<u32>>,
    /// Longest game.
    pub max: Option<u32>,
    /// Games by exact length.
    pub histogram: Vec<LengthRow>,
}

row! {
    /// `openings.csv`: games by opening, most played first.
    pub struct OpeningRow {
        /// ECO code: the `ECO` tag, else arbiter's classification from the
        /// moves (lichess chess-openings book); empty when neither.
        pub eco: String,
        /// Opening name: the `Opening` tag, else the book's name when the
        /// book's ECO code is `eco`; empty when neither.
        pub name: String,
        /// Games.
        pub games: u64,
        /// Games won by White.
        pub white_wins: u64,
        /// Draws.
        pub draws: u64,
        /// Games won by Black.
        pub black_wins: u64,
        /// White's score, % of the decided games' points.
        pub white_score_pct: Option<f64>,
        /// Draws, % of the decided games.
        pub draw_pct: Option<f64>,
    }
}

row! {
    /// `players.csv`: games by player (`White`/`Black` tag), most games first.
    pub struct PlayerRow {
        /// The name as written in the tags.
        pub player: String,
        /// Games.
        pub games: u64,
        /// Points in decided games (win 1, draw ½).
        pub points: f64,
        /// Score, % of the decided games' points.
        pub score_pct: Option<f64>,
        /// Games with White.
        pub white_games: u64,
        /// Points with White.
        pub white_points: f64,
        /// Score with White, %.
        pub white_score_pct: Option<f64>,
        /// Games with Black.
        pub black_games: u64,
        /// Points with Black.
        pub black_points: f64,
        /// Score with Black, %.
        pub black_score_pct: Option<f64>,
        /// Decided games against an opponent with a rating tag.
        pub rated_games: u64,
        /// Mean rating of those opponents.
        pub avg_opponent_rating: Option<f64>,
        /// Performance rating over those games: avg_opponent_rating +
        /// 400 × log10(p / (1 − p)) for the score p, within ±800.
        pub performance: Option<f64>,
    }
}

row! {
    /// `rating_gap.csv`: White's score by `WhiteElo − BlackElo`, in buckets
    /// of 50 points centred on multiples of 50.
    pub struct RatingGapRow {
        /// Smallest gap in the bucket.
        pub gap_from: i64,
        /// Largest gap in the bucket.
        pub gap_to: i64,
        /// Games in which both players have a rating.
        pub games: u64,
        /// Games won by White.
        pub white_wins: u64,
        /// Draws.
        pub draws: u64,
        /// Games won by Black.
        pub black_wins: u64,
        /// Decided games (the rest of the row is over these).
        pub decided: u64,
        /// Mean gap.
        pub mean_gap: Option<f64>,
        /// White's actual score, %.
        pub white_score_pct: Option<f64>,
        /// White's expected score by the Elo formula 1 / (1 + 10^(−gap/400)),
        /// averaged over the games, %.
        pub expected_score_pct: Option<f64>,
        /// Actual minus expected, percentage points.
        pub difference_pct: Option<f64>,
    }
}

row! {
    /// `by_month.csv`: games by the month of `UTCDate`, else `Date`.
    pub struct MonthRow {
        /// Year; empty for games without a known year.
        pub year: Option<u32>,
        /// Month 1-12; empty when unknown.
        pub month: Option<u32>,
        /// Games.
        pub games: u64,
        /// Games won by White.
        pub white_wins: u64,
        /// Draws.
        pub draws: u64,
        /// Games won by Black.
        pub black_wins: u64,
        /// White's score, % of the decided games' points.
        pub white_score_pct: Option<f64>,
        /// Draws, % of the decided games.
        pub draw_pct: Option<f64>,
    }
}

row! {
    /// `time_controls.csv`: games by lichess speed class of `TimeControl`
    /// (estimated duration = base + 40 × increment seconds).
    pub struct TimeControlRow {
        /// `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`,
        /// `correspondence` (also `-`), `unknown`.
        pub class: &'static str,
        /// Shortest estimated duration of the class, seconds.
        pub min_seconds: Option<u64>,
        /// Longest estimated duration of the class, seconds.
        pub max_seconds: Option<u64>,
        /// Games.
        pub games: u64,
        /// Games won by White.
        pub white_wins: u64,
        /// Draws.
        pub draws: u64,
        /// Games won by Black.
        pub black_wins: u64,
        /// White's score, % of the decided games' points.
        pub white_score_pct: Option<f64>,
        /// Draws, % of the decided games.
        pub draw_pct: Option<f64>,
    }
}

/// Every table of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The headline figures.
    pub summary: Headline,
    /// `results.csv`.
    pub results: Vec<ResultRow>,
    /// `endings.csv`.
    pub endings: Vec<EndingRow>,
    /// Summary figures, and `lengths.csv` as `histogram`.
    pub lengths: Lengths,
    /// `openings.csv`.
    pub openings: Vec<OpeningRow>,
    /// `players.csv`.
    pub players: Vec<PlayerRow>,
    /// `rating_gap.csv`.
    pub rating_gap: Vec<RatingGapRow>,
    /// `by_month.csv`.
    pub by_month: Vec<MonthRow>,
    /// `time_controls.csv`.
    pub time_controls: Vec<TimeControlRow>,
}

impl Report {
    /// Derives every table from `stats`; the players and openings tables
    /// hold only their first `top` rows when `top` is given.
    pub fn new(stats: &Stats, top: Option<usize>) -> Report {
        let all = stats.games();
        let lengths = lengths(&stats.lengths);
        let rated = stats.rating_gaps.values().map(Tally::decided).sum();
        Report {
            summary: Headline {
                games: all.games,
                valid: stats.valid.games,
                invalid: stats.invalid.games,
                decided: all.decided(),
                white_score_pct: white_score(&all),
                white_score_ci95_pct: confidence_interval(&all),
                draw_pct: pct(all.draws, all.decided()),
                rated_games: rated,
                white_advantage_elo: white_advantage(&stats.rating_gaps).map(|elo| round(elo, 1)),
                median_plies: stats.lengths.percentile(50),
                mean_plies: lengths.mean,
            },
            results: [("all", all), ("valid", stats.valid), ("invalid", stats.invalid)]
                .into_iter()
                .map(|(scope, tally)| result_row(scope, &tally))
                .collect(),
            endings: endings(stats, all.games),
            lengths,
            openings: openings(&stats.openings, top),
            players: players(&stats.players, top),
            rating_gap: rating_gap(&stats.rating_gaps),
            by_month: stats.months.iter().map(|(&key, tally)| month_row(key, tally)).collect(),
            time_controls: Speed::ALL
                .into_iter()
                .map(|speed| {
                    let tally = stats.speeds.get(&speed).copied().unwrap_or_default();
                    let (min_seconds, max_seconds) = speed.seconds();
                    TimeControlRow {
                        class: speed.name(),
                        min_seconds,
                        max_seconds,
                        games: tally.games,
                        white_wins: tally.white_wins,
                        draws: tally.draws,
                        black_wins: tally.black_wins,
                        white_score_pct: white_score(&tally),
                        draw_pct: pct(tally.draws, tally.decided()),
                    }
                })
                .collect(),
        }
    }
}

/// Games by year (`None`: no date), for the terminal's shorter table.
pub fn by_year(months: &BTreeMap<u32, Tally>) -> BTreeMap<Option<u32>, Tally> {
    let mut years = BTreeMap::<Option<u32>, Tally>::new();
    for (&key, &tally) in months {
        years.entry((key > 0).then_some(key / 100)).or_default().merge(tally);
    }
    years
}

/// `part` as % of `whole`, to two decimals; `None` when `whole` is 0.
pub fn pct(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| round(part as f64 * 100.0 / whole as f64, 2))
}

/// Rounds to `decimals` places, so that CSV cells stay short.
fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// White's score over the decided games, %.
pub fn white_score(tally: &Tally) -> Option<f64> {
    pct(tally.white_points_x2(), tally.decided().saturating_mul(2))
}

/// The 95% confidence interval of White's score: mean ± 1.96 standard
/// errors, the per-game scores (1, ½, 0) giving the sample variance;
/// clamped to 0-100%. `None` under two decided games.
pub fn confidence_interval(tally: &Tally) -> Option<(f64, f64)> {
    let n = tally.decided() as f64;
    if tally.decided() < 2 {
        return None;
    }
    let mean = tally.white_points_x2() as f64 / 2.0 / n;
    let mean_of_squares = (tally.white_wins as f64 + tally.draws as f64 / 4.0) / n;
    let variance = (mean_of_squares - mean * mean).max(0.0) * n / (n - 1.0);
    let margin = 1.96 * (variance / n).sqrt();
    let bound = |x: f64| round(x.clamp(0.0, 1.0) * 100.0, 2);
    Some((bound(mean - margin), bound(mean + margin)))
}

fn result_row(scope: &'static str, tally: &Tally) -> ResultRow {
    let ci = confidence_interval(tally);
    ResultRow {
        scope,
        games: tally.games,
        white_wins: tally.white_wins,
        draws: tally.draws,
        black_wins: tally.black_wins,
        unfinished: tally.unfinished,
        other: tally.other(),
        decided: tally.decided(),
        white_points: tally.white_points_x2() as f64 / 2.0,
        white_score_pct: white_score(tally),
        ci95_low_pct: ci.map(|(low, _)| low),
        ci95_high_pct: ci.map(|(_, high)| high),
        draw_pct: pct(tally.draws, tally.decided()),
    }
}

fn endings(stats: &Stats, games: u64) -> Vec<EndingRow> {
    let mut rows = Vec::new();
    let mut push = |category, name: &str, count: u64| {
        rows.push(EndingRow {
            category,
            name: name.to_owned(),
            games: count,
            pct: pct(count, games),
        });
    };
    let terminations = Termination::ALL.iter().map(|t| t.name());
    for (name, count) in with_known_keys(&stats.automatic, terminations) {
        push("automatic", name, count);
    }
    let claimable = [("threefold_repetition", stats.threefold), ("fifty_move_rule", stats.fifty)];
    for (name, count) in claimable {
        push("claimable", name, count);
    }
    let after = &stats.after_claim;
    for (name, count) in [
        ("drawn", after.draws),
        ("white_won", after.white_wins),
        ("black_won", after.black_wins),
        ("unfinished", after.unfinished),
        ("other", after.other()),
    ] {
        push("after_claim", name, count);
    }
    push("continued", "moves_after_automatic_end", stats.continued);
    push("inconsistent", "result_contradicts_position", stats.inconsistent);
    push("inconsistent", "win_on_time_drawn_by_art_6_9", stats.timeout_draws);
    push("undetermined", "dead_position_analysis", stats.undetermined);
    for (name, count) in with_known_keys(&stats.errors, ErrorKind::ALL.iter().map(|k| k.name())) {
        push("error", name, count);
    }
    for (name, &count) in &stats.termination_tags {
        push("termination_tag", name, count);
    }
    rows
}

/// The counts of `known` keys in their order, zeros included, then those
/// of any other key in `counts` (from a newer arbiter's partial).
fn with_known_keys(
    counts: &BTreeMap<String, u64>,
    known: impl Iterator<Item = &'static str>,
) -> Vec<(&str, u64)> {
    let mut rows: Vec<(&str, u64)> =
        known.map(|name| (name, counts.get(name).copied().unwrap_or(0))).collect();
    let known = rows.len();
    for (name, &count) in counts {
        if !rows[..known].iter().any(|(k, _)| k == name) {
            rows.push((name, count));
        }
    }
    rows
}

fn lengths(histogram: &Histogram) -> Lengths {
    let games = histogram.count();
    let mut cumulative = 0;
    let rows = histogram
        .iter()
        .map(|(plies, count)| {
            cumulative += count;
            LengthRow {
                plies,
                games: count,
                pct: pct(count, games),
                cumulative_pct: pct(cumulative, games),
            }
        })
        .collect();
    Lengths {
        games,
        mean: histogram.mean().map(|mean| round(mean, 2)),
        min: histogram.percentile(0),
        percentiles: PERCENTILES
            .iter()
            .map(|&p| (p.to_string(), histogram.percentile(p)))
            .collect(),
        max: histogram.percentile(100),
        histogram: rows,
    }
}

fn openings(
    openings: &HashMap<String, HashMap<String, Tally>>,
    top: Option<usize>,
) -> Vec<OpeningRow> {
    let keyed = openings
        .iter()
        .flat_map(|(eco, names)| names.iter().map(move |(name, tally)| (eco, name, tally)))
        .collect();
    // Most games first; equal counts in key order.
    let ranked = ranked(keyed, top, |a, b| {
        b.2.games.cmp(&a.2.games).then_with(|| (a.0, a.1).cmp(&(b.0, b.1)))
    });
    ranked
        .into_iter()
        .map(|(eco, name, tally)| OpeningRow {
            eco: eco.clone(),
            name: name.clone(),
            games: tally.games,
            white_wins: tally.white_wins,
            draws: tally.draws,
            black_wins: tally.black_wins,
            white_score_pct: white_score(tally),
            draw_pct: pct(tally.draws, tally.decided()),
        })
        .collect()
}

/// The first `top` of `items` (all of them when `None`) in the order
/// `rank`, a total order on them. Only the rows shown are sorted and
/// derived: 77k lichess games already name 36,510 players.
fn ranked<T>(mut items: Vec<T>, top: Option<usize>, rank: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    if let Some(top) = top.filter(|&top| top < items.len()) {
        if let Some(last) = top.checked_sub(1) {
            items.select_nth_unstable_by(last, &rank);
        }
        items.truncate(top);
    }
    items.sort_unstable_by(rank);
    items
}

fn players(players: &HashMap<CompactString, Player>, top: Option<usize>) -> Vec<PlayerRow> {
    // Most games first; equal counts by name.
    let ranked = ranked(players.iter().collect(), top, |a, b| {
        b.1.games().cmp(&a.1.games()).then_with(|| a.0.cmp(b.0))
    });
    ranked
        .into_iter()
        .map(|(name, player)| {
            let rated = &player.rated;
            let average =
                (rated.games > 0).then(|| rated.opponent_rating_sum as f64 / rated.games as f64);
            let performance = average.map(|average| {
                let score = rated.points_x2 as f64 / 2.0 / rated.games as f64;
                round(average + rating_difference(score), 1)
            });
            PlayerRow {
                player: name.to_string(),
                games: player.games(),
                points: player.points_x2() as f64 / 2.0,
                score_pct: pct(player.points_x2(), player.decided().saturating_mul(2)),
                white_games: player.white.games,
                white_points: player.white.white_points_x2() as f64 / 2.0,
                white_score_pct: white_score(&player.white),
                black_games: player.black.games,
                black_points: player.black.black_points_x2() as f64 / 2.0,
                black_score_pct: pct(
                    player.black.black_points_x2(),
                    player.black.decided().saturating_mul(2),
                ),
                rated_games: rated.games,
                avg_opponent_rating: average.map(|a| round(a, 1)),
                performance,
            }
        })
        .collect()
}

/// The Elo expectation of a player `gap` points above the opponent.
pub fn expected_score(gap: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-gap / 400.0))
}

/// The rating difference the Elo formula gives for a score in 0..=1,
/// within ±800 (FIDE's table ends there too).
pub fn rating_difference(score: f64) -> f64 {
    (400.0 * (score / (1.0 - score)).log10()).clamp(-800.0, 800.0)
}

/// The shift `a` of every rating gap for which the Elo expectations sum to
/// White's points: Σ decided(gap) × E(gap + a) = points. Found by bisection
/// in ±800 (the expectation grows with `a`).
fn white_advantage(gaps: &BTreeMap<i64, Tally>) -> Option<f64> {
    let decided: u64 = gaps.values().map(Tally::decided).sum();
    if decided == 0 {
        return None;
    }
    let points: f64 = gaps.values().map(|t| t.white_points_x2() as f64 / 2.0).sum();
    // E(gap + a) = 1 / (1 + 10^(−gap/400) × 10^(−a/400)): one power per
    // gap, and one per step of the bisection.
    let weighted: Vec<(f64, f64)> = gaps
        .iter()
        .filter(|(_, t)| t.decided() > 0)
        .map(|(&gap, t)| (t.decided() as f64, 10f64.powf(-(gap as f64) / 400.0)))
        .collect();
    let expected = |shift: f64| -> f64 {
        let factor = 10f64.powf(-shift / 400.0);
        weighted.iter().map(|&(decided, power)| decided / (1.0 + power * factor)).sum()
    };
    let (mut low, mut high) = (-800.0, 800.0);
    for _ in 0..60 {
        let middle = (low + high) / 2.0;
        if expected(middle) < points {
            low = middle;
        } else {
            high = middle;
        }
    }
    Some((low + high) / 2.0)
}

fn rating_gap(gaps: &BTreeMap<i64, Tally>) -> Vec<RatingGapRow> {
    // Buckets centred on multiples of the width: −25..=24 is the 0 bucket.
    let half = GAP_BUCKET / 2;
    let mut buckets = BTreeMap::<i64, Vec<(i64, &Tally)>>::new();
    for (&gap, tally) in gaps {
        buckets.entry((gap + half).div_euclid(GAP_BUCKET)).or_default().push((gap, tally));
    }
    buckets
        .into_iter()
        .map(|(bucket, members)| {
            let mut tally = Tally::default();
            let (mut gap_sum, mut expected_sum) = (0.0, 0.0);
            for &(gap, member) in &members {
                tally.merge(*member);
                gap_sum += gap as f64 * member.decided() as f64;
                expected_sum += expected_score(gap as f64) * member.decided() as f64;
            }
            let decided = tally.decided();
            let mean = |sum: f64| (decided > 0).then(|| sum / decided as f64);
            let actual = white_score(&tally);
            let expected = mean(expected_sum).map(|e| round(e * 100.0, 2));
            RatingGapRow {
                gap_from: bucket * GAP_BUCKET - half,
                gap_to: bucket * GAP_BUCKET + half - 1,
                games: tally.games,
                white_wins: tally.white_wins,
                draws: tally.draws,
                black_wins: tally.black_wins,
                decided,
                mean_gap: mean(gap_sum).map(|g| round(g, 1)),
                white_score_pct: actual,
                expected_score_pct: expected,
                difference_pct: actual.zip(expected).map(|(a, e)| round(a - e, 2)),
            }
        })
        .collect()
}

fn month_row(key: u32, tally: &Tally) -> MonthRow {
    MonthRow {
        year: (key > 0).then_some(key / 100),
        month: Some(key % 100).filter(|&m| m > 0),
        games: tally.games,
        white_wins: tally.white_wins,
        draws: tally.draws,
        black_wins: tally.black_wins,
        white_score_pct: white_score(tally),
        draw_pct: pct(tally.draws, tally.decided()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(white_wins: u64, draws: u64, black_wins: u64) -> Tally {
        Tally {
            games: white_wins + draws + black_wins,
            white_wins,
            draws,
            black_wins,
            unfinished: 0,
        }
    }

    #[test]
    fn ranked_rows_are_the_first_rows_of_the_full_order() {
        let items: Vec<u32> = (0..200).map(|i| (i * 7919) % 211).collect();
        let mut sorted = items.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(ranked(items.clone(), None, |a, b| b.cmp(a)), sorted);
        for top in [0, 1, 5, 199, 200, 500] {
            let first = ranked(items.clone(), Some(top), |a, b| b.cmp(a));
            assert_eq!(first, sorted[..top.min(items.len())], "top {top}");
        }
    }

    #[test]
    fn white_score_and_its_interval() {
        // 55 wins, 0 draws, 45 losses: mean .55, s² = .2475·100/99 = .25.
        let t = tally(55, 0, 45);
        assert_eq!(white_score(&t), Some(55.0));
        assert_eq!(confidence_interval(&t), Some((45.2, 64.8)));
        // All draws: no variance.
        assert_eq!(confidence_interval(&tally(0, 10, 0)), Some((50.0, 50.0)));
        assert_eq!(confidence_interval(&tally(1, 0, 0)), None);
        assert_eq!(white_score(&Tally::default()), None);
    }

    #[test]
    fn elo_formula_and_its_inverse() {
        assert_eq!(expected_score(0.0), 0.5);
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((rating_difference(10.0 / 11.0) - 400.0).abs() < 1e-9);
        assert_eq!(rating_difference(1.0), 800.0);
        assert_eq!(rating_difference(0.0), -800.0);
    }

    #[test]
    fn white_advantage_matches_the_score_at_equal_ratings() {
        // Equal ratings, White scores 10/11 ⇒ worth 400 points.
        let gaps = BTreeMap::from([(0, tally(10, 0, 1))]);
        assert!((white_advantage(&gaps).unwrap() - 400.0).abs() < 1e-6);
        // Expected results: no advantage.
        let gaps = BTreeMap::from([(-100, tally(0, 2, 0)), (100, tally(0, 2, 0))]);
        assert!(white_advantage(&gaps).unwrap().abs() < 1e-6);
        assert_eq!(white_advantage(&BTreeMap::new()), None);
    }

    #[test]
    fn rating_gaps_fall_in_centred_buckets() {
        let gaps = BTreeMap::from([
            (-26, tally(0, 0, 1)),
            (-25, tally(1, 0, 0)),
            (24, tally(0, 1, 0)),
            (25, tally(1, 0, 0)),
        ]);
        let rows = rating_gap(&gaps);
        let ranges: Vec<_> = rows.iter().map(|r| (r.gap_from, r.gap_to, r.games)).collect();
        assert_eq!(ranges, [(-75, -26, 1), (-25, 24, 2), (25, 74, 1)]);
        assert_eq!(rows[1].white_score_pct, Some(75.0));
        assert_eq!(rows[1].mean_gap, Some(-0.5));
    }

    #[test]
    fn known_kinds_come_first_with_zeros() {
        let counts = BTreeMap::from([("zz_new".to_owned(), 2), ("b".to_owned(), 1)]);
        let rows = with_known_keys(&counts, ["b", "a"].into_iter());
        assert_eq!(rows, [("b", 1), ("a", 0), ("zz_new", 2)]);
    }

    #[test]
    fn headers_are_the_field_names() {
        assert_eq!(ResultRow::HEADER[0], "scope");
        assert_eq!(LengthRow::HEADER, ["plies", "games", "pct", "cumulative_pct"]);
    }
}
