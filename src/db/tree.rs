//! The `tree` table (`db build --tree[=K]`) and `db tree`'s answers.
//!
//! Building: [`TreeMaker`] (an observer beside `row::RowMaker`) notes, for
//! each chess game, the first occurrence of each position of its mainline
//! up to a ply and the move played from it there, with what `tree` counts
//! of the game (`tree::observer::facts`, the `Result` tag). [`TreeStore`]
//! (a sink around `store::Store`) sorts them by key in runs spilled to
//! anonymous temporary files and, when the store closes a shard, merges
//! the runs into that shard's tree file: one row per (position, move) of
//! the positions at least K of the shard's games reached, with exact
//! counts. Reading: [`answer`] sums the rows of a key over the shards' tree
//! files into a `tree::Tree` of depth 1 (or 0), and counts the games of
//! shards whose file has no row for it (fewer than K there) from their
//! positions files, replaying them with `tree`'s own `Explorer`; deeper
//! trees and `--moves` roots come from the positions files alone (the
//! tree files do not say how a game came to a position). The layout is in
//! docs/DATABASE.md ("The tree table").

use std::{
    cmp::Reverse,
    collections::BinaryHeap,
    fs::File,
    io::{self, BufReader, BufWriter, Read, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::Arc,
};

use anyhow::{Context, bail};
use arrow_array::{
    Array, ArrayRef, Int32Array, Int64Array, RecordBatch,
    cast::AsArray,
    types::{Int32Type, Int64Type},
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::{
    arrow::ArrowWriter,
    basic::{Compression, ZstdLevel},
    file::properties::{EnabledStatistics, WriterProperties},
};
use shakmaty::{CastlingMode, Chess, FromSetup, Position, PositionError, san::SanPlus};

use super::{
    find,
    manifest::{Manifest, Shard, TreeFile},
    moves,
    row::Row,
    scan,
    store::Store,
};
use crate::{
    chess::identity,
    pgn::{tags::TagSet, values::GameResult},
    pipeline::Merge,
    record::GameRecord,
    replay::observer::{GameEnd, Observer},
    select::board::Identity,
    sink::{Sink, atomic::Replacement},
    stats::{Rated, Tally},
    tree::{Counts, Edge, Explorer, GameFacts, Node, Spec, Tree, observer::facts},
};

/// K when `--tree` has no value: a shard's tree file leaves out the
/// positions only one of its games reached (most of those past the
/// opening), which `db tree` counts from the positions files.
pub const DEFAULT_MIN_GAMES: u64 = 2;

/// The plies of the tree when `--positions` does not give them.
pub const DEFAULT_PLIES: u32 = 40;

/// The code of "no move": the game ended in the position (or its replay
/// stopped there). No move encodes to it (kind 15 is unused).
const NO_MOVE: u16 = u16::MAX;

/// Entries held before they are sorted and spilled as a run (40 bytes
/// each in memory: memory stays flat whatever the shard's size).
const RUN: usize = 2 << 20;

/// Rows in a row group of a tree file: a lookup reads the row groups
/// whose key range holds the key, about one a file.
const ROW_GROUP: usize = 1 << 16;

/// What [`TreeMaker`] makes of one game.
#[derive(Debug, Default)]
pub struct TreeGame {
    /// What the game brings to each position; `None` for a game `tree`
    /// does not count (another variant).
    facts: Option<GameFacts>,
    /// Each position's key at its first occurrence up to the last ply, and
    /// the code of the move played from it there ([`NO_MOVE`]: none).
    entries: Vec<(i64, u16)>,
}

/// The observer of `db build --tree`: the positions of a game's mainline
/// up to ply `plies`, each once, with the move that left it.
#[derive(Debug)]
pub struct TreeMaker {
    plies: u32,
    facts: Option<GameFacts>,
    entries: Vec<(i64, u16)>,
    /// The entry whose move comes next (its position was new).
    pending: Option<usize>,
}

impl TreeMaker {
    /// A maker of the positions up to ply `plies`.
    pub fn new(plies: u32) -> TreeMaker {
        TreeMaker { plies, facts: None, entries: Vec::new(), pending: None }
    }

    fn note<P: Position>(&mut self, pos: &P, ply: u32) {
        self.pending = None;
        if ply > self.plies {
            return;
        }
        let key = identity::position_hash(pos) as i64;
        // First occurrence only, as `tree` counts a game once a position.
        if self.entries.iter().any(|&(k, _)| k == key) {
            return;
        }
        self.pending = Some(self.entries.len());
        self.entries.push((key, NO_MOVE));
    }
}

impl Observer for TreeMaker {
    type Output = TreeGame;

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        // Never `Break`: the row beside it needs every game.
        self.facts = facts(tags);
        self.entries.clear();
        self.pending = None;
        ControlFlow::Continue(())
    }

    fn start<P: Position>(&mut self, pos: &P, _standard: bool) {
        self.entries.clear();
        if self.facts.is_some() {
            self.note(pos, 0);
        }
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &shakmaty::Move, ply: u32, mainline: bool) {
        if !mainline || self.facts.is_none() {
            return;
        }
        if let Some(i) = self.pending.take() {
            self.entries[i].1 = moves::code(*m);
        }
        self.note(pos, ply);
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> TreeGame {
        let facts = self.facts.take().map(|mut facts| {
            // The tag alone, as `tree` reads it.
            facts.result = game.record.result.as_deref().and_then(GameResult::parse);
            facts
        });
        let entries = std::mem::take(&mut self.entries);
        self.pending = None;
        TreeGame { entries: if facts.is_some() { entries } else { Vec::new() }, facts }
    }
}

/// One (position, move, game) before aggregation.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: i64,
    code: u16,
    facts: GameFacts,
}

/// Bytes of an entry in a spilled run: key, code, result, White's and
/// Black's ratings (`u32::MAX`: none), year (0: none), little-endian.
const RUN_ENTRY: usize = 8 + 2 + 1 + 4 + 4 + 4;

fn result_code(result: Option<GameResult>) -> u8 {
    match result {
        None => 0,
        Some(GameResult::Unfinished) => 1,
        Some(GameResult::WhiteWins) => 2,
        Some(GameResult::BlackWins) => 3,
        Some(GameResult::Draw) => 4,
    }
}

fn result_of(code: u8) -> Option<GameResult> {
    match code {
        1 => Some(GameResult::Unfinished),
        2 => Some(GameResult::WhiteWins),
        3 => Some(GameResult::BlackWins),
        4 => Some(GameResult::Draw),
        _ => None,
    }
}

fn encode(entry: &Entry) -> [u8; RUN_ENTRY] {
    let mut out = [0; RUN_ENTRY];
    out[0..8].copy_from_slice(&entry.key.to_le_bytes());
    out[8..10].copy_from_slice(&entry.code.to_le_bytes());
    out[10] = result_code(entry.facts.result);
    let [white, black] = entry.facts.elo.map(|elo| elo.unwrap_or(u32::MAX));
    out[11..15].copy_from_slice(&white.to_le_bytes());
    out[15..19].copy_from_slice(&black.to_le_bytes());
    out[19..23].copy_from_slice(&entry.facts.year.unwrap_or(0).to_le_bytes());
    out
}

fn decode(bytes: &[u8; RUN_ENTRY]) -> Entry {
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let mut key = [0; 8];
    key.copy_from_slice(&bytes[0..8]);
    let elo = |at: usize| Some(u32_at(at)).filter(|&elo| elo != u32::MAX);
    Entry {
        key: i64::from_le_bytes(key),
        code: u16::from_le_bytes([bytes[8], bytes[9]]),
        facts: GameFacts {
            result: result_of(bytes[10]),
            elo: [elo(11), elo(15)],
            year: Some(u32_at(19)).filter(|&year| year > 0),
        },
    }
}

/// One shard's entries: in memory, then in sorted runs on disk.
#[derive(Debug)]
struct ShardTree {
    /// Where the runs are spilled.
    dir: PathBuf,
    entries: Vec<Entry>,
    runs: Vec<File>,
}

impl ShardTree {
    fn new(dir: &Path) -> ShardTree {
        ShardTree { dir: dir.to_owned(), entries: Vec::new(), runs: Vec::new() }
    }

    fn add(&mut self, game: &TreeGame) -> io::Result<()> {
        let Some(facts) = game.facts else { return Ok(()) };
        self.entries.extend(game.entries.iter().map(|&(key, code)| Entry { key, code, facts }));
        if self.entries.len() >= RUN {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts the entries in memory by (key, move) and writes them to an
    /// anonymous temporary file, rewound.
    fn spill(&mut self) -> io::Result<()> {
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_unstable_by_key(|e| (e.key, e.code));
        let file = tempfile::tempfile_in(&self.dir)?;
        let mut wtr = BufWriter::with_capacity(1 << 20, file);
        for entry in &entries {
            wtr.write_all(&encode(entry))?;
        }
        let mut file = wtr.into_inner().map_err(io::IntoInnerError::into_error)?;
        io::Seek::rewind(&mut file)?;
        self.runs.push(file);
        Ok(())
    }

    /// Merges the runs in (key, move) order and hands `emit` each
    /// position's moves with their counts (the position's games are their
    /// sum): one entry of each run and one position in memory.
    fn merge(
        mut self,
        mut emit: impl FnMut(i64, &[(u16, Counts)]) -> io::Result<()>,
    ) -> io::Result<()> {
        if !self.entries.is_empty() {
            self.spill()?;
        }
        let mut runs: Vec<BufReader<File>> =
            self.runs.into_iter().map(|file| BufReader::with_capacity(1 << 20, file)).collect();
        let next = |run: &mut BufReader<File>| -> io::Result<Option<Entry>> {
            let mut bytes = [0; RUN_ENTRY];
            match run.read_exact(&mut bytes) {
                Ok(()) => Ok(Some(decode(&bytes))),
                Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
                Err(error) => Err(error),
            }
        };
        let mut heads: Vec<Option<Entry>> = Vec::with_capacity(runs.len());
        let mut heap = BinaryHeap::with_capacity(runs.len());
        for (i, run) in runs.iter_mut().enumerate() {
            let head = next(run)?;
            if let Some(e) = &head {
                heap.push(Reverse((e.key, e.code, i)));
            }
            heads.push(head);
        }
        let mut key = None;
        let mut moves: Vec<(u16, Counts)> = Vec::new();
        while let Some(Reverse((k, code, i))) = heap.pop() {
            let Some(entry) = heads[i].take() else { continue };
            if key != Some(k) {
                if let Some(key) = key {
                    emit(key, &moves)?;
                }
                moves.clear();
                key = Some(k);
            }
            if moves.last().is_none_or(|m| m.0 != code) {
                moves.push((code, Counts::default()));
            }
            if let Some(last) = moves.last_mut() {
                last.1.add(&entry.facts);
            }
            heads[i] = next(&mut runs[i])?;
            if let Some(e) = &heads[i] {
                heap.push(Reverse((e.key, e.code, i)));
            }
        }
        if let Some(key) = key {
            emit(key, &moves)?;
        }
        Ok(())
    }
}

/// The columns of a tree file, in order (docs/DATABASE.md lists the same).
pub const COLUMNS: [&str; 17] = [
    "key",
    "move",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "unfinished",
    "rated",
    "rating_sum",
    "white_games",
    "white_points_x2",
    "white_opponent_rating_sum",
    "black_games",
    "black_points_x2",
    "black_opponent_rating_sum",
    "first_year",
    "last_year",
];

/// The schema of a tree file.
pub fn schema() -> SchemaRef {
    let fields = COLUMNS.iter().map(|&name| match name {
        "key" => Field::new(name, DataType::Int64, false),
        "move" | "first_year" | "last_year" => Field::new(name, DataType::Int32, true),
        _ => Field::new(name, DataType::Int64, false),
    });
    Arc::new(Schema::new(fields.collect::<Vec<_>>()))
}

fn other(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> io::Error {
    io::Error::other(error)
}

/// The counts of a row, in [`COLUMNS`]' order from `games` to
/// `black_opponent_rating_sum`.
fn numbers(c: &Counts) -> [u64; 13] {
    let r = &c.results;
    [
        r.games,
        r.white_wins,
        r.draws,
        r.black_wins,
        r.unfinished,
        c.rated,
        c.rating_sum,
        c.white.games,
        c.white.points_x2,
        c.white.opponent_rating_sum,
        c.black.games,
        c.black.points_x2,
        c.black.opponent_rating_sum,
    ]
}

/// Rows of a tree file waiting for their row group.
#[derive(Default)]
struct Rows {
    keys: Vec<i64>,
    moves: Vec<Option<i32>>,
    numbers: Vec<[u64; 13]>,
    years: Vec<Option<(u32, u32)>>,
}

impl Rows {
    fn batch(&mut self) -> io::Result<RecordBatch> {
        let int64 = |values: Vec<i64>| -> ArrayRef { Arc::new(Int64Array::from(values)) };
        let mut columns: Vec<ArrayRef> = vec![
            int64(std::mem::take(&mut self.keys)),
            Arc::new(Int32Array::from(std::mem::take(&mut self.moves))),
        ];
        let numbers = std::mem::take(&mut self.numbers);
        for j in 0..13 {
            let saturated = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
            columns.push(int64(numbers.iter().map(|row| saturated(row[j])).collect()));
        }
        let years = std::mem::take(&mut self.years);
        let year = |y: u32| i32::try_from(y).unwrap_or(i32::MAX);
        columns.push(Arc::new(years.iter().map(|y| y.map(|y| year(y.0))).collect::<Int32Array>()));
        columns.push(Arc::new(years.iter().map(|y| y.map(|y| year(y.1))).collect::<Int32Array>()));
        RecordBatch::try_new(schema(), columns).map_err(other)
    }
}

/// Writes the tree file of a shard's entries at `path`, whole or not at
/// all: the rows of the positions of at least `min_games` games, sorted
/// by key then move, in row groups of about `row_group` rows that each
/// hold a position's rows whole. Returns the rows written.
fn write_file(path: &Path, tree: ShardTree, min_games: u64, row_group: usize) -> io::Result<u64> {
    let replacement = Replacement::begin_provisional(path)?;
    let file = BufWriter::with_capacity(1 << 20, replacement.file().try_clone()?);
    let column = |name: &str| parquet::schema::types::ColumnPath::from(name);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(super::store::ZSTD_LEVEL).map_err(other)?,
        ))
        // Row groups are cut below, between positions: the writer's own
        // cut, at a fixed count, would split a position's rows.
        .set_max_row_group_row_count(None)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        // Sorted keys differ by much less than their range.
        .set_column_dictionary_enabled(column("key"), false)
        .set_column_encoding(column("key"), parquet::basic::Encoding::DELTA_BINARY_PACKED)
        .set_created_by(format!("arbiter {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = ArrowWriter::try_new(file, schema(), Some(props)).map_err(other)?;
    let mut rows = Rows::default();
    let mut written = 0;
    tree.merge(|key, moves| {
        let games: u64 = moves.iter().map(|(_, c)| c.results.games).sum();
        if games < min_games {
            return Ok(());
        }
        for (code, counts) in moves {
            rows.keys.push(key);
            rows.moves.push((*code != NO_MOVE).then_some(i32::from(*code)));
            rows.numbers.push(numbers(counts));
            rows.years.push(counts.years);
            written += 1;
        }
        // A position's rows stay in one row group, whole.
        if rows.keys.len() >= row_group {
            writer.write(&rows.batch()?).map_err(other)?;
            writer.flush().map_err(other)?;
        }
        Ok(())
    })?;
    if !rows.keys.is_empty() {
        writer.write(&rows.batch()?).map_err(other)?;
    }
    let mut file = writer.into_inner().map_err(other)?;
    file.flush()?;
    drop(file);
    let permissions = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    std::fs::set_permissions(replacement.path(), permissions)?;
    replacement.commit()?;
    Ok(written)
}

/// The sink of `db build --tree`: hands each row to the store, and each
/// game's positions to the open shard's tree, written as the shard's tree
/// file when the store closes it.
pub struct TreeStore<'s> {
    store: &'s mut Store,
    dir: PathBuf,
    tree: ShardTree,
    min_games: u64,
    plies: u32,
    /// Shards of `store.written` whose tree file is written.
    done: usize,
}

impl<'s> TreeStore<'s> {
    /// A sink around `store`, writing into `dir/tree` (which exists) the
    /// tree files of the positions up to ply `plies` of `min_games` games.
    pub fn new(store: &'s mut Store, dir: &Path, min_games: u64, plies: u32) -> TreeStore<'s> {
        let tree_dir = dir.join("tree");
        TreeStore {
            store,
            dir: dir.to_owned(),
            tree: ShardTree::new(&tree_dir),
            min_games,
            plies,
            done: 0,
        }
    }

    /// Writes the tree files of the shards the store closed.
    fn close_written(&mut self) -> io::Result<()> {
        while self.done < self.store.written.len() {
            let shard = &mut self.store.written[self.done];
            let stem = Path::new(&shard.games)
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = format!("tree/{stem}");
            let tree = std::mem::replace(&mut self.tree, ShardTree::new(&self.dir.join("tree")));
            let rows = write_file(&self.dir.join(&name), tree, self.min_games, ROW_GROUP)?;
            let path = self.dir.join(&name);
            shard.tree =
                Some(TreeFile { file: name, rows, min_games: self.min_games, plies: self.plies });
            self.store.provisional(&path);
            self.done += 1;
        }
        Ok(())
    }
}

impl Sink<(Row, TreeGame)> for TreeStore<'_> {
    fn record(
        &mut self,
        record: &GameRecord,
        (row, game): (Row, TreeGame),
    ) -> io::Result<ControlFlow<()>> {
        self.tree.add(&game)?;
        let flow = self.store.record(record, row)?;
        self.close_written()?;
        Ok(flow)
    }

    fn input_error(&mut self, error: &crate::source::InputError) -> io::Result<()> {
        Sink::<Row>::input_error(self.store, error)
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        Sink::<Row>::chunk_end(self.store)
    }

    fn finish(&mut self) -> io::Result<()> {
        Sink::<Row>::finish(self.store)?;
        self.close_written()
    }
}

/// The rows of position `key` in the tree file at `path`: each move's code
/// (`None`: the games that ended there) and counts, reading only the row
/// groups whose key range holds it.
pub fn lookup(path: &Path, key: i64) -> anyhow::Result<Vec<(Option<u16>, Counts)>> {
    let what = || format!("reading {}", path.display());
    let mut rows = Vec::new();
    let Some(batches) = super::find::groups_holding(path, key, &schema(), "tree")? else {
        return Ok(rows);
    };
    for batch in batches {
        let batch = batch.with_context(what)?;
        let int64 = |i: usize| batch.column(i).as_primitive_opt::<Int64Type>();
        let int32 = |i: usize| batch.column(i).as_primitive_opt::<Int32Type>();
        let (Some(keys), Some(codes), Some(first), Some(last)) =
            (int64(0), int32(1), int32(15), int32(16))
        else {
            bail!("{}: not a tree file of this format", path.display());
        };
        let values = keys.values();
        let start = values.partition_point(|&k| k < key);
        let end = values.partition_point(|&k| k <= key);
        for i in start..end {
            let mut n = [0u64; 13];
            for (j, slot) in n.iter_mut().enumerate() {
                let column = int64(2 + j).with_context(what)?;
                *slot = u64::try_from(column.value(i)).unwrap_or(0);
            }
            let code = codes.is_valid(i).then(|| u16::try_from(codes.value(i)).unwrap_or(NO_MOVE));
            let year = |a: &arrow_array::Int32Array| {
                a.is_valid(i).then(|| u32::try_from(a.value(i)).unwrap_or(0))
            };
            let counts = Counts {
                results: Tally {
                    games: n[0],
                    white_wins: n[1],
                    draws: n[2],
                    black_wins: n[3],
                    unfinished: n[4],
                },
                rated: n[5],
                rating_sum: n[6],
                white: Rated { games: n[7], points_x2: n[8], opponent_rating_sum: n[9] },
                black: Rated { games: n[10], points_x2: n[11], opponent_rating_sum: n[12] },
                years: year(first).zip(year(last)),
            };
            rows.push((code, counts));
        }
    }
    Ok(rows)
}

/// What `db tree` answers: the tree, and what it could not count.
#[derive(Debug)]
pub struct Answer {
    /// The root and the moves from it, counted over every shard.
    pub tree: Tree,
    /// Shards whose tree file has no row for the root, pruned at K > 1,
    /// and no positions files: up to K − 1 of their games may be missing.
    pub pruned: Vec<(String, u64)>,
}

/// The tree of `spec` (whose root's key is `key`) over the database's
/// games, of at most `limit` positions. Of depth 0 or 1 from a position
/// (not `--moves`): each shard's tree file rows when it has them, else its
/// games that reached the root through its positions files, replayed by
/// `tree::Explorer`. Deeper, or from moves, from the positions files
/// alone: a tree file holds the move each game played where it first
/// stood in a position, not the way it came there, so it cannot tell the
/// games that went through the root from those that reached a child
/// position by another road. An error when a shard has neither.
pub fn answer(
    dir: &Path,
    manifest: &Manifest,
    spec: Spec,
    key: i64,
    limit: usize,
) -> anyhow::Result<Answer> {
    let from_rows = spec.depth <= 1 && spec.root.moves.is_empty();
    let mut from_files: Vec<(Option<u16>, Counts)> = Vec::new();
    let mut replayed: Vec<&Shard> = Vec::new();
    let mut pruned = Vec::new();
    for shard in &manifest.shards {
        match &shard.tree {
            Some(file) if from_rows => {
                let rows = lookup(&dir.join(&file.file), key)?;
                if !rows.is_empty() || file.min_games <= 1 {
                    from_files.extend(rows);
                } else if !shard.positions.is_empty() {
                    replayed.push(shard);
                } else {
                    pruned.push((shard.games.clone(), file.min_games));
                }
            }
            _ if !shard.positions.is_empty() => replayed.push(shard),
            None if from_rows => bail!(
                "{}: {} has neither a tree file nor positions files: build the database \
                 with `arbiter db build --tree` (or `--positions`) to answer `db tree` \
                 (existing shards are never rewritten: build a new database)",
                dir.display(),
                shard.games
            ),
            _ => bail!(
                "{}: {} has no positions files: `db tree` answers --depth above 1 and --moves \
                 from them (a tree file holds the moves played from each position, not the \
                 way the games came there): build the database with `arbiter db build \
                 --positions` (existing shards are never rewritten: build a new database)",
                dir.display(),
                shard.games
            ),
        }
    }
    let mut tree = tree_of_rows(spec.clone(), &from_files)?;
    if !replayed.is_empty() {
        let target = spec.root.position.clone();
        let mut explorer = Explorer::new(spec, limit);
        for shard in replayed {
            let found = find::find_in_shard(dir, shard, key, &target, usize::MAX)?;
            let flow = find::games_at(dir, shard, &found, &mut |game, _| {
                scan::observe(&game, &mut explorer)?;
                Ok(ControlFlow::Continue(()))
            })?;
            debug_assert!(flow.is_continue());
        }
        tree.merge(explorer.into_tree());
    }
    // The rows' tree as much as the replayed one: `tree`'s limit, the same.
    if tree.overflowed() || tree.nodes().len() > limit {
        bail!(
            "the tree has more than {limit} positions (--max-positions): use a smaller \
             --depth or a larger --max-positions"
        );
    }
    Ok(Answer { tree, pruned })
}

/// The tree of depth 1 (or 0) from the rows of the root's key: the root
/// counts every row's games, each move a child of its own (none at depth
/// 0).
fn tree_of_rows(spec: Spec, rows: &[(Option<u16>, Counts)]) -> anyhow::Result<Tree> {
    if rows.is_empty() {
        return Tree::from_parts(spec, Vec::new(), Vec::new()).map_err(anyhow::Error::msg);
    }
    let setup = spec.root.position.setup().clone();
    let pos: Chess = Chess::from_setup(setup, CastlingMode::Chess960)
        .or_else(PositionError::ignore_too_much_material)
        .context("the root is not a legal position")?;
    let mut root = Counts::default();
    let mut children: Vec<(u16, Counts)> = Vec::new();
    for (code, counts) in rows {
        root.merge(counts.clone());
        if let Some(code) = code.filter(|_| spec.depth > 0) {
            match children.iter_mut().find(|(c, _)| *c == code) {
                Some((_, total)) => total.merge(counts.clone()),
                None => children.push((code, counts.clone())),
            }
        }
    }
    let mut nodes = vec![Node { position: spec.root.position.clone(), counts: root }];
    let mut edges = Vec::with_capacity(children.len());
    for (code, counts) in children {
        let Some(m) = moves::from_code(&pos, code) else {
            bail!(
                "a tree file names move {code:#06x}, not legal in the root: a corrupt file or \
                 a collision of 64-bit keys"
            );
        };
        let mut after = pos.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut after, m);
        let games = counts.results.games;
        let to = u32::try_from(nodes.len()).unwrap_or(u32::MAX);
        nodes.push(Node { position: Identity::of(&after), counts });
        edges.push(((0, to), Edge { san, games }));
    }
    Tree::from_parts(spec, nodes, edges).map_err(anyhow::Error::msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(result: GameResult, white: Option<u32>, year: Option<u32>) -> GameFacts {
        GameFacts { result: Some(result), elo: [white, None], year }
    }

    #[test]
    fn the_schema_has_the_documented_columns() {
        let doc = include_str!("../../docs/DATABASE.md");
        let names: Vec<String> = schema().fields().iter().map(|f| f.name().clone()).collect();
        assert_eq!(names, COLUMNS);
        for name in COLUMNS {
            assert!(doc.contains(&format!("| `{name}` |")), "docs/DATABASE.md lacks {name}");
        }
    }

    #[test]
    fn entries_round_trip_through_a_run() {
        let entry = Entry {
            key: -5,
            code: 0x71C4,
            facts: GameFacts { result: None, elo: [Some(2800), None], year: Some(2024) },
        };
        let back = decode(&encode(&entry));
        assert_eq!((back.key, back.code, back.facts), (entry.key, entry.code, entry.facts));
    }

    #[test]
    fn spilled_runs_merge_into_exact_counts_by_position_and_move() {
        let dir = tempfile::tempdir().unwrap();
        let mut tree = ShardTree::new(dir.path());
        let mut expected: std::collections::BTreeMap<(i64, u16), (u64, u64)> = Default::default();
        let mut rng = crate::testing::Rng(7);
        for game in 0..500u32 {
            let white = if game % 3 == 0 { GameResult::WhiteWins } else { GameResult::Draw };
            let facts = facts(white, Some(1500 + game), Some(1990 + game % 7));
            let entries: Vec<(i64, u16)> =
                (0..6).map(|_| (rng.below(20) as i64 - 10, rng.below(3) as u16)).collect();
            for &(key, code) in &entries {
                let slot = expected.entry((key, code)).or_default();
                slot.0 += 1;
                slot.1 += u64::from(white == GameResult::WhiteWins);
            }
            tree.add(&TreeGame { facts: Some(facts), entries }).unwrap();
            // Runs of several lengths, as a shard's spill.
            if game % 97 == 0 {
                tree.spill().unwrap();
            }
        }
        let mut got = std::collections::BTreeMap::new();
        let mut last = None;
        tree.merge(|key, moves| {
            assert!(last < Some(key), "keys come once each, in order");
            last = Some(key);
            for (code, counts) in moves {
                got.insert((key, *code), (counts.results.games, counts.results.white_wins));
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_tree_file_keeps_the_positions_of_k_games_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut tree = ShardTree::new(dir.path());
        let game = |key: i64, code: u16, result| TreeGame {
            facts: Some(facts(result, Some(2000), Some(2001))),
            entries: vec![(key, code)],
        };
        for g in [
            game(1, 10, GameResult::WhiteWins),
            game(1, 11, GameResult::Draw),
            game(1, NO_MOVE, GameResult::BlackWins),
            game(-3, 10, GameResult::Draw),
        ] {
            tree.add(&g).unwrap();
        }
        let path = dir.path().join("t.parquet");
        assert_eq!(write_file(&path, tree, 2, ROW_GROUP).unwrap(), 3, "key -3 has one game");
        let rows = lookup(&path, 1).unwrap();
        let codes: Vec<Option<u16>> = rows.iter().map(|r| r.0).collect();
        assert_eq!(codes, [Some(10), Some(11), None]);
        assert_eq!(rows[0].1.results.white_wins, 1);
        assert_eq!(rows[2].1.results.black_wins, 1);
        assert_eq!(rows[1].1.years, Some((2001, 2001)));
        assert_eq!((rows[1].1.rated, rows[1].1.rating_sum), (1, 2000));
        assert!(lookup(&path, -3).unwrap().is_empty());
        assert!(lookup(&path, 2).unwrap().is_empty());
    }

    #[test]
    fn a_positions_rows_are_never_split_between_row_groups() {
        use parquet::file::{reader::FileReader, serialized_reader::SerializedFileReader};
        let dir = tempfile::tempdir().unwrap();
        let mut tree = ShardTree::new(dir.path());
        let mut rng = crate::testing::Rng(11);
        for _ in 0..400 {
            let entries = vec![(rng.below(60) as i64, rng.below(5) as u16)];
            tree.add(&TreeGame { facts: Some(facts(GameResult::Draw, None, None)), entries })
                .unwrap();
        }
        let path = dir.path().join("t.parquet");
        // Row groups of about 7 rows, where positions have up to 5 each.
        let rows = write_file(&path, tree, 1, 7).unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let meta = reader.metadata();
        assert!(meta.num_row_groups() > 10, "{} row groups", meta.num_row_groups());
        let mut total = 0;
        let mut last_max = None;
        for g in 0..meta.num_row_groups() {
            let group = meta.row_group(g);
            total += group.num_rows() as u64;
            assert!(group.num_rows() < 7 + 5, "row group {g}: {} rows", group.num_rows());
            let Some(parquet::file::statistics::Statistics::Int64(keys)) =
                group.column(0).statistics()
            else {
                panic!("row group {g}: no key statistics");
            };
            let (min, max) = (*keys.min_opt().unwrap(), *keys.max_opt().unwrap());
            assert!(last_max < Some(min), "row group {g} begins in the last one's position");
            last_max = Some(max);
        }
        assert_eq!(total, rows);
    }
}
