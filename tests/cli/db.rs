//! `arbiter db` (issue 23): a database built from the fixtures holds every
//! game with the record `games` prints; building again changes nothing and
//! new inputs become new shards; `db stats` equals `stats`; `db search`
//! selects what `filter` selects; `db export` gives back every game, byte
//! for byte while the sources are there, and the same games from the
//! stored moves when they are not; a damaged file of any kind is an
//! error, never a panic; `key` prints the key the files store. DuckDB's
//! reading of the files is checked by `scripts/duckdb_load.py`.

use std::{fs, path::Path};

use serde_json::Value;

use crate::util::{fixture, parse_jsonl, run};

/// The inputs most tests build from: the sample, variants, and broken
/// games of many kinds.
fn inputs() -> Vec<String> {
    let mut files = vec![fixture("sample.pgn"), fixture("variants/lichess.pgn")];
    files.extend(
        [
            "bad_fen.pgn",
            "duplicated_tags.pgn",
            "repeated_tags.pgn",
            "latin1_tags.pgn",
            "move_after_result.pgn",
            "no_moves.pgn",
            "null_move.pgn",
            "truncated_last_game.pgn",
            "unterminated_comment.pgn",
        ]
        .map(|name| fixture(&format!("bad-input/{name}"))),
    );
    files.push(fixture("select/predicates.pgn"));
    files
}

fn path(dir: &Path) -> &str {
    dir.to_str().expect("UTF-8 temporary path")
}

/// `arbiter db build -q FILES -o DIR EXTRA...`, which must succeed.
fn build(files: &[String], dir: &Path, extra: &[&str]) {
    let mut args = vec!["db", "build", "-q", "-o", path(dir)];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    let run = run(&args);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The JSON Lines records of `arbiter ARGS... --format jsonl`.
fn jsonl(args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.extend(["--format", "jsonl"]);
    let run = run(&args);
    assert!(matches!(run.code, Some(0 | 1)), "{args:?}: {}", run.stderr);
    parse_jsonl(&run.stdout)
}

#[test]
fn every_game_is_a_row_with_the_record_games_prints() {
    let files = inputs();
    let dir = tempfile::tempdir().unwrap();
    build(&files, dir.path(), &[]);
    let mut args = vec!["games", "-q"];
    args.extend(files.iter().map(String::as_str));
    let expected = jsonl(&args);
    assert!(expected.len() > 30);
    let stored = jsonl(&["db", "search", path(dir.path())]);
    assert_eq!(stored.len(), expected.len());
    for (stored, expected) in stored.iter().zip(&expected) {
        assert_eq!(stored, expected);
    }
    let manifest = manifest(dir.path());
    assert_eq!(manifest["format"], "arbiter-db");
    assert_eq!(manifest["games"], expected.len());
    assert_eq!(manifest["sources"].as_array().unwrap().len(), files.len());
    let info = run(&["db", "info", path(dir.path())]);
    assert_eq!(info.code, Some(0));
    assert!(info.stdout.contains(&format!("games:    {}", expected.len())), "{}", info.stdout);
}

/// Every file of `dir` with a hash of its bytes, by name.
fn snapshot(dir: &Path) -> Vec<(String, u64)> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut files = Vec::new();
    for sub in ["", "games", "stats"] {
        for entry in fs::read_dir(dir.join(sub)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_file() {
                let name = format!("{sub}/{}", entry.file_name().to_string_lossy());
                let mut hasher = DefaultHasher::new();
                fs::read(entry.path()).unwrap().hash(&mut hasher);
                files.push((name, hasher.finish()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn building_again_changes_nothing_and_new_inputs_become_new_shards() {
    let files = inputs();
    let dir = tempfile::tempdir().unwrap();
    build(&files[..3], dir.path(), &[]);
    let before = snapshot(dir.path());
    build(&files[..3], dir.path(), &[]);
    assert_eq!(snapshot(dir.path()), before, "the same inputs again change nothing");
    // The same content under another name is the same source.
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy.pgn");
    fs::copy(&files[0], &copy).unwrap();
    build(&[copy.to_str().unwrap().to_owned()], dir.path(), &[]);
    assert_eq!(snapshot(dir.path()), before);
    build(&files, dir.path(), &["--shard-games", "10"]);
    let after = snapshot(dir.path());
    for file in before.iter().filter(|(name, _)| name != "/manifest.json") {
        assert!(after.contains(file), "{} was rewritten", file.0);
    }
    let manifest = manifest(dir.path());
    let shards = manifest["shards"].as_array().unwrap();
    assert!(shards.len() > 3, "shards of 10 games");
    assert!(shards.iter().skip(1).all(|s| s["rows"].as_u64().unwrap() <= 10));
    let mut args = vec!["games", "-q", "--format", "jsonl"];
    args.extend(files.iter().map(String::as_str));
    let run_games = run(&args);
    assert_eq!(manifest["games"], parse_jsonl(&run_games.stdout).len());
}

#[test]
fn db_stats_equals_stats_on_the_same_input() {
    let files = inputs();
    let dir = tempfile::tempdir().unwrap();
    build(&files, dir.path(), &["--shard-games", "7"]);
    let mut args = vec!["stats", "-q", "--json", "--top", "100"];
    args.extend(files.iter().map(String::as_str));
    let expected = run(&args);
    assert_eq!(expected.code, Some(0), "{}", expected.stderr);
    let stored = run(&["db", "stats", path(dir.path()), "--json", "--top", "100"]);
    assert_eq!(stored.code, Some(0), "{}", stored.stderr);
    assert_eq!(stored.stdout, expected.stdout);
    // And the tables.
    let table = run(&["db", "stats", path(dir.path())]);
    let mut args = vec!["stats", "-q"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(table.stdout, run(&args).stdout);
}

#[test]
fn search_selects_what_filter_selects() {
    let files = inputs();
    let dir = tempfile::tempdir().unwrap();
    build(&files, dir.path(), &[]);
    // Many row groups in many shards: decided in parallel, handed over in
    // order.
    let small = tempfile::tempdir().unwrap();
    build(&files, small.path(), &["--row-group", "4", "--shard-games", "13"]);
    let najdorf = "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3";
    let open_game = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let cases: &[&[&str]] = &[
        &["--result", "1-0"],
        &["--player", "carlsen"],
        &["--invalid"],
        &["--valid", "--plies", "20.."],
        &["--error", "any"],
        &["--code", "W128"],
        &["--code", "E112"],
        &["--variant", "atomic"],
        &["--elo", "2500.."],
        &["--date", "2023"],
        &["--moves", "1. e4 c5"],
        &["--fen", najdorf],
        &["--fen", najdorf, "--ply", "4"],
        &["--fen", open_game, "--fen", najdorf],
        &["--material", "!KvK", "--result", "1-0"],
        &["--placement", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"],
        &["--material", "KRvK"],
        &["--material", "KQvK"],
        &["--material", "KRPvKR"],
        &["--material", "KRvKR", "--material-strict"],
        &["--material", "KPvK", "--valid"],
        &["--final-material", "KQvK"],
        &["--final-material", "KvK", "--material", "KQvK"],
        &["--ending", "checkmate"],
        &["--tag", "Site~lichess"],
        &["--eco", "B90..B99", "--result", "!1-0"],
    ];
    for predicates in cases {
        let mut args = vec!["filter", "-q"];
        args.extend(files.iter().map(String::as_str));
        args.extend_from_slice(predicates);
        let expected = jsonl(&args);
        let ids = |records: &[Value]| -> Vec<(String, u64)> {
            records
                .iter()
                .map(|r| (r["file"].as_str().unwrap().to_owned(), r["index"].as_u64().unwrap()))
                .collect()
        };
        // One thread and one row group a shard too, for a few.
        let mut runs = vec![(small.path(), "0")];
        if predicates.iter().any(|p| ["--fen", "--material", "--player"].contains(p)) {
            runs.extend([(small.path(), "1"), (dir.path(), "0")]);
        }
        for (dir, jobs) in runs {
            let mut args = vec!["db", "search", path(dir), "-j", jobs];
            args.extend_from_slice(predicates);
            let stored = jsonl(&args);
            assert_eq!(ids(&stored), ids(&expected), "{predicates:?} in {}", dir.display());
            // The records, whole.
            assert_eq!(stored, expected, "{predicates:?}");
        }
        let mut args = vec!["db", "search", path(small.path()), "--count"];
        args.extend_from_slice(predicates);
        let count = run(&args);
        assert_eq!(count.stdout.trim(), expected.len().to_string(), "{predicates:?}");
        assert_eq!(count.code, Some(if expected.is_empty() { 1 } else { 0 }));
    }
    // Games for the material and position cases, so that they test
    // something.
    let count = |predicates: &[&str]| {
        let mut args = vec!["db", "search", path(dir.path()), "--count"];
        args.extend_from_slice(predicates);
        run(&args).stdout.trim().parse::<usize>().unwrap()
    };
    assert!(count(&["--material", "KQvK"]) > 0);
    assert!(count(&["--fen", open_game]) > 0);
    // --limit stops in order.
    let all = jsonl(&["db", "search", path(small.path()), "--valid"]);
    let first = jsonl(&["db", "search", path(small.path()), "--valid", "--limit", "5"]);
    assert_eq!(first, all[..5]);
    // --count with --limit counts what would be written, as `filter` does,
    // with or without predicates.
    let db = path(small.path());
    for (predicates, limit) in [(&["--valid"][..], "5"), (&[], "5"), (&[], "0")] {
        let mut args = vec!["db", "search", db, "--count", "--limit", limit];
        args.extend_from_slice(predicates);
        let counted = run(&args);
        let mut args = vec!["filter", "-q", "--count", "--limit", limit];
        args.extend_from_slice(predicates);
        args.extend(files.iter().map(String::as_str));
        let filtered = run(&args);
        assert_eq!(counted.stdout, filtered.stdout, "{predicates:?} --limit {limit}");
        assert_eq!(counted.code, filtered.code, "{predicates:?} --limit {limit}");
    }
}

#[test]
fn export_gives_back_every_game() {
    let work = tempfile::tempdir().unwrap();
    // Copies, so that they can be taken away; one in two compressed,
    // whose games are read back by decompressing it in order.
    let files: Vec<(String, Vec<u8>)> = inputs()
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let text = fs::read(file).unwrap();
            let copy = if i % 2 == 1 {
                let copy = work.path().join(format!("{i:02}.pgn.zst"));
                fs::write(&copy, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
                copy
            } else {
                let copy = work.path().join(format!("{i:02}.pgn"));
                fs::write(&copy, &text).unwrap();
                copy
            };
            (copy.to_str().unwrap().to_owned(), text)
        })
        .collect();
    assert!(files.iter().filter(|(file, _)| file.ends_with(".zst")).count() >= 3);
    // Bytes before a file's first game (a byte order mark, `%` lines),
    // which `filter` writes with that game: plain and compressed.
    let mut files = files;
    let preamble =
        b"\xef\xbb\xbf% an escape line\n[Event \"first\"]\n\n1. e4 *\n\n[Event \"second\"]\n\n*\n";
    for (name, bytes) in [
        ("preamble.pgn", preamble.to_vec()),
        ("preamble.pgn.zst", zstd::encode_all(&preamble[..], 3).unwrap()),
    ] {
        let file = work.path().join(name);
        fs::write(&file, bytes).unwrap();
        files.push((file.to_str().unwrap().to_owned(), preamble.to_vec()));
    }
    let dir = work.path().join("db");
    let names: Vec<String> = files.iter().map(|(file, _)| file.clone()).collect();
    build(&names, &dir, &[]);
    let originals = work.path().join("originals.pgn");
    let export = |out: &Path| {
        let run = run(&["db", "export", "-q", path(&dir), "-o", path(out)]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    };
    export(&originals);
    // Byte for byte: each file's games as `filter` writes them, the bytes
    // before its first game with it (a byte order mark only at the start
    // of the output).
    let text = fs::read(&originals).unwrap();
    for (file, source) in &files {
        let source = source.strip_prefix(b"\xef\xbb\xbf").unwrap_or(source);
        let found = text.windows(source.len().max(1)).any(|w| w == source);
        assert!(found, "{file}'s games are not in the export byte for byte");
    }
    let mut args = vec!["filter", "-q"];
    args.extend(names.iter().map(String::as_str));
    assert!(run(&args).stdout_bytes == text, "db export differs from filter");
    // Not into the database's own files.
    let manifest_before = fs::read(dir.join("manifest.json")).unwrap();
    for inside in [dir.join("manifest.json"), dir.join("games").join("x.pgn")] {
        let refused = run(&["db", "export", "-q", path(&dir), "-o", path(&inside)]);
        assert_eq!(refused.code, Some(2), "{}", refused.stderr);
        assert!(refused.stderr.contains("inside the database"), "{}", refused.stderr);
    }
    assert_eq!(fs::read(dir.join("manifest.json")).unwrap(), manifest_before);
    assert!(!dir.join("games").join("x.pgn").exists());
    // `db search --format pgn` writes the same bytes.
    let searched = run(&["db", "search", path(&dir), "--format", "pgn"]);
    assert!(searched.stdout_bytes == text, "db search --format pgn differs from db export");
    // `--limit N`: the first N games of it; none for 0.
    let first = |n: &str| run(&["db", "search", path(&dir), "--format", "pgn", "--limit", n]);
    assert!(first("0").stdout_bytes.is_empty(), "--limit 0 wrote games");
    let three = first("3").stdout_bytes;
    assert!(text.starts_with(&three) && !three.is_empty(), "--limit 3 is not the export's start");
    assert_eq!(String::from_utf8_lossy(&three).matches("[Event ").count(), 3);
    // From the stored moves, once the sources are gone.
    for (file, _) in &files {
        fs::remove_file(file).unwrap();
    }
    let written = work.path().join("written.pgn");
    export(&written);
    let finals = |pgn: &Path| -> Vec<(String, u64)> {
        jsonl(&["games", "-q", path(pgn)])
            .iter()
            .map(|r| (r["final_fen"].as_str().unwrap().to_owned(), r["plies"].as_u64().unwrap()))
            .collect()
    };
    let expected = finals(&originals);
    assert_eq!(finals(&written), expected, "the same games, to the same final positions");
    assert!(expected.len() > 30);
    // A game whose tags repeat a name (which `tags`, a map, holds once)
    // comes back as its own bytes, every value with it: a name repeated
    // past its column (`White` twice, `Round` twice), three times, or
    // without a column (`Annotator`).
    let written = fs::read_to_string(&written).unwrap();
    for name in ["duplicated_tags.pgn", "repeated_tags.pgn"] {
        let repeated = fs::read_to_string(fixture(&format!("bad-input/{name}"))).unwrap();
        let game = &repeated[..repeated.find("\n\n[Event").unwrap() + 2];
        assert!(written.contains(game), "{name}: the game is not written as it was");
    }
}

#[test]
fn export_writes_each_game_whose_source_is_gone_from_its_own_row() {
    // `db export` reads a game's place first and its whole row only when
    // its source is gone: a gone source's games past the first batch of
    // rows (4096), between present ones, must come from their own rows.
    let work = tempfile::tempdir().unwrap();
    let lines = ["1. e4 e5 2. Nf3 Nc6 *", "1. d4 d5 2. c4 e6 3. Nc3 *", "1. c4 *", "*"];
    let mut many = String::new();
    for i in 0..4500 {
        many.push_str(&format!("[Event \"g{i}\"]\n\n{}\n\n", lines[i % lines.len()]));
    }
    let files = [
        ("many.pgn", many.into_bytes()),
        ("gone.pgn", fs::read(fixture("select/predicates.pgn")).unwrap()),
        ("after.pgn", fs::read(fixture("variants/lichess.pgn")).unwrap()),
    ];
    let names: Vec<String> = files
        .iter()
        .map(|(name, text)| {
            let file = work.path().join(name);
            fs::write(&file, text).unwrap();
            file.to_str().unwrap().to_owned()
        })
        .collect();
    let games = |pgn: &Path| -> Vec<(String, String, u64)> {
        jsonl(&["games", "-q", path(pgn)])
            .iter()
            .map(|r| {
                let text = |key: &str| r[key].as_str().unwrap_or_default().to_owned();
                (text("event"), text("final_fen"), r["plies"].as_u64().unwrap())
            })
            .collect()
    };
    // One shard of one row group; then shards and row groups smaller than
    // a batch, so that a batch's rows span several row groups.
    let layouts: [&[&str]; 2] = [&[], &["--shard-games", "3000", "--row-group", "700"]];
    for (n, layout) in layouts.into_iter().enumerate() {
        fs::write(&names[1], &files[1].1).unwrap();
        let dir = work.path().join(format!("db{n}"));
        build(&names, &dir, layout);
        let export = |out: &str| {
            let out = work.path().join(out);
            let run = run(&["db", "export", "-q", path(&dir), "-o", path(&out)]);
            assert_eq!(run.code, Some(0), "{}", run.stderr);
            out
        };
        let whole = export("whole.pgn");
        fs::remove_file(&names[1]).unwrap();
        let part = export("part.pgn");
        let expected = games(&whole);
        assert_eq!(expected.len(), 4513, "{layout:?}");
        assert_eq!(games(&part), expected, "{layout:?}: the same games, in order");
        // The present sources' games are their own bytes, the gone one's
        // not.
        let text = fs::read(&part).unwrap();
        for (name, source) in [&files[0], &files[2]] {
            let found = text.windows(source.len()).any(|w| w == &source[..]);
            assert!(found, "{layout:?}: {name}'s games are not in the export byte for byte");
        }
        let gone = &files[1].1;
        let read = text.windows(gone.len()).any(|w| w == &gone[..]);
        assert!(!read, "{layout:?}: gone.pgn was read");
    }
}

#[test]
fn a_game_too_large_is_exported_whole_from_its_source_and_never_cut_short() {
    // A game too large, whose first 16 MiB only the database holds (from a
    // plain file as from a stream), and which only its source can give
    // back whole: 17 MiB of comment between two small games; and a file's
    // first game, after a byte order mark and `%` lines, 10 bytes past
    // 16 MiB with them (its stored text holds them).
    let work = tempfile::tempdir().unwrap();
    let line = [b"x".repeat(999), b"\n".to_vec()].concat();
    let huge = |size: usize| {
        let mut game = b"[Event \"huge\"]\n\n1. e4 {".to_vec();
        let end = b"} e5 *\n\n";
        while game.len() + end.len() < size {
            let room = size - game.len() - end.len();
            game.extend_from_slice(&line[line.len().saturating_sub(room)..]);
        }
        game.extend_from_slice(end);
        game
    };
    let after = b"[Event \"after\"]\n\n1. d4 d5 *\n";
    let between = [&b"[Event \"before\"]\n\n1. e4 e5 *\n\n"[..], &huge(17 << 20), after].concat();
    let lead = [&b"\xef\xbb\xbf"[..], &b"% x\n".repeat(24)].concat();
    let first = [&lead[..], &huge((16 << 20) + 10 - lead.len()), after].concat();
    let events = |pgn: &Path| -> Vec<String> {
        let records = jsonl(&["games", "-q", path(pgn)]);
        records.iter().map(|r| r["event"].as_str().unwrap_or_default().to_owned()).collect()
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let inputs = [
        ("between.pgn", between.clone(), 2),
        ("between.pgn.zst", zstd::encode_all(&between[..], 1).unwrap(), 2),
        ("first.pgn", first, 1),
    ];
    for (name, bytes, n) in inputs {
        let source = work.path().join(name);
        fs::write(&source, &bytes).unwrap();
        let dir = work.path().join(format!("{name}.db"));
        build(&[path(&source).to_owned()], &dir, &[]);
        let out = work.path().join("out.pgn");
        let export = || run(&["db", "export", "-q", path(&dir), "-o", path(&out)]);
        let whole = export();
        assert_eq!(whole.code, Some(0), "{name}: {}", whole.stderr);
        let text = fs::read(&out).unwrap();
        let expected = if name.ends_with(".zst") { &between } else { &bytes };
        assert!(text.starts_with(&expected[..expected.len() - 1]), "{name}");
        let all = events(&out);
        assert!(all.contains(&"huge".to_owned()) && all.len() == n + 1, "{name}: {all:?}");
        if !name.ends_with(".zst") {
            // `db find` checks each game it reads from its source.
            let found = run(&["db", "find", path(&dir), "--fen", start, "--format", "pgn"]);
            assert_eq!(found.code, Some(0), "{name}: {}", found.stderr);
            assert!(found.stdout.contains("[Event \"huge\"]"), "{name}");
        }
        // The source gone: the part stored is not written (its open
        // comment would swallow the game after it), and the status says so.
        fs::remove_file(&source).unwrap();
        let gone = export();
        assert_eq!(gone.code, Some(2), "{name}: {}", gone.stderr);
        let why = format!(": game {n} (line ");
        let said =
            gone.stderr.contains(&why) && gone.stderr.contains("only the first 16 MiB of its");
        assert!(said && gone.stderr.contains("not written"), "{name}: {}", gone.stderr);
        let left: Vec<String> = all.into_iter().filter(|e| e != "huge").collect();
        assert_eq!(events(&out), left, "{name}");
        let search = run(&["db", "search", path(&dir), "--format", "pgn"]);
        assert_eq!(search.code, Some(2), "{name}: {}", search.stderr);
        assert!(search.stderr.contains(&why), "{}", search.stderr);
    }
}

#[test]
fn games_of_megabytes_stored_whole_keep_the_builds_memory_bounded() {
    // 256 games of 1 MiB each, every one with an illegal move and so
    // stored with its text: a batch of them was held whole, 256 MiB, and
    // its row group until complete, then read back whole. Batches and row
    // groups are now cut by bytes too.
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("big.pgn");
    let line = [b"y".repeat(999), b"\n".to_vec()].concat();
    let mut pgn = Vec::with_capacity(257 << 20);
    for i in 0..256 {
        pgn.extend_from_slice(format!("[Event \"big {i}\"]\n\n1. e4 {{").as_bytes());
        for _ in 0..1024 {
            pgn.extend_from_slice(&line);
        }
        pgn.extend_from_slice(b"} e5 2. Ke3 *\n\n");
    }
    fs::write(&file, &pgn).unwrap();
    drop(pgn);
    let dir = work.path().join("db");
    let args = ["db", "build", "-q", path(&file), "-o", path(&dir)];
    let Some((_, peak_kib)) = crate::util::peak_memory(&args) else {
        return;
    };
    assert!(manifest(&dir)["shards"].as_array().is_some_and(|s| s.len() == 1));
    assert!(peak_kib < 160 * 1024, "{peak_kib} KiB peak for 256 MiB of games");
    let count = run(&["db", "search", "--count", path(&dir)]);
    assert_eq!(count.stdout.trim(), "256", "{}", count.stderr);
    let out = work.path().join("out.pgn");
    let export = run(&["db", "export", "-q", path(&dir), "-o", path(&out)]);
    assert_eq!(export.code, Some(0), "{}", export.stderr);
    let pgn = fs::read(&file).unwrap();
    assert!(fs::read(&out).unwrap() == pgn, "the export is not the input");
    // The source gone, the games come from their stored texts, a batch of
    // rows at a time: row groups hold 64 MiB of texts at most.
    fs::remove_file(&file).unwrap();
    let args = ["db", "export", "-q", path(&dir), "-o", path(&out)];
    let (_, peak_kib) = crate::util::peak_memory(&args).unwrap();
    assert!(peak_kib < 160 * 1024, "{peak_kib} KiB peak to export 256 MiB of stored games");
    assert!(fs::read(&out).unwrap() == pgn, "the export from the stored texts is not the input");
}

#[test]
fn an_empty_input_makes_an_empty_database() {
    let dir = tempfile::tempdir().unwrap();
    build(&[fixture("bad-input/empty.pgn")], dir.path(), &[]);
    assert_eq!(manifest(dir.path())["games"], 0);
    let count = run(&["db", "search", path(dir.path()), "--count"]);
    assert_eq!((count.code, count.stdout.trim()), (Some(1), "0"));
    let stats = run(&["db", "stats", path(dir.path()), "--json"]);
    assert_eq!(stats.code, Some(0), "{}", stats.stderr);
}

#[test]
fn build_predicates_store_only_the_games_that_match() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("select/predicates.pgn");
    build(std::slice::from_ref(&file), dir.path(), &["--player", "carlsen"]);
    let stored = jsonl(&["db", "search", path(dir.path())]);
    let expected = jsonl(&["filter", "-q", &file, "--player", "carlsen"]);
    assert_eq!(stored, expected);
    let manifest = manifest(dir.path());
    assert_eq!(manifest["sources"][0]["games"], expected.len());
    // The predicates are recorded with the source.
    assert_eq!(manifest["sources"][0]["predicates"], serde_json::json!(["--player=carlsen"]));
    // Given again without them, it is skipped, and the note says which
    // of its games the database holds.
    let again = run(&["db", "build", &file, "-o", path(dir.path())]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(again.stderr.contains("its games that match --player=carlsen"), "{}", again.stderr);
    let all = tempfile::tempdir().unwrap();
    build(std::slice::from_ref(&file), all.path(), &[]);
    assert!(self::manifest(all.path())["sources"][0].get("predicates").is_none());
}

#[test]
fn leftovers_of_a_run_that_died_are_removed_and_never_read() {
    let dir = tempfile::tempdir().unwrap();
    build(&[fixture("sample.pgn")], dir.path(), &[]);
    let games = manifest(dir.path())["games"].clone();
    fs::write(dir.path().join("games/part-000009.parquet"), b"half a shard").unwrap();
    let count = run(&["db", "search", path(dir.path()), "--count"]);
    assert_eq!(count.stdout.trim(), games.to_string(), "only the manifest's shards are read");
    build(&[fixture("variants/lichess.pgn")], dir.path(), &[]);
    assert!(!dir.path().join("games/part-000009.parquet").exists());
}

#[test]
fn one_build_at_a_time_writes_a_database() {
    // Two at once each swept the other's new shards and the last manifest
    // dropped the other's source. While one holds the directory, another
    // is refused, and changes nothing.
    let dir = tempfile::tempdir().unwrap();
    build(&[fixture("sample.pgn")], dir.path(), &[]);
    let before = snapshot(dir.path());
    let held = fs::File::open(dir.path()).unwrap();
    held.try_lock().unwrap();
    let second =
        run(&["db", "build", "-q", &fixture("variants/lichess.pgn"), "-o", path(dir.path())]);
    assert_eq!(second.code, Some(2), "{}", second.stderr);
    assert!(second.stderr.contains("another `arbiter db build` is writing"), "{}", second.stderr);
    assert_eq!(snapshot(dir.path()), before);
    drop(held);
    build(&[fixture("variants/lichess.pgn")], dir.path(), &[]);
    assert_eq!(manifest(dir.path())["sources"].as_array().unwrap().len(), 2);
}

/// A signal in the middle of `db build` leaves the database as it was:
/// the shards it had finished, which no manifest lists, are removed with
/// its temporary files (they were left for the next build to sweep, and
/// `FROM 'DIR/games/*.parquet'` counted their games meanwhile).
#[test]
fn a_build_interrupted_leaves_the_database_as_it_was() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    build(&[fixture("variants/lichess.pgn")], &db, &[]);
    let before = snapshot(&db);
    // Many small shards: the first ones are done long before the last.
    let input = dir.path().join("many.pgn");
    fs::write(&input, fs::read(fixture("sample.pgn")).unwrap().repeat(100)).unwrap();
    for (name, number) in [("INT", 2), ("TERM", 15)] {
        let args = ["db", "build", "-q", "--positions", "--tree", "--shard-games", "500"];
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args.extend([input.as_os_str(), "-o".as_ref(), db.as_os_str()]);
        let mut child = crate::util::spawn_silent(&args);
        let started = Instant::now();
        while fs::read_dir(db.join("stats")).unwrap().count() < 3 {
            assert!(child.try_wait().unwrap().is_none(), "SIG{name}: ended before two shards");
            assert!(started.elapsed() < Duration::from_secs(60), "SIG{name}: no shard written");
            std::thread::sleep(Duration::from_millis(5));
        }
        crate::util::interrupt(child, name, number);
        assert_eq!(snapshot(&db), before, "SIG{name}");
        for sub in ["games", "stats", "positions", "tree"] {
            let left: Vec<_> =
                fs::read_dir(db.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
            let listed = sub == "games" || sub == "stats";
            assert_eq!(left.len(), usize::from(listed), "SIG{name}: {left:?}");
        }
    }
}

#[test]
fn bad_uses_and_corrupt_databases_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let stdin = run(&["db", "build", "-q", "-", "-o", path(dir.path())]);
    assert_eq!(stdin.code, Some(2));
    assert!(stdin.stderr.contains("standard input"), "{}", stdin.stderr);
    let none = run(&["db", "info", path(dir.path())]);
    assert_eq!(none.code, Some(2));
    assert!(none.stderr.contains("not an arbiter database"), "{}", none.stderr);
    // A PGN file or a missing path for the database: said as such.
    let file = run(&["db", "info", &fixture("sample.pgn")]);
    assert_eq!(file.code, Some(2));
    assert!(file.stderr.contains("a file, not a database"), "{}", file.stderr);
    let missing = dir.path().join("nowhere");
    let missing = run(&["db", "search", path(&missing), "--count"]);
    assert_eq!(missing.code, Some(2));
    assert!(missing.stderr.contains("no such database"), "{}", missing.stderr);
    // A directory of other files is not made a database.
    let foreign = tempfile::tempdir().unwrap();
    fs::write(foreign.path().join("notes.txt"), b"mine").unwrap();
    fs::create_dir(foreign.path().join("games")).unwrap();
    let refused = run(&["db", "build", "-q", &fixture("sample.pgn"), "-o", path(foreign.path())]);
    assert_eq!(refused.code, Some(2));
    assert!(refused.stderr.contains("not empty (holds notes.txt)"), "{}", refused.stderr);
    let mut left: Vec<_> =
        fs::read_dir(foreign.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["games", "notes.txt"], "nothing written");
    // Standard input is refused, before anything is made.
    let stdin = foreign.path().join("from-stdin");
    let refused = run(&["db", "build", "-q", "-", "-o", path(&stdin)]);
    assert_eq!(refused.code, Some(2));
    assert!(refused.stderr.contains("not standard input"), "{}", refused.stderr);
    assert!(!stdin.exists(), "a directory made for a refused build");
    // Its own directories (a first build that died) are no obstacle, nor
    // what a file system puts in any directory.
    fs::remove_file(foreign.path().join("notes.txt")).unwrap();
    fs::create_dir(foreign.path().join("lost+found")).unwrap();
    build(&[fixture("sample.pgn")], foreign.path(), &[]);
    build(&[fixture("sample.pgn")], dir.path(), &[]);
    // A database of the older format (each ply's byte an index among all
    // the pieces' candidates): refused, saying how to get one this arbiter
    // reads.
    let manifest = dir.path().join("manifest.json");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, text.replace("\"version\": 4,", "\"version\": 3,")).unwrap();
    let old = run(&["db", "search", path(dir.path()), "--count"]);
    assert_eq!(old.code, Some(2));
    assert!(old.stderr.contains("version 3") && old.stderr.contains("db build"), "{}", old.stderr);
    fs::write(&manifest, text).unwrap();
    let shard = dir.path().join("games/part-000001.parquet");
    let mut bytes = fs::read(&shard).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle..middle + 64].fill(0xa5);
    fs::write(&shard, &bytes).unwrap();
    for args in [&["db", "search"][..], &["db", "search", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"]]
    {
        let mut args = args.to_vec();
        args.insert(2, path(dir.path()));
        let run = run(&args);
        assert!(matches!(run.code, Some(1 | 2)), "{args:?}: {:?}", run.code);
    }
    fs::write(&shard, b"PAR1 not parquet").unwrap();
    let run = run(&["db", "search", path(dir.path())]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("part-000001.parquet"), "{}", run.stderr);
}

#[test]
fn damaged_files_of_every_kind_are_errors_never_panics() {
    // Bytes overwritten all along each kind of file (pages, then the
    // footer and its length): every command that reads it ends with a
    // status, never a panic, a signal or a hang.
    let work = tempfile::tempdir().unwrap();
    let base = work.path().join("base");
    build(&[fixture("sample.pgn")], &base, &["--positions", "--tree=1"]);
    // A database whose source is gone: `db export` reads every row.
    let orphan = work.path().join("orphan");
    let gone = work.path().join("gone.pgn");
    fs::copy(fixture("sample.pgn"), &gone).unwrap();
    build(&[path(&gone).to_owned()], &orphan, &[]);
    fs::remove_file(&gone).unwrap();
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let out = work.path().join("out.pgn");
    let kinds: [(&Path, &str, &[&[&str]]); 4] = [
        (
            &base,
            "games/part-000001.parquet",
            &[
                &["db", "search", "D", "--material", "KRvK"],
                // Every game: by place, each row read in full only where
                // its source cannot serve it; with a predicate, every row.
                &["db", "export", "D", "-o", path(&out)],
                &["db", "export", "D", "--valid", "-o", path(&out)],
            ],
        ),
        (&orphan, "games/part-000001.parquet", &[&["db", "export", "D", "-o", path(&out)]]),
        (
            &base,
            "positions/part-000001-001.parquet",
            &[&["db", "find", "D", "--fen", e4, "--count"]],
        ),
        (&base, "tree/part-000001.parquet", &[&["db", "tree", "D", "--fen", e4]]),
    ];
    let damaged = work.path().join("damaged");
    let (mut runs, mut refused) = (0, 0);
    for (base, file, commands) in kinds {
        let bytes = fs::read(base.join(file)).unwrap();
        let len = bytes.len();
        let mut places: Vec<usize> = (1..12).map(|i| i * len / 12).collect();
        places.extend([len - 8, len - 6, len - 40, len - 200]);
        for place in places {
            let _ = fs::remove_dir_all(&damaged);
            for dir in ["games", "positions", "tree", "stats"] {
                fs::create_dir_all(damaged.join(dir)).unwrap();
            }
            for entry in walk(base) {
                let relative = entry.strip_prefix(base).unwrap();
                fs::copy(&entry, damaged.join(relative)).unwrap();
            }
            let mut bad = bytes.clone();
            for (i, byte) in bad[place..(place + 16).min(len)].iter_mut().enumerate() {
                *byte ^= 0x5a ^ i as u8;
            }
            fs::write(damaged.join(file), &bad).unwrap();
            for command in commands {
                let args: Vec<&str> =
                    command.iter().map(|&a| if a == "D" { path(&damaged) } else { a }).collect();
                let result = run(&args);
                assert!(
                    matches!(result.code, Some(0..=2)) && !result.stderr.contains("panicked"),
                    "{file} damaged at {place} of {len}: {args:?} ended {:?}: {}",
                    result.code,
                    result.stderr
                );
                runs += 1;
                if result.code == Some(2) {
                    refused += 1;
                    // Said of the damaged file, whichever path read it,
                    // or of the game whose stored moves it damaged.
                    let name = Path::new(file).file_name().unwrap().to_str().unwrap();
                    assert!(
                        result.stderr.contains(name)
                            || result.stderr.contains("of its moves column does not decode"),
                        "{args:?} does not name {name}: {}",
                        result.stderr
                    );
                }
            }
        }
    }
    assert_eq!(runs, 15 * 6);
    // The damage is seen, not read past: most runs say the file is bad.
    // (Not all: `db export` of every game reads only where each game is
    // while its source is there, and writes the right bytes past damage
    // to the other columns.)
    assert!(refused > runs / 2, "{refused} of {runs} runs refused a damaged file");
}

/// `db info` reads each Parquet file's footer: a file cut short, or one
/// whose rows are not those the manifest says, is damage it reports (exit
/// 2), naming the file; it listed them as present.
#[test]
fn info_checks_each_file_against_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    build(&[fixture("sample.pgn")], dir.path(), &["--positions", "--tree"]);
    let info = || run(&["db", "info", path(dir.path())]);
    assert_eq!(info().code, Some(0), "{}", info().stderr);
    for file in [
        "games/part-000001.parquet",
        "positions/part-000001-001.parquet",
        "tree/part-000001.parquet",
    ] {
        let target = dir.path().join(file);
        let bytes = fs::read(&target).unwrap();
        fs::write(&target, &bytes[..bytes.len() / 2]).unwrap();
        let cut = info();
        assert_eq!(cut.code, Some(2), "{file}: {}", cut.stderr);
        assert!(cut.stderr.contains(&format!("{file}: unreadable")), "{}", cut.stderr);
        fs::write(&target, &bytes).unwrap();
    }
    assert_eq!(info().code, Some(0));
    let manifest_path = dir.path().join("manifest.json");
    let text = fs::read_to_string(&manifest_path).unwrap();
    let mut edited = manifest(dir.path());
    edited["shards"][0]["rows"] = 7.into();
    edited["games"] = 7.into();
    fs::write(&manifest_path, serde_json::to_string(&edited).unwrap()).unwrap();
    let wrong = info();
    assert_eq!(wrong.code, Some(2), "{}", wrong.stderr);
    assert!(wrong.stderr.contains("holds 207 rows where the manifest says 7"), "{}", wrong.stderr);
    fs::write(&manifest_path, text).unwrap();
    assert_eq!(info().code, Some(0));
    // Another table of as many rows in the games file's place: an error
    // for `info` and the readers, never "no game".
    let games = dir.path().join("games/part-000001.parquet");
    let original = fs::read(&games).unwrap();
    let column: arrow_array::ArrayRef =
        std::sync::Arc::new(arrow_array::Int64Array::from((0..207).collect::<Vec<i64>>()));
    let table = arrow_array::RecordBatch::try_from_iter([("x", column)]).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(
        fs::File::create(&games).unwrap(),
        table.schema(),
        None,
    )
    .unwrap();
    writer.write(&table).unwrap();
    writer.close().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    for args in [
        vec!["db", "info", path(dir.path())],
        vec!["db", "find", path(dir.path()), "--fen", start],
        vec!["db", "tree", path(dir.path()), "--depth", "2"],
    ] {
        let run = run(&args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("part-000001.parquet"), "{args:?}: {}", run.stderr);
    }
    fs::write(&games, original).unwrap();
    assert_eq!(info().code, Some(0));
}

/// The files under `dir`, at any depth.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

/// The ply after which a FEN's position stands when it is reached by the
/// fewest moves (its move counters).
fn ply_of(fen: &str) -> u64 {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let fullmove: u64 = fields[5].parse().unwrap();
    2 * (fullmove - 1) + u64::from(fields[1] == "b")
}

/// The sources of a positions file's games (the high 32 bits of their
/// ids), and whether its `game_id` is DELTA_BINARY_PACKED in every row group.
fn positions_ids(file: &Path) -> (usize, bool) {
    use parquet::{
        arrow::arrow_reader::ParquetRecordBatchReaderBuilder, basic::Encoding,
        file::reader::FileReader,
    };
    let reader =
        parquet::file::reader::SerializedFileReader::new(fs::File::open(file).unwrap()).unwrap();
    let meta = reader.metadata();
    let delta = (0..meta.num_row_groups()).all(|g| {
        let chunk = meta.row_group(g).column(1);
        assert_eq!(chunk.column_path().string(), "game_id");
        chunk.encodings().any(|e| e == Encoding::DELTA_BINARY_PACKED)
    });
    let batches = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(file).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut sources = std::collections::BTreeSet::new();
    for batch in batches {
        let batch = batch.unwrap();
        let ids = batch
            .column_by_name("game_id")
            .unwrap()
            .as_any()
            .downcast_ref::<arrow_array::Int64Array>()
            .unwrap();
        sources.extend(ids.values().iter().map(|id| id >> 32));
    }
    (sources.len(), delta)
}

#[test]
fn find_answers_from_the_positions_files_what_filter_fen_finds() {
    // The variants are in: their games must not be found (their positions
    // are not chess's, though some have the same board and key).
    let files = inputs();
    let chess: Vec<String> = files.iter().filter(|f| !f.contains("variants")).cloned().collect();
    let indexed = tempfile::tempdir().unwrap();
    build(&files, indexed.path(), &["--positions=12", "--shard-games", "40"]);
    let manifest = manifest(indexed.path());
    let shards = manifest["shards"].as_array().unwrap();
    assert!(shards.iter().all(|s| !s["positions"].as_array().unwrap().is_empty()));
    // A file of one source's games packs its ids as deltas, one of several
    // plainly; shards of 40 games over these inputs have both kinds.
    let mut kinds = std::collections::BTreeSet::new();
    for file in shards.iter().flat_map(|s| s["positions"].as_array().unwrap()) {
        let (sources, delta) = positions_ids(&indexed.path().join(file.as_str().unwrap()));
        assert_eq!(delta, sources == 1, "{file}: {sources} sources");
        kinds.insert(delta);
    }
    assert_eq!(kinds.len(), 2, "files of one source and of several");
    // Row groups of 7 games: `--limit` verifies a few groups at a time.
    let plain = tempfile::tempdir().unwrap();
    build(&files, plain.path(), &["--row-group", "7"]);
    // Each is reached only after as many plies as its counters say.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ];
    let ids = |records: &[Value]| -> Vec<(String, u64)> {
        records
            .iter()
            .map(|r| (r["file"].as_str().unwrap().to_owned(), r["index"].as_u64().unwrap()))
            .collect()
    };
    let variants = fixture("variants/lichess.pgn");
    // Variant games (at their start, chess's board) are no chess position.
    let placement = fens[0].split(' ').next().unwrap();
    assert!(!jsonl(&["filter", "-q", "--placement", placement, &variants]).is_empty());
    assert!(jsonl(&["filter", "-q", "--fen", fens[0], &variants]).is_empty());
    for fen in fens {
        let mut args = vec!["filter", "-q", "--fen", fen];
        args.extend(chess.iter().map(String::as_str));
        // Chess and Chess960 games only (predicates.pgn has an atomic one).
        let chess_games = jsonl(&args);
        for record in &chess_games {
            assert!(["chess", "chess960"].contains(&record["variant"].as_str().unwrap()));
        }
        let expected = ids(&chess_games);
        assert!(!expected.is_empty(), "{fen}");
        for dir in [indexed.path(), plain.path()] {
            let records = jsonl(&["db", "find", path(dir), "--fen", fen]);
            assert_eq!(ids(&records), expected, "{fen} in {}", dir.display());
            for record in &records {
                assert_eq!(record["ply"].as_u64(), Some(ply_of(fen)), "{record}");
            }
        }
        let count = run(&["db", "find", path(indexed.path()), "--fen", fen, "--count"]);
        assert_eq!(count.stdout.trim(), expected.len().to_string());
        // PGN by default: the games themselves.
        let pgn = run(&["db", "find", path(indexed.path()), "--fen", fen]);
        assert_eq!(pgn.code, Some(0), "{}", pgn.stderr);
        assert_eq!(pgn.stdout.matches("[Event ").count(), expected.len(), "{fen}");
        let csv = run(&["db", "find", path(indexed.path()), "--fen", fen, "--format", "csv"]);
        let mut lines = csv.stdout.lines();
        assert!(lines.next().unwrap().ends_with(",ply"));
        assert_eq!(lines.clone().count(), expected.len());
        assert!(lines.all(|l| l.ends_with(&format!(",{}", ply_of(fen)))));
        for dir in [indexed.path(), plain.path()] {
            let two = jsonl(&["db", "find", path(dir), "--fen", fen, "--limit", "2"]);
            assert_eq!(ids(&two), expected[..expected.len().min(2)]);
        }
    }
    let bad = run(&["db", "find", path(indexed.path()), "--fen", "not a fen"]);
    assert_eq!(bad.code, Some(2));
}

#[test]
fn key_prints_the_identity_of_a_position_as_db_key_does() {
    let key = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        out.stdout.trim().parse::<i64>().unwrap()
    };
    // The start position's polyglot hash (0x463b96181691fc9c), signed.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(key(&["key", start]), 0x463b_9618_1691_fc9c_u64 as i64);
    // After 1. e4 (polyglot's own example): the en passant square counts
    // only when a capture is legal, which no black pawn can make here.
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(key(&["key", e4]), key(&["key", &e4.replace(" e3 ", " - ")]));
    assert_eq!(key(&["key", e4]), 0x823c_9b50_fd11_4196_u64 as i64);
    // After 1. e4 d5 2. e5 f5 the capture exf6 is legal: another position.
    let f5 = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(key(&["key", f5]), 0x22a4_8b5a_8e47_ff78_u64 as i64);
    assert_ne!(key(&["key", f5]), key(&["key", &f5.replace(" f6 ", " - ")]));
    // The move counters are not part of a position; `db key` is the same.
    assert_eq!(key(&["key", &start.replace(" 0 1", " 7 30")]), key(&["key", start]));
    assert_eq!(key(&["db", "key", f5]), key(&["key", f5]));
    // Not a chess position: no kings; a crazyhouse pocket; three-check's
    // counters (their keys hash those too).
    for bad in [
        "not a fen",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    ] {
        let out = run(&["key", bad]);
        assert_eq!(out.code, Some(2), "{bad}");
        assert!(out.stderr.contains(bad), "{}", out.stderr);
    }
    // A FEN cut short names no one position (shakmaty would read White to
    // move, no castling): refused wherever a FEN names a position, where
    // it once matched nothing, or another position, and said nothing.
    // The counters alone may be left out.
    assert_eq!(
        key(&["key", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"]),
        key(&["key", start])
    );
    let placement = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R";
    let sample = fixture("sample.pgn");
    for args in [
        vec!["key", placement],
        vec!["key", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq"],
        vec!["filter", "--count", "--fen", placement, &sample],
        vec!["tree", "--fen", placement, &sample],
        vec!["winnable", placement],
    ] {
        let out = run(&args);
        assert_eq!(out.code, Some(2), "{args:?}");
        assert!(out.stderr.contains("side to move, the castling rights"), "{}", out.stderr);
    }
    let filter = run(&["filter", "--count", "--fen", placement, &sample]);
    assert!(filter.stderr.contains(&format!("or --placement {placement}")), "{}", filter.stderr);
    let dir = tempfile::tempdir().unwrap();
    build(std::slice::from_ref(&sample), dir.path(), &["--positions"]);
    let find = run(&["db", "find", path(dir.path()), "--fen", placement, "--count"]);
    assert_eq!(find.code, Some(2), "{}", find.stderr);
}

/// A word that is no FEN is told that its placement is not one, not told
/// to add the fields a valid placement lacks; a bad field is named.
#[test]
fn key_names_what_is_wrong_with_a_fen() {
    let garbage = run(&["key", "garbage"]);
    assert_eq!(garbage.code, Some(2), "{}", garbage.stderr);
    assert_eq!(
        garbage.stderr.lines().next().unwrap_or_default(),
        "arbiter: error: FEN \"garbage\": \"garbage\" is not a FEN's board placement (8 ranks, \
         the 8th first, separated by `/`, of pieces `KQRBNPkqrbnp` and counts of empty squares \
         `1` to `8`)"
    );
    assert!(!garbage.stderr.contains("side to move"), "{}", garbage.stderr);
    for (fen, said) in [
        ("xx w - -", "\"xx\" is not a FEN's board placement"),
        ("8/8/8/8/8/8/8/8 x - -", "the side to move \"x\" is not `w` or `b`"),
        ("8/8/8/8/8/8/8/8 w KQx -", "the castling rights \"KQx\" are not valid"),
        ("8/8/8/8/8/8/8/8 w - z9", "the en passant square \"z9\" is not a square"),
        ("8/8/8/8/8/8/8/8 w - - 0 x", "the fullmove number is not a number"),
        ("", "an empty FEN"),
    ] {
        let out = run(&["key", fen]);
        assert_eq!(out.code, Some(2), "{fen}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{fen}: {}", out.stderr);
    }
}

#[test]
fn a_source_changed_since_the_build_is_not_read_back() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("games.pgn");
    let original = fs::read(fixture("sample.pgn")).unwrap();
    fs::write(&source, &original).unwrap();
    let dir = work.path().join("db");
    build(&[path(&source).to_owned()], &dir, &["--positions=2"]);
    // The time is recorded, so that a lookup need not digest the file.
    assert!(manifest(&dir)["sources"][0]["modified"].as_i64().is_some());
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let find = || run(&["db", "find", path(&dir), "--fen", e4, "--limit", "1"]).stdout;
    let own = run(&["filter", "-q", "--fen", e4, path(&source)]).stdout;
    let first = own.split("\n\n[Event").next().unwrap();
    assert!(find().starts_with(first) && first.contains("cRazyr00k"), "{}", find());
    // The same size, another time: the digest differs, so the game is
    // written from what is stored (the player as stored, no comment).
    let changed =
        String::from_utf8(original.clone()).unwrap().replacen("cRazyr00k", "CHANGED00", 1);
    fs::write(&source, changed).unwrap();
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    fs::File::options().write(true).open(&source).unwrap().set_modified(when).unwrap();
    let written = find();
    assert!(written.contains("cRazyr00k") && !written.contains("CHANGED00"), "{written}");
    assert!(!written.starts_with(first), "the stored game is written in export format");
    // Back as it was, at yet another time: the digest is the same again.
    fs::write(&source, &original).unwrap();
    fs::File::options().write(true).open(&source).unwrap().set_modified(when).unwrap();
    assert!(find().starts_with(first));
    // Changed at the same size and given back the time the manifest has
    // (`cp -p` of another copy, a coarse clock): trusted by its time, but
    // the game read does not replay to the stored one, so it is written.
    let recorded = manifest(&dir)["sources"][0]["modified"].as_u64().unwrap();
    let shifted = [b"\n\n\n".as_slice(), &original[..original.len() - 3]].concat();
    let renamed =
        String::from_utf8(original.clone()).unwrap().replacen("cRazyr00k", "CHANGED00", 1);
    for text in [shifted, renamed.into_bytes()] {
        fs::write(&source, &text).unwrap();
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_nanos(recorded);
        fs::File::options().write(true).open(&source).unwrap().set_modified(at).unwrap();
        assert_eq!(manifest_time(&source), recorded, "the time is set back");
        let written = find();
        assert!(written.contains("cRazyr00k") && !written.contains("CHANGED00"), "{written}");
        assert!(!written.starts_with(first), "{written}");
    }
    // A bulk read digests instead: the changed file is not read.
    let out = work.path().join("export.pgn");
    let export = run(&["db", "export", "-q", path(&dir), "-o", path(&out)]);
    assert_eq!(export.code, Some(0), "{}", export.stderr);
    let exported = fs::read_to_string(&out).unwrap();
    assert!(!exported.contains("CHANGED00") && exported.contains("cRazyr00k"));
}

/// A file's modification time in nanoseconds, as the manifest writes it.
fn manifest_time(file: &Path) -> u64 {
    let time = fs::metadata(file).unwrap().modified().unwrap();
    time.duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
}

/// The rows of `query` on the SQLite file `file`, read by Python's own
/// sqlite3 module (not arbiter's SQLite), as JSON arrays.
#[cfg(feature = "sqlite")]
fn sql(file: &Path, query: &str) -> Vec<Vec<Value>> {
    let script = "import json, sqlite3, sys\n\
                  rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()\n\
                  print(json.dumps([list(r) for r in rows]))";
    let output = std::process::Command::new("python3")
        .args(["-c", script, path(file), query])
        .output()
        .expect("python3, which CI has, runs");
    assert!(output.status.success(), "{query}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[cfg(feature = "sqlite")]
#[test]
fn export_as_sqlite_holds_every_column_of_the_games_their_positions_and_the_sources() {
    let files = inputs();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("db");
    build(&files, &dir, &["--positions=12", "--shard-games", "40"]);
    assert!(manifest(&dir)["shards"].as_array().unwrap().len() > 1);
    let out = work.path().join("games.sqlite");
    // Over an existing file, replaced whole.
    fs::write(&out, "not a database").unwrap();
    let export = |extra: &[&str], out: &Path| {
        let mut args = vec!["db", "export", path(&dir), "--format", "sqlite", "-o", path(out)];
        args.extend_from_slice(extra);
        let run = run(&args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        run.stderr
    };
    let said = export(&[], &out);
    // The games: those of `db search`, with its record's values.
    let records = jsonl(&["db", "search", path(&dir)]);
    assert!(said.contains(&format!("{} games", records.len())), "{said}");
    let rows = sql(
        &out,
        "SELECT file, \"index\", white, valid, plies, final_fen, termination, result_consistent \
         FROM games ORDER BY game_id",
    );
    let expected: Vec<Vec<Value>> = records
        .iter()
        .map(|r| {
            let flag = |name: &str| Value::from(u8::from(r[name].as_bool().unwrap()));
            vec![
                r["file"].clone(),
                r["index"].clone(),
                r["white"].clone(),
                flag("valid"),
                r["plies"].clone(),
                // A game not replayed has none: NULL, as in `games`.
                Some(r["final_fen"].clone()).filter(|f| f != "").unwrap_or(Value::Null),
                r["termination"].clone(),
                flag("result_consistent"),
            ]
        })
        .collect();
    assert_eq!(rows.len(), expected.len());
    for (row, record) in rows.iter().zip(&expected) {
        assert_eq!(row, record);
    }
    // Each column as SQLite types it: dates as ISO text, lists and maps as
    // JSON, the moves as bytes (a byte a ply, so at least one for each).
    let types = sql(
        &out,
        "SELECT count(*) FILTER (WHERE typeof(date) NOT IN ('text', 'null') \
                OR (date IS NOT NULL AND date(date) IS NOT date)), \
                count(*) FILTER (WHERE typeof(utc_datetime) NOT IN ('text', 'null') \
                OR (utc_datetime IS NOT NULL AND datetime(utc_datetime) IS NULL)), \
                count(*) FILTER (WHERE typeof(valid) <> 'integer'), \
                count(*) FILTER (WHERE typeof(moves) <> 'blob' OR length(moves) < plies), \
                count(*) FILTER (WHERE NOT json_valid(tags) OR json_type(warnings) <> 'array'), \
                count(*) FILTER (WHERE date IS NOT NULL), \
                count(*) FILTER (WHERE json_array_length(clocks) > 0), \
                count(*) FILTER (WHERE json_type(tags, '$.Annotator') = 'text') \
         FROM games",
    );
    let counts: Vec<u64> = types[0].iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(counts[..5], [0, 0, 0, 0, 0], "columns of the wrong type: {counts:?}");
    assert!(counts[5..].iter().all(|&n| n > 0), "dates, clocks and extra tags: {counts:?}");
    // A lichess game's clocks are its `%clk` comments, in milliseconds.
    let clocks = sql(&out, "SELECT clocks FROM games WHERE clocks IS NOT NULL LIMIT 1");
    let clocks: Vec<Value> = serde_json::from_str(clocks[0][0].as_str().unwrap()).unwrap();
    assert!(clocks.iter().all(|c| c.is_null() || c.as_i64().is_some_and(|ms| ms % 1000 == 0)));
    // The positions: a lookup by `arbiter key` answers what `db find` does
    // (which, a FEN being a chess position, leaves the variants out).
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ] {
        let key = run(&["key", fen]).stdout.trim().to_owned();
        let found = sql(
            &out,
            &format!(
                "SELECT g.file, g.\"index\", p.ply FROM positions p JOIN games g USING (game_id) \
                 WHERE p.key = {key} AND g.variant IN ('chess', 'chess960') ORDER BY g.game_id"
            ),
        );
        let expected: Vec<Vec<Value>> = jsonl(&["db", "find", path(&dir), "--fen", fen])
            .iter()
            .map(|r| vec![r["file"].clone(), r["index"].clone(), r["ply"].clone()])
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(found, expected, "{fen}");
    }
    let all_positions = sql(&out, "SELECT count(*) FROM positions")[0][0].as_u64().unwrap();
    assert!(said.contains(&format!("{all_positions} positions")), "{said}");
    // However the database is sharded, the same file, byte for byte: the
    // positions files are merged into one order of key and game.
    let one_shard = work.path().join("one");
    build(&files, &one_shard, &["--positions=12"]);
    let whole = work.path().join("one.sqlite");
    let run_one =
        run(&["db", "export", "-q", path(&one_shard), "--format", "sqlite", "-o", path(&whole)]);
    assert_eq!(run_one.code, Some(0), "{}", run_one.stderr);
    assert!(fs::read(&whole).unwrap() == fs::read(&out).unwrap(), "one shard and many differ");
    fs::remove_file(&whole).unwrap();
    fs::remove_dir_all(&one_shard).unwrap();
    // The sources and the schemes that decode keys and moves.
    let sources = sql(&out, "SELECT path, games FROM sources ORDER BY source_id");
    assert_eq!(sources.len(), files.len());
    assert_eq!(sources.iter().map(|s| s[1].as_u64().unwrap()).sum::<u64>(), records.len() as u64);
    let info = sql(&out, "SELECT value FROM info WHERE name = 'moves'");
    assert_eq!(info[0][0], manifest(&dir)["moves"]);
    // With a predicate: its games only, and their positions only.
    let some = work.path().join("some.sqlite");
    export(&["--result", "1-0"], &some);
    let wins = run(&["db", "search", path(&dir), "--result", "1-0", "--count"]);
    let wins: u64 = wins.stdout.trim().parse().unwrap();
    assert!(wins > 0 && wins < records.len() as u64);
    let counted = sql(
        &some,
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM games WHERE result <> '1-0'), \
                (SELECT count(*) FROM positions WHERE game_id NOT IN (SELECT game_id FROM games)), \
                (SELECT count(*) FROM positions)",
    );
    assert_eq!(counted[0][..3], [Value::from(wins), Value::from(0), Value::from(0)]);
    let theirs = sql(
        &out,
        "SELECT count(*) FROM positions WHERE game_id IN \
         (SELECT game_id FROM games WHERE result = '1-0')",
    );
    assert_eq!(counted[0][3], theirs[0][0]);
    // Never compressed: a name that says so is refused, before any work.
    let zst = work.path().join("games.sqlite.zst");
    let refused = run(&["db", "export", path(&dir), "--format", "sqlite", "-o", path(&zst)]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("uncompressed"), "{}", refused.stderr);
    assert!(!zst.exists());
    // To standard output: the same database, copied.
    let piped = run(&["db", "export", "-q", path(&dir), "--format", "sqlite", "-o", "-"]);
    assert_eq!(piped.code, Some(0), "{}", piped.stderr);
    assert!(piped.stdout_bytes.starts_with(b"SQLite format 3\0"));
    let copy = work.path().join("copy.sqlite");
    fs::write(&copy, &piped.stdout_bytes).unwrap();
    assert_eq!(sql(&copy, "SELECT count(*) FROM games")[0][0], Value::from(records.len()));
    // A damaged database: an error, and the file there before is left as
    // it was, with no temporary file beside it.
    let before = fs::read(&some).unwrap();
    let shard = dir.join(manifest(&dir)["shards"][1]["games"].as_str().unwrap());
    let bytes = fs::read(&shard).unwrap();
    fs::write(&shard, &bytes[..bytes.len() / 2]).unwrap();
    let failed = run(&["db", "export", path(&dir), "--format", "sqlite", "-o", path(&some)]);
    assert_eq!(failed.code, Some(2), "{}", failed.stderr);
    // The file being written and the one damaged, by their names.
    let names = [format!("writing {}", path(&some)), format!("reading {}", path(&shard))];
    assert!(names.iter().all(|n| failed.stderr.contains(n)), "{}", failed.stderr);
    assert!(!failed.stderr.contains(".arbiter-tmp"), "{}", failed.stderr);
    assert_eq!(fs::read(&some).unwrap(), before);
    let names: Vec<_> =
        fs::read_dir(work.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
}

#[cfg(not(feature = "sqlite"))]
#[test]
fn export_as_sqlite_without_the_feature_says_how_to_get_it() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("db");
    build(&[fixture("sample.pgn")], &dir, &[]);
    let out = work.path().join("games.sqlite");
    let run = run(&["db", "export", path(&dir), "--format", "sqlite", "-o", path(&out)]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("--features sqlite"), "{}", run.stderr);
    assert!(!out.exists());
}

#[test]
fn fen_names_a_chess_position_for_filter_search_find_and_tree_alike() {
    // The same moves in chess, Chess960 and four variants: after 1. e4 e5
    // the boards are the same, the positions chess's only in the first two.
    let work = tempfile::tempdir().unwrap();
    let mut pgn = String::new();
    for variant in ["Standard", "Chess960", "Atomic", "Crazyhouse", "Three-check", "Antichess"] {
        pgn.push_str(&format!("[Event \"{variant}\"]\n[Variant \"{variant}\"]\n\n1. e4 e5 *\n\n"));
    }
    let file = work.path().join("variants.pgn");
    fs::write(&file, pgn).unwrap();
    let files = [file.to_str().unwrap().to_owned()];
    let dir = work.path().join("db");
    build(&files, &dir, &["--positions", "--tree=1"]);
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let events = |records: Vec<Value>| -> Vec<String> {
        records.iter().map(|r| r["event"].as_str().unwrap().to_owned()).collect()
    };
    let chess = ["Standard", "Chess960"];
    assert_eq!(events(jsonl(&["filter", "-q", "--fen", fen, &files[0]])), chess);
    assert_eq!(events(jsonl(&["db", "search", path(&dir), "--fen", fen])), chess);
    assert_eq!(events(jsonl(&["db", "find", path(&dir), "--fen", fen])), chess);
    // `--placement` is the board alone: every game's.
    let placement = fen.split(' ').next().unwrap();
    assert_eq!(jsonl(&["filter", "-q", "--placement", placement, &files[0]]).len(), 6);
    assert_eq!(jsonl(&["db", "search", path(&dir), "--placement", placement]).len(), 6);
    // The trees count the chess games alone too.
    for args in [
        vec!["tree", "-q", "--fen", fen, "--csv", &files[0]],
        vec!["db", "tree", path(&dir), "--fen", fen, "--csv"],
    ] {
        let tree = run(&args);
        assert_eq!(tree.code, Some(0), "{args:?}: {}", tree.stderr);
        let games = tree.stdout.lines().nth(1).and_then(|root| root.split(',').nth(4));
        assert_eq!(games, Some("2"), "{args:?}: {}", tree.stdout);
    }
}

#[test]
fn a_source_given_by_a_relative_path_is_found_from_anywhere_and_a_rewrite_is_said() {
    let work = tempfile::tempdir().unwrap();
    let sample = fs::read(fixture("sample.pgn")).unwrap();
    fs::write(work.path().join("sample.pgn"), &sample).unwrap();
    let built = crate::util::Arbiter::new(&["db", "build", "-q", "sample.pgn", "-o", "deep/db"])
        .current_dir(work.path())
        .run();
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    let dir = work.path().join("deep/db");
    let out = work.path().join("out.pgn");
    // From another directory, where `sample.pgn` names nothing.
    let elsewhere = tempfile::tempdir().unwrap();
    let export = |extra: &[&str]| {
        let mut args = vec!["db", "export", path(&dir), "-o", path(&out)];
        args.extend_from_slice(extra);
        let run = crate::util::Arbiter::new(&args).current_dir(elsewhere.path()).run();
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run.stderr
    };
    let stderr = export(&[]);
    assert_eq!(fs::read(&out).unwrap(), sample, "not the source's bytes");
    assert!(!stderr.contains("written from the database"), "{stderr}");
    // Gone: the games come from the columns, and a line says so.
    fs::rename(work.path().join("sample.pgn"), work.path().join("moved.pgn")).unwrap();
    let stderr = export(&[]);
    assert!(
        stderr.contains("sample.pgn: 207 games written from the database, not as their own bytes"),
        "{stderr}"
    );
    assert_eq!(jsonl(&["games", "-q", path(&out)]).len(), 207);
    assert!(!export(&["-q"]).contains("written from"), "-q keeps it quiet");
}

#[test]
fn db_build_reads_regular_files_only_and_never_records_a_pipe() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("db");
    let sample = fs::read(fixture("sample.pgn")).unwrap();
    // A pipe read once for its digest would be empty for its games.
    let piped = crate::util::Arbiter::new(&["db", "build", "/dev/stdin", "-o", path(&dir)])
        .stdin(&sample)
        .run();
    assert_eq!(piped.code, Some(2), "{}", piped.stderr);
    assert!(piped.stderr.contains("not a regular file"), "{}", piped.stderr);
    // A FIFO with no writer would block the second open for ever.
    let fifo = work.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let args = ["db", "build", path(&fifo), "-o", path(&dir)];
        let run = crate::util::Arbiter::new(&args).within(std::time::Duration::from_secs(60)).run();
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    } else {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped the FIFO: no mkfifo on this system");
        }
    }
    assert_eq!(manifest(&dir)["sources"], serde_json::json!([]));
    // The file itself is not taken for one already read.
    build(&[fixture("sample.pgn")], &dir, &[]);
    assert_eq!(manifest(&dir)["games"], 207);
}

#[test]
fn a_source_read_only_in_part_is_an_error_at_every_build() {
    let work = tempfile::tempdir().unwrap();
    let whole = fs::read(fixture("bad-input/game_too_large.pgn.zst")).unwrap();
    let cut = work.path().join("cut.pgn.zst");
    fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let dir = work.path().join("db");
    let args = ["db", "build", "-q", path(&cut), &fixture("sample.pgn"), "-o", path(&dir)];
    let first = run(&args);
    assert_eq!(first.code, Some(2), "{}", first.stderr);
    let sources = manifest(&dir)["sources"].clone();
    assert!(sources[0]["error"].as_str().is_some_and(|e| !e.is_empty()), "{sources}");
    assert_eq!(sources[1].get("error"), None, "{sources}");
    // Built again: nothing changes, and the error is said again.
    let again = run(&args);
    assert_eq!(again.code, Some(2), "{}", again.stderr);
    assert!(again.stderr.contains("read only up to an error"), "{}", again.stderr);
    assert_eq!(manifest(&dir)["sources"], sources);
    let info = run(&["db", "info", path(&dir)]);
    assert!(info.stdout.contains("read only up to an error"), "{}", info.stdout);
}

#[test]
fn no_command_that_reads_a_database_writes_inside_it() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("db");
    build(&[fixture("sample.pgn")], &dir, &["--tree", "--shard-games", "100"]);
    let before = snapshot(&dir);
    let inside = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let db = path(&dir).to_owned();
    let attempts: [Vec<String>; 5] = [
        ["db", "dupes", &db, "--unique", "-o", &inside("manifest.json")].map(String::from).into(),
        ["db", "stats", &db, "--partial", &inside("stats/part-000001.json")]
            .map(String::from)
            .into(),
        ["db", "stats", &db, "--csv", &inside("new/tables")].map(String::from).into(),
        ["db", "tree", &db, "--partial", &inside("tree/part-000001.parquet")]
            .map(String::from)
            .into(),
        ["db", "export", &db, "-o", &inside("games/x.pgn")].map(String::from).into(),
    ];
    for args in &attempts {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let refused = run(&args);
        assert_eq!(refused.code, Some(2), "{args:?}: {}", refused.stderr);
        assert!(refused.stderr.contains("inside the database"), "{args:?}: {}", refused.stderr);
    }
    assert_eq!(snapshot(&dir), before);
    assert!(!dir.join("new").exists());
    assert_eq!(run(&["db", "info", &db]).code, Some(0));
}

#[test]
fn a_stats_partial_or_a_total_that_disagrees_with_the_shards_is_damage() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("db");
    build(&[fixture("sample.pgn")], &dir, &["--shard-games", "100"]);
    let db = path(&dir).to_owned();
    // Another shard's partial in place of the first's.
    let stats = dir.join("stats");
    let first = fs::read(stats.join("part-000001.json")).unwrap();
    fs::copy(stats.join("part-000003.json"), stats.join("part-000001.json")).unwrap();
    let info = run(&["db", "info", &db]);
    assert_eq!(info.code, Some(2), "{}", info.stderr);
    assert!(
        info.stderr.contains("stats/part-000001.json: unreadable (counts 7 games"),
        "{}",
        info.stderr
    );
    let stats_run = run(&["db", "stats", &db]);
    assert_eq!(stats_run.code, Some(2), "{}", stats_run.stderr);
    fs::write(stats.join("part-000001.json"), first).unwrap();
    assert_eq!(run(&["db", "stats", &db]).code, Some(0));
    // A total edited in the manifest.
    let text = fs::read_to_string(dir.join("manifest.json")).unwrap();
    fs::write(dir.join("manifest.json"), text.replace("\n  \"games\": 207", "\n  \"games\": 999"))
        .unwrap();
    for command in ["info", "stats", "search"] {
        let run = run(&["db", command, &db]);
        assert_eq!(run.code, Some(2), "{command}: {}", run.stderr);
        assert!(run.stderr.contains("999 games in all, but its shards hold 207"), "{}", run.stderr);
    }
}
