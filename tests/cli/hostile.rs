//! Inputs built to make one step take super-linear time: a tag section of
//! a hundred thousand tags, each given twice (read by the replay, by
//! `check` for the roster's order, and by `games --tags all`, which gives
//! each name once), or once (`fmt`'s check that none is lost), and
//! thousands of short games of the
//! same move between different players (`check`'s search for copies).
//! Each run must finish within a watchdog (a hang fails the test; speed is
//! measured in `benches/`), with every finding where it belongs.

use std::{fs, time::Duration};

use crate::util::{Arbiter, parse_jsonl, warnings_of};

/// Far more than these runs take (under a second each, debug build); the
/// quadratic steps they guard against took a minute or more.
const WATCHDOG: Duration = Duration::from_secs(20);

#[test]
fn a_hundred_thousand_duplicated_tags_are_each_reported_once_on_their_line() {
    let names = 100_000;
    let mut pgn = String::new();
    for _ in 0..2 {
        for n in 0..names {
            pgn.push_str(&format!("[T{n} \"v\"]\n"));
        }
    }
    pgn.push_str("\n1. e4 *\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("tags.pgn");
    fs::write(&path, pgn).expect("write the input");
    let path = path.to_str().expect("UTF-8 path");
    let run = Arbiter::new(&["games", "-q", "--format", "jsonl", path]).within(WATCHDOG).run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let records = parse_jsonl(&run.stdout);
    assert_eq!(records.len(), 1);
    let duplicates = warnings_of(&records[0], "duplicate_tag");
    assert_eq!(duplicates.len(), names);
    for (n, warning) in [0, names / 2, names - 1].map(|n| (n, duplicates[n])) {
        assert_eq!(warning["line"], (names + n + 1) as u64, "{warning}");
        let message = warning["message"].as_str().expect("message");
        assert!(message.starts_with(&format!("tag T{n} appears more than once")), "{message}");
    }
    // `games --tags all` gives each name one field, its first value.
    let args = ["games", "-q", "--format", "jsonl", "--tags", "all", path];
    let run = Arbiter::new(&args).within(WATCHDOG).run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let records = parse_jsonl(&run.stdout);
    let record = records[0].as_object().expect("an object");
    let tags = record.keys().filter(|key| key.starts_with("tag_")).count();
    assert_eq!(tags, names);
    assert_eq!(run.stdout.matches("\"tag_T99999\":").count(), 1);
    assert_eq!(record["tag_T0"], "v");
    // `check` reads every tag again, for the order of the roster.
    let run = Arbiter::new(&["check", "-q", "--format", "jsonl", path]).within(WATCHDOG).run();
    assert!(matches!(run.code, Some(0 | 1)), "exit {:?}\n{}", run.code, run.stderr);
    let findings = parse_jsonl(&run.stdout);
    let reported = findings.iter().filter(|f| f["name"] == "duplicate-tag").count();
    assert_eq!(reported, names);
}

/// `fmt` and `filter --format pgn-export` check that the formatted game
/// has every tag of the original: a lookup a tag was quadratic (a minute
/// for 160,000 tags).
#[test]
fn a_hundred_thousand_tags_are_formatted_in_linear_time() {
    let names = 100_000;
    let mut pgn: String = (0..names).map(|n| format!("[T{n} \"v{n}\"]\n")).collect();
    pgn.push_str("\n1. e4 *\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("tags.pgn");
    fs::write(&path, pgn).expect("write the input");
    let path = path.to_str().expect("UTF-8 path");
    for args in [vec!["fmt", "-q", path], vec!["filter", "-q", "--format", "pgn-export", path]] {
        let run = Arbiter::new(&args).within(WATCHDOG).run();
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout.lines().filter(|l| l.starts_with("[T")).count(), names, "{args:?}");
        assert!(run.stdout.contains("[T99999 \"v99999\"]"), "{args:?}");
    }
}

#[test]
fn thousands_of_short_games_of_one_move_are_checked_for_copies_in_linear_time() {
    let games = 20_000;
    let mut pgn = String::new();
    for n in 0..games {
        pgn.push_str(&format!(
            "[Event \"E\"]\n[Round \"{}\"]\n[White \"White{n}, Anna\"]\n\
             [Black \"Black{n}, Bert\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n",
            n / 100 + 1
        ));
    }
    // One copy, far past the first games, under the players' names in the
    // other colours.
    let copied = games - 10;
    pgn.push_str(&format!(
        "[Event \"E\"]\n[Round \"999\"]\n[White \"Black{copied}, Bert\"]\n\
         [Black \"White{copied}, Anna\"]\n[Result \"0-1\"]\n\n1. e4 0-1\n"
    ));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("short.pgn");
    fs::write(&path, pgn).expect("write the input");
    let path = path.to_str().expect("UTF-8 path");
    let run = Arbiter::new(&["check", "-q", "--format", "jsonl", path]).within(WATCHDOG).run();
    assert!(matches!(run.code, Some(0 | 1)), "exit {:?}\n{}", run.code, run.stderr);
    let copies: Vec<_> = parse_jsonl(&run.stdout)
        .into_iter()
        .filter(|finding| finding["name"] == "duplicate-game")
        .collect();
    assert_eq!(copies.len(), 1, "{copies:#?}");
    assert_eq!(copies[0]["game"], games as u64 + 1);
    let message = copies[0]["message"].as_str().expect("message");
    assert!(message.contains(&format!("(White{copied}, Anna - Black{copied}, Bert)")), "{message}");
}
