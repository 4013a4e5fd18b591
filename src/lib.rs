//! arbiter applies the FIDE Laws of Chess to PGN game collections.
//!
//! The modules follow the data flow:
//!
//! ```text
//! input ──► chunk ──► replay (parallel) ──► record ──► sink
//! (bytes)   (whole    (split: tags,         (GameRecord) (diagnostics,
//!            games)    our lexer, shakmaty,               CSV, JSONL)
//!                      the rules)
//! ```
//!
//! `split` finds games and their tags in bytes, for `chunk` (where to cut)
//! and `replay` (where each game's parts are).
//!
//! `pipeline` wires the steps together; `commands` choose sinks; `cli` and
//! `options` are the command line before and after resolution.
//!
//! Glossary, used everywhere: `index` = 1-based game number in its file;
//! `ply` = 1-based half-move (0 = the start position); `move_number` = the
//! PGN fullmove number; `line` = 1-based line; `offset` = 0-based byte.

pub mod app;
pub mod chess;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod exit;
pub mod export;
pub mod laws;
pub mod openings;

pub mod pgn;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod replay;
pub mod sink;
pub mod source;
pub mod stats;
#[cfg(test)]
mod testing;
pub mod tournament;
