//! `db export --format sqlite` (cargo feature `sqlite`): a database's
//! games as one SQLite file, for the programs that read SQLite rather than
//! Parquet (the `sqlite3` shell, every language's standard library,
//! ocgdb-style tools).
//!
//! The file holds `games` (every column of the Parquet table, under the
//! same names, each value of SQLite's type for it), `positions` (the exported
//! games' rows of the positions files, when the database has them, keyed
//! for lookups by position), `sources` and `info` (the key and move
//! schemes). The mapping of each Arrow type is generic, so a column added
//! to `games` is exported with no change here; docs/DATABASE.md lists it.

use std::{
    cmp::Reverse,
    collections::{BinaryHeap, HashSet},
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use anyhow::Context;
use arrow_array::{
    Array, Int32Array, Int64Array, RecordBatch,
    cast::AsArray,
    types::{Date32Type, Int32Type, Int64Type, TimestampMillisecondType},
};
use arrow_schema::{DataType, Field, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReader;
use rusqlite::{
    Connection, Statement,
    types::{ToSqlOutput, Value, ValueRef},
};

use super::{
    find::{open_keyed, positions_columns},
    manifest::{self, Manifest},
    scan,
    search::{self, Found},
    store::positions_schema,
    table::{COLUMNS, FILTER_COLUMNS, TableBuilder},
};
use crate::select::Selection;

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exported {
    /// Rows of `games`.
    pub games: u64,
    /// Rows of `positions` (0 when the database has no positions files).
    pub positions: u64,
}

/// Writes the games of the database at `dir` that `selection` selects
/// (decided on `threads` threads), their positions and the database's
/// sources into a new SQLite database at `file`, which must be empty or
/// not exist. The caller makes the file appear whole: nothing here syncs
/// or journals it.
pub fn export(
    dir: &Path,
    manifest: &Manifest,
    selection: &Selection,
    threads: usize,
    file: &Path,
) -> anyhow::Result<Exported> {
    let mut conn = Connection::open(file).map_err(sql)?;
    // A file no one reads until it is renamed into place: no journal, no
    // syncs, one transaction.
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;",
    )
    .map_err(sql)?;
    let tx = conn.transaction().map_err(sql)?;
    let schema = TableBuilder::schema();
    tx.execute_batch(&create_games(schema.fields())).map_err(sql)?;
    tx.execute_batch(
        "CREATE TABLE positions (key INTEGER NOT NULL, game_id INTEGER NOT NULL, \
         ply INTEGER NOT NULL, PRIMARY KEY (key, game_id)) WITHOUT ROWID;
         CREATE TABLE sources (source_id INTEGER PRIMARY KEY, path TEXT NOT NULL, \
         size INTEGER NOT NULL, sha256 TEXT NOT NULL, games INTEGER NOT NULL);
         CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT NOT NULL);",
    )
    .map_err(sql)?;
    let mut exported = Exported { games: 0, positions: 0 };
    // The games exported, when not all are: their positions only.
    let mut ids: Option<HashSet<i64>> = (!selection.is_everything()).then(HashSet::new);
    {
        let placeholders = vec!["?"; schema.fields().len()].join(", ");
        let mut insert =
            tx.prepare(&format!("INSERT INTO games VALUES ({placeholders})")).map_err(sql)?;
        let mut add = |batch: &RecordBatch, shard: &Path| -> anyhow::Result<()> {
            // Checked when the shard was opened; in the table's order,
            // whatever the file's.
            let read = || format!("reading {}", shard.display());
            let columns = schema
                .fields()
                .iter()
                .map(|field| Ok(batch.column(batch.schema().index_of(field.name())?).as_ref()))
                .collect::<Result<Vec<&dyn Array>, arrow_schema::ArrowError>>()
                .with_context(read)?;
            if let Some(ids) = &mut ids {
                let game_ids = columns[0].as_primitive_opt::<Int64Type>();
                let game_ids = game_ids.with_context(|| format!("{}: game_id", read()))?;
                ids.extend(game_ids.iter().flatten());
            }
            exported.games += insert_rows(&mut insert, &columns)
                .with_context(|| format!("writing the games of {}", shard.display()))?;
            Ok(())
        };
        if selection.is_everything() {
            let names: Vec<&str> = COLUMNS.iter().chain(&FILTER_COLUMNS).copied().collect();
            for path in manifest.shard_paths(dir) {
                for batch in scan::projected(&path, &names)? {
                    let batch = batch.with_context(|| format!("reading {}", path.display()))?;
                    add(&batch, &path)?;
                }
            }
        } else {
            search::each_matching_batch(dir, manifest, selection, threads, true, |found| {
                if let Found::Batch(batch, shard) = found {
                    add(batch, shard)?;
                }
                Ok(ControlFlow::Continue(()))
            })?;
        }
        let mut insert = tx.prepare("INSERT INTO positions VALUES (?, ?, ?)").map_err(sql)?;
        let paths: Vec<_> =
            manifest.shards.iter().flat_map(|s| &s.positions).map(|n| dir.join(n)).collect();
        exported.positions = insert_positions(&mut insert, &paths, ids.as_ref())?;
        let mut insert = tx.prepare("INSERT INTO sources VALUES (?, ?, ?, ?, ?)").map_err(sql)?;
        for source in &manifest.sources {
            let games = i64::try_from(source.games).unwrap_or(i64::MAX);
            let size = i64::try_from(source.size).unwrap_or(i64::MAX);
            insert
                .execute(rusqlite::params![source.id, source.path, size, source.sha256, games])
                .map_err(sql)?;
        }
        let mut insert = tx.prepare("INSERT INTO info VALUES (?, ?)").map_err(sql)?;
        let info = [
            ("format", manifest::FORMAT.to_owned()),
            ("version", manifest.version.to_string()),
            ("key", manifest.key.clone()),
            ("moves", manifest.moves.clone()),
        ];
        for (name, value) in info {
            insert.execute([name, value.as_str()]).map_err(sql)?;
        }
    }
    tx.commit().map_err(sql)?;
    conn.close().map_err(|(_, error)| sql(error))?;
    Ok(exported)
}

/// An error of SQLite's as its own message says it ("database or disk is
/// full", "UNIQUE constraint failed: games.game_id"), once.
fn sql(error: rusqlite::Error) -> anyhow::Error {
    match error {
        rusqlite::Error::SqliteFailure(_, Some(message)) => anyhow::anyhow!(message),
        error => anyhow::anyhow!(error),
    }
}

/// `CREATE TABLE games`: a column for each field, under its name (quoted:
/// `index` and `offset` are SQL words), with the type SQLite gives it.
fn create_games(fields: &[std::sync::Arc<Field>]) -> String {
    let columns: Vec<String> = fields
        .iter()
        .map(|field| {
            let name = field.name();
            let kind = sqlite_type(field.data_type());
            let key = if name == "game_id" { " PRIMARY KEY" } else { "" };
            let required = if field.is_nullable() { "" } else { " NOT NULL" };
            format!("\"{name}\" {kind}{key}{required}")
        })
        .collect();
    format!("CREATE TABLE games ({});", columns.join(", "))
}

/// The SQLite type of an Arrow column: integers and booleans (0 or 1) as
/// INTEGER, dates and times as ISO 8601 TEXT (what SQLite's date functions
/// read), lists and maps as JSON TEXT (what its JSON functions read),
/// bytes as BLOB.
fn sqlite_type(data_type: &DataType) -> &'static str {
    match data_type {
        DataType::Int32 | DataType::Int64 | DataType::Boolean => "INTEGER",
        DataType::Binary => "BLOB",
        _ => "TEXT",
    }
}

/// Inserts every row of `columns` (a batch's, in the table's order) with
/// `insert`; the number inserted.
fn insert_rows(insert: &mut Statement<'_>, columns: &[&dyn Array]) -> anyhow::Result<u64> {
    let rows = columns.first().map_or(0, |c| c.len());
    for row in 0..rows {
        for (i, column) in columns.iter().enumerate() {
            insert.raw_bind_parameter(i + 1, cell(*column, row)?).map_err(sql)?;
        }
        insert.raw_execute().map_err(sql)?;
    }
    Ok(rows as u64)
}

/// The value of row `row` of `array` as SQLite stores it (see
/// [`sqlite_type`]).
fn cell(array: &dyn Array, row: usize) -> anyhow::Result<ToSqlOutput<'_>> {
    if array.is_null(row) {
        return Ok(ToSqlOutput::Borrowed(ValueRef::Null));
    }
    let unexpected =
        || anyhow::anyhow!("a column of type {} cannot be exported", array.data_type());
    Ok(match array.data_type() {
        DataType::Int32 => {
            let values = array.as_primitive_opt::<Int32Type>().ok_or_else(unexpected)?;
            ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(values.value(row))))
        }
        DataType::Int64 => {
            let values = array.as_primitive_opt::<Int64Type>().ok_or_else(unexpected)?;
            ToSqlOutput::Borrowed(ValueRef::Integer(values.value(row)))
        }
        DataType::Boolean => {
            let values = array.as_boolean_opt().ok_or_else(unexpected)?;
            ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(values.value(row))))
        }
        DataType::Utf8 => {
            let values = array.as_string_opt::<i32>().ok_or_else(unexpected)?;
            ToSqlOutput::Borrowed(ValueRef::Text(values.value(row).as_bytes()))
        }
        DataType::Binary => {
            let values = array.as_binary_opt::<i32>().ok_or_else(unexpected)?;
            ToSqlOutput::Borrowed(ValueRef::Blob(values.value(row)))
        }
        DataType::Date32 => {
            let values = array.as_primitive_opt::<Date32Type>().ok_or_else(unexpected)?;
            let days = values.value(row);
            let date = values.value_as_date(row).with_context(|| {
                format!("a date {days} days from 1970-01-01 is out of the calendar's range")
            })?;
            ToSqlOutput::Owned(Value::Text(date.to_string()))
        }
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            let values =
                array.as_primitive_opt::<TimestampMillisecondType>().ok_or_else(unexpected)?;
            // UTC, as stored; `YYYY-MM-DD HH:MM:SS` (and `.SSS` when not 0).
            let ms = values.value(row);
            let time = values.value_as_datetime(row).with_context(|| {
                format!("a time {ms} ms from 1970-01-01 is out of the calendar's range")
            })?;
            ToSqlOutput::Owned(Value::Text(time.to_string()))
        }
        DataType::List(_) | DataType::Map(_, _) => {
            let mut text = String::new();
            json(array, row, &mut text)?;
            ToSqlOutput::Owned(Value::Text(text))
        }
        _ => return Err(unexpected()),
    })
}

/// Writes row `row` of a list or map column (or one of their items) as
/// JSON: a list as an array, a map as an object with its entries in their
/// stored order (a tag's place in the game).
fn json(array: &dyn Array, row: usize, out: &mut String) -> anyhow::Result<()> {
    use std::fmt::Write;
    if array.is_null(row) {
        out.push_str("null");
        return Ok(());
    }
    let unexpected =
        || anyhow::anyhow!("a column of type {} cannot be exported", array.data_type());
    let quoted = |text: &str, out: &mut String| -> anyhow::Result<()> {
        out.push_str(&serde_json::to_string(text)?);
        Ok(())
    };
    match array.data_type() {
        DataType::List(_) => {
            let items = array.as_list_opt::<i32>().ok_or_else(unexpected)?.value(row);
            out.push('[');
            for i in 0..items.len() {
                if i > 0 {
                    out.push(',');
                }
                json(&items, i, out)?;
            }
            out.push(']');
        }
        DataType::Map(_, _) => {
            let entries = array.as_map_opt().ok_or_else(unexpected)?.value(row);
            let keys = entries.column(0).as_string_opt::<i32>().ok_or_else(unexpected)?;
            out.push('{');
            for i in 0..entries.len() {
                if i > 0 {
                    out.push(',');
                }
                quoted(keys.value(i), out)?;
                out.push(':');
                json(entries.column(1).as_ref(), i, out)?;
            }
            out.push('}');
        }
        DataType::Int32 => {
            let values = array.as_primitive_opt::<Int32Type>().ok_or_else(unexpected)?;
            write!(out, "{}", values.value(row))?;
        }
        DataType::Int64 => {
            let values = array.as_primitive_opt::<Int64Type>().ok_or_else(unexpected)?;
            write!(out, "{}", values.value(row))?;
        }
        DataType::Utf8 => {
            quoted(array.as_string_opt::<i32>().ok_or_else(unexpected)?.value(row), out)?;
        }
        _ => return Err(unexpected()),
    }
    Ok(())
}

/// Inserts the rows of the positions files `paths` with `insert`, only
/// those of the games `ids` when given, in one order of key and game
/// (each file is sorted so): the table's B-tree is then only appended to,
/// where file after file it was split all over (twice the time with 13
/// shards); the number inserted. A batch of each file in memory.
fn insert_positions(
    insert: &mut Statement<'_>,
    paths: &[PathBuf],
    ids: Option<&HashSet<i64>>,
) -> anyhow::Result<u64> {
    let mut cursors = Vec::with_capacity(paths.len());
    let mut heap = BinaryHeap::with_capacity(paths.len());
    for path in paths {
        let what = || format!("reading {}", path.display());
        let reader =
            open_keyed(path, &positions_schema(), "positions")?.build().with_context(what)?;
        let mut cursor = Cursor { reader, path, rows: None, at: 0 };
        if let Some(row) = cursor.next()? {
            heap.push(Reverse((row, cursors.len())));
        }
        cursors.push(cursor);
    }
    let mut inserted = 0;
    while let Some(Reverse(((key, game, ply), i))) = heap.pop() {
        if ids.is_none_or(|ids| ids.contains(&game)) {
            insert.execute([key, game, i64::from(ply)]).map_err(sql).with_context(|| {
                format!("writing the positions of {}", cursors[i].path.display())
            })?;
            inserted += 1;
        }
        if let Some(row) = cursors[i].next()? {
            heap.push(Reverse((row, i)));
        }
    }
    Ok(inserted)
}

/// A positions file being read, a batch at a time.
struct Cursor<'p> {
    reader: ParquetRecordBatchReader,
    path: &'p Path,
    /// The batch being read: its keys, games and plies.
    rows: Option<(Int64Array, Int64Array, Int32Array)>,
    /// The next row of it.
    at: usize,
}

impl Cursor<'_> {
    /// The next row (key, game, ply), `None` at the end of the file.
    fn next(&mut self) -> anyhow::Result<Option<(i64, i64, i32)>> {
        loop {
            if let Some((keys, games, plies)) = &self.rows
                && self.at < keys.len()
            {
                let at = self.at;
                self.at += 1;
                return Ok(Some((keys.value(at), games.value(at), plies.value(at))));
            }
            let Some(batch) = self.reader.next() else { return Ok(None) };
            let batch = batch.with_context(|| format!("reading {}", self.path.display()))?;
            let (keys, games, plies) = positions_columns(&batch, self.path)?;
            self.rows = Some((keys.clone(), games.clone(), plies.clone()));
            self.at = 0;
        }
    }
}
