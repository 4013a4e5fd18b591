//! `db dupes`' reading side: every stored game shown to `dupes`' own
//! observer (`dupes::fingerprint::Fingerprint`, through `scan::observe`)
//! and its output handed to `dupes`' own sink (`dupes::index::Index`), so
//! the groups are those `arbiter dupes` finds in the sources. Only the
//! columns they read are read ([`COLUMNS`]: the names, the dates, the
//! result, the start position and the moves), a batch at a time: memory
//! is the index's 40 bytes a game, not the games.

use std::{fs::File, path::Path};

use anyhow::Context;
use parquet::arrow::{ProjectionMask, arrow_reader::ParquetRecordBatchReaderBuilder};

use super::{
    manifest::Manifest,
    scan,
    table::{Columns, check_schema},
};
use crate::{
    dupes::{fingerprint::Fingerprint, index::Index},
    sink::Sink,
};

/// The columns `dupes` reads of a game: its place, players, date and time
/// (`date_text`, and `UTCDate`, `UTCTime`, `Time` in `tags`), result,
/// verdict, start position (`fen`, `Variant` in `tags`) and moves.
pub const COLUMNS: [&str; 14] = [
    "game_id",
    "file",
    "index",
    "line",
    "white",
    "black",
    "date_text",
    "result",
    "result_marker",
    "tags",
    "fen",
    "variant",
    "plies",
    "moves",
];

/// Rows read at a time.
const BATCH: usize = 4096;

/// Hands every game of the database, in order, to `index` as `dupes`
/// would have: the number of games read.
pub fn index(dir: &Path, manifest: &Manifest, index: &mut Index) -> anyhow::Result<u64> {
    let mut games = 0;
    let mut fingerprint = Fingerprint::new(false);
    for path in manifest.shard_paths(dir) {
        let what = || format!("reading {}", path.display());
        let file = File::open(&path).with_context(what)?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).with_context(what)?;
        check_schema(builder.schema()).with_context(what)?;
        // The error's kind too: a game an error stopped is not compared.
        let wanted = COLUMNS.iter().chain(&["error_kind"]);
        let indices = wanted
            .map(|name| builder.schema().index_of(name))
            .collect::<Result<Vec<usize>, _>>()
            .with_context(what)?;
        let mask = ProjectionMask::roots(builder.parquet_schema(), indices);
        let reader =
            builder.with_projection(mask).with_batch_size(BATCH).build().with_context(what)?;
        for batch in reader {
            let batch = batch.with_context(what)?;
            let columns = Columns::projected(&batch);
            for i in 0..columns.len() {
                let game = columns.game(i).with_context(what)?;
                let seen =
                    scan::observe(&game, &mut fingerprint).with_context(what)?.unwrap_or_default();
                // The index never stops a run.
                let _ = index.record(&game.record, seen)?;
                games += 1;
            }
        }
    }
    Ok(games)
}
