//! `db find`'s reading side: the games of a shard that reached a position.
//!
//! The shard's positions files name the candidates (`lookup`: the row
//! groups whose key range holds the key, about one a file); their rows
//! are located in the `games` file by its `game_id` column alone, and only
//! the four columns a replay needs (`game_id`, `variant`, `fen`, `moves`)
//! are read, of those rows only (a row selection: with the offset index,
//! the pages that hold none are skipped). Each candidate is replayed from
//! its stored moves until it reaches the position, so that a collision of
//! 64-bit keys never gives a wrong game. A shard without positions files
//! is answered the same way from every row. Whole rows are read last,
//! only for the games printed.

use std::{fs::File, ops::ControlFlow, path::Path};

use anyhow::{Context, bail};
use arrow_array::{
    Array, Int32Array, Int64Array, RecordBatch,
    cast::AsArray,
    types::{Int32Type, Int64Type},
};
use parquet::{
    arrow::{
        ProjectionMask,
        arrow_reader::{
            ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
            RowSelection, RowSelector,
        },
    },
    file::{
        metadata::{PageIndexPolicy, ParquetMetaData, RowGroupMetaData},
        statistics::Statistics,
    },
};
use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use shakmaty::Position;

use super::{
    manifest::Shard,
    moves,
    table::{Columns, StoredGame},
};
use crate::{chess::setup, select::board::Identity};

/// Rows read at a time.
const BATCH: usize = 4096;

/// A game that reached the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Its row in its shard (0-based).
    pub row: usize,
    /// Its `game_id`.
    pub game_id: i64,
    /// The first ply after which the position stood (0: the start).
    pub ply: u32,
}

/// Whether column `column` of a row group may hold `value`, by its
/// statistics (a row group without them may).
fn may_hold(group: &RowGroupMetaData, column: usize, value: i64) -> bool {
    match group.column(column).statistics() {
        Some(Statistics::Int64(stats)) => {
            stats.min_opt().is_none_or(|&min| min <= value)
                && stats.max_opt().is_none_or(|&max| value <= max)
        }
        _ => true,
    }
}

/// Whether a row group may hold any of `ids` (sorted), by its statistics.
fn may_hold_any(group: &RowGroupMetaData, column: usize, ids: &[i64]) -> bool {
    match group.column(column).statistics() {
        Some(Statistics::Int64(stats)) => {
            let (Some(&min), Some(&max)) = (stats.min_opt(), stats.max_opt()) else {
                return true;
            };
            let first = ids.partition_point(|&id| id < min);
            ids.get(first).is_some_and(|&id| id <= max)
        }
        _ => true,
    }
}

/// Opens a games file with its offset index (to skip pages a row
/// selection does not touch), which must have the games table's columns:
/// another file in its place would answer "no game", not an error.
fn open(path: &Path) -> anyhow::Result<ParquetRecordBatchReaderBuilder<File>> {
    let what = || format!("reading {}", path.display());
    let file = File::open(path).with_context(what)?;
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(file, options).with_context(what)?;
    super::table::check_schema(builder.schema()).with_context(what)?;
    Ok(builder)
}

/// The `(game_id, ply)` of every occurrence of the position `key` in the
/// positions files of `shard`, sorted, reading only the row groups whose
/// key range holds it.
pub fn lookup(dir: &Path, shard: &Shard, key: i64) -> anyhow::Result<Vec<(i64, u32)>> {
    let found: Vec<Vec<(i64, u32)>> = shard
        .positions
        .par_iter()
        .map(|name| lookup_in(&dir.join(name), key))
        .collect::<anyhow::Result<_>>()?;
    let mut hits = found.concat();
    hits.sort_unstable();
    hits.dedup_by_key(|hit| hit.0);
    Ok(hits)
}

/// The batches of the row groups of `path` whose key range, by their
/// statistics, may hold `key`: a file of schema `schema` (a positions or
/// tree file, `kind` in errors) sorted by its first column, the key.
/// `None` when no row group may.
pub(super) fn groups_holding(
    path: &Path,
    key: i64,
    schema: &arrow_schema::Schema,
    kind: &str,
) -> anyhow::Result<Option<ParquetRecordBatchReader>> {
    let what = || format!("reading {}", path.display());
    let builder = open_keyed(path, schema, kind)?;
    let groups: Vec<usize> = (0..builder.metadata().num_row_groups())
        .filter(|&i| may_hold(builder.metadata().row_group(i), 0, key))
        .collect();
    if groups.is_empty() {
        return Ok(None);
    }
    Ok(Some(builder.with_row_groups(groups).build().with_context(what)?))
}

/// The file at `path`, opened for reading, which must have the schema
/// `schema` (a positions or tree file, `kind` in errors).
pub(super) fn open_keyed(
    path: &Path,
    schema: &arrow_schema::Schema,
    kind: &str,
) -> anyhow::Result<ParquetRecordBatchReaderBuilder<File>> {
    let what = || format!("reading {}", path.display());
    let file = File::open(path).with_context(what)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).with_context(what)?;
    if builder.schema().fields() != schema.fields() {
        bail!("{}: not a {kind} file of this format", path.display());
    }
    Ok(builder)
}

/// The `key`, `game_id` and `ply` columns of a batch of the positions
/// file at `path`.
pub(super) fn positions_columns<'b>(
    batch: &'b RecordBatch,
    path: &Path,
) -> anyhow::Result<(&'b Int64Array, &'b Int64Array, &'b Int32Array)> {
    let column = |i: usize| batch.column(i).as_primitive_opt::<Int64Type>();
    let plies = batch.columns().get(2).and_then(|c| c.as_primitive_opt::<Int32Type>());
    match (batch.num_columns() == 3).then(|| (column(0), column(1), plies)) {
        Some((Some(keys), Some(ids), Some(plies))) => Ok((keys, ids, plies)),
        _ => bail!("{}: not a positions file of this format", path.display()),
    }
}

/// [`lookup`] in one positions file.
fn lookup_in(path: &Path, key: i64) -> anyhow::Result<Vec<(i64, u32)>> {
    let what = || format!("reading {}", path.display());
    let mut hits = Vec::new();
    let schema = super::store::positions_schema();
    let Some(batches) = groups_holding(path, key, &schema, "positions")? else {
        return Ok(hits);
    };
    for batch in batches {
        let batch = batch.with_context(what)?;
        let (keys, ids, plies) = positions_columns(&batch, path)?;
        // Sorted by key: the hits are one run.
        let values = keys.values();
        let first = values.partition_point(|&k| k < key);
        let end = values.partition_point(|&k| k <= key);
        for i in first..end {
            hits.push((ids.value(i), u32::try_from(plies.value(i)).unwrap_or(0)));
        }
    }
    Ok(hits)
}

/// The first row of each row group, and the rows in all.
fn group_starts(meta: &ParquetMetaData) -> (Vec<usize>, usize) {
    let mut starts = Vec::with_capacity(meta.num_row_groups());
    let mut rows = 0;
    for group in meta.row_groups() {
        starts.push(rows);
        rows += usize::try_from(group.num_rows()).unwrap_or(0);
    }
    (starts, rows)
}

/// The row groups holding `rows` (sorted rows of the file) and the
/// selection of those rows among them.
fn plan(meta: &ParquetMetaData, rows: &[usize]) -> (Vec<usize>, RowSelection) {
    let (starts, _) = group_starts(meta);
    let group_of = |row: usize| starts.partition_point(|&start| start <= row) - 1;
    let mut groups: Vec<usize> = rows.iter().map(|&row| group_of(row)).collect();
    groups.dedup();
    let mut selectors = Vec::new();
    // Rows of the groups read, in order: where each selected row is among
    // them.
    let mut read = 0;
    let mut at = 0;
    let mut rows = rows.iter().copied().peekable();
    for &group in &groups {
        let (start, len) = (starts[group], meta.row_group(group).num_rows() as usize);
        while let Some(row) = rows.next_if(|&row| row < start + len) {
            let offset = read + (row - start);
            if offset > at {
                selectors.push(RowSelector::skip(offset - at));
            }
            selectors.push(RowSelector::select(1));
            at = offset + 1;
        }
        read += len;
    }
    if read > at {
        selectors.push(RowSelector::skip(read - at));
    }
    (groups, RowSelection::from(selectors))
}

/// The rows of row group `group` of the games file at `path` whose
/// `game_id` is among `ids` (sorted), in order.
fn rows_of(
    path: &Path,
    meta: &ParquetMetaData,
    group: usize,
    ids: &[i64],
) -> anyhow::Result<Vec<usize>> {
    let what = || format!("reading {}", path.display());
    let builder = open(path)?;
    let column = builder.schema().index_of("game_id").with_context(what)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [column]);
    let reader = builder
        .with_projection(mask)
        .with_row_groups(vec![group])
        .with_batch_size(BATCH)
        .build()
        .with_context(what)?;
    let mut row = group_starts(meta).0[group];
    let mut found = Vec::new();
    for batch in reader {
        let batch = batch.with_context(what)?;
        let Some(values) = batch.column(0).as_primitive_opt::<Int64Type>() else {
            bail!("{}: game_id is not INT64", path.display());
        };
        for id in values.values() {
            if ids.binary_search(id).is_ok() {
                found.push(row);
            }
            row += 1;
        }
    }
    Ok(found)
}

/// The first ply at which a game of standard chess or Chess960 (by its
/// `variant`, `fen` and `moves` columns) reached `target`, replaying its
/// moves until it does or can no longer; `None` for a game of another
/// variant (its positions are not chess's). An error when the moves do
/// not decode (a corrupt shard).
pub fn reached(
    variant: &str,
    fen: Option<&str>,
    codes: &[u8],
    target: &Identity,
) -> anyhow::Result<Option<u32>> {
    if variant != "chess" && variant != "chess960" {
        return Ok(None);
    }
    let (_, setup::Setup::Chess(mut pos)) =
        setup::start_position(Some(variant), fen, || 0, &mut Vec::new(), 0)
    else {
        return Ok(None);
    };
    if target.matches(&pos) {
        return Ok(Some(0));
    }
    let reach = target.reach();
    let mut rest = codes;
    for ply in 1.. {
        if rest.is_empty() {
            break;
        }
        let m = moves::next(&pos, &mut rest)
            .with_context(|| format!("ply {ply} of its moves column does not decode"))?;
        pos.play_unchecked(m);
        if target.matches(&pos) {
            return Ok(Some(ply));
        }
        if !reach.possible(pos.board(), pos.castles().castling_rights()) {
            break;
        }
    }
    Ok(None)
}

/// The games of `shard` whose mainline reached `target` (of key `key`),
/// in the shard's order: the candidates its positions files name, or
/// every game when it has none, each verified by [`reached`]. The row
/// groups are read in parallel, a thread's worth at a time in order until
/// `limit` games are found (at least `limit`, when there are so many:
/// the caller truncates).
pub fn find_in_shard(
    dir: &Path,
    shard: &Shard,
    key: i64,
    target: &Identity,
    limit: usize,
) -> anyhow::Result<Vec<Found>> {
    let path = dir.join(&shard.games);
    let ids = if shard.positions.is_empty() {
        None
    } else {
        let hits = lookup(dir, shard, key)?;
        if hits.is_empty() {
            return Ok(Vec::new());
        }
        Some(hits.iter().map(|hit| hit.0).collect::<Vec<i64>>())
    };
    let meta = open(&path)?.metadata().clone();
    let groups: Vec<usize> = (0..meta.num_row_groups())
        .filter(|&g| ids.as_ref().is_none_or(|ids| may_hold_any(meta.row_group(g), 0, ids)))
        .collect();
    // Without a limit every group at once; with one, a wave of groups a
    // thread, so that `--limit 20` verifies the first groups only.
    let wave = if limit == usize::MAX { groups.len() } else { rayon::current_num_threads() };
    let mut found = Vec::new();
    for groups in groups.chunks(wave.max(1)) {
        let verified: Vec<Vec<Found>> = groups
            .par_iter()
            .map(|&group| find_in_group(&path, &meta, group, ids.as_deref(), target))
            .collect::<anyhow::Result<_>>()?;
        found.extend(verified.into_iter().flatten());
        if found.len() >= limit {
            break;
        }
    }
    Ok(found)
}

/// [`find_in_shard`] for one row group: its rows among `ids` (all of them
/// without), of which only the narrow columns are read.
fn find_in_group(
    path: &Path,
    meta: &ParquetMetaData,
    group: usize,
    ids: Option<&[i64]>,
    target: &Identity,
) -> anyhow::Result<Vec<Found>> {
    let what = || format!("reading {}", path.display());
    let start = group_starts(meta).0[group];
    let len = usize::try_from(meta.row_group(group).num_rows()).unwrap_or(0);
    let rows = match ids {
        Some(ids) => rows_of(path, meta, group, ids)?,
        None => (start..start + len).collect(),
    };
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let builder = open(path)?;
    let schema = builder.schema().clone();
    let index = |name: &str| schema.index_of(name).with_context(what);
    let columns = [index("game_id")?, index("fen")?, index("variant")?, index("moves")?];
    let mask = ProjectionMask::roots(builder.parquet_schema(), columns);
    let (groups, selection) = plan(meta, &rows);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH)
        .with_row_groups(groups)
        .with_row_selection(selection)
        .build()
        .with_context(what)?;
    let mut found = Vec::new();
    let mut next = rows.iter().copied();
    for batch in reader {
        let batch = batch.with_context(what)?;
        verify(&batch, &mut next, target, &mut found).with_context(what)?;
    }
    Ok(found)
}

/// Verifies each row of a batch of the narrow columns, whose rows in the
/// shard `rows` gives, in order.
fn verify(
    batch: &RecordBatch,
    rows: &mut impl Iterator<Item = usize>,
    target: &Identity,
    found: &mut Vec<Found>,
) -> anyhow::Result<()> {
    let column = |name: &str| batch.column_by_name(name).with_context(|| format!("no {name}"));
    let ids = column("game_id")?.as_primitive_opt::<Int64Type>().context("game_id")?;
    let fens = column("fen")?.as_string_opt::<i32>().context("fen")?;
    let variants = column("variant")?.as_string_opt::<i32>().context("variant")?;
    let codes = column("moves")?.as_binary_opt::<i32>().context("moves")?;
    for i in 0..batch.num_rows() {
        let row = rows.next().context("more rows than selected")?;
        let game_id = ids.value(i);
        let fen = fens.is_valid(i).then(|| fens.value(i));
        let variant = if variants.is_valid(i) { variants.value(i) } else { "chess" };
        let codes = if codes.is_valid(i) { codes.value(i) } else { &[] };
        let ply =
            reached(variant, fen, codes, target).with_context(|| format!("game {game_id}"))?;
        if let Some(ply) = ply {
            found.push(Found { row, game_id, ply });
        }
    }
    Ok(())
}

/// Hands the whole games of rows `found` (in order) of `shard` to `each`,
/// with their [`Found`], until it says to stop.
pub fn games_at(
    dir: &Path,
    shard: &Shard,
    found: &[Found],
    each: &mut impl FnMut(StoredGame, Found) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<ControlFlow<()>> {
    if found.is_empty() {
        return Ok(ControlFlow::Continue(()));
    }
    let path = dir.join(&shard.games);
    let what = || format!("reading {}", path.display());
    let builder = open(&path)?;
    let rows: Vec<usize> = found.iter().map(|f| f.row).collect();
    let (groups, selection) = plan(builder.metadata(), &rows);
    let batch = super::scan::batch_rows(builder.metadata());
    let reader = builder
        .with_row_groups(groups)
        .with_row_selection(selection)
        .with_batch_size(batch)
        .build()
        .with_context(what)?;
    let mut found = found.iter();
    for batch in reader {
        let batch = batch.with_context(what)?;
        let columns = Columns::of(&batch).with_context(what)?;
        for i in 0..columns.len() {
            let game = columns.game(i).with_context(what)?;
            let hit = *found.next().context("more rows than selected")?;
            if game.game_id != hit.game_id {
                bail!("{}: row {} is not game {}", path.display(), hit.row, hit.game_id);
            }
            if each(game, hit)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
    Ok(ControlFlow::Continue(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_finds_the_first_ply_and_refuses_variants() {
        let target =
            Identity::parse("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap();
        let mut codes = Vec::new();
        let mut pos = shakmaty::Chess::default();
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            moves::push(&mut codes, &pos, m);
            pos.play_unchecked(m);
        }
        assert_eq!(reached("chess", None, &codes, &target).unwrap(), Some(2));
        assert_eq!(reached("chess", None, &codes[..1], &target).unwrap(), None);
        assert_eq!(reached("atomic", None, &codes, &target).unwrap(), None);
        // An index past the legal moves: a corrupt column.
        assert!(reached("chess", None, &[codes[0], 20], &target).is_err());
        assert!(reached("chess", None, &[codes[0], moves::ESCAPE], &target).is_err());
    }
}
