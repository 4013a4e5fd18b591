//! arbiter applies the FIDE Laws of Chess to PGN game collections.
//!
//! The modules follow the data flow, and the data flow follows the Laws:
//!
//! ```text
//! bytes  → PGN syntax → chess  → the FIDE Laws → record    → observers and sinks
//! source   pgn          chess    laws            record      replay::observer, sink
//! ```
//!
//! `replay` drives each game through these steps and shows it to an
//! observer (`replay::observer`: `export::Exporter`, `openings::Classifier`,
//! `stats::Counter`, `tree::Explorer`, `tournament::GameObserver`...);
//! `pipeline::run` hands each record, in input order, to a sink, which may
//! stop the run, and `pipeline::fold` merges per-worker aggregates. `app`
//! has one file per command; `cli` and `config` are the command line
//! before and after resolution. The layout is in docs/ARCHITECTURE.md.
//!
//! Glossary, used everywhere: `index` = 1-based game number in its file;
//! `ply` = 1-based half-move (0 = the start position); `move_number` = the
//! PGN fullmove number; `line` = 1-based line; `offset` = 0-based byte.

pub mod app;
pub mod chess;
pub mod cli;
pub mod config;
#[cfg(feature = "db")]
pub mod db;
pub mod diagnostic;
pub mod dupes;
pub mod exit;
pub mod export;
pub mod laws;
pub mod openings;
pub mod pgn;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod replay;
pub mod schema;
pub mod select;
pub mod sink;
pub mod source;
pub mod stats;
#[cfg(test)]
mod testing;
pub mod tournament;
pub mod tree;
