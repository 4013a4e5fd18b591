//! The game database (`arbiter db`): a directory of Parquet files that
//! DuckDB, Polars, pandas, Spark or Trino read as they are, and that
//! arbiter queries again without reading the PGN.
//!
//! `db build` runs the pipeline with the [`row::RowMaker`] observer and the
//! [`store::Store`] sink, which writes the `games` table ([`table`]) in
//! shards with each shard's `stats --partial`; [`manifest`] lists what a
//! directory holds and makes a build atomic; [`scan`] reads the games
//! back, decides `filter`'s predicates on them and writes them as PGN;
//! [`search`] decides them on the row groups in parallel, reading only the
//! columns they need; [`find`] answers `db find` from the positions files;
//! [`moves`] is the move encoding (a byte a ply); [`originals`] reads a
//! game's own bytes back from its source; [`tree`] writes the opening
//! tree of each shard (`--tree`) and answers `db tree`; [`dupes`] reads
//! the games' columns for `db dupes`; `sqlite` (feature `sqlite`)
//! writes them as one SQLite file. The layout and every column are
//! documented in docs/DATABASE.md.

pub mod dupes;
pub mod find;
pub mod manifest;
pub mod moves;
pub mod originals;
pub mod row;
pub mod scan;
pub mod search;
#[cfg(feature = "sqlite")]
pub mod sqlite;
pub mod store;
pub mod table;
pub mod tree;
