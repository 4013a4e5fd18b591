//! The sink of `db build`: writes the records and rows it is handed, in
//! input order, into shards (`games/part-NNNNNN.parquet`, at most
//! `shard_games` rows each, row groups of `row_group` rows), each shard's
//! statistics (`stats/part-NNNNNN.json`, a `stats --partial`) and, with
//! `--positions`, its positions sorted by key in one file
//! (`positions/part-NNNNNN-001.parquet`): runs that fit in memory are
//! sorted and spilled to anonymous temporary files, which are merged with
//! the last run, still in memory, into it when the shard is closed (the
//! merge and the encoding of the row groups on threads of their own,
//! since no game is left to replay then).
//!
//! A shard is written to a temporary file beside its name, synced and
//! renamed into place when it is complete (`sink::atomic`), then its
//! partial the same way; the manifest, which alone makes them part of the
//! database, is the caller's to write last. Parquet pages are compressed
//! with zstd.

use std::{
    collections::HashMap,
    fs::File,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use parquet::{
    arrow::ArrowWriter,
    basic::{Compression, Encoding, ZstdLevel},
    file::properties::{EnabledStatistics, WriterProperties},
};

use super::{manifest::Shard, row::Row, table::TableBuilder};
use crate::{
    pgn::chunk::MAX_GAME,
    record::GameRecord,
    sink::{
        Sink,
        atomic::{Provisional, Replacement},
    },
    stats::{Accumulator, partial},
};

/// Rows a record batch holds before it goes to the Parquet writer: fewer
/// calls into it, for about 12 MB more at the peak (benches/HISTORY.md,
/// session 28).
const BATCH_ROWS: usize = 16_384;

/// The most bytes of games (their own lengths, each at most
/// [`MAX_GAME`]) a record batch holds: games of megabytes each, stored
/// with their text, would hold gigabytes in a batch of `BATCH_ROWS`.
const BATCH_BYTES: u64 = 32 << 20;

/// The most bytes a row group of `games` takes, encoded (the writer's
/// estimate): a row group is held in memory until it is complete. Games
/// as large as real ones are far from it at `--row-group`'s 100,000.
const ROW_GROUP_BYTES: usize = 64 << 20;

/// The most bytes of stored game text (`Row::text`) a row group holds
/// (give or take a batch), which readers decode: texts that compress well
/// put far more than [`ROW_GROUP_BYTES`] into a row group of that encoded
/// size. Games without a text, nearly all, never reach it.
const ROW_GROUP_TEXT: u64 = 64 << 20;

/// zstd's level for every file the database writes: level 3 made `db
/// build` about 4% slower for files about 3% smaller (benches/HISTORY.md,
/// session 28).
pub(super) const ZSTD_LEVEL: i32 = 1;

/// Positions held before they are sorted and spilled as a run (24 bytes
/// each: memory stays flat whatever the shard's size).
const POSITIONS_RUN: usize = 4 << 20;

/// Rows in a row group of a `positions` file: a lookup reads the row
/// groups whose key range holds the key, about one a file.
const POSITIONS_ROW_GROUP: usize = 1 << 16;

/// Columns of `games` whose values are nearly all distinct: written
/// without a dictionary.
const UNIQUE_COLUMNS: [&str; 10] = [
    "game_id",
    "offset",
    "index",
    "line",
    "moves",
    "final_fen",
    "final_key",
    "mainline_hash",
    "utc_datetime",
    "text",
];

/// Columns of `games` that count up within a source: delta-encoded.
const ASCENDING_COLUMNS: [&str; 4] = ["game_id", "offset", "index", "line"];

/// Columns of `games` that hold 64-bit hashes: not compressed.
const HASH_COLUMNS: [&str; 2] = ["final_key", "mainline_hash"];

/// How shards are cut.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Most rows in a shard.
    pub shard_games: u64,
    /// Rows in a row group.
    pub row_group: usize,
}

/// The sink that writes a database's new shards.
pub struct Store {
    dir: PathBuf,
    sizes: Sizes,
    /// The number of each input, by its name in records.
    sources: HashMap<String, u32>,
    /// Games written, by source number.
    pub games: HashMap<u32, u64>,
    /// The number of the next shard.
    next: u64,
    open: Option<OpenShard>,
    builder: TableBuilder,
    /// The games' own bytes in the batch being built ([`BATCH_BYTES`]).
    batch_bytes: u64,
    /// The shards written, in order.
    pub written: Vec<Shard>,
    /// Their files, removed unless kept ([`Store::keep`]): a run that ends
    /// before its manifest is written leaves none behind.
    provisional: Vec<Provisional>,
    /// The inputs that could not be read to the end (as given), and why.
    pub failed: Vec<(String, String)>,
}

/// The shard being written.
struct OpenShard {
    name: String,
    replacement: Replacement,
    writer: ArrowWriter<BufWriter<File>>,
    rows: u64,
    /// Bytes of game text in the row group being written, counted as
    /// the games are added ([`ROW_GROUP_TEXT`]).
    group_text: u64,
    stats: Accumulator,
    /// `(key, game_id, ply)` of the games since the last spilled run.
    positions: Vec<(i64, i64, i32)>,
    /// The sorted runs spilled so far (anonymous temporary files).
    runs: Vec<Run>,
    /// The sources of those positions.
    position_sources: Sources,
    /// The positions files written for this shard.
    position_files: Vec<String>,
}

fn other(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> io::Error {
    io::Error::other(error)
}

impl Store {
    /// A store writing into `dir` (whose `games` and `stats` directories
    /// exist), numbering its shards from `first`, for inputs `sources`
    /// (their names in records, with their numbers).
    pub fn new(dir: &Path, first: u64, sizes: Sizes, sources: HashMap<String, u32>) -> Store {
        Store {
            dir: dir.to_owned(),
            sizes,
            sources,
            games: HashMap::new(),
            next: first,
            open: None,
            builder: TableBuilder::default(),
            batch_bytes: 0,
            written: Vec::new(),
            provisional: Vec::new(),
            failed: Vec::new(),
        }
    }

    fn open_shard(&mut self) -> io::Result<&mut OpenShard> {
        if self.open.is_none() {
            let name = format!("part-{:06}", self.next);
            self.next += 1;
            let path = self.dir.join("games").join(format!("{name}.parquet"));
            let replacement = Replacement::begin_provisional(&path)?;
            let file = BufWriter::with_capacity(1 << 20, replacement.file().try_clone()?);
            let mut props = WriterProperties::builder()
                .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL).map_err(other)?))
                .set_max_row_group_row_count(Some(self.sizes.row_group.max(1)))
                .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
                .set_statistics_enabled(EnabledStatistics::Chunk)
                .set_created_by(format!("arbiter {}", env!("CARGO_PKG_VERSION")));
            let column = |name: &str| parquet::schema::types::ColumnPath::from(name);
            // A value a game, nearly all distinct: a dictionary is built
            // and hashed into for nothing (benches/HISTORY.md, session 20).
            for name in UNIQUE_COLUMNS {
                props = props.set_column_dictionary_enabled(column(name), false);
            }
            // Counts up within a source: their deltas pack into a few bits.
            for name in ASCENDING_COLUMNS {
                props = props.set_column_encoding(column(name), Encoding::DELTA_BINARY_PACKED);
            }
            // Hashes: zstd cannot shrink them.
            for name in HASH_COLUMNS {
                props = props.set_column_compression(column(name), Compression::UNCOMPRESSED);
            }
            // Nothing reads the bounds of these byte columns, costly to keep.
            for name in ["moves", "text", "final_fen"] {
                props = props.set_column_statistics_enabled(column(name), EnabledStatistics::None);
            }
            let props = props.build();
            let writer =
                ArrowWriter::try_new(file, TableBuilder::schema(), Some(props)).map_err(other)?;
            self.open = Some(OpenShard {
                name,
                replacement,
                writer,
                rows: 0,
                group_text: 0,
                stats: Accumulator::default(),
                positions: Vec::new(),
                runs: Vec::new(),
                position_sources: Sources::None,
                position_files: Vec::new(),
            });
        }
        // Opened just above when there was none.
        self.open.as_mut().ok_or_else(|| other("no shard"))
    }

    /// Hands the rows built so far to the open shard's writer.
    fn flush_batch(&mut self) -> io::Result<()> {
        if self.builder.is_empty() {
            return Ok(());
        }
        let batch = self.builder.finish();
        self.batch_bytes = 0;
        if let Some(open) = &mut self.open {
            open.writer.write(&batch).map_err(other)?;
            // The writer may have ended a row group itself (by rows, or
            // encoded bytes): then the count starts over, else it may end
            // one here.
            if open.writer.in_progress_rows() == 0 {
                open.group_text = 0;
            } else if open.group_text >= ROW_GROUP_TEXT {
                open.writer.flush().map_err(other)?;
                open.group_text = 0;
            }
        }
        Ok(())
    }

    /// Completes the open shard: its file, its positions, then its
    /// statistics.
    fn close_shard(&mut self) -> io::Result<()> {
        self.flush_batch()?;
        let Some(mut open) = self.open.take() else { return Ok(()) };
        // Each file adopted once committed: a failure after it removes it.
        let written = write_positions(&self.dir, &mut open);
        let adopt = |file: &String| Provisional::adopt(&self.dir.join(file));
        self.provisional.extend(open.position_files.iter().map(adopt));
        written?;
        let OpenShard { name, replacement, writer, rows, stats, position_files, .. } = open;
        let games = format!("games/{name}.parquet");
        commit(writer, replacement)?;
        self.provisional.push(Provisional::adopt(&self.dir.join(&games)));
        let stats_name = format!("stats/{name}.json");
        crate::sink::atomic::write_provisional(&self.dir.join(&stats_name), |wtr| {
            partial::write(wtr, &stats.finish())
        })?;
        self.provisional.push(Provisional::adopt(&self.dir.join(&stats_name)));
        self.written.push(Shard {
            games,
            stats: stats_name,
            rows,
            positions: position_files,
            tree: None,
        });
        Ok(())
    }

    /// A file of a shard written by another step (its tree), removed with
    /// the shard's unless kept.
    pub fn provisional(&mut self, path: &Path) {
        self.provisional.push(Provisional::adopt(path));
    }

    /// Keeps the files written: the manifest that lists them is next.
    pub fn keep(&mut self) {
        self.provisional.drain(..).for_each(Provisional::keep);
    }
}

/// The schema of a `positions` file.
pub fn positions_schema() -> arrow_schema::SchemaRef {
    use arrow_schema::{DataType, Field, Schema};
    std::sync::Arc::new(Schema::new(vec![
        Field::new("key", DataType::Int64, false),
        Field::new("game_id", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
    ]))
}

/// The sources whose games a positions file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sources {
    None,
    One(u32),
    Many,
}

impl Sources {
    fn add(&mut self, source: u32) {
        *self = match *self {
            Sources::None => Sources::One(source),
            Sources::One(one) if one == source => Sources::One(one),
            _ => Sources::Many,
        };
    }

    /// How the file's `game_id`s are encoded. Sorted by key, a key's games
    /// are a run of increasing ids and the next key's start anywhere. With
    /// one source, ids differ in their low 40 bits only, so deltas pack
    /// into about 21 bits (DELTA_BINARY_PACKED: 10% smaller and 4% less
    /// CPU on the master games, benches/HISTORY.md); with several, every
    /// block of 32 deltas holds a jump between sources of 2^32 or more,
    /// and PLAIN, which zstd packs, is smaller.
    fn game_id_encoding(self) -> Encoding {
        match self {
            Sources::One(_) => Encoding::DELTA_BINARY_PACKED,
            Sources::None | Sources::Many => Encoding::PLAIN,
        }
    }
}

/// Bytes of a position in a spilled run: key, game_id, ply, little-endian.
const RUN_ROW: usize = 20;

/// Sorts the open shard's positions and spills them to a temporary file
/// (removed by the system when closed, whatever happens).
fn spill(dir: &Path, open: &mut OpenShard) -> io::Result<()> {
    let positions = std::mem::take(&mut open.positions);
    let file = spill_run(&dir.join("positions"), positions)?;
    open.runs.push(Run::File(io::BufReader::with_capacity(1 << 20, file)));
    Ok(())
}

/// `positions` sorted, in an anonymous temporary file in `dir`, rewound.
fn spill_run(dir: &Path, mut positions: Vec<(i64, i64, i32)>) -> io::Result<File> {
    positions.sort_unstable();
    let file = tempfile::tempfile_in(dir)?;
    let mut wtr = BufWriter::with_capacity(1 << 20, file);
    for (key, id, ply) in positions {
        wtr.write_all(&key.to_le_bytes())?;
        wtr.write_all(&id.to_le_bytes())?;
        wtr.write_all(&ply.to_le_bytes())?;
    }
    let mut file = wtr.into_inner().map_err(io::IntoInnerError::into_error)?;
    io::Seek::rewind(&mut file)?;
    Ok(file)
}

/// A sorted run being merged: spilled to a file, or the last one, still
/// in memory.
enum Run {
    File(io::BufReader<File>),
    Memory(std::vec::IntoIter<(i64, i64, i32)>),
}

impl Run {
    fn next(&mut self) -> io::Result<Option<(i64, i64, i32)>> {
        let rdr = match self {
            Run::File(rdr) => rdr,
            Run::Memory(rows) => return Ok(rows.next()),
        };
        let mut row = [0; RUN_ROW];
        match io::Read::read_exact(rdr, &mut row) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(error) => return Err(error),
        }
        let int = |at: usize| i64::from_le_bytes(row[at..at + 8].try_into().unwrap_or_default());
        let ply = i32::from_le_bytes(row[16..20].try_into().unwrap_or_default());
        Ok(Some((int(0), int(8), ply)))
    }
}

/// Writes the open shard's positions, sorted by `(key, game_id)`, as its
/// `positions` file, whole or not at all: the runs spilled and the one in
/// memory, merged. Keys sorted make their deltas small (DELTA_BINARY_PACKED,
/// no dictionary), and a key's games are one run of increasing ids, which
/// zstd packs well as they are (PLAIN). The last shard's file is written
/// once every game is replayed, with the cores free: the merge (and the
/// row groups' arrays) runs on a thread of its own, and row groups are
/// encoded two at a time ([`encode_group`]); the file is byte for byte
/// what one `ArrowWriter` writes.
fn write_positions(dir: &Path, open: &mut OpenShard) -> io::Result<()> {
    if open.positions.is_empty() && open.runs.is_empty() {
        return Ok(());
    }
    if !open.positions.is_empty() {
        // The last run needs no trip through a file.
        let mut positions = std::mem::take(&mut open.positions);
        positions.sort_unstable();
        open.runs.push(Run::Memory(positions.into_iter()));
    }
    let name = format!("positions/{}-{:03}.parquet", open.name, open.position_files.len() + 1);
    let replacement = Replacement::begin_provisional(&dir.join(&name))?;
    let file = BufWriter::with_capacity(1 << 20, replacement.file().try_clone()?);
    let column = |name: &str| parquet::schema::types::ColumnPath::from(name);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL).map_err(other)?))
        .set_max_row_group_row_count(Some(POSITIONS_ROW_GROUP))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_column_dictionary_enabled(column("key"), false)
        .set_column_encoding(column("key"), parquet::basic::Encoding::DELTA_BINARY_PACKED)
        .set_column_dictionary_enabled(column("game_id"), false)
        .set_column_encoding(column("game_id"), open.position_sources.game_id_encoding())
        .set_created_by(format!("arbiter {}", env!("CARGO_PKG_VERSION")))
        .build();
    let writer = ArrowWriter::try_new(file, positions_schema(), Some(props)).map_err(other)?;
    let (mut writer, columns) = writer.into_serialized_writer().map_err(other)?;
    let runs = std::mem::take(&mut open.runs);
    std::thread::scope(|scope| {
        // A few groups ahead at most: memory stays at a few row groups.
        let (tx, rx) = std::sync::mpsc::sync_channel(4);
        let merger = scope.spawn(move || {
            merge_runs(runs, POSITIONS_ROW_GROUP, |rows| {
                // A closed channel: the writer failed, and says why.
                tx.send(group_batch(rows)?).map_err(|_| other("positions writer stopped"))
            })
        });
        // Row groups two at a time, each encoded on a thread of its own
        // while the merger goes on: three threads for the two cores.
        let mut batches = rx.iter();
        let mut index = 0;
        let written = loop {
            let pair: Vec<_> = batches.by_ref().take(2).collect();
            if pair.is_empty() {
                break Ok(());
            }
            let encoded = std::thread::scope(|scope| {
                let second =
                    pair.get(1).map(|b| scope.spawn(|| encode_group(&columns, index + 1, b)));
                let first = encode_group(&columns, index, &pair[0]);
                let second = second
                    .map(|h| h.join().unwrap_or_else(|_| Err(other("positions encoding failed"))));
                std::iter::once(first).chain(second).collect::<io::Result<Vec<_>>>()
            });
            let appended = encoded.and_then(|groups| {
                // Each batch its own row group, with its own key range: a
                // lookup reads about one.
                for chunks in groups {
                    let mut group = writer.next_row_group().map_err(other)?;
                    for chunk in chunks {
                        chunk.append_to_row_group(&mut group).map_err(other)?;
                    }
                    group.close().map_err(other)?;
                }
                Ok(())
            });
            if appended.is_err() {
                break appended;
            }
            index += pair.len();
        };
        // The writer's error first: the merger's is then only that it
        // stopped.
        drop(rx);
        let merged = merger.join().unwrap_or_else(|_| Err(other("positions merge failed")));
        written.and(merged)
    })?;
    let mut file = writer.into_inner().map_err(other)?;
    file.flush()?;
    drop(file);
    put_in_place(replacement)?;
    open.position_files.push(name);
    open.position_sources = Sources::None;
    Ok(())
}

/// Row group `index` of a `positions` file, encoded and compressed as
/// `ArrowWriter` does.
fn encode_group(
    columns: &parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory,
    index: usize,
    batch: &arrow_array::RecordBatch,
) -> io::Result<Vec<parquet::arrow::arrow_writer::ArrowColumnChunk>> {
    use parquet::arrow::arrow_writer::compute_leaves;
    let schema = positions_schema();
    let writers = columns.create_column_writers(index).map_err(other)?;
    let mut chunks = Vec::with_capacity(writers.len());
    for (i, mut wtr) in writers.into_iter().enumerate() {
        for leaf in compute_leaves(schema.field(i), batch.column(i)).map_err(other)? {
            wtr.write(&leaf).map_err(other)?;
        }
        chunks.push(wtr.close().map_err(other)?);
    }
    Ok(chunks)
}

/// Merges sorted runs into one order, handed to `emit` in groups of
/// `group` rows (the last one shorter): one row of each run in memory.
fn merge_runs(
    mut runs: Vec<Run>,
    group: usize,
    mut emit: impl FnMut(&[(i64, i64, i32)]) -> io::Result<()>,
) -> io::Result<()> {
    use std::{cmp::Reverse, collections::BinaryHeap};
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, run) in runs.iter_mut().enumerate() {
        if let Some(row) = run.next()? {
            heap.push(Reverse((row, i)));
        }
    }
    let group = group.max(1);
    let mut rows = Vec::with_capacity(group);
    while let Some(Reverse((row, i))) = heap.pop() {
        rows.push(row);
        if let Some(next) = runs[i].next()? {
            heap.push(Reverse((next, i)));
        }
        if rows.len() == group || heap.is_empty() {
            emit(&rows)?;
            rows.clear();
        }
    }
    Ok(())
}

/// One row group of a `positions` file, as a record batch.
fn group_batch(rows: &[(i64, i64, i32)]) -> io::Result<arrow_array::RecordBatch> {
    use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch};
    let columns: Vec<ArrayRef> = vec![
        std::sync::Arc::new(rows.iter().map(|p| p.0).collect::<Int64Array>()),
        std::sync::Arc::new(rows.iter().map(|p| p.1).collect::<Int64Array>()),
        std::sync::Arc::new(rows.iter().map(|p| p.2).collect::<Int32Array>()),
    ];
    RecordBatch::try_new(positions_schema(), columns).map_err(other)
}

impl Sink<Row> for Store {
    fn record(&mut self, record: &GameRecord, row: Row) -> io::Result<ControlFlow<()>> {
        let source = self.sources.get(&*record.file).copied().unwrap_or(0);
        *self.games.entry(source).or_default() += 1;
        let open = self.open_shard()?;
        open.rows += 1;
        open.group_text += row.text.as_ref().map_or(0, |text| text.len() as u64);
        open.stats.add(record, &row.header.stats_tags(), row.opening);
        if !row.positions.is_empty() {
            let id = super::table::game_id(source, record.index);
            let ply = |ply: u32| i32::try_from(ply).unwrap_or(i32::MAX);
            open.position_sources.add(source);
            open.positions.extend(row.positions.iter().map(|&(key, p)| (key, id, ply(p))));
        }
        let full = open.rows >= self.sizes.shard_games;
        if let Some(open) = self.open.as_mut().filter(|o| o.positions.len() >= POSITIONS_RUN) {
            spill(&self.dir, open)?;
        }
        self.builder.push(source, record, &row);
        self.batch_bytes += row.address.length.min(MAX_GAME as u64);
        if full {
            self.close_shard()?;
        } else if self.builder.len() >= BATCH_ROWS || self.batch_bytes >= BATCH_BYTES {
            self.flush_batch()?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn input_error(&mut self, error: &crate::source::InputError) -> io::Result<()> {
        self.failed.push((error.path.clone(), error.source.to_string()));
        crate::sink::report_input_error(error)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.close_shard()
    }
}

/// Ends a Parquet file's writer (its footer, flushed) and puts the file in
/// place, readable by all as an ordinary file is.
fn commit(writer: ArrowWriter<BufWriter<File>>, replacement: Replacement) -> io::Result<()> {
    let mut file = writer.into_inner().map_err(other)?;
    file.flush()?;
    drop(file);
    put_in_place(replacement)
}

/// Puts a written file in place, readable by all as an ordinary file is.
fn put_in_place(replacement: Replacement) -> io::Result<()> {
    let permissions = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    std::fs::set_permissions(replacement.path(), permissions)?;
    replacement.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn spilled_runs_merge_into_one_sorted_order_in_full_groups() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut all = Vec::new();
        let mut runs = Vec::new();
        // Runs of different lengths (one empty), keys of both signs and
        // repeated keys, as a shard's positions spill.
        for len in [0, 1, 37, 200, 5] {
            let run: Vec<(i64, i64, i32)> = (0..len)
                .map(|_| {
                    let key = rng.below(50) as i64 - 25;
                    (
                        key.wrapping_mul(0x1234_5678_9abc),
                        rng.below(1000) as i64,
                        rng.below(80) as i32,
                    )
                })
                .collect();
            all.extend_from_slice(&run);
            runs.push(Run::File(io::BufReader::new(spill_run(dir.path(), run).unwrap())));
        }
        // And the last run, sorted in memory.
        let mut last: Vec<(i64, i64, i32)> =
            (0..30).map(|i| (i64::from(i % 7) - 3, i64::from(i), i)).collect();
        all.extend_from_slice(&last);
        last.sort_unstable();
        runs.push(Run::Memory(last.into_iter()));
        all.sort_unstable();
        let mut merged = Vec::new();
        let mut groups = Vec::new();
        merge_runs(runs, 7, |rows| {
            groups.push(rows.len());
            merged.extend_from_slice(rows);
            Ok(())
        })
        .unwrap();
        assert_eq!(merged, all);
        let (last, full) = groups.split_last().unwrap();
        assert!(full.iter().all(|&n| n == 7), "{groups:?}");
        assert!((1..=7).contains(last), "{groups:?}");
        assert_eq!(groups.len(), all.len().div_ceil(7));
    }
}
