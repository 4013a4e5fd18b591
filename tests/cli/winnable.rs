//! `arbiter winnable`: the unwinnability analysis over the labelled
//! fixtures of fixtures/unwinnability (see SOURCES.md there): no verdict
//! contradicts a label, and every side a label says cannot mate is proved
//! so; FEN arguments print the labels; a wrong label fails the run.

use std::fs;

use crate::util::{fixture, run};

/// The `# name: value` counts of a `--file` run.
fn count(stdout: &str, name: &str) -> u64 {
    let prefix = format!("# {name}: ");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {name:?} in {stdout}"));
    line[prefix.len()..].split(' ').next().and_then(|n| n.parse().ok()).expect("a count")
}

/// Runs `winnable --quiet --file` on a fixture and checks the verdicts.
fn check_fixture(relative: &str, positions: u64) {
    let path = fixture(relative);
    let run = run(&["winnable", "--quiet", "--file", &path]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert_eq!(count(&run.stdout, "positions"), positions);
    assert_eq!(count(&run.stdout, "sides unsound"), 0, "{}", run.stdout);
    let found = run.stdout.lines().find(|l| l.starts_with("# sides proved unable")).unwrap();
    assert!(found.ends_with("(missed: 0)"), "{}", run.stdout);
    assert_eq!(count(&run.stdout, "dead positions the pre-filter missed"), 0, "{}", run.stdout);
}

#[test]
fn lichess_subset_sound_and_complete() {
    check_fixture("unwinnability/lichess-subset.txt", 3404);
}

#[test]
fn hard_positions_sound_and_complete() {
    check_fixture("unwinnability/hard.txt", 334);
}

#[test]
fn fen_arguments_print_labels() {
    let run = run(&[
        "winnable",
        "8/8/3k3p/1p2p1pP/1P2P1P1/8/2K5/8 b - - 88 93",
        "8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let labels: Vec<&str> = run.stdout.lines().map(|l| &l[..2]).collect();
    assert_eq!(labels, ["--", "W-", "WB"]);
    assert!(run.stdout.lines().nth(1).unwrap().ends_with("8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1"));
}

#[test]
fn a_budget_too_small_leaves_sides_undetermined() {
    let run = run(&[
        "winnable",
        "--budget",
        "0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("?? "), "{}", run.stdout);
}

#[test]
fn a_contradicted_label_fails_the_run() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("wrong.txt");
    // A bare king labelled as able to mate.
    fs::write(&file, "# wrong on purpose\nWB 8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1\n").unwrap();
    let run = run(&["winnable", "--file", file.to_str().unwrap()]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("# contradicts the label"), "{}", run.stdout);
    assert_eq!(count(&run.stdout, "sides unsound"), 1);
}

#[test]
fn bad_lines_are_usage_errors() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("bad.txt");
    fs::write(&file, "XX 8/8/3k4/8/5Q2/8/2K5/8 b - - 0 1\n").unwrap();
    let bad = run(&["winnable", "--file", file.to_str().unwrap()]);
    assert_eq!(bad.code, Some(2), "{}{}", bad.stdout, bad.stderr);
    assert!(bad.stderr.contains("bad.txt:1"), "{}", bad.stderr);
    assert_eq!(run(&["winnable", "not a fen"]).code, Some(2));
    assert_eq!(run(&["winnable"]).code, Some(2));
}
