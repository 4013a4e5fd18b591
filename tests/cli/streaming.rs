//! Output while the input is read: `validate` shows its first findings
//! before the input ends, and stops when its output is closed
//! (`arbiter validate big.pgn | head -3`). Watchdogs bound the runs; no
//! test measures speed.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use crate::util::wait_within;

/// A game with a warning (no Round tag).
const GAME: &[u8] = b"[Event \"e\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[White \"a\"]\n\
[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";

/// A game without findings.
const CLEAN: &[u8] = b"[Event \"e\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n\
[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";

/// Generous: a watchdog for a run that would otherwise never end.
const LIMIT: Duration = Duration::from_secs(120);

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the arbiter binary runs")
}

#[test]
fn findings_show_before_the_input_ends() {
    let args = ["validate", "-q", "--chunk-size", "4096", "-"];
    let mut child = spawn(&args);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first);
    });
    // One finding, then clean games: more than a stream reads before its
    // first chunk is cut, far less output than fills a buffer. The input
    // stays open.
    stdin.write_all(GAME).expect("arbiter reads its input");
    for _ in 0..(1 << 20) / CLEAN.len() {
        stdin.write_all(CLEAN).expect("arbiter reads its input");
    }
    stdin.flush().expect("flush");
    let first = rx.recv_timeout(LIMIT);
    drop(stdin);
    wait_within(&mut child, LIMIT, &args);
    let first = first.expect("a finding before the input ended");
    assert!(first.contains("warning[W"), "{first}");
}

#[test]
fn a_closed_output_ends_the_run() {
    let args = ["validate", "-q", "-"];
    let mut child = spawn(&args);
    let mut stdin = child.stdin.take().expect("piped stdin");
    // An endless input: only the closed output can end the run.
    std::thread::spawn(move || while stdin.write_all(GAME).is_ok() {});
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    for _ in 0..3 {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read a line");
        assert!(line.contains("warning[W"), "{line}");
    }
    drop(stdout);
    let status = wait_within(&mut child, LIMIT, &args);
    // A closed pipe is a normal way to stop.
    assert_eq!(status.code(), Some(0));
}

/// A file of tiny games (34 bytes each, 60,000 in a chunk of 2 MiB) holds
/// no more records in memory than one of real games: a chunk's records go
/// to the sink a piece at a time, its worker waiting meanwhile. A chunk's
/// were held all at once: 240 MB for `games -j2` of 500,000 of them, 630
/// MB for `db build` (31 and 116 MB now).
#[test]
fn a_file_of_tiny_games_costs_no_more_memory_than_one_of_real_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.pgn");
    let games = 500_000;
    let mut text = Vec::with_capacity(games * 34);
    for _ in 0..games {
        text.extend_from_slice(b"[White \"p\"]\n[Black \"q\"]\n\n1. e4 *\n\n");
    }
    std::fs::write(&path, &text).unwrap();
    let file = path.to_str().unwrap();
    let args = ["games", "-q", "-j2", "--format", "jsonl", file];
    let Some((stdout, peak_kib)) = crate::util::least_peak_memory(&args, 2) else { return };
    assert_eq!(stdout.iter().filter(|&&b| b == b'\n').count(), games, "every game, once");
    assert!(peak_kib < 100 * 1024, "games: {peak_kib} KiB peak for tiny games");
    #[cfg(feature = "db")]
    {
        let db = dir.path().join("db");
        let args = ["db", "build", "-q", "-j2", file, "-o", db.to_str().unwrap()];
        let Some((_, peak_kib)) = crate::util::peak_memory(&args) else { return };
        assert!(peak_kib < 250 * 1024, "db build: {peak_kib} KiB peak for tiny games");
        let info = crate::util::run(&["db", "info", db.to_str().unwrap()]);
        assert!(info.stdout.contains(&format!("games:    {games}")), "{}", info.stdout);
    }
}
