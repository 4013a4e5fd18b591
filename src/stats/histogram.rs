//! Exact histograms of small non-negative integers (game lengths in plies).
//!
//! A `Histogram` counts every distinct value, so merging two histograms is
//! adding counts, and the mean, median and any percentile come out exact
//! whatever way the games were split into shards. Plain data: no I/O.
//! Serialized as a JSON object from value to count.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Merge;

/// Exact counts of `u32` values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Histogram {
    counts: BTreeMap<u32, u64>,
}

impl Histogram {
    /// Counts one occurrence of `value`.
    pub fn add(&mut self, value: u32) {
        *self.counts.entry(value).or_default() += 1;
    }

    /// Number of values counted.
    pub fn count(&self) -> u64 {
        self.counts.values().fold(0, |total, &n| total.saturating_add(n))
    }

    /// Sum of the values counted.
    pub fn sum(&self) -> u128 {
        self.counts.iter().map(|(&value, &n)| u128::from(value) * u128::from(n)).sum()
    }

    /// The arithmetic mean, `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        let count = self.count();
        // u128 → f64 rounds only beyond 2^53 plies in total.
        (count > 0).then(|| self.sum() as f64 / count as f64)
    }

    /// The `percent`-th percentile by the nearest-rank method: the smallest
    /// value such that at least `percent`% of the values are at most it
    /// (`0` gives the minimum, `50` the lower median, `100` the maximum).
    /// `None` when empty. Exact: a value that was counted.
    pub fn percentile(&self, percent: u8) -> Option<u32> {
        let count = u128::from(self.count());
        let percent = u128::from(percent.min(100));
        // The rank, 1-based: ceil(percent × count / 100), at least 1.
        let rank = (percent * count).div_ceil(100).max(1);
        let mut seen = 0u128;
        self.counts.iter().find_map(|(&value, &n)| {
            seen += u128::from(n);
            (seen >= rank).then_some(value)
        })
    }

    /// The distinct values counted, ascending, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts.iter().map(|(&value, &n)| (value, n))
    }

    /// Counts in bins of `width` values: `(first value of the bin, count)`,
    /// ascending, empty bins left out.
    pub fn bins(&self, width: u32) -> BTreeMap<u32, u64> {
        let width = width.max(1);
        let mut bins = BTreeMap::new();
        for (value, n) in self.iter() {
            *bins.entry(value - value % width).or_default() += n;
        }
        bins
    }
}

impl Merge for Histogram {
    fn merge(&mut self, other: Self) {
        Merge::merge(&mut self.counts, other.counts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(values: &[u32]) -> Histogram {
        let mut histogram = Histogram::default();
        values.iter().for_each(|&v| histogram.add(v));
        histogram
    }

    #[test]
    fn percentiles_are_nearest_rank_and_exact() {
        let h = of(&[10, 20, 30, 40]);
        assert_eq!(h.percentile(0), Some(10));
        assert_eq!(h.percentile(25), Some(10));
        assert_eq!(h.percentile(26), Some(20));
        assert_eq!(h.percentile(50), Some(20), "the lower median of an even count");
        assert_eq!(h.percentile(75), Some(30));
        assert_eq!(h.percentile(100), Some(40));
        let odd = of(&[7, 1, 3, 3, 100]);
        assert_eq!(odd.percentile(50), Some(3));
        assert_eq!(odd.percentile(90), Some(100));
        assert_eq!(Histogram::default().percentile(50), None);
    }

    #[test]
    fn mean_sum_count_and_bins() {
        let h = of(&[0, 9, 10, 25, 25]);
        assert_eq!((h.count(), h.sum()), (5, 69));
        assert_eq!(h.mean(), Some(13.8));
        assert_eq!(h.bins(10).into_iter().collect::<Vec<_>>(), [(0, 2), (10, 1), (20, 2)]);
        assert_eq!(Histogram::default().mean(), None);
    }

    #[test]
    fn merging_equals_counting_everything_in_one() {
        let (a, b, c) = (of(&[1, 2, 2]), of(&[2, 3]), of(&[]));
        let all = of(&[1, 2, 2, 2, 3]);
        let mut left = a.clone();
        left.merge(b.clone());
        left.merge(c.clone());
        let mut right = c;
        right.merge(b);
        right.merge(a);
        assert_eq!(left, all);
        assert_eq!(right, all);
        assert_eq!(all.percentile(50), Some(2));
    }

    #[test]
    fn serializes_as_value_to_count() {
        let h = of(&[3, 3, 41]);
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, r#"{"3":2,"41":1}"#);
        assert_eq!(serde_json::from_str::<Histogram>(&json).unwrap(), h);
    }
}
