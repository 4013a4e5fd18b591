//! The `games` table: its Arrow schema, the builder that turns records and
//! rows into record batches, and the reader that turns batches back into
//! [`StoredGame`]s.
//!
//! The columns are documented, with their types, in docs/DATABASE.md
//! ("The games table"); a test keeps that list and [`COLUMNS`] in step.
//! Unsigned counts are stored signed (Spark and Trino read unsigned 64-bit
//! Parquet columns as decimals). Nothing here opens a file.

use std::{
    borrow::Cow,
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
    sync::Arc,
};

use anyhow::{Context, anyhow, bail};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, Int32Array, Int64Array, ListArray, MapArray,
    RecordBatch, StringArray,
    builder::{
        BinaryBuilder, BooleanBuilder, Date32Builder, Int32Builder, Int64Builder, ListBuilder,
        MapBuilder, StringBuilder, TimestampMillisecondBuilder,
    },
    cast::AsArray,
    types::{Int32Type, Int64Type},
};
use arrow_schema::SchemaRef;

use super::row::{ELO_TAGS, Header, Row, TEXT_TAGS};
use crate::record::{ErrorKind, GameError, GameRecord, Termination, Warning, WarningKind};

/// The columns of `games`, in order (docs/DATABASE.md lists the same).
pub const COLUMNS: [&str; 55] = [
    "game_id",
    "source_id",
    "file",
    "offset",
    "length",
    "index",
    "line",
    "event",
    "site",
    "date",
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
    "time_base",
    "time_increment",
    "termination_tag",
    "utc_datetime",
    "fen",
    "tags",
    "result_marker",
    "variant",
    "valid",
    "error_ply",
    "error_kind",
    "error_san",
    "error_fen",
    "error_line",
    "error_message",
    "error_reason",
    "plies",
    "termination",
    "termination_ply",
    "threefold_ply",
    "fifty_ply",
    "moves_after_end",
    "result_consistent",
    "on_time",
    "timeout_draw",
    "undetermined_ply",
    "warnings",
    "warning_lines",
    "warning_messages",
    "codes",
    "final_fen",
    "moves",
    "clocks",
    "evals",
    "text",
];

/// The columns that follow the moves' in [`COLUMNS`]'s order are these
/// four, written last: filters over the final position and the mainline.
pub const FILTER_COLUMNS: [&str; 4] =
    ["final_material", "final_key", "mainline_hash", "home_pawns"];

/// The columns that always have a value (Parquet's `REQUIRED`).
const REQUIRED: [&str; 20] = [
    "game_id",
    "source_id",
    "file",
    "offset",
    "length",
    "index",
    "line",
    "variant",
    "valid",
    "plies",
    "moves_after_end",
    "result_consistent",
    "on_time",
    "timeout_draw",
    "warnings",
    "warning_lines",
    "warning_messages",
    "codes",
    "moves",
    "mainline_hash",
];

/// Where each text tag of [`TEXT_TAGS`] is stored.
const TEXT_COLUMNS: [&str; 12] = [
    "event",
    "site",
    "date_text",
    "round",
    "white",
    "black",
    "result",
    "eco",
    "opening",
    "time_control",
    "termination_tag",
    "fen",
];

/// Bits of the game number in a `game_id` (the source's number above).
pub const INDEX_BITS: u32 = 40;

/// A game's `game_id`: its source's number and its number in the source.
pub fn game_id(source_id: u32, index: u64) -> i64 {
    (i64::from(source_id) << INDEX_BITS) | (index & ((1 << INDEX_BITS) - 1)) as i64
}

/// Saturating conversions to the stored signed types.
fn i32_of(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}
fn i64_of(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Builds record batches of `games`, a game at a time.
#[derive(Debug)]
pub struct TableBuilder {
    ints64: [Int64Builder; 5],
    source_id: Int32Builder,
    file: StringBuilder,
    text: [StringBuilder; 12],
    date: Date32Builder,
    elo: [Int32Builder; 2],
    time: [Int64Builder; 2],
    utc: TimestampMillisecondBuilder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    result_marker: StringBuilder,
    variant: StringBuilder,
    valid: BooleanBuilder,
    error_ply: Int32Builder,
    error_text: [StringBuilder; 5],
    error_line: Int64Builder,
    plies: Int32Builder,
    termination: StringBuilder,
    plies_at: [Int32Builder; 4],
    flags: [BooleanBuilder; 3],
    undetermined_ply: Int32Builder,
    warnings: ListBuilder<StringBuilder>,
    warning_lines: ListBuilder<Int64Builder>,
    warning_messages: ListBuilder<StringBuilder>,
    codes: ListBuilder<StringBuilder>,
    final_fen: StringBuilder,
    moves: BinaryBuilder,
    clocks: ListBuilder<Int32Builder>,
    evals: ListBuilder<Int32Builder>,
    game_text: BinaryBuilder,
    final_material: StringBuilder,
    final_key: Int64Builder,
    mainline_hash: Int64Builder,
    home_pawns: Int32Builder,
    rows: usize,
}

impl Default for TableBuilder {
    fn default() -> Self {
        TableBuilder {
            // game_id, offset, length, index, line.
            ints64: Default::default(),
            source_id: Int32Builder::new(),
            file: StringBuilder::new(),
            text: Default::default(),
            date: Date32Builder::new(),
            elo: Default::default(),
            time: Default::default(),
            utc: TimestampMillisecondBuilder::new().with_timezone("UTC"),
            tags: MapBuilder::new(None, StringBuilder::new(), StringBuilder::new()),
            result_marker: StringBuilder::new(),
            variant: StringBuilder::new(),
            valid: BooleanBuilder::new(),
            error_ply: Int32Builder::new(),
            error_text: Default::default(),
            error_line: Int64Builder::new(),
            plies: Int32Builder::new(),
            termination: StringBuilder::new(),
            plies_at: Default::default(),
            flags: Default::default(),
            undetermined_ply: Int32Builder::new(),
            warnings: ListBuilder::new(StringBuilder::new()),
            warning_lines: ListBuilder::new(Int64Builder::new()),
            warning_messages: ListBuilder::new(StringBuilder::new()),
            codes: ListBuilder::new(StringBuilder::new()),
            final_fen: StringBuilder::new(),
            moves: BinaryBuilder::new(),
            clocks: ListBuilder::new(Int32Builder::new()),
            evals: ListBuilder::new(Int32Builder::new()),
            game_text: BinaryBuilder::new(),
            final_material: StringBuilder::new(),
            final_key: Int64Builder::new(),
            mainline_hash: Int64Builder::new(),
            home_pawns: Int32Builder::new(),
            rows: 0,
        }
    }
}

impl TableBuilder {
    /// The schema of every batch (that of an empty one).
    pub fn schema() -> SchemaRef {
        TableBuilder::default().finish().schema()
    }

    /// Rows added since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was added since the last batch.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a game of source `source_id`.
    pub fn push(&mut self, source_id: u32, record: &GameRecord, row: &Row) {
        self.rows += 1;
        let ints = [
            game_id(source_id, record.index),
            i64_of(row.address.offset),
            i64_of(row.address.length),
            i64_of(record.index),
            i64_of(record.line),
        ];
        for (builder, n) in self.ints64.iter_mut().zip(ints) {
            builder.append_value(n);
        }
        self.source_id.append_value(i32::try_from(source_id).unwrap_or(i32::MAX));
        self.file.append_value(&*record.file);
        let header = &row.header;
        for (builder, value) in self.text.iter_mut().zip(&header.text) {
            builder.append_option(value.as_deref());
        }
        self.date.append_option(header.date_days());
        for (builder, elo) in self.elo.iter_mut().zip(header.elo) {
            builder.append_option(elo);
        }
        let time = header.time_control();
        self.time[0].append_option(time.map(|t| t.0));
        self.time[1].append_option(time.map(|t| t.1));
        self.utc.append_option(header.utc_seconds().map(|s| s.saturating_mul(1000)));
        // Each name once (`Header::of` keeps the first value of each).
        for (name, value) in &header.other {
            self.tags.keys().append_value(name);
            self.tags.values().append_value(value);
        }
        // The key and value builders are fed in step: cannot fail.
        let _ = self.tags.append(true);
        self.push_verdict(record, &row.codes);
        self.moves.append_value(&row.moves);
        list(&mut self.clocks, row.clocks.as_deref());
        list(&mut self.evals, row.evals.as_deref());
        self.game_text.append_option(row.text.as_deref());
        self.final_material.append_option(row.final_material.as_deref());
        self.final_key.append_option(row.final_key);
        self.mainline_hash.append_value(row.mainline_hash);
        self.home_pawns.append_option(row.home_pawns);
    }

    fn push_verdict(&mut self, r: &GameRecord, codes: &[&str]) {
        self.result_marker.append_option(r.result_marker);
        self.variant.append_value(&r.variant);
        self.valid.append_value(r.valid);
        self.error_ply.append_option(r.error_ply.map(i32_of));
        let e = r.error.as_ref();
        let texts = [
            e.map(|e| e.kind.name()),
            e.map(|e| e.san.as_str()),
            e.map(|e| e.fen.as_str()),
            e.map(|e| e.message.as_str()),
            e.and_then(|e| e.reason),
        ];
        for (builder, text) in self.error_text.iter_mut().zip(texts) {
            builder.append_option(text);
        }
        self.error_line.append_option(e.map(|e| i64_of(e.line)));
        self.plies.append_value(i32_of(r.plies));
        self.termination.append_option(r.termination.map(Termination::name));
        let at = [r.termination_ply, r.threefold_ply, r.fifty_ply, Some(r.moves_after_end)];
        for (builder, ply) in self.plies_at.iter_mut().zip(at) {
            builder.append_option(ply.map(i32_of));
        }
        for (builder, flag) in
            self.flags.iter_mut().zip([r.result_consistent, r.on_time, r.timeout_draw])
        {
            builder.append_value(flag);
        }
        self.undetermined_ply.append_option(r.undetermined_ply.map(i32_of));
        for w in &r.warnings {
            self.warnings.values().append_value(w.kind.name());
            self.warning_lines.values().append_value(i64_of(w.line));
            self.warning_messages.values().append_value(&w.message);
        }
        self.warnings.append(true);
        self.warning_lines.append(true);
        self.warning_messages.append(true);
        for code in codes {
            self.codes.values().append_value(code);
        }
        self.codes.append(true);
        // Empty when the game was not replayed: null, as SQL expects.
        self.final_fen.append_option(Some(r.final_fen.as_str()).filter(|f| !f.is_empty()));
    }

    /// The rows added since the last batch, as a batch.
    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let mut columns: Vec<(&str, ArrayRef)> =
            Vec::with_capacity(COLUMNS.len() + FILTER_COLUMNS.len());
        let [game_id, offset, length, index, line] = &mut self.ints64;
        columns.push(("game_id", Arc::new(game_id.finish())));
        columns.push(("source_id", Arc::new(self.source_id.finish())));
        columns.push(("file", Arc::new(self.file.finish())));
        columns.push(("offset", Arc::new(offset.finish())));
        columns.push(("length", Arc::new(length.finish())));
        columns.push(("index", Arc::new(index.finish())));
        columns.push(("line", Arc::new(line.finish())));
        let [event, site, date_text, round, white, black, result, eco, opening, time, term, fen] =
            &mut self.text;
        columns.push(("event", Arc::new(event.finish())));
        columns.push(("site", Arc::new(site.finish())));
        columns.push(("date", Arc::new(self.date.finish())));
        columns.push(("date_text", Arc::new(date_text.finish())));
        columns.push(("round", Arc::new(round.finish())));
        columns.push(("white", Arc::new(white.finish())));
        columns.push(("black", Arc::new(black.finish())));
        columns.push(("result", Arc::new(result.finish())));
        columns.push(("white_elo", Arc::new(self.elo[0].finish())));
        columns.push(("black_elo", Arc::new(self.elo[1].finish())));
        columns.push(("eco", Arc::new(eco.finish())));
        columns.push(("opening", Arc::new(opening.finish())));
        columns.push(("time_control", Arc::new(time.finish())));
        columns.push(("time_base", Arc::new(self.time[0].finish())));
        columns.push(("time_increment", Arc::new(self.time[1].finish())));
        columns.push(("termination_tag", Arc::new(term.finish())));
        columns.push(("utc_datetime", Arc::new(self.utc.finish())));
        columns.push(("fen", Arc::new(fen.finish())));
        columns.push(("tags", Arc::new(self.tags.finish())));
        columns.push(("result_marker", Arc::new(self.result_marker.finish())));
        columns.push(("variant", Arc::new(self.variant.finish())));
        columns.push(("valid", Arc::new(self.valid.finish())));
        columns.push(("error_ply", Arc::new(self.error_ply.finish())));
        let [kind, san, fen, message, reason] = &mut self.error_text;
        columns.push(("error_kind", Arc::new(kind.finish())));
        columns.push(("error_san", Arc::new(san.finish())));
        columns.push(("error_fen", Arc::new(fen.finish())));
        columns.push(("error_line", Arc::new(self.error_line.finish())));
        columns.push(("error_message", Arc::new(message.finish())));
        columns.push(("error_reason", Arc::new(reason.finish())));
        columns.push(("plies", Arc::new(self.plies.finish())));
        columns.push(("termination", Arc::new(self.termination.finish())));
        let [end, threefold, fifty, after] = &mut self.plies_at;
        columns.push(("termination_ply", Arc::new(end.finish())));
        columns.push(("threefold_ply", Arc::new(threefold.finish())));
        columns.push(("fifty_ply", Arc::new(fifty.finish())));
        columns.push(("moves_after_end", Arc::new(after.finish())));
        let [consistent, on_time, timeout_draw] = &mut self.flags;
        columns.push(("result_consistent", Arc::new(consistent.finish())));
        columns.push(("on_time", Arc::new(on_time.finish())));
        columns.push(("timeout_draw", Arc::new(timeout_draw.finish())));
        columns.push(("undetermined_ply", Arc::new(self.undetermined_ply.finish())));
        columns.push(("warnings", Arc::new(self.warnings.finish())));
        columns.push(("warning_lines", Arc::new(self.warning_lines.finish())));
        columns.push(("warning_messages", Arc::new(self.warning_messages.finish())));
        columns.push(("codes", Arc::new(self.codes.finish())));
        columns.push(("final_fen", Arc::new(self.final_fen.finish())));
        columns.push(("moves", Arc::new(self.moves.finish())));
        columns.push(("clocks", Arc::new(self.clocks.finish())));
        columns.push(("evals", Arc::new(self.evals.finish())));
        columns.push(("text", Arc::new(self.game_text.finish())));
        columns.push(("final_material", Arc::new(self.final_material.finish())));
        columns.push(("final_key", Arc::new(self.final_key.finish())));
        columns.push(("mainline_hash", Arc::new(self.mainline_hash.finish())));
        columns.push(("home_pawns", Arc::new(self.home_pawns.finish())));
        // Every column has one value a row, of the type its builder makes.
        let columns =
            columns.into_iter().map(|(name, array)| (name, array, !REQUIRED.contains(&name)));
        match RecordBatch::try_from_iter_with_nullable(columns) {
            Ok(batch) => batch,
            Err(error) => unreachable!("the games columns are built in step: {error}"),
        }
    }
}

/// Appends a list of optional values, or null for none.
fn list(builder: &mut ListBuilder<Int32Builder>, values: Option<&[Option<i32>]>) {
    match values {
        Some(values) => {
            builder.values().extend(values.iter().copied());
            builder.append(true);
        }
        None => builder.append(false),
    }
}

/// Where a stored game is in its source: all that reading its own bytes
/// back needs (the `source_id`, `offset`, `length` and `index` columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The number of its source in the manifest.
    pub source_id: u32,
    /// Where it starts in its source.
    pub offset: u64,
    /// Its length in bytes in its source.
    pub length: u64,
    /// Its number in its source, from 1.
    pub index: u64,
}

impl Place {
    /// The span of the game's text as the replay showed it to observers
    /// (`GameEnd`'s `text`: the first game of a file with the bytes before
    /// it), as byte offsets into its source's (uncompressed) bytes.
    pub fn span(self) -> Option<(u64, u64)> {
        let start = if self.index == 1 { 0 } else { self.offset };
        Some((start, self.offset.checked_add(self.length)?))
    }
}

/// The columns of a [`Place`].
pub const PLACE_COLUMNS: [&str; 4] = ["source_id", "offset", "length", "index"];

/// One game read back from the table.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// See the `game_id` column.
    pub game_id: i64,
    /// The number of its source in the manifest.
    pub source_id: u32,
    /// Where it is in its source.
    pub offset: u64,
    /// Its length in bytes in its source.
    pub length: u64,
    /// Its tags.
    pub header: Header,
    /// Its record, as `games` printed it when the database was built.
    pub record: GameRecord,
    /// The mainline, about a byte a ply (`db::moves`).
    pub moves: Vec<u8>,
    /// `%clk` per ply, in milliseconds.
    pub clocks: Option<Vec<Option<i32>>>,
    /// `%eval` per ply (see `Row::evals`).
    pub evals: Option<Vec<Option<i32>>>,
    /// The game's bytes, for a game whose moves are not all stored.
    pub text: Option<Vec<u8>>,
}

/// The columns of one batch, typed; refused when one is missing or not of
/// its type (a file that is not a shard of this format). A projected
/// batch (`Columns::projected`) holds some of the columns only: a game
/// read from it has the others empty.
pub struct Columns<'b> {
    batch: &'b RecordBatch,
    /// The batch's columns by name, looked up once: a game reads some
    /// fifty, and a search by name through the schema was a sixth of
    /// `db export`'s time.
    by_name: HashMap<&'b str, &'b ArrayRef, BuildHasherDefault<Fnv>>,
}

/// FNV-1a, for the short column names (the standard hasher is made to
/// resist attacks, which a schema's names are not).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

/// Checks that `schema` (a shard's) has every column of `games`, each of
/// its type.
pub fn check_schema(schema: &arrow_schema::Schema) -> anyhow::Result<()> {
    let expected = TableBuilder::schema();
    for field in expected.fields() {
        let found = schema
            .field_with_name(field.name())
            .map(|f| f.data_type().clone())
            .map_err(|_| anyhow!("no column {}", field.name()))?;
        if &found != field.data_type() {
            bail!("column {} is {found}, not {}", field.name(), field.data_type());
        }
    }
    Ok(())
}

impl<'b> Columns<'b> {
    /// Checks `batch` against the schema.
    pub fn of(batch: &'b RecordBatch) -> anyhow::Result<Columns<'b>> {
        check_schema(&batch.schema())?;
        Ok(Columns::projected(batch))
    }

    /// A batch of some of the columns, read from a shard whose schema
    /// [`check_schema`] accepted.
    pub fn projected(batch: &'b RecordBatch) -> Columns<'b> {
        let names = batch.schema_ref().fields().iter().map(|field| field.name().as_str());
        Columns { batch, by_name: names.zip(batch.columns()).collect() }
    }

    fn column(&self, name: &str) -> Option<&'b ArrayRef> {
        self.by_name.get(name).copied()
    }

    /// Column `name` as text, when read.
    pub fn string(&self, name: &str) -> Option<&'b StringArray> {
        self.column(name)?.as_string_opt::<i32>()
    }

    fn int32(&self, name: &str) -> Option<&'b Int32Array> {
        self.column(name)?.as_primitive_opt::<Int32Type>()
    }

    fn int64(&self, name: &str) -> Option<&'b Int64Array> {
        self.column(name)?.as_primitive_opt::<Int64Type>()
    }

    fn boolean(&self, name: &str) -> Option<&'b BooleanArray> {
        self.column(name)?.as_boolean_opt()
    }

    fn binary(&self, name: &str) -> Option<&'b BinaryArray> {
        self.column(name)?.as_binary_opt::<i32>()
    }

    fn list(&self, name: &str) -> Option<&'b ListArray> {
        self.column(name)?.as_list_opt::<i32>()
    }

    fn map(&self, name: &str) -> Option<&'b MapArray> {
        self.column(name)?.as_map_opt()
    }

    /// Value `i` of the 32-bit integer column `name`, when read and not
    /// null.
    pub fn int32_at(&self, name: &str, i: usize) -> Option<i32> {
        self.int32(name).and_then(|a| opt(a, i))
    }

    /// Rows in the batch.
    pub fn len(&self) -> usize {
        self.batch.num_rows()
    }

    /// Whether the batch has no row.
    pub fn is_empty(&self) -> bool {
        self.batch.num_rows() == 0
    }

    /// Where the game of row `i` is, from a batch holding at least
    /// [`PLACE_COLUMNS`].
    pub fn place(&self, i: usize) -> anyhow::Result<Place> {
        let unsigned = |name: &str| -> anyhow::Result<u64> {
            let value =
                self.int64(name).and_then(|a| opt(a, i)).with_context(|| format!("no {name}"))?;
            Ok(u64::try_from(value).unwrap_or(0))
        };
        let source = self.int32_at("source_id", i).context("no source_id")?;
        Ok(Place {
            source_id: u32::try_from(source).unwrap_or(0),
            offset: unsigned("offset")?,
            length: unsigned("length")?,
            index: unsigned("index")?,
        })
    }

    /// The game of row `i`.
    pub fn game(&self, i: usize) -> anyhow::Result<StoredGame> {
        let text = |name: &str| self.string(name).and_then(|a| opt_str(a, i));
        let int32 = |name: &str| self.int32_at(name, i);
        let ply = |name: &str| int32(name).map(|n| u32::try_from(n).unwrap_or(0));
        let int64 = |name: &str| self.int64(name).and_then(|a| opt(a, i)).unwrap_or(0);
        let unsigned = |name: &str| u64::try_from(int64(name)).unwrap_or(0);
        let mut header = Header::default();
        for (slot, name) in header.text.iter_mut().zip(TEXT_COLUMNS) {
            *slot = text(name).map(Into::into);
        }
        header.elo = [int32("white_elo"), int32("black_elo")];
        if let Some(tags) = self.map("tags").filter(|tags| tags.is_valid(i)) {
            let entries = tags.value(i);
            let keys = entries.column(0).as_string_opt::<i32>();
            let values = entries.column(1).as_string_opt::<i32>();
            let (Some(keys), Some(values)) = (keys, values) else { bail!("tags: not text") };
            for j in 0..keys.len() {
                let value = if values.is_valid(j) { values.value(j) } else { "" };
                header.other.push((keys.value(j).into(), value.into()));
            }
        }
        let strings = |name: &str| -> Vec<String> {
            let Some(list) = self.list(name).filter(|list| list.is_valid(i)) else {
                return Vec::new();
            };
            let values = list.value(i);
            values
                .as_string_opt::<i32>()
                .map(|s| s.iter().map(|v| v.unwrap_or_default().to_owned()).collect())
                .unwrap_or_default()
        };
        let lines: Vec<u64> = {
            if let Some(list) = self.list("warning_lines").filter(|list| list.is_valid(i)) {
                let values = list.value(i);
                values
                    .as_primitive_opt::<Int64Type>()
                    .map(|a| a.iter().map(|v| v.unwrap_or(0).max(0) as u64).collect())
                    .unwrap_or_default()
            } else {
                Vec::new()
            }
        };
        let kinds = strings("warnings");
        let messages = strings("warning_messages");
        let mut warnings = Vec::with_capacity(kinds.len());
        for (j, kind) in kinds.iter().enumerate() {
            let kind = WarningKind::ALL
                .iter()
                .copied()
                .find(|k| k.name() == kind)
                .with_context(|| format!("unknown warning kind {kind}"))?;
            let message = messages.get(j).cloned().unwrap_or_default();
            warnings.push(Warning {
                kind,
                message: Cow::Owned(message),
                line: lines.get(j).copied().unwrap_or(0),
            });
        }
        let error = match text("error_kind") {
            None => None,
            Some(kind) => Some(GameError {
                kind: ErrorKind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.name() == kind)
                    .with_context(|| format!("unknown error kind {kind}"))?,
                san: text("error_san").unwrap_or_default().to_owned(),
                fen: text("error_fen").unwrap_or_default().to_owned(),
                line: unsigned("error_line"),
                message: text("error_message").unwrap_or_default().to_owned(),
                reason: text("error_reason")
                    .and_then(|r| crate::chess::why::CODES.iter().copied().find(|c| *c == r)),
                excerpt: None,
            }),
        };
        let termination = match text("termination") {
            None => None,
            Some(name) => Some(
                Termination::ALL
                    .iter()
                    .copied()
                    .find(|t| t.name() == name)
                    .with_context(|| format!("unknown termination {name}"))?,
            ),
        };
        let marker = text("result_marker")
            .and_then(|m| ["1-0", "0-1", "1/2-1/2", "*"].into_iter().find(|&k| k == m));
        let boolean = |name: &str| {
            self.boolean(name).is_some_and(|array| array.is_valid(i) && array.value(i))
        };
        let record = GameRecord {
            file: Arc::from(text("file").unwrap_or_default()),
            index: unsigned("index"),
            line: unsigned("line"),
            white: header.text[4].as_deref().map(Into::into),
            black: header.text[5].as_deref().map(Into::into),
            event: header.text[0].as_deref().map(Into::into),
            round: header.text[3].as_deref().map(Into::into),
            result: header.text[6].as_deref().map(Into::into),
            result_marker: marker,
            variant: Cow::Owned(text("variant").unwrap_or("chess").to_owned()),
            valid: boolean("valid"),
            error_ply: ply("error_ply"),
            error,
            plies: ply("plies").unwrap_or(0),
            termination,
            termination_ply: ply("termination_ply"),
            threefold_ply: ply("threefold_ply"),
            fifty_ply: ply("fifty_ply"),
            moves_after_end: ply("moves_after_end").unwrap_or(0),
            result_consistent: boolean("result_consistent"),
            on_time: boolean("on_time"),
            timeout_draw: boolean("timeout_draw"),
            undetermined_ply: ply("undetermined_ply"),
            warnings,
            final_fen: text("final_fen").unwrap_or_default().to_owned(),
        };
        let ints = |name: &str| -> Option<Vec<Option<i32>>> {
            let list = self.list(name)?;
            list.is_valid(i).then(|| {
                let values = list.value(i);
                values
                    .as_primitive_opt::<Int32Type>()
                    .map(|a| a.iter().collect())
                    .unwrap_or_default()
            })
        };
        let bytes = |name: &str| {
            let array = self.binary(name)?;
            array.is_valid(i).then(|| array.value(i).to_vec())
        };
        Ok(StoredGame {
            game_id: int64("game_id"),
            source_id: u32::try_from(int32("source_id").unwrap_or(0)).unwrap_or(0),
            offset: unsigned("offset"),
            length: unsigned("length"),
            header,
            record,
            moves: bytes("moves").unwrap_or_default(),
            clocks: ints("clocks"),
            evals: ints("evals"),
            text: bytes("text"),
        })
    }
}

impl StoredGame {
    /// Where the game is in its source.
    pub fn place(&self) -> Place {
        Place {
            source_id: self.source_id,
            offset: self.offset,
            length: self.length,
            index: self.record.index,
        }
    }
}

fn opt_str(array: &StringArray, i: usize) -> Option<&str> {
    array.is_valid(i).then(|| array.value(i))
}

fn opt<T: arrow_array::ArrowPrimitiveType>(
    array: &arrow_array::PrimitiveArray<T>,
    i: usize,
) -> Option<T::Native> {
    array.is_valid(i).then(|| array.value(i))
}

/// The names of the tags [`Header`] keeps in columns (for the docs' test).
pub fn typed_tags() -> impl Iterator<Item = &'static str> {
    TEXT_TAGS.into_iter().chain(ELO_TAGS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_has_the_documented_columns_in_order() {
        let schema = TableBuilder::schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        let expected: Vec<&str> = COLUMNS.iter().chain(&FILTER_COLUMNS).copied().collect();
        assert_eq!(names, expected);
        let doc = include_str!("../../docs/DATABASE.md");
        for name in &expected {
            assert!(doc.contains(&format!("| `{name}` |")), "docs/DATABASE.md lacks {name}");
        }
        assert!(typed_tags().count() == 14);
    }

    #[test]
    fn game_ids_put_the_source_above_the_game_number() {
        assert_eq!(game_id(1, 5), (1 << 40) | 5);
        assert!(game_id(3, 1) > game_id(2, u64::from(u32::MAX)));
    }
}
