//! The JSON Lines emitter: one object per finding, with its code, name,
//! severity, place, game and hint (`check --format jsonl`).

use std::io::{self, Write};

use serde::Serialize;

use super::{
    Finding,
    codes::{Code, Severity},
};
use crate::record::GameRecord;

/// One finding as a JSON Lines object.
#[derive(Debug, Serialize)]
struct JsonFinding<'a> {
    code: Code,
    name: &'static str,
    severity: Severity,
    file: &'a str,
    line: u64,
    game: u64,
    ply: Option<u32>,
    white: Option<&'a str>,
    black: Option<&'a str>,
    round: Option<&'a str>,
    message: &'a str,
    reason: Option<&'static str>,
    fen: Option<&'a str>,
    hint: &'static str,
}

impl<'a> JsonFinding<'a> {
    fn new(f: &'a Finding, r: &'a GameRecord) -> Self {
        JsonFinding {
            code: f.code,
            name: f.code.name(),
            severity: f.code.severity(),
            file: &r.file,
            line: f.line,
            game: r.index,
            ply: f.ply,
            white: r.white.as_deref(),
            black: r.black.as_deref(),
            round: r.round.as_deref(),
            message: &f.message,
            reason: f.reason,
            fen: f.fen.as_deref(),
            hint: f.code.hint(),
        }
    }
}

/// Writes finding `f`, about the game of record `r`, as one line.
pub fn write(wtr: &mut dyn Write, f: &Finding, r: &GameRecord) -> io::Result<()> {
    serde_json::to_writer(&mut *wtr, &JsonFinding::new(f, r))?;
    wtr.write_all(b"\n")
}
