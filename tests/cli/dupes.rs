//! `arbiter dupes`: the planted duplicates of fixtures/dupes (exact copies,
//! colours swapped, initials and accents, a misspelt name, a broadcast
//! captured mid-game, a copy that lost its last moves) are found, and none
//! of the games built to look like duplicates (another start position, a
//! transposed move order, the same players in other games, a prefix played
//! on another day or ended otherwise, broken and empty games); `--unique`
//! writes one game per group, byte for byte, and accounts for every game;
//! memory grows by a fixed number of bytes a game.

use std::{
    collections::{BTreeSet, HashMap},
    fs,
};

use serde_json::Value;

use crate::util::{Arbiter, fixture, parse_jsonl, records, run};

/// The fixture's two files.
fn inputs() -> [String; 2] {
    [fixture("dupes/a.pgn"), fixture("dupes/b.pgn")]
}

/// The `Event` of each game, by file and game number.
fn events(files: &[&str]) -> HashMap<(String, u64), String> {
    let mut args = vec!["games", "--format", "jsonl"];
    args.extend(files);
    records(&args)
        .iter()
        .map(|r| {
            let key = (r["file"].as_str().unwrap().to_owned(), r["index"].as_u64().unwrap());
            (key, r["event"].as_str().unwrap().to_owned())
        })
        .collect()
}

/// `dupes --format jsonl` on `files` with `extra` options: the groups,
/// each as its games' (event, kind, kept), in output order.
fn groups(files: &[&str], extra: &[&str]) -> Vec<Vec<(String, String, bool)>> {
    let mut args = vec!["dupes", "--format", "jsonl"];
    args.extend(extra);
    args.extend(files);
    let run = run(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let events = events(files);
    parse_jsonl(&run.stdout)
        .iter()
        .map(|group| {
            group["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    let key = (g["file"].as_str().unwrap().to_owned(), g["game"].as_u64().unwrap());
                    let kind = g["kind"].as_str().unwrap().to_owned();
                    (events[&key].clone(), kind, g["kept"] == true)
                })
                .collect()
        })
        .collect()
}

fn group(games: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
    games.iter().map(|&(e, k, kept)| (e.to_owned(), k.to_owned(), kept)).collect()
}

#[test]
fn every_planted_duplicate_is_found_and_no_false_pair() {
    let [a, b] = inputs();
    let found = groups(&[&a, &b], &[]);
    assert_eq!(
        found,
        [
            group(&[
                ("Opera original", "main", true),
                ("Opera copy with initials", "exact", false),
                ("Opera colours swapped", "exact", false),
                ("Opera misspelt", "same-moves", false),
                ("Opera with accents and case", "exact", false),
            ]),
            group(
                &[("Immortal captured", "embedded", true), ("Immortal complete", "main", false),]
            ),
            group(&[
                ("Evergreen original", "main", true),
                ("Evergreen without its last moves", "embedded", false),
            ]),
        ]
    );
    // The games made to look like duplicates are in no group.
    let grouped: BTreeSet<&str> = found.iter().flatten().map(|(e, _, _)| e.as_str()).collect();
    for event in [
        "Ruy standard start",
        "Ruy without a2",
        "Italian",
        "Italian transposed",
        "Other Carlsen-Nakamura game",
        "Immortal opening, other day",
        "Immortal opening, drawn",
        "Broken",
        "Broken copy",
        "Empty",
        "Empty copy",
    ] {
        assert!(!grouped.contains(event), "{event} is in a group: {found:#?}");
    }
}

#[test]
fn keep_longest_keeps_the_complete_game() {
    let [a, b] = inputs();
    let found = groups(&[&a, &b], &["--keep", "longest"]);
    let kept: Vec<&str> =
        found.iter().flatten().filter(|(_, _, kept)| *kept).map(|(e, _, _)| e.as_str()).collect();
    assert_eq!(kept, ["Opera original", "Immortal complete", "Evergreen original"]);
}

#[test]
fn the_same_file_twice_is_all_duplicates_whatever_the_chunks() {
    let [a, _] = inputs();
    for chunk in ["1", "300", "100000"] {
        let found = groups(&[&a, &a], &["--chunk-size", chunk]);
        // Seven games of a.pgn are compared (not the broken and the empty
        // one), each once more in the second copy; nothing is embedded.
        assert_eq!(found.len(), 7, "--chunk-size {chunk}: {found:#?}");
        assert!(found.iter().all(|g| g.len() == 2 && g[1].1 == "exact"), "{found:#?}");
    }
}

#[test]
fn min_plies_leaves_short_games_out() {
    let [a, b] = inputs();
    // The Immortal captured mid-game has 24 plies, the other planted games
    // more than 30: its group goes.
    let found = groups(&[&a, &b], &["--min-plies", "30"]);
    let mains: Vec<&str> = found.iter().map(|g| g[0].0.as_str()).collect();
    assert_eq!(mains, ["Opera original", "Evergreen original"], "{found:#?}");
}

#[test]
fn the_table_shows_kind_place_game_and_summary() {
    let [a, b] = inputs();
    let run = run(&["dupes", &a, &b]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "group 1: 5 games");
    let row = |kind: &str, place: &str, game: &str| {
        lines.iter().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() > 4
                && words[0] == kind
                && words[1] == place
                && words[2] == "game"
                && words[3] == game
        })
    };
    assert!(row("main", &format!("{a}:1"), "1"), "{}", run.stdout);
    assert!(row("same-moves", &format!("{b}:21"), "3"), "{}", run.stdout);
    assert!(row("embedded", &format!("{a}:11"), "2"), "{}", run.stdout);
    assert!(run.stdout.contains(
        "20 games in 2 files: 6 duplicates in 3 groups (3 exact, 1 same moves, 2 embedded)\n\
         4 games not compared: 2 not replayed to the end (an error), 2 shorter than 1 ply\n"
    ));
}

#[test]
fn predicates_choose_the_games_compared_and_unique_keeps_the_others() {
    let [a, b] = inputs();
    // Only Anderssen's games are compared: the Evergreen's group is left.
    let found = groups(&[&a, &b], &["--player", "Anderssen"]);
    let mains: Vec<&str> = found.iter().map(|g| g[0].0.as_str()).collect();
    assert_eq!(mains, ["Evergreen original"], "{found:#?}");
    // The games not selected are written by --unique as they are: only the
    // Evergreen's copy goes.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("unique.pgn");
    let out = out.to_str().unwrap();
    let run = run(&["dupes", "--player", "Anderssen", "--unique", "-o", out, &a, &b]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let total = events(&[&a, &b]).len();
    assert!(
        run.stdout.contains(&format!("wrote {} games to {out}, 1 removed", total - 1)),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("not selected"), "{}", run.stdout);
    assert_eq!(records(&["games", "--format", "jsonl", out]).len(), total - 1);
}

#[test]
fn unique_writes_one_game_per_group_and_accounts_for_every_game() {
    let [a, b] = inputs();
    let dir = tempfile::tempdir().unwrap();
    for keep in ["first", "longest"] {
        let out = dir.path().join(format!("unique-{keep}.pgn"));
        let out = out.to_str().unwrap();
        let args = ["dupes", "--format", "jsonl", "--keep", keep, "--unique", "-o", out, &a, &b];
        let run = run(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!("wrote 14 games to {out}, 6 removed")),
            "{}",
            run.stderr
        );
        let listed = parse_jsonl(&run.stdout);
        let removed: Vec<&Value> = listed
            .iter()
            .flat_map(|g| g["games"].as_array().unwrap())
            .filter(|g| g["kept"] == false)
            .collect();
        // Written and removed games add up to the input's.
        let events_in = events(&[&a, &b]);
        let written = records(&["games", "--format", "jsonl", out]);
        assert_eq!(written.len() + removed.len(), events_in.len());
        let mut left: Vec<&str> = events_in.values().map(String::as_str).collect();
        for g in &removed {
            let key = (g["file"].as_str().unwrap().to_owned(), g["game"].as_u64().unwrap());
            left.retain(|e| *e != events_in[&key]);
        }
        let mut written_events: Vec<&str> =
            written.iter().map(|r| r["event"].as_str().unwrap()).collect();
        left.sort_unstable();
        written_events.sort_unstable();
        assert_eq!(written_events, left, "--keep {keep}");
        // Read again, the output has no duplicates left.
        let again = Arbiter::new(&["dupes", "--format", "jsonl", out]).run();
        assert_eq!((again.code, again.stdout.as_str()), (Some(0), ""), "{}", again.stderr);
    }
}

#[test]
fn unique_copies_the_games_byte_for_byte() {
    let [a, b] = inputs();
    let dir = tempfile::tempdir().unwrap();
    // A file without duplicates comes out as it went in, whatever the
    // chunks; the kept games of two files are their bytes in input order.
    let out = dir.path().join("a.pgn");
    let out = out.to_str().unwrap();
    for chunk in ["1", "500"] {
        let run = run(&["dupes", "-q", "--chunk-size", chunk, "--unique", "-o", out, &a]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(fs::read(out).unwrap(), fs::read(&a).unwrap(), "--chunk-size {chunk}");
    }
    let both = dir.path().join("both.pgn");
    let both = both.to_str().unwrap();
    let run = run(&["dupes", "-q", "--unique", "-o", both, &a, &b]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Of b.pgn, games 6 to 10 are kept (the others are copies of a.pgn's
    // games, or the complete Immortal, whose capture in a.pgn comes
    // first); a game is two blocks, its tags and its moves.
    let b_kept: String = fs::read_to_string(&b)
        .unwrap()
        .split_inclusive("\n\n")
        .enumerate()
        .filter(|(block, _)| (5..10).contains(&(block / 2)))
        .map(|(_, block)| block)
        .collect();
    assert_eq!(fs::read_to_string(both).unwrap(), fs::read_to_string(&a).unwrap() + &b_kept);
}

#[test]
fn exit_statuses() {
    let [a, b] = inputs();
    // Duplicates found or not, the run succeeds.
    assert_eq!(run(&["dupes", "-q", &a, &b]).code, Some(0));
    assert_eq!(run(&["dupes", "-q", &a]).code, Some(0));
    // An unreadable input is an error, and --unique then writes nothing.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pgn");
    let out = out.to_str().unwrap();
    let missing = dir.path().join("missing.pgn");
    let run_missing = run(&["dupes", "-q", "--unique", "-o", out, &a, missing.to_str().unwrap()]);
    assert_eq!(run_missing.code, Some(2), "{}", run_missing.stderr);
    assert!(!std::path::Path::new(out).exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no temporary file left");
    // --unique and -o go together.
    assert_eq!(run(&["dupes", "--unique", &a]).code, Some(2));
    assert_eq!(run(&["dupes", "-o", out, &a]).code, Some(2));
}

/// `count` games of 8 plies, each with other moves (each move one of the
/// first 8 legal ones), between players of a pool of 80.
fn distinct_games(count: usize) -> String {
    use shakmaty::{Chess, Position, san::San};
    let mut text = String::new();
    let mut seen = std::collections::HashSet::new();
    let (mut n, mut tries) = (0, 0);
    while n < count {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        let mut digits = tries;
        tries += 1;
        for _ in 0..8 {
            let legal = pos.legal_moves();
            let m = legal[digits % 8 % legal.len()];
            digits /= 8;
            moves.push(San::from_move(&pos, m).to_string());
            pos.play_unchecked(m);
        }
        let movetext: Vec<String> = moves
            .chunks(2)
            .enumerate()
            .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
            .collect();
        let movetext = movetext.join(" ");
        // (Where fewer than 8 moves are legal, two choices are one game.)
        if !seen.insert(movetext.clone()) {
            continue;
        }
        text += &format!(
            "[Event \"Game {n}\"]\n[Date \"2024.01.01\"]\n[White \"Player {}\"]\n\
             [Black \"Player {}\"]\n[Result \"*\"]\n\n{movetext} *\n\n",
            n % 40,
            (n / 40) % 40 + 40,
        );
        n += 1;
    }
    text
}

/// Memory grows by a fixed number of bytes a game: an entry of 40 bytes
/// (the prefixes go to a temporary file; the players' names are a pool
/// here, and cost per distinct name). Measured as the slope of the peak
/// between 100,000 and 400,000 games without duplicates: about 50 bytes a
/// game in a release build, and under 128 in this test's debug build,
/// whose allocations leave more slack (the slope of smaller runs is
/// larger still: the allocator's fixed slack, spread over fewer games).
/// One worker, and the least peak of two runs: on a busy machine a peak
/// varied by 25 MiB, which spread over 300,000 games is 85 bytes each.
#[test]
fn memory_grows_by_a_fixed_number_of_bytes_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for games in [100_000, 400_000] {
        let file = dir.path().join(format!("{games}.pgn"));
        fs::write(&file, distinct_games(games)).unwrap();
        let args = ["dupes", "-q", "-j", "1", "--format", "jsonl", file.to_str().unwrap()];
        let Some((stdout, peak_kib)) = crate::util::least_peak_memory(&args, 2) else { return };
        assert!(stdout.is_empty(), "no duplicates: {}", String::from_utf8_lossy(&stdout));
        peaks.push(peak_kib);
    }
    let per_game = (peaks[1].saturating_sub(peaks[0])) as f64 * 1024.0 / 300_000.0;
    assert!(per_game < 128.0, "{per_game:.0} bytes a game ({peaks:?} KiB)");
}
