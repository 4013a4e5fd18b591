//! The fuzz target `select` (fuzz_targets/select.rs): the predicates on positions and moves decide the
//! same games whether a game is replayed to its end or only until its
//! selection is decided (`ReplayOptions::early_stop`, as `filter` runs).
//!
//! For each of a few selections (a position, a placement, a material
//! reached or final, opening moves, an anchor, negations, a tag with a
//! position), any bytes are read as `filter --rejects` reads them
//! (`Partitioned`, early stop) and as `games` does (`Selected`, every game
//! replayed whole): the games selected must be the same, and the texts of
//! all the games, selected or not, must be the input.

use std::sync::LazyLock;

use super::{Keep, input_file, open, run, small_chunk_size};
use arbiter::{
    pgn::sniff,
    pipeline::DEFAULT_CHUNK_SIZE,
    replay::{ReplayOptions, observer::GameText},
    select::{Builder, Key, Partitioned, Selected, Selection},
};

/// After 1. e4 e5 2. Nf3.
const FEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

/// The selections, each as its predicates.
static SELECTIONS: LazyLock<Vec<Selection>> = LazyLock::new(|| {
    let one = |key: Key, values: &[&str], anchor: Option<u32>| {
        let mut builder = Builder::default();
        let values: Vec<String> = values.iter().map(|v| (*v).to_owned()).collect();
        builder.add(key, &values).expect("a valid predicate").anchor(anchor);
        builder
    };
    let mut selections = vec![
        one(Key::Fen, &[FEN], None),
        one(Key::Fen, &[FEN], Some(3)),
        one(Key::Fen, &[&format!("!{FEN}")], None),
        one(Key::Placement, &["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"], None),
        one(Key::Material, &["KRvK", "KQvK"], None),
        one(Key::Material, &["KQRRBBNNPPPPPPPvKQRRBBNNPPPPPPP"], Some(4)),
        one(Key::FinalMaterial, &["KvK"], None),
        one(Key::Moves, &["1. e4 e5 2. Nf3"], None),
        one(Key::Moves, &["!1. d4"], None),
    ];
    // A tag and a position together.
    let mut both = one(Key::Fen, &[FEN], None);
    both.add(Key::Result, &["1-0".to_owned()]).expect("a valid predicate");
    selections.push(both);
    selections.into_iter().map(Builder::build).collect()
});

// The selections read no verdict: as `filter` runs them, without the Laws.
const EARLY: ReplayOptions =
    ReplayOptions { variations: false, final_fen: false, early_stop: true, skip_laws: true };
const WHOLE: ReplayOptions =
    ReplayOptions { variations: false, final_fen: false, early_stop: false, skip_laws: false };

/// Runs the target on one input: panics where a property does not hold.
pub fn check(data: &[u8]) {
    let Some(&first) = data.first() else { return };
    let Some(path) = input_file(data) else { return };
    let path = path.as_str();
    let chunk_size = if first & 1 == 0 { DEFAULT_CHUNK_SIZE } else { small_chunk_size(first) };
    for (n, selection) in SELECTIONS.iter().enumerate() {
        let mut partitioned = Partitioned::new(selection.clone(), GameText);
        let mut early = Keep::default();
        run(path, open(data, None), chunk_size, EARLY, &mut partitioned, &mut early);
        let texts: Vec<u8> = early.0.iter().flat_map(|(_, (_, text))| text.clone()).collect();
        // (An input that does not look like PGN is skipped whole.)
        let skipped = !sniff::looks_like_pgn(data);
        assert!(
            texts == data || (skipped && texts.is_empty()),
            "selection {n}: the games' texts are not the input"
        );
        let picked: Vec<u64> =
            early.0.iter().filter(|(_, (selected, _))| *selected).map(|(r, _)| r.index).collect();
        let mut selected = Selected::new(selection.clone(), ());
        let mut whole = Keep::default();
        run(path, open(data, None), chunk_size, WHOLE, &mut selected, &mut whole);
        let kept: Vec<u64> = whole.0.iter().map(|(record, ())| record.index).collect();
        assert_eq!(picked, kept, "selection {n}: early stop and whole replay select other games");
    }
}
