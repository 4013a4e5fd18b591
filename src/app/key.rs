//! `arbiter key` (and `db key`): the key the game database stores for a
//! position, printed for SQL.

use std::io::{self, Write};

use anyhow::{Context, bail};
use shakmaty::{CastlingMode, Chess};

use crate::{
    chess::identity::{self, parse_fen},
    cli::KeyArgs,
    exit::ExitStatus,
};

/// Runs `key`.
pub(super) fn run(args: &KeyArgs) -> anyhow::Result<ExitStatus> {
    writeln!(io::stdout().lock(), "{}", of(&args.fen)?)?;
    Ok(ExitStatus::Clean)
}

/// The key of a FEN's position, as the positions files store it: the
/// identity's 64-bit hash, its bits read as a signed integer (Spark reads
/// an unsigned 64-bit column as a decimal).
pub(super) fn of(fen: &str) -> anyhow::Result<i64> {
    let parsed = parse_fen(fen).map_err(|error| anyhow::anyhow!("FEN {fen:?}: {error}"))?;
    // A variant's key hashes its pockets or check counters too, which a
    // chess position has not: refused rather than given the board's key.
    let setup = parsed.as_setup();
    if setup.pockets.is_some() || setup.remaining_checks.is_some() {
        bail!(
            "FEN {fen:?}: has pockets or check counters (crazyhouse, three-check): \
             keys are printed for chess and Chess960 positions only"
        );
    }
    let pos: Chess = parsed
        .into_position(CastlingMode::Chess960)
        .with_context(|| format!("FEN {fen:?}: not a legal position"))?;
    Ok(identity::position_hash(&pos) as i64)
}
