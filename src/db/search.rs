//! `db search` and `db export` with predicates: the games of a database
//! that `filter`'s predicates select, decided from the columns they need
//! only, on the row groups in parallel, and handed over in order.
//!
//! Each row group is decided on a worker: only the columns the predicates
//! read are decoded (the header's for the tags, the verdict's for the
//! record, `moves` and the filter columns for positions and moves); a game
//! whose `final_material` and `home_pawns` prove that its positions cannot
//! pass (`select::board::Ending`) is not replayed; the others are, as
//! `scan::Matcher` does. The games that pass are then read whole, row
//! group by row group in order, a window of row groups at a time, so that
//! memory stays bounded by the window whatever the database's size.

use std::{fs::File, ops::ControlFlow, path::Path};

use anyhow::Context;
use arrow_array::{Array, RecordBatch};
use parquet::arrow::{
    ProjectionMask,
    arrow_reader::{
        ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
        RowSelector,
    },
};
use rayon::prelude::*;

use super::{
    manifest::Manifest,
    scan::Matcher,
    table::{self, COLUMNS, Columns, StoredGame},
};
use crate::select::{Selection, board::Ending};

/// Games read at a time from a row group.
const BATCH: usize = 4096;

/// Row groups decided at once, per thread: enough to keep every worker
/// busy while the window's matches are handed over.
const WINDOW_PER_THREAD: usize = 2;

/// The columns of a game's header: its tags (`Header`).
const HEADER: [&str; 15] = [
    "event",
    "site",
    "date_text",
    "round",
    "white",
    "black",
    "result",
    "white_elo",
    "black_elo",
    "eco",
    "opening",
    "time_control",
    "termination_tag",
    "fen",
    "tags",
];

/// The columns that only the replay of moves needs.
const MOVES: [&str; 4] = ["moves", "variant", "final_material", "home_pawns"];

/// The columns that the record needs beyond the header: all but the
/// moves, the clocks, evaluations and text, and the filter columns.
fn verdict_columns() -> impl Iterator<Item = &'static str> {
    let skip = ["moves", "clocks", "evals", "text"];
    COLUMNS.into_iter().filter(move |name| !skip.contains(name) && !HEADER.contains(name))
}

/// The columns that deciding `selection` reads.
fn projection(selection: &Selection) -> Vec<&'static str> {
    let mut names = Vec::new();
    if selection.reads_tags() || selection.reads_board() || selection.reads_verdict() {
        names.extend(HEADER);
    }
    if selection.reads_board() {
        names.extend(MOVES);
    }
    if selection.reads_verdict() {
        names.extend(verdict_columns());
    }
    names
}

/// A shard opened for reading: its path and its footer, read once.
struct Shard {
    path: std::path::PathBuf,
    metadata: ArrowReaderMetadata,
}

impl Shard {
    fn open(path: &Path) -> anyhow::Result<Shard> {
        let what = || format!("reading {}", path.display());
        let file = File::open(path).with_context(what)?;
        let metadata =
            ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).with_context(what)?;
        table::check_schema(metadata.schema()).with_context(what)?;
        Ok(Shard { path: path.to_owned(), metadata })
    }

    /// A reader of row group `group`, of the columns `names` (all when
    /// `None`), of the rows `rows` (all when `None`).
    fn reader(
        &self,
        group: usize,
        names: Option<&[&str]>,
        rows: Option<RowSelection>,
    ) -> anyhow::Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader> {
        let what = || format!("reading {}", self.path.display());
        let file = File::open(&self.path).with_context(what)?;
        let mut builder =
            ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.metadata.clone())
                .with_row_groups(vec![group])
                .with_batch_size(BATCH.min(super::scan::batch_rows(self.metadata.metadata())));
        if let Some(names) = names {
            let schema = self.metadata.schema();
            let roots = names.iter().filter_map(|name| schema.index_of(name).ok());
            let mask = ProjectionMask::roots(self.metadata.parquet_schema(), roots);
            builder = builder.with_projection(mask);
        }
        if let Some(rows) = rows {
            builder = builder.with_row_selection(rows);
        }
        builder.build().with_context(what)
    }

    fn rows(&self, group: usize) -> usize {
        let rows = self.metadata.metadata().row_group(group).num_rows();
        usize::try_from(rows).unwrap_or(0)
    }
}

/// Decides the games of one row group: the rows (from 0) that pass.
fn decide(
    shard: &Shard,
    group: usize,
    selection: &Selection,
    names: &[&str],
) -> anyhow::Result<Vec<usize>> {
    let what = || format!("reading {}", shard.path.display());
    let mut matcher = Matcher::new(selection.clone());
    let board = selection.reads_board();
    let mut passed = Vec::new();
    let mut row = 0;
    for batch in shard.reader(group, Some(names), None)? {
        let batch = batch.with_context(what)?;
        let columns = Columns::projected(&batch);
        let (materials, variants) = (columns.string("final_material"), columns.string("variant"));
        for i in 0..batch.num_rows() {
            // Positions and moves first proved out of reach by the end.
            let pruned = board
                && variants
                    .is_some_and(|v| v.is_valid(i) && matches!(v.value(i), "chess" | "chess960"))
                && materials.is_some_and(|m| {
                    m.is_valid(i)
                        && columns.int32_at("home_pawns", i).is_some_and(|home| {
                            Ending::of(m.value(i), home)
                                .is_some_and(|end| !selection.may_end_in(&end))
                        })
                });
            if !pruned && matcher.matches(&columns.game(i).with_context(what)?)? {
                passed.push(row + i);
            }
        }
        row += batch.num_rows();
    }
    Ok(passed)
}

/// The selection of `rows` (sorted) among `total`.
fn selection_of(rows: &[usize], total: usize) -> RowSelection {
    let mut selectors = Vec::new();
    let mut at = 0;
    for &row in rows {
        if row > at {
            selectors.push(RowSelector::skip(row - at));
        }
        selectors.push(RowSelector::select(1));
        at = row + 1;
    }
    if total > at {
        selectors.push(RowSelector::skip(total - at));
    }
    RowSelection::from(selectors)
}

/// Hands each game of the database that `selection` selects to `each`, in
/// the database's order, until it says to stop; with `whole` false, only
/// counts them. Returns how many were selected (up to the stop). Decided
/// on `threads` threads.
pub fn each_match(
    dir: &Path,
    manifest: &Manifest,
    selection: &Selection,
    threads: usize,
    whole: bool,
    mut each: impl FnMut(StoredGame) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<u64> {
    let mut matched = 0;
    let visit = |found: Found<'_>| match found {
        Found::Count(rows) => {
            matched += rows as u64;
            Ok(ControlFlow::Continue(()))
        }
        Found::Batch(batch, path) => {
            let what = || format!("reading {}", path.display());
            let columns = Columns::of(batch).with_context(what)?;
            for i in 0..columns.len() {
                matched += 1;
                if each(columns.game(i).with_context(what)?)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
    };
    each_matching_batch(dir, manifest, selection, threads, whole, visit)?;
    Ok(matched)
}

/// What [`each_matching_batch`] hands over of a row group.
pub enum Found<'a> {
    /// How many of its games were selected (when they are not read).
    Count(usize),
    /// Its selected games, every column, and the shard they are read from.
    Batch(&'a RecordBatch, &'a Path),
}

/// Hands the games that `selection` selects to `each` as record batches
/// of every column (only the selected rows), in the database's order,
/// until it says to stop; with `whole` false, only their number a row
/// group. Decided on `threads` threads.
pub fn each_matching_batch(
    dir: &Path,
    manifest: &Manifest,
    selection: &Selection,
    threads: usize,
    whole: bool,
    mut each: impl FnMut(Found<'_>) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<()> {
    let shards = manifest
        .shard_paths(dir)
        .iter()
        .map(|path| Shard::open(path))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let units: Vec<(usize, usize)> = shards
        .iter()
        .enumerate()
        .flat_map(|(s, shard)| (0..shard.metadata.metadata().num_row_groups()).map(move |g| (s, g)))
        .collect();
    let names = projection(selection);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .context("starting the search's threads")?;
    for window in units.chunks(threads.max(1) * WINDOW_PER_THREAD) {
        let decided: Vec<Vec<usize>> = pool.install(|| {
            window
                .par_iter()
                .map(|&(s, g)| decide(&shards[s], g, selection, &names))
                .collect::<anyhow::Result<_>>()
        })?;
        for (&(s, g), rows) in window.iter().zip(decided) {
            if rows.is_empty() {
                continue;
            }
            if !whole {
                if each(Found::Count(rows.len()))?.is_break() {
                    return Ok(());
                }
                continue;
            }
            let shard = &shards[s];
            let what = || format!("reading {}", shard.path.display());
            let reader = shard.reader(g, None, Some(selection_of(&rows, shard.rows(g))))?;
            for batch in reader {
                let batch = batch.with_context(what)?;
                if each(Found::Batch(&batch, &shard.path))?.is_break() {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_selections_pick_the_rows_asked_for() {
        let selection = selection_of(&[0, 3, 4, 9], 12);
        let picked: Vec<usize> = selection
            .iter()
            .scan(0, |at, s| {
                let rows = (*at..*at + s.row_count).filter(|_| !s.skip).collect::<Vec<_>>();
                *at += s.row_count;
                Some(rows)
            })
            .flatten()
            .collect();
        assert_eq!(picked, vec![0, 3, 4, 9]);
        assert_eq!(selection.row_count(), 4);
        assert_eq!(selection.iter().map(|s| s.row_count).sum::<usize>(), 12);
    }

    #[test]
    fn each_predicate_reads_its_columns_only() {
        let mut builder = crate::select::Builder::default();
        builder.add(crate::select::Key::Player, &["carlsen".to_owned()]).unwrap();
        let names = projection(&builder.build());
        assert!(names.contains(&"white") && names.contains(&"tags"));
        assert!(!names.contains(&"moves") && !names.contains(&"warnings"));
        let mut builder = crate::select::Builder::default();
        builder.add(crate::select::Key::Material, &["KRvK".to_owned()]).unwrap();
        let names = projection(&builder.build());
        assert!(names.contains(&"moves") && names.contains(&"home_pawns"));
        assert!(!names.contains(&"warnings") && !names.contains(&"clocks"));
        let mut builder = crate::select::Builder::default();
        builder.add(crate::select::Key::Code, &["W128".to_owned()]).unwrap();
        let names = projection(&builder.build());
        assert!(names.contains(&"warnings") && names.contains(&"final_fen"));
        assert!(!names.contains(&"moves") && !names.contains(&"text"));
        // Every column named is one of the table's.
        let all: Vec<&str> = COLUMNS.iter().chain(&table::FILTER_COLUMNS).copied().collect();
        assert!(names.iter().all(|n| all.contains(n)));
        assert!(HEADER.iter().chain(&MOVES).all(|n| all.contains(n)));
    }
}
