//! `arbiter split`: the shards put end to end are the inputs byte for byte
//! (every fixture, broken games and a game too large included), each shard
//! holds N games and reads alone as it does in the whole, `stats` of the
//! shards merged is one `stats` run, and bad inputs and outputs are
//! refused or reported without losing a shard.

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use serde_json::Value;

use crate::util::{Arbiter, every_fixture, fixture, parse_jsonl, run};

/// The shards in `dir`, in name order; fails on any other file (a
/// temporary file left behind).
fn shards(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with("part-") && name.contains(".pgn"), "not a shard: {name}");
    }
    paths
}

/// The text of a shard, decompressed when it is a `.zst`.
fn text_of(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    match path.extension().is_some_and(|e| e == "zst") {
        true => zstd::decode_all(bytes.as_slice()).unwrap(),
        false => bytes,
    }
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What describes a game whatever file it is in (not its file, index,
/// line or offset).
fn verdicts(args: &[&str]) -> Vec<Vec<Value>> {
    let mut full = vec!["games", "-q", "--format", "jsonl"];
    full.extend_from_slice(args);
    let out = run(&full);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    parse_jsonl(&out.stdout)
        .iter()
        .map(|r| {
            ["event", "white", "black", "result", "valid", "plies", "error_kind", "final_fen"]
                .iter()
                .map(|k| r[k].clone())
                .collect()
        })
        .collect()
}

fn game(n: usize) -> String {
    format!(
        "[Event \"g{n}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    )
}

#[test]
fn every_fixture_round_trips_byte_for_byte_and_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shards");
    let mut inputs = every_fixture();
    // Over 16 MiB of one game: streamed through, counted as one.
    inputs.push(fixture("bad-input/game_too_large.pgn.zst"));
    let mut args = vec!["split", "--games", "2", "-o", path(&out)];
    args.extend(inputs.iter().map(String::as_str));
    let split = run(&args);
    assert_eq!(split.code, Some(0), "{}", split.stderr);
    let parts = shards(&out);
    // A shard never spans two inputs: the shards of each input, put end
    // to end, are that input (decompressed).
    let whole: Vec<u8> = inputs.iter().flat_map(|i| text_of(Path::new(i))).collect();
    let joined: Vec<u8> = parts.iter().flat_map(|p| text_of(p)).collect();
    assert!(joined == whole, "{} bytes of shards, {} of inputs", joined.len(), whole.len());
    // Each shard read alone holds the games the inputs hold, in order.
    let part_args: Vec<&str> = parts.iter().map(|p| path(p)).collect();
    let input_args: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let (alone, together) = (verdicts(&part_args), verdicts(&input_args));
    assert_eq!(alone.len(), together.len());
    assert!(alone == together, "the shards' games differ from the inputs'");
    let summary = format!("split: {} games", together.len());
    assert!(split.stderr.contains(&summary), "{}", split.stderr);
}

#[test]
fn shards_hold_n_games_and_the_last_is_never_empty() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("six.pgn");
    let text: String = (1..=6).map(game).collect();
    fs::write(&pgn, &text).unwrap();
    // 6 games in 3s and 2s end exactly at a shard's end; 4 and 7 do not.
    for (n, expected) in [(3, vec![3, 3]), (2, vec![2, 2, 2]), (4, vec![4, 2]), (7, vec![6])] {
        let out = dir.path().join(format!("by{n}"));
        let split = run(&["split", "-q", "--games", &n.to_string(), path(&pgn), "-o", path(&out)]);
        assert_eq!(split.code, Some(0), "{}", split.stderr);
        assert!(split.stderr.is_empty(), "-q: {}", split.stderr);
        let parts = shards(&out);
        let counts: Vec<usize> = parts.iter().map(|p| verdicts(&[path(p)]).len()).collect();
        assert_eq!(counts, expected, "--games {n}");
        let first = parts[0].file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(first, "part-000001.pgn");
        let joined: Vec<u8> = parts.iter().flat_map(|p| text_of(p)).collect();
        assert_eq!(joined, text.as_bytes());
    }
}

/// Files each with its byte order mark, concatenated, and games without a
/// blank line between them: no place where a worker may cut its chunk
/// lies between the games, and still each shard holds N games, the mark
/// with its game.
#[test]
fn games_behind_byte_order_marks_or_without_blank_lines_are_cut_apart() {
    let dir = tempfile::tempdir().unwrap();
    let marked: String = (1..=4).map(|n| format!("\u{feff}{}", game(n))).collect();
    let joined: String = (1..=4).map(|n| game(n).trim_end().to_owned() + "\n").collect();
    for (name, text) in [("marked", marked), ("joined", joined)] {
        let pgn = dir.path().join(format!("{name}.pgn"));
        fs::write(&pgn, &text).unwrap();
        let out = dir.path().join(name);
        let split = run(&["split", "-q", "--games", "1", path(&pgn), "-o", path(&out)]);
        assert_eq!(split.code, Some(0), "{}", split.stderr);
        let parts = shards(&out);
        let events: Vec<Value> = parts.iter().map(|p| verdicts(&[path(p)])[0][0].clone()).collect();
        assert_eq!(events, ["g1", "g2", "g3", "g4"], "{name}");
        for part in &parts {
            assert_eq!(verdicts(&[path(part)]).len(), 1, "{name}");
            assert_eq!(text_of(part).starts_with("\u{feff}".as_bytes()), name == "marked");
        }
        let joined: Vec<u8> = parts.iter().flat_map(|p| text_of(p)).collect();
        assert_eq!(joined, text.as_bytes());
        assert_eq!(
            verdicts(&[path(&pgn)]),
            parts.iter().flat_map(|p| verdicts(&[path(p)])).collect::<Vec<_>>()
        );
    }
}

#[test]
fn merged_stats_of_compressed_shards_are_one_stats_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    // A compressed input, as a lichess dump is.
    let input = dir.path().join("sample.pgn.zst");
    let sample = fs::read(fixture("sample.pgn")).unwrap();
    fs::write(&input, zstd::encode_all(sample.as_slice(), 3).unwrap()).unwrap();
    let out = dir.path().join("shards");
    let split =
        run(&["split", "-q", "--games", "3", "--compress", "zst", path(&input), "-o", path(&out)]);
    assert_eq!(split.code, Some(0), "{}", split.stderr);
    let parts = shards(&out);
    assert!(parts.len() > 2, "the sample makes several shards");
    assert!(parts.iter().all(|p| p.to_string_lossy().ends_with(".pgn.zst")));
    let mut partials = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let partial = dir.path().join(format!("{i}.partial"));
        let stats = run(&["stats", "-q", "--partial", path(&partial), path(part)]);
        assert_eq!(stats.code, Some(0), "{}", stats.stderr);
        partials.push(partial);
    }
    for json in [false, true] {
        let mut merge = vec!["merge"];
        merge.extend(partials.iter().map(|p| path(p)));
        let mut once = vec!["stats", "-q", path(&input)];
        if json {
            merge.push("--json");
            once.push("--json");
        }
        let (merged, once) = (run(&merge), run(&once));
        assert_eq!(merged.code, Some(0), "{}", merged.stderr);
        assert!(!once.stdout_bytes.is_empty());
        assert!(merged.stdout_bytes == once.stdout_bytes, "--json {json}:\n{}", merged.stdout);
    }
}

#[test]
fn standard_input_is_split_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shards");
    let text: String = (1..=5).map(game).collect();
    let split = Arbiter::new(&["split", "-q", "--games", "2", "-", "-o", path(&out)])
        .stdin(text.as_bytes())
        .run();
    assert_eq!(split.code, Some(0), "{}", split.stderr);
    let parts = shards(&out);
    assert_eq!(parts.len(), 3);
    assert_eq!(parts.iter().flat_map(|p| text_of(p)).collect::<Vec<u8>>(), text.as_bytes());
}

#[test]
fn bad_inputs_are_reported_and_the_rest_is_split() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pgn");
    let text: String = (1..=3).map(game).collect();
    fs::write(&good, &text).unwrap();
    let binary = dir.path().join("image.pgn");
    fs::write(&binary, [0u8, 1, 2, 3, 0, 0, 0x89, b'P', b'N', b'G'].repeat(100)).unwrap();
    // A download cut short: the games before the cut are kept.
    let truncated = dir.path().join("cut.pgn.zst");
    // Over 128 KiB, several zstd blocks: half of it decodes to some games.
    let long: String = (1..=4000).map(game).collect();
    let compressed = zstd::encode_all(long.as_bytes(), 3).unwrap();
    fs::write(&truncated, &compressed[..compressed.len() / 2]).unwrap();
    let out = dir.path().join("shards");
    let missing = dir.path().join("missing.pgn");
    let split = run(&[
        "split",
        "--games",
        "1000",
        path(&missing),
        path(&binary),
        path(&truncated),
        path(&good),
        "-o",
        path(&out),
    ]);
    assert_eq!(split.code, Some(2), "{}", split.stderr);
    assert!(split.stderr.contains("missing.pgn"), "{}", split.stderr);
    assert!(split.stderr.contains("does not look like PGN"), "{}", split.stderr);
    assert!(split.stderr.contains("cut.pgn.zst"), "{}", split.stderr);
    let parts = shards(&out);
    let joined: Vec<u8> = parts.iter().flat_map(|p| text_of(p)).collect();
    // The truncated input's shards: a prefix of its text, with every
    // complete game up to where the stream broke off; then the good file.
    assert!(joined.ends_with(text.as_bytes()));
    let cut = &joined[..joined.len() - text.len()];
    assert!(long.as_bytes().starts_with(cut) && cut.len() > long.len() / 4, "{}", cut.len());
    // The good file is a shard of its own.
    assert_eq!(text_of(parts.last().unwrap()), text.as_bytes());
}

#[test]
fn an_output_directory_with_shards_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = fixture("sample.pgn");
    let out = dir.path().join("shards");
    // An empty directory that exists is fine.
    fs::create_dir(&out).unwrap();
    assert_eq!(run(&["split", "-q", "--games", "5", &pgn, "-o", path(&out)]).code, Some(0));
    let before: Vec<Vec<u8>> = shards(&out).iter().map(|p| fs::read(p).unwrap()).collect();
    let again = run(&["split", "-q", "--games", "2", &pgn, "-o", path(&out)]);
    assert_eq!(again.code, Some(2));
    assert!(again.stderr.contains("holds shards already"), "{}", again.stderr);
    let after: Vec<Vec<u8>> = shards(&out).iter().map(|p| fs::read(p).unwrap()).collect();
    assert_eq!(before, after);
    // A file where the directory should be; no count of games.
    let file = dir.path().join("file");
    fs::File::create(&file).unwrap().write_all(b"x").unwrap();
    let refused = run(&["split", "-q", "--games", "2", &pgn, "-o", path(&file)]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    for games in ["0", "-1", "many"] {
        let usage = run(&["split", "--games", games, &pgn, "-o", path(&out)]);
        assert_eq!(usage.code, Some(2), "--games {games}");
    }
}

/// A signal in the middle of `split` removes the shards it had written:
/// the ones left looked like a whole split, and a second run was refused
/// for them.
#[test]
fn a_split_interrupted_leaves_no_shard() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("many.pgn");
    fs::write(&input, fs::read(fixture("sample.pgn")).unwrap().repeat(200)).unwrap();
    let out = dir.path().join("shards");
    for (name, number) in [("INT", 2), ("TERM", 15)] {
        let args = ["split", "-q", "--games", "50", path(&input), "-o", path(&out)];
        let mut child = crate::util::spawn_silent(&args);
        let started = Instant::now();
        while fs::read_dir(&out).map_or(0, Iterator::count) < 3 {
            assert!(child.try_wait().unwrap().is_none(), "SIG{name}: ended before two shards");
            assert!(started.elapsed() < Duration::from_secs(60), "SIG{name}: no shard written");
            std::thread::sleep(Duration::from_millis(2));
        }
        crate::util::interrupt(child, name, number);
        assert_eq!(shards(&out), Vec::<PathBuf>::new(), "SIG{name}");
    }
    // And a run to its end keeps them all.
    let whole = run(&["split", "-q", "--games", "50", path(&input), "-o", path(&out)]);
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    assert_eq!(shards(&out).len(), (207 * 200usize).div_ceil(50));
}
