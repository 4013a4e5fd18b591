//! The fuzz target `fmt` (fuzz_targets/fmt.rs): the round trip of `arbiter fmt` on any bytes.
//! Formatting the output again changes nothing (idempotence), and the
//! output reads back, with the replay of `games --variations`, as the same
//! number of games, each with the same verdict, final position, mainline
//! and tags: the property `tests/cli/fmt.rs` checks on 10,000 mutants of
//! the fixtures, here on what the fuzzer finds. A formatted game may add
//! the roster tags it lacked (with their placeholders); a game copied
//! through unformatted must read back exactly as it did.

use arbiter::{
    export::{Export, Exporter},
    pgn::{chunk::Chunk, tags::ROSTER},
    record::GameRecord,
    replay::{
        ReplayOptions, Replayer,
        observer::{KeepTags, MovesHash},
    },
    tournament::{self, Game},
};

/// The replay of `fmt`.
const FMT: ReplayOptions =
    ReplayOptions { variations: true, final_fen: false, early_stop: false, skip_laws: false };

/// The replay of `games --variations`, which reads the output back.
const READ_BACK: ReplayOptions =
    ReplayOptions { variations: true, final_fen: true, early_stop: false, skip_laws: false };

/// Runs the target on one input: panics where a property does not hold.
pub fn check(data: &[u8]) {
    let (once, exports) = format(data);
    let (twice, _) = format(&once);
    assert!(
        once == twice,
        "formatting is not idempotent:\n{}\n--- formatted again:\n{}",
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice)
    );
    let (before, after) = (read(data), read(&once));
    assert_eq!(before.len(), after.len(), "the output holds another number of games");
    for ((a, b), export) in before.iter().zip(&after).zip(&exports) {
        let game = a.index;
        assert_eq!(kept(a), kept(b), "game {game} reads back differently");
        if export.unformatted.is_some() {
            assert_eq!(a.tags, b.tags, "game {game}, copied through, reads back other tags");
        } else {
            let lacked = ROSTER.iter().filter(|name| a.tags.get(name).is_none()).count();
            let kept_tags = a.tags.iter().all(|(name, value)| b.tags.get(name) == Some(value));
            assert!(
                kept_tags && b.tags.len() == a.tags.len() + lacked,
                "game {game}, formatted, reads back other tags: {:?} then {:?}",
                a.tags,
                b.tags
            );
        }
    }
}

/// `bytes` as `fmt` writes them (the games' texts in order, as `PgnSink`
/// writes them), with each game's export.
fn format(bytes: &[u8]) -> (Vec<u8>, Vec<Export>) {
    let chunk = Chunk::from_bytes("fuzz", bytes.to_vec());
    let mut exports = Vec::new();
    Replayer::new(FMT).replay(&chunk, &mut Exporter::new(FMT), |_, export| exports.push(export));
    (exports.iter().flat_map(|e| e.text.iter().copied()).collect(), exports)
}

/// The games of `bytes` as `games --variations` and `check` read them.
fn read(bytes: &[u8]) -> Vec<Game> {
    let chunk = Chunk::from_bytes("fuzz", bytes.to_vec());
    let mut games = Vec::new();
    let mut observer = (KeepTags, MovesHash::default());
    Replayer::new(READ_BACK).replay(&chunk, &mut observer, |record, output| {
        games.push(tournament::event::game(&record, output));
    });
    games
}

/// What formatting keeps of a game: its verdict (what `export` compares),
/// its final position and a hash of its mainline.
fn kept(game: &Game) -> impl PartialEq + std::fmt::Debug + '_ {
    let r: &GameRecord = game;
    (
        (r.valid, r.error_ply, r.plies, r.termination, r.termination_ply),
        (r.threefold_ply, r.fifty_ply, r.moves_after_end, r.result_consistent),
        (&r.variant, &r.final_fen, game.moves_hash),
    )
}
