//! `arbiter key` (and `db key`): the key the game database stores for a
//! position, printed for SQL.

use std::io::{self, Write};

use anyhow::Context;
use shakmaty::{CastlingMode, Chess, fen::Fen};

use crate::{chess::identity, cli::KeyArgs, exit::ExitStatus};

/// Runs `key`.
pub(super) fn run(args: &KeyArgs) -> anyhow::Result<ExitStatus> {
    writeln!(io::stdout().lock(), "{}", of(&args.fen)?)?;
    Ok(ExitStatus::Clean)
}

/// The key of a FEN's position, as the positions files store it: the
/// identity's 64-bit hash, its bits read as a signed integer (Spark reads
/// an unsigned 64-bit column as a decimal).
pub(super) fn of(fen: &str) -> anyhow::Result<i64> {
    let parsed: Fen = fen.trim().parse().with_context(|| format!("FEN {fen:?}"))?;
    let pos: Chess = parsed
        .into_position(CastlingMode::Chess960)
        .with_context(|| format!("FEN {fen:?}: not a legal position"))?;
    Ok(identity::position_hash(&pos) as i64)
}
