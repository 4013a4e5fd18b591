//! `db dupes`' reading side: every stored game shown to `dupes`' own
//! observer (`dupes::fingerprint::Fingerprint`, through
//! `scan::observe_codes`: the moves are hashed as stored, not replayed)
//! and its output handed to `dupes`' own sink (`dupes::index::Index`), so
//! the groups are those `arbiter dupes` finds in the sources. Only the
//! columns they read are read ([`COLUMNS`]: the names, the dates, the
//! result, the start position and the moves), a batch at a time: memory
//! is the index's 40 bytes a game, not the games.

use std::path::Path;

use anyhow::Context;

use super::{manifest::Manifest, moves::Unit, scan, table::Columns};
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

/// Shows a stored ply to the fingerprint: an escaped code by its origin
/// (64 for a drop), target (the rook's square for castling, as
/// shakmaty's `Move::to`) and promotion (the code's kinds 2 to 6 are the
/// role numbers), as the move hashes when played; an index among the
/// candidates as an origin no move has (65), so that it never hashes as
/// a code. A move is stored the same way wherever its position is the
/// same, so games of the same start hash alike exactly when their moves
/// are the same, with no replay.
fn after_code(fingerprint: &mut Fingerprint, unit: Unit) {
    let (from, to, promotion) = match unit {
        Unit::Index(index) => (65, u64::from(index), 0),
        Unit::Code(code) => parts(code),
    };
    fingerprint.after_parts(from, to, promotion);
}

/// A code's origin, target and promotion, as `mix_parts` takes them.
fn parts(code: u16) -> (u64, u64, u64) {
    let kind = u64::from(code >> 12);
    let from = if kind >= 9 { 64 } else { u64::from(code & 63) };
    let promotion = if (2..=6).contains(&kind) { kind } else { 0 };
    (from, u64::from((code >> 6) & 63), promotion)
}

/// Hands every game of the database, in order, to `index` as `dupes`
/// would have: the number of games read.
pub fn index(dir: &Path, manifest: &Manifest, index: &mut Index) -> anyhow::Result<u64> {
    let mut games = 0;
    let mut fingerprint = Fingerprint::new(false);
    // The error's kind too: a game an error stopped is not compared.
    let wanted: Vec<&str> = COLUMNS.iter().chain(&["error_kind"]).copied().collect();
    for path in manifest.shard_paths(dir) {
        let what = || format!("reading {}", path.display());
        let reader = scan::projected(&path, &wanted)?;
        for batch in reader {
            let batch = batch.with_context(what)?;
            let columns = Columns::projected(&batch);
            for i in 0..columns.len() {
                let game = columns.game(i).with_context(what)?;
                let seen = scan::observe_codes(&game, &mut fingerprint, &mut after_code)
                    .with_context(what)?
                    .unwrap_or_default();
                // The index never stops a run.
                let _ = index.record(&game.record, seen)?;
                games += 1;
            }
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use shakmaty::{
        CastlingMode, Chess, Position,
        fen::Fen,
        variant::{Crazyhouse, VariantPosition},
    };

    use super::*;
    use crate::replay::observer::{mix, mix_parts};

    /// Every legal move of `pos` hashes the same from its code as played.
    fn assert_codes_hash_as_moves<P: Position>(pos: &P) -> usize {
        let moves = pos.legal_moves();
        for m in &moves {
            let (from, to, promotion) = parts(crate::db::moves::code(*m));
            assert_eq!(mix_parts(7, from, to, promotion), mix(7, m), "{m:?}");
        }
        moves.len()
    }

    #[test]
    fn a_code_hashes_as_its_move() {
        let chess =
            |fen: &str, mode| -> Chess { fen.parse::<Fen>().unwrap().into_position(mode).unwrap() };
        // Castling both ways (standard and Chess960), en passant,
        // promotions with and without capture.
        let fens = [
            ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
            ("nrk1r3/8/8/8/8/8/8/NRK1R3 w BEbe - 0 1", CastlingMode::Chess960),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", CastlingMode::Standard),
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard),
        ];
        let mut n = 0;
        for (fen, mode) in fens {
            n += assert_codes_hash_as_moves(&chess(fen, mode));
        }
        // Drops.
        let zh: Fen = "4k3/8/8/8/8/8/8/4K3[QNpp] w - - 0 1".parse().unwrap();
        let zh: Crazyhouse = zh.into_position(CastlingMode::Standard).unwrap();
        n += assert_codes_hash_as_moves(&VariantPosition::Crazyhouse(zh));
        assert!(n > 150, "{n} moves");
    }
}
