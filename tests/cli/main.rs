//! Integration tests: run the `arbiter` binary on the fixtures under
//! `fixtures/` and check hand-derived facts about each game.
//!
//! `rules`: the Laws of Chess as replayed (fixtures/rules, every legal game
//! verified with python-chess; see fixtures/tools/reference.py).
//! `bad_input`: broken files (fixtures/bad-input); each ends with a good
//! game that must be read normally.
//! `validate`: the diagnostics, summary and exit codes of `arbiter validate`.
//! `paths`: every way of reading input gives the same records.
//! `progress`: the progress bar shows on a terminal only.
//! `stats`: `stats` tables from hand counts; shards + `merge` == one run.
//! `tree`: the opening tree from hand counts; partials + `merge` == one run.
//! `fmt`: export format, stable, faithful, and safe in place.
//! `check`: every finding code at its place; `crosstable`: hand-computed
//! tie-breaks.
//! `games`: the CSV reads back as the records; `--tags`.
//! `dupes`: the planted duplicates of fixtures/dupes, `--unique`, memory.
//! `db_tree`: `db tree` and `db dupes` answer what `tree` and `dupes`
//! answer on the sources.
//! `generate`: shell completions, the manual page, `--version`.
//! `streaming`: findings while the input is read; a closed output ends
//! the run.
//! `fuzz_seeds`: the fuzz targets of fuzz/ on every fixture and reproducer.
//! `split`: shards put end to end are the inputs; their stats merge to one
//! run's.
//! `schema`: `games`' records and CSV header are docs/GUIDE.md's schema.

mod bad_input;
mod check;
mod crosstable;
#[cfg(feature = "db")]
mod db;
#[cfg(feature = "db")]
mod db_tree;
mod dupes;
mod filter;
mod fmt;
mod fuzz_seeds;
mod games;
mod generate;
mod hostile;
mod paths;
mod progress;
mod rules;
mod schema;
mod split;
mod stats;
mod streaming;
mod tree;
mod util;
mod validate;
mod variants;
mod winnable;
