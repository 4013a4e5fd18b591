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

/// `arbiter db tree DIR [--fen F] OPTIONS` in each of `dirs` prints what
/// `arbiter tree FILES [--fen F] OPTIONS` prints, which is returned.
fn assert_same_tree(
    files: &[String],
    dirs: &[&Path],
    root: Option<&str>,
    options: &[&str],
) -> String {
    let fen: Vec<&str> = root.map(|fen| vec!["--fen", fen]).unwrap_or_default();
    let mut source = vec!["tree"];
    source.extend(options);
    source.extend(&fen);
    source.extend(files.iter().map(String::as_str));
    let expected = run(&source);
    assert_eq!(expected.code, Some(0), "{source:?}: {}", expected.stderr);
    for dir in dirs {
        let mut stored = vec!["db", "tree", path(dir)];
        stored.extend(options);
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
        let csv = assert_same_tree(&files, &[&all, &pruned, &positions], root, &["--csv"]);
        // The start: the root and its moves.
        if root.is_none() {
            assert!(csv.lines().count() > 4, "{csv}");
        }
    }
    assert_same_tree(&files, &[&pruned], ROOTS[2], &["--json"]);
    let text = assert_same_tree(&files, &[&all], None, &["--min-games=2"]);
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
fn db_tree_follows_depth_and_moves_as_tree_does() {
    let files = inputs();
    let tmp = tempfile::tempdir().unwrap();
    let trees = tmp.path().join("trees");
    let positions = tmp.path().join("positions");
    let both = tmp.path().join("both");
    build(&files, &trees, &["--tree=1"]);
    build(&files, &positions, &["--positions=20", "--shard-games", "50"]);
    build(&files, &both, &["--tree=2", "--positions"]);
    // Deeper than 1, from the positions files: the transpositions of the
    // fixtures meet again below the root.
    for root in ROOTS {
        assert_same_tree(&files, &[&positions, &both], root, &["--csv", "--depth=2"]);
    }
    let csv = assert_same_tree(&files, &[&positions, &both], None, &["--csv", "--depth=4"]);
    assert!(csv.contains("1. d4 Nf6 2. c4 e6"), "{csv}");
    // Depth 0 (the root alone), from the tree files too.
    for root in ROOTS {
        let csv = assert_same_tree(&files, &[&trees, &positions], root, &["--csv", "--depth=0"]);
        assert!(csv.lines().count() <= 2, "{csv}");
    }
    // A root after moves: games that begin with them, not those that
    // transpose into their position.
    for moves in ["d4 Nf6 c4 e6", "e4"] {
        let options = ["--moves", moves, "--depth=3", "--csv"];
        let csv = assert_same_tree(&files, &[&positions, &both], None, &options);
        assert!(csv.lines().count() > 2, "{csv}");
    }
    assert_same_tree(&files, &[&both], ROOTS[2], &["--depth=3", "--min-games=2"]);
    assert_same_tree(&files, &[&positions], ROOTS[1], &["--depth=2", "--json"]);
    // The partial `merge` reads, as `tree --partial -` writes it.
    let partial = assert_same_tree(&files, &[&positions], None, &["--depth=3", "--partial", "-"]);
    assert!(partial.contains("\"positions\""), "{partial}");
    assert_same_tree(&files, &[&trees], ROOTS[1], &["--partial", "-"]);
    // Tree files alone cannot answer a deeper tree: said, not guessed.
    let deep = run(&["db", "tree", path(&trees), "--depth=2"]);
    assert_eq!(deep.code, Some(2), "{}", deep.stderr);
    assert!(deep.stderr.contains("--positions"), "{}", deep.stderr);
    assert!(deep.stdout.is_empty());
    let moves = run(&["db", "tree", path(&trees), "--moves", "e4"]);
    assert_eq!(moves.code, Some(2), "{}", moves.stderr);
    // More positions than --max-positions is an error, not a smaller tree,
    // whether replayed or read from the tree files, as `tree` says.
    for (db, depth) in [(&positions, "--depth=3"), (&trees, "--depth=1"), (&both, "--depth=1")] {
        let small = run(&["db", "tree", path(db), depth, "--max-positions=3"]);
        assert_eq!(small.code, Some(2), "{depth}: {}", small.stderr);
        assert!(small.stderr.contains("--max-positions"), "{}", small.stderr);
        assert!(small.stdout.is_empty(), "{}", small.stdout);
    }
    let mut args = vec!["tree", "-q", "--depth=1", "--max-positions=3"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(run(&args).code, Some(2), "tree itself refuses it too");
}

#[test]
fn db_info_lists_each_shards_files() {
    let files = inputs();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    build(&files, &dir, &["--tree=2", "--positions", "--shard-games", "100"]);
    let info = run(&["db", "info", path(&dir)]);
    assert_eq!(info.code, Some(0), "{}", info.stderr);
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let shards = manifest["shards"].as_array().unwrap();
    assert!(shards.len() > 1);
    let line = |name: &str| {
        let mut lines = info.stdout.lines().filter(|l| l.split_whitespace().next() == Some(name));
        let line = lines.next().unwrap_or_else(|| panic!("{name} not listed: {}", info.stdout));
        assert!(lines.next().is_none(), "{name} listed twice");
        line.to_owned()
    };
    let bytes = |name: &str| format!(" {} bytes", fs::metadata(dir.join(name)).unwrap().len());
    let mut files_listed = 0;
    for shard in shards {
        let games = shard["games"].as_str().unwrap();
        let games_line = line(games);
        assert!(games_line.contains(&format!(" {} games ", shard["rows"])), "{games_line}");
        assert!(games_line.ends_with(&bytes(games)), "{games_line}");
        assert!(line(shard["stats"].as_str().unwrap()).contains("stats partial"));
        for positions in shard["positions"].as_array().unwrap() {
            let name = positions.as_str().unwrap();
            assert!(line(name).ends_with(&bytes(name)));
            files_listed += 1;
        }
        let tree = &shard["tree"];
        let name = tree["file"].as_str().unwrap();
        let tree_line = line(name);
        assert!(tree_line.contains(&format!("tree of {} rows", tree["rows"])), "{tree_line}");
        assert!(tree_line.contains("at least 2 games, plies 0 to 40"), "{tree_line}");
        files_listed += 3;
    }
    assert!(info.stdout.contains(&format!("shards:   {} ({files_listed} files, ", shards.len())));
    // A file the manifest lists but the directory lacks: shown, and an
    // error.
    let gone = shards[1]["tree"]["file"].as_str().unwrap();
    fs::remove_file(dir.join(gone)).unwrap();
    let damaged = run(&["db", "info", path(&dir)]);
    assert_eq!(damaged.code, Some(2), "{}", damaged.stderr);
    let listed = damaged.stdout.lines().find(|l| l.trim_start().starts_with(gone)).unwrap();
    assert!(listed.contains("missing"), "{listed}");
    assert!(damaged.stderr.contains("1 of the files"), "{}", damaged.stderr);
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
        assert_same_tree(&files, &[&dir], root, &["--csv"]);
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
    // Blank lines before the first game (they go with it) and no line
    // break after the last: `--unique` writes both as `dupes` does. The
    // original is compressed: its games are read from its stream.
    let original = tmp.path().join("moves.pgn.zst");
    let text = [b"\n\n", moves.trim_ascii_end()].concat();
    fs::write(&original, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
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
        assert_eq!(group.matches("moves.pgn.zst").count(), 1, "{group}");
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
    // --unique: the file `dupes --unique` writes, byte for byte (the kept
    // games' own bytes, the first game of a source with the bytes before
    // it, a line break after a source without one), and the same report.
    let out = tmp.path().join("unique.pgn");
    let target = path(&out);
    let options: [&[&str]; 2] = [&[], &["--keep", "longest", "--format", "jsonl"]];
    for extra in options {
        let mut source = vec!["dupes", "--unique", "-o", target];
        source.extend(files.iter().map(String::as_str));
        source.extend(extra);
        let expected = run(&source);
        assert_eq!(expected.code, Some(0), "{source:?}: {}", expected.stderr);
        let written = fs::read(&out).unwrap();
        fs::remove_file(&out).unwrap();
        let mut stored = vec!["db", "dupes", path(&dir), "--unique", "-o", target];
        stored.extend(extra);
        let got = run(&stored);
        assert_eq!(got.code, Some(0), "{stored:?}: {}", got.stderr);
        assert_eq!((&got.stdout, &got.stderr), (&expected.stdout, &expected.stderr), "{extra:?}");
        assert!(format!("{}{}", got.stdout, got.stderr).contains(" removed"), "{}", got.stdout);
        assert!(fs::read(&out).unwrap() == written, "{extra:?}: not the bytes dupes wrote");
    }
    // Written whole or not at all, as `dupes` writes: an existing file is
    // replaced and keeps its permissions; a directory is refused; a run
    // that fails leaves the file as it was and no temporary file.
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
    let again = run(&["db", "dupes", path(&dir), "--unique", "-o", target]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o600);
    let before = fs::read(&out).unwrap();
    let listing = || {
        let mut names: Vec<_> =
            fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let entries = listing();
    let folder = run(&["db", "dupes", path(&dir), "--unique", "-o", path(tmp.path())]);
    assert_eq!(folder.code, Some(2), "{}", folder.stderr);
    assert!(folder.stderr.contains("is a directory"), "{}", folder.stderr);
    assert_eq!(run(&["db", "dupes", path(&dir), "--unique"]).code, Some(2));
    assert_eq!(run(&["db", "dupes", path(&dir), "-o", target]).code, Some(2));
    // A source moved away: its kept games are written from what is
    // stored, and the file still has one game per group.
    let moved = tmp.path().join("moved.pgn");
    fs::rename(&original, &moved).unwrap();
    let elsewhere = tmp.path().join("elsewhere.pgn");
    let written = run(&["db", "dupes", path(&dir), "--unique", "-o", path(&elsewhere)]);
    fs::rename(&moved, &original).unwrap();
    assert_eq!(written.code, Some(0), "{}", written.stderr);
    let count = |run: &crate::util::Run| {
        let line = run.stdout.lines().find(|l| l.starts_with("wrote ")).unwrap().to_owned();
        line.split(' ').nth(1).unwrap().to_owned()
    };
    assert_eq!(
        count(&written),
        count(&run(&["db", "dupes", path(&dir), "--unique", "-o", target]))
    );
    assert_ne!(fs::read(&elsewhere).unwrap(), before, "the moved games are written anew");
    let left = run(&["dupes", "--format", "jsonl", path(&elsewhere)]);
    assert_eq!((left.code, left.stdout.as_str()), (Some(0), ""), "{}", left.stderr);
    fs::remove_file(&elsewhere).unwrap();
    // A damaged shard: an error, and the file is as it was.
    fs::write(dir.join("games/part-000002.parquet"), b"not parquet").unwrap();
    let failed = run(&["db", "dupes", path(&dir), "--unique", "-o", target]);
    assert_eq!(failed.code, Some(2), "{}", failed.stderr);
    assert!(!failed.stderr.contains("panicked"), "{}", failed.stderr);
    assert_eq!(fs::read(&out).unwrap(), before);
    assert_eq!(listing(), entries, "no temporary file left");
}
