//! `db tree` and `db dupes` (issue 23): on a database of the fixtures they
//! print what `arbiter tree` and `arbiter dupes` print on the fixtures
//! themselves, byte for byte: `db tree` from the tree files of `db build
//! --tree` (with and without pruning at K games, several shards), from
//! the positions files alone, and across builds that added inputs; a
//! database with neither says how to build them.

use std::{fs, path::Path};

use crate::util::{fixture, run};

/// Chess games with transpositions, a tournament, broken games (an error
/// stops a game's moves) and variants (never counted in a chess tree).
fn inputs() -> Vec<String> {
    [
        "tree/transpositions.pgn",
        "sample.pgn",
        "variants/lichess.pgn",
        "bad-input/null_move.pgn",
        "bad-input/bad_fen.pgn",
        "select/predicates.pgn",
    ]
    .map(fixture)
    .to_vec()
}

/// Roots: the start, after 1. e4, after 1. d4 Nf6 2. c4 e6 (reached by
/// transposition too), and a position no game reached.
const ROOTS: [Option<&str>; 4] = [
    None,
    Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
    Some("rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"),
    Some("8/8/8/8/8/8/8/K6k w - - 0 1"),
];

fn path(dir: &Path) -> &str {
    dir.to_str().expect("UTF-8 temporary path")
}

fn build(files: &[String], dir: &Path, extra: &[&str]) {
    let mut args = vec!["db", "build", "-q", "-o", path(dir)];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    let run = run(&args);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
}

/// `arbiter db tree DIR [--fen F] FORMAT` in each of `dirs` prints what
/// `arbiter tree FILES [--fen F] FORMAT` prints, which is returned.
fn assert_same_tree(files: &[String], dirs: &[&Path], root: Option<&str>, format: &str) -> String {
    let fen: Vec<&str> = root.map(|fen| vec!["--fen", fen]).unwrap_or_default();
    let mut source = vec!["tree", format];
    source.extend(&fen);
    source.extend(files.iter().map(String::as_str));
    let expected = run(&source);
    assert_eq!(expected.code, Some(0), "{source:?}: {}", expected.stderr);
    for dir in dirs {
        let mut stored = vec!["db", "tree", path(dir), format];
        stored.extend(&fen);
        let got = run(&stored);
        assert_eq!(got.code, Some(0), "{stored:?}: {}", got.stderr);
        assert_eq!(got.stdout, expected.stdout, "{stored:?}");
        assert!(got.stderr.is_empty(), "{stored:?}: {}", got.stderr);
    }
    expected.stdout
}

#[test]
fn db_tree_answers_what_tree_answers_from_tree_files_or_positions() {
    let files = inputs();
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all");
    let pruned = tmp.path().join("pruned");
    let positions = tmp.path().join("positions");
    build(&files, &all, &["--tree=1"]);
    // Shards of 4 games, pruned at 3: most positions are missing from the
    // tree files and counted from the positions files.
    build(&files, &pruned, &["--tree=3", "--positions", "--shard-games", "4"]);
    build(&files, &positions, &["--positions=20"]);
    for root in ROOTS {
        let csv = assert_same_tree(&files, &[&all, &pruned, &positions], root, "--csv");
        // The start: the root and its moves.
        if root.is_none() {
            assert!(csv.lines().count() > 4, "{csv}");
        }
    }
    assert_same_tree(&files, &[&pruned], ROOTS[2], "--json");
    let text = assert_same_tree(&files, &[&all], None, "--min-games=2");
    assert!(text.contains("e4"), "{text}");
    let manifest = fs::read_to_string(pruned.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let shards = manifest["shards"].as_array().unwrap();
    assert!(shards.len() > 3);
    for shard in shards {
        let tree = &shard["tree"];
        assert_eq!((tree["min_games"].as_u64(), tree["plies"].as_u64()), (Some(3), Some(40)));
        assert!(pruned.join(tree["file"].as_str().unwrap()).is_file());
    }
}

#[test]
fn tree_files_are_added_with_new_inputs_and_rebuilds_change_nothing() {
    let files = inputs();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    build(&files[..2], &dir, &["--tree=1"]);
    let before = fs::read(dir.join("manifest.json")).unwrap();
    build(&files[..2], &dir, &["--tree=1"]);
    assert_eq!(fs::read(dir.join("manifest.json")).unwrap(), before, "idempotent");
    // A leftover of a run that died is removed, never read.
    fs::write(dir.join("tree/part-000009.parquet"), b"half a file").unwrap();
    build(&files[2..], &dir, &["--tree=1"]);
    assert!(!dir.join("tree/part-000009.parquet").exists());
    for root in ROOTS {
        assert_same_tree(&files, &[&dir], root, "--csv");
    }
}

#[test]
fn db_tree_says_what_it_lacks() {
    let files = inputs();
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    build(&files, &plain, &[]);
    let missing = run(&["db", "tree", path(&plain)]);
    assert_eq!(missing.code, Some(2), "{}", missing.stderr);
    assert!(missing.stderr.contains("--tree") && missing.stderr.contains("--positions"));
    assert!(!missing.stderr.contains("panicked"), "{}", missing.stderr);
    // Pruned at more games than there are, without positions: the counts
    // may lack games, and it says so.
    let pruned = tmp.path().join("pruned");
    build(&files, &pruned, &["--tree=1000"]);
    let partial = run(&["db", "tree", path(&pruned), "--csv"]);
    assert_eq!(partial.code, Some(0), "{}", partial.stderr);
    assert!(partial.stderr.contains("--tree=1000"), "{}", partial.stderr);
    assert!(partial.stderr.contains("up to 999 of its games may be missing"));
    assert_eq!(partial.stdout.lines().count(), 1, "the header alone: {}", partial.stdout);
}

#[test]
fn db_dupes_reports_what_dupes_reports() {
    let tmp = tempfile::tempdir().unwrap();
    // Copies of every game with castling, en passant, promotions and
    // drops (one byte more: another digest), so that the hashes of the
    // stored codes meet the hashes of the replayed moves.
    let mut moves = Vec::new();
    for name in ["rules/castling.pgn", "rules/promotion.pgn", "variants/lichess.pgn"] {
        moves.extend(fs::read(fixture(name)).unwrap());
        moves.extend(b"\n\n");
    }
    let copy = tmp.path().join("copy.pgn");
    fs::write(&copy, [&moves[..], b"\n"].concat()).unwrap();
    let original = tmp.path().join("moves.pgn");
    fs::write(&original, &moves).unwrap();
    let files = [
        fixture("dupes/a.pgn"),
        fixture("dupes/b.pgn"),
        path(&original).to_owned(),
        path(&copy).to_owned(),
    ];
    let dir = tmp.path().join("db");
    // Two builds: the sources' games in order across shards.
    build(&files[..1], &dir, &["--shard-games", "4"]);
    build(&files[1..], &dir, &["--shard-games", "4"]);
    let grouped = run(&["db", "dupes", path(&dir), "--format", "jsonl"]);
    // Each copy is in a group of its own with its original.
    let groups: Vec<&str> = grouped.stdout.lines().filter(|g| g.contains("copy.pgn")).collect();
    assert!(groups.len() >= 8, "the copies are found: {}", grouped.stdout);
    // The variants' games (crazyhouse's drops among them) are the last.
    assert!(groups.iter().any(|g| g.contains("copy.pgn\",\"game\":18")), "{groups:?}");
    for group in groups {
        assert_eq!(group.matches("copy.pgn").count(), 1, "{group}");
        assert_eq!(group.matches("moves.pgn").count(), 1, "{group}");
    }
    let options: [&[&str]; 3] =
        [&[], &["--format", "jsonl", "--keep", "longest"], &["--min-plies", "30"]];
    for extra in options {
        let mut source = vec!["dupes"];
        source.extend(files.iter().map(String::as_str));
        source.extend(extra);
        let mut stored = vec!["db", "dupes", path(&dir)];
        stored.extend(extra);
        let (expected, got) = (run(&source), run(&stored));
        assert_eq!(expected.code, Some(0), "{source:?}: {}", expected.stderr);
        assert_eq!(got.code, Some(0), "{stored:?}: {}", got.stderr);
        assert_eq!(got.stdout, expected.stdout, "{extra:?}");
        assert_eq!(got.stderr, expected.stderr, "{extra:?}");
        assert!(expected.stdout.contains("group") || expected.stdout.contains("exact"));
    }
}
