//! `arbiter validate`: diagnostics, summary, exit codes, standard input,
//! `--errors-only` and `--format jsonl`; plus the input handling shared
//! with `games` (file order, missing files, chunking).

use std::fs;

use crate::util::{Arbiter, Run, fixture, parse_jsonl, records, run};

/// The line after the one equal to `line`, asserting `line` is printed.
fn line_after<'a>(stdout: &'a str, line: &str) -> &'a str {
    let mut lines = stdout.lines();
    assert!(lines.any(|l| l == line), "no line\n  {line}\nin\n{stdout}");
    lines.next().unwrap_or_default()
}

/// The `n` lines after `line`, which must be in `stdout`.
fn lines_after<'a>(stdout: &'a str, line: &str, n: usize) -> Vec<&'a str> {
    let mut lines = stdout.lines();
    assert!(lines.any(|l| l == line), "no line\n  {line}\nin\n{stdout}");
    lines.take(n).collect()
}

fn diagnostic_lines<'a>(run: &'a Run, severity: &str) -> Vec<&'a str> {
    let needle = format!(": {severity}[");
    run.stdout.lines().filter(|l| l.contains(&needle)).collect()
}

// ------------------------------------------------------------- diagnostics

#[test]
fn illegal_move_diagnostic_names_file_line_game_move_and_position() {
    let path = fixture("rules/en_passant.pgn");
    let run = run(&["validate", &path]);
    // The line of the move, with a caret under it, then the position.
    let next = lines_after(
        &run.stdout,
        &format!(
            "{path}:29: error[E101 illegal-move]: game 3 (White - Black, round 3): 4. exd6: illegal move: en passant not possible now: the pawn on d5 did not just advance two squares"
        ),
        4,
    );
    assert_eq!(
        next,
        [
            "   |",
            "29 | 1. e4 Nf6 2. e5 d5 3. Nf3 Nc6 4. exd6 *",
            "   |                                  ^^^^",
            "    FEN: r1bqkb1r/ppp1pppp/2n2n2/3pP3/8/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 4",
        ]
    );
    let next = lines_after(
        &run.stdout,
        &format!(
            "{path}:39: error[E101 illegal-move]: game 4 (White - Black, round 4): 3. exd6: illegal move: en passant not possible now: the pawn on d5 did not just advance two squares"
        ),
        4,
    );
    assert_eq!(next[3].trim(), "FEN: rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    // Games 1 and 2 are valid: exactly two errors.
    assert_eq!(diagnostic_lines(&run, "error").len(), 2, "{}", run.stdout);
    assert_eq!(run.code, Some(1));
}

#[test]
fn diagnostic_for_a_black_move_uses_the_ellipsis() {
    let path = fixture("rules/into_check.pgn");
    let run = run(&["validate", &path]);
    let next = lines_after(
        &run.stdout,
        &format!(
            "{path}:19: error[E101 illegal-move]: game 2 (White - Black, round 2): 2... Nf6: illegal move: Black's king is in check and this does not answer it"
        ),
        4,
    );
    assert_eq!(
        next[3].trim(),
        "FEN: rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"
    );
}

#[test]
fn each_kind_of_move_error_is_described() {
    let path = fixture("bad-input/unknown_tokens.pgn");
    let run = run(&["validate", &path]);
    line_after(
        &run.stdout,
        &format!(
            "{path}:9: error[E105 unparseable-token]: game 1 (White - Black, round 1): 2. foo: unparseable token"
        ),
    );
    let path = fixture("rules/ambiguous.pgn");
    let run = crate::util::run(&["validate", &path]);
    line_after(
        &run.stdout,
        &format!(
            "{path}:9: error[E102 ambiguous-move]: game 1 (White - Black, round 1): 5. Re3: ambiguous move: the rooks on a3 and h3 can reach e3; say which"
        ),
    );
    let path = fixture("rules/promotion.pgn");
    let run = crate::util::run(&["validate", &path]);
    line_after(
        &run.stdout,
        &format!(
            "{path}:35: error[E103 missing-promotion]: game 3 (White - Black, round 3): 2. a8: missing promotion piece: a pawn reaching the last rank must promote: write a8=Q (or =R, =B, =N)"
        ),
    );
}

#[test]
fn warnings_are_diagnostics_too() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", &path]);
    let warnings = diagnostic_lines(&run, "warning");
    // Games 1-6 each have exactly one finding; game 7 none.
    assert_eq!(warnings.len(), 6, "{}", run.stdout);
    for (line, game) in [(9, 1), (19, 2), (29, 3), (39, 4), (49, 5), (61, 6)] {
        // A notation finding: W121 check suffix to W123 non-standard notation.
        let (at, game) = (
            format!("{path}:{line}: warning[W12"),
            format!("]: game {game} (White - Black, round {game}): "),
        );
        assert!(
            warnings.iter().any(|w| w.starts_with(&at) && w.contains(&game)),
            "no {at:?}…{game:?} in\n{}",
            run.stdout
        );
    }
    assert!(diagnostic_lines(&run, "error").is_empty(), "{}", run.stdout);
}

#[test]
fn summary_counts_games_files_errors_and_warnings() {
    let path = fixture("rules/en_passant.pgn");
    let run = run(&["validate", &path]);
    assert!(
        run.stdout.contains(
            "4 games in 1 file: 2 without errors, 2 with errors (2 with an invalid move or start), 0 with warnings"
        ),
        "{}",
        run.stdout
    );
    let notation = fixture("rules/notation.pgn");
    let run = crate::util::run(&["validate", &path, &notation]);
    assert!(
        run.stdout.contains(
            "11 games in 2 files: 9 without errors, 2 with errors (2 with an invalid move or start), 6 with warnings"
        ),
        "{}",
        run.stdout
    );
}

// -------------------------------------------------------------- exit codes

#[test]
fn exit_code_is_0_when_no_game_has_a_finding() {
    let path = fixture("rules/checkmate.pgn");
    let run = run(&["validate", &path]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(diagnostic_lines(&run, "error").is_empty(), "{}", run.stdout);
    assert!(diagnostic_lines(&run, "warning").is_empty(), "{}", run.stdout);
    assert!(run.stdout.contains(
        "4 games in 1 file: 4 without errors, 0 with errors (0 with an invalid move or start), 0 with warnings"
    ));
}

#[test]
fn exit_code_is_0_when_games_have_only_warnings() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", &path]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
}

#[test]
fn exit_code_is_1_when_a_game_has_an_illegal_move() {
    let path = fixture("rules/castling.pgn");
    let run = run(&["validate", &path]);
    assert_eq!(run.code, Some(1));
    // Games 3-9 have an illegal castling.
    assert_eq!(diagnostic_lines(&run, "error").len(), 7, "{}", run.stdout);
}

#[test]
fn exit_code_is_1_when_a_result_contradicts_the_position() {
    // Every move in this file is legal; games 1-5 and 8 are mis-scored.
    let path = fixture("rules/result_consistency.pgn");
    let run = run(&["validate", "--errors-only", &path]);
    assert_eq!(run.code, Some(1));
    let errors = diagnostic_lines(&run, "error");
    assert_eq!(errors.len(), 6, "{}", run.stdout);
    assert!(
        errors.iter().any(|e| e.starts_with(&format!(
            "{path}:1: error[E110 result-contradicts-position]: game 1 (White - Black, round 1): "
        ))),
        "{}",
        run.stdout
    );
}

#[test]
fn exit_code_is_1_when_moves_follow_an_automatic_end() {
    let pgn = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
               [White \"W\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n\
               [FEN \"8/8/8/4k3/8/8/3q4/4K3 w - - 0 1\"]\n\n1. Kxd2 Kd5 2. Kd3 1/2-1/2\n";
    let run = Arbiter::new(&["validate", "-"]).stdin(pgn.as_bytes()).run();
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let errors = diagnostic_lines(&run, "error");
    assert_eq!(errors.len(), 1, "{}", run.stdout);
    assert!(
        errors[0].starts_with("-:1: error[E111 moves-after-end]: game 1 (W - B, round 1): "),
        "{}",
        errors[0]
    );
}

#[test]
fn exit_code_is_2_for_a_missing_file_and_the_other_file_is_still_read() {
    let missing = format!("{}/fixtures/no-such-file.pgn", env!("CARGO_MANIFEST_DIR"));
    let path = fixture("rules/en_passant.pgn");
    let run = run(&["validate", &missing, &path]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains(&missing), "stderr does not name the file:\n{}", run.stderr);
    line_after(
        &run.stdout,
        &format!(
            "{path}:29: error[E101 illegal-move]: game 3 (White - Black, round 3): 4. exd6: illegal move: en passant not possible now: the pawn on d5 did not just advance two squares"
        ),
    );
}

#[test]
fn games_reads_the_other_files_when_one_is_missing() {
    let missing = format!("{}/fixtures/no-such-file.pgn", env!("CARGO_MANIFEST_DIR"));
    let path = fixture("rules/checkmate.pgn");
    let run = run(&["games", "--format", "jsonl", &path, &missing, &path]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains(&missing), "{}", run.stderr);
    let recs = parse_jsonl(&run.stdout);
    assert_eq!(recs.len(), 8);
}

#[test]
fn exit_code_is_2_for_usage_errors() {
    assert_eq!(run(&["validate"]).code, Some(2));
    assert_eq!(run(&["validate", "--no-such-flag", &fixture("rules/checkmate.pgn")]).code, Some(2));
    assert_eq!(run(&["no-such-command"]).code, Some(2));
    assert_eq!(run(&["games", "--format", "xml", &fixture("rules/checkmate.pgn")]).code, Some(2));
}

#[test]
fn a_directory_stands_for_the_pgn_files_in_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).expect("subdirectory");
    fs::copy(fixture("rules/checkmate.pgn"), dir.path().join("b.pgn")).expect("copy");
    fs::copy(fixture("rules/stalemate.pgn"), dir.path().join("a.pgn")).expect("copy");
    fs::copy(fixture("rules/checkmate.pgn"), sub.join("c.pgn")).expect("copy");
    fs::write(dir.path().join("notes.txt"), "not a PGN file").expect("write");
    let dir_path = dir.path().to_str().expect("UTF-8 temp path").to_owned();

    let flat = records(&["games", "--format", "jsonl", &dir_path]);
    let files: Vec<&str> = flat.iter().map(|r| r["file"].as_str().unwrap_or_default()).collect();
    assert!(files.iter().all(|f| f.ends_with("a.pgn") || f.ends_with("b.pgn")), "{files:?}");
    assert!(files.first().is_some_and(|f| f.ends_with("a.pgn")), "name order: {files:?}");

    let deep = records(&["games", "--format", "jsonl", "--recursive", &dir_path]);
    assert_eq!(deep.len(), flat.len() + 4, "the subdirectory's 4 games are added");
    assert!(deep.last().and_then(|r| r["file"].as_str()).is_some_and(|f| f.ends_with("c.pgn")));
}

// ------------------------------------------------------------------- stdin

#[test]
fn dash_reads_standard_input() {
    let bytes = fs::read(fixture("rules/en_passant.pgn")).expect("fixture");
    let run = Arbiter::new(&["validate", "-"]).stdin(&bytes).run();
    assert_eq!(run.code, Some(1));
    line_after(
        &run.stdout,
        "-:29: error[E101 illegal-move]: game 3 (White - Black, round 3): 4. exd6: illegal move: en passant not possible now: the pawn on d5 did not just advance two squares",
    );

    let bytes = fs::read(fixture("rules/checkmate.pgn")).expect("fixture");
    let run = Arbiter::new(&["games", "--format", "jsonl", "-"]).stdin(&bytes).run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let recs = parse_jsonl(&run.stdout);
    assert_eq!(recs.len(), 4);
    assert!(recs.iter().all(|r| r["file"] == "-"), "{recs:#?}");
    assert_eq!(recs[1]["event"], "Scholar's mate");
    assert_eq!(recs[1]["line"], 11);
    assert_eq!(recs[1]["termination_ply"], 7);
}

#[test]
fn standard_input_and_files_mix_in_order() {
    let path = fixture("rules/stalemate.pgn");
    let bytes = fs::read(fixture("rules/checkmate.pgn")).expect("fixture");
    let run = Arbiter::new(&["games", "--format", "jsonl", &path, "-"]).stdin(&bytes).run();
    let recs = parse_jsonl(&run.stdout);
    assert_eq!(recs.len(), 7);
    assert!(recs[..3].iter().all(|r| r["file"] == path.as_str()));
    assert!(recs[3..].iter().all(|r| r["file"] == "-"));
    assert_eq!(recs[3]["index"], 1);
    assert_eq!(recs[3]["event"], "Fool's mate");
}

// ------------------------------------------------------------- errors-only

#[test]
fn errors_only_hides_warnings() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", "--errors-only", &path]);
    assert_eq!(run.code, Some(0));
    assert!(diagnostic_lines(&run, "warning").is_empty(), "{}", run.stdout);

    // Errors are still shown.
    let path = fixture("rules/en_passant.pgn");
    let run = crate::util::run(&["validate", "--errors-only", &path]);
    assert_eq!(run.code, Some(1));
    assert_eq!(diagnostic_lines(&run, "error").len(), 2, "{}", run.stdout);
}

#[test]
fn errors_only_hides_warnings_of_games_with_errors() {
    // Game 7: tag 0-1, marker * (a warning) and nothing else.
    let path = fixture("rules/result_consistency.pgn");
    let all = run(&["validate", &path]);
    let errors_only = run(&["validate", "--errors-only", &path]);
    assert!(!diagnostic_lines(&all, "warning").is_empty(), "{}", all.stdout);
    assert!(diagnostic_lines(&errors_only, "warning").is_empty(), "{}", errors_only.stdout);
    assert_eq!(diagnostic_lines(&all, "error"), diagnostic_lines(&errors_only, "error"));
}

// ----------------------------------------------------------- validate jsonl

#[test]
fn validate_jsonl_prints_only_games_with_findings() {
    let path = fixture("rules/en_passant.pgn");
    let recs = records(&["validate", "--format", "jsonl", &path]);
    let events: Vec<&str> = recs.iter().map(|r| r["event"].as_str().unwrap_or("?")).collect();
    assert_eq!(events, ["En passant one move too late", "En passant after a single step"]);
    assert_eq!(recs[0]["index"], 3);
    assert_eq!(recs[0]["error"]["kind"], "illegal_move");
    assert_eq!(recs[0]["error_ply"], 7);
}

#[test]
fn validate_jsonl_includes_games_with_only_warnings() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", "--format", "jsonl", &path]);
    assert_eq!(run.code, Some(0));
    let recs = parse_jsonl(&run.stdout);
    let indices: Vec<u64> = recs.iter().map(|r| r["index"].as_u64().unwrap_or(0)).collect();
    assert_eq!(indices, [1, 2, 3, 4, 5, 6]);
}

#[test]
fn validate_jsonl_errors_only_prints_only_games_with_errors() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", "--format", "jsonl", "--errors-only", &path]);
    assert_eq!(run.code, Some(0));
    assert!(parse_jsonl(&run.stdout).is_empty(), "{}", run.stdout);

    let path = fixture("rules/moves_after_end.pgn");
    let run = crate::util::run(&["validate", "--format", "jsonl", "--errors-only", &path]);
    assert_eq!(run.code, Some(1));
    // Games 1, 2, 4: legal moves after the end; game 3: illegal move.
    assert_eq!(parse_jsonl(&run.stdout).len(), 4);
}

#[test]
fn validate_jsonl_records_equal_the_games_records() {
    let path = fixture("rules/castling.pgn");
    let all = records(&["games", "--format", "jsonl", &path]);
    let findings = records(&["validate", "--format", "jsonl", &path]);
    assert_eq!(findings.len(), 7);
    for record in &findings {
        let index = record["index"].as_u64().expect("index") as usize;
        assert_eq!(record, &all[index - 1]);
    }
}

// -------------------------------------------------------------- variations

#[test]
fn variations_flag_makes_an_illegal_variation_an_error() {
    let path = fixture("rules/variations.pgn");
    assert_eq!(run(&["validate", &path]).code, Some(0));
    let run = run(&["validate", "--variations", &path]);
    assert_eq!(run.code, Some(1));
    line_after(
        &run.stdout,
        &format!(
            "{path}:9: error[E101 illegal-move]: game 1 (White - Black, round 1): 3. Ke3: illegal move in a variation: no White king can reach e3"
        ),
    );
}

// ------------------------------------------------------- files and chunks

#[test]
fn records_follow_file_order_with_per_file_indices() {
    let a = fixture("rules/checkmate.pgn");
    let b = fixture("rules/stalemate.pgn");
    let recs = records(&["games", "--format", "jsonl", &b, &a, &b]);
    let got: Vec<(String, u64)> = recs
        .iter()
        .map(|r| (r["file"].as_str().unwrap_or("?").to_owned(), r["index"].as_u64().unwrap_or(0)))
        .collect();
    let mut want = Vec::new();
    for (file, n) in [(&b, 3), (&a, 4), (&b, 3)] {
        want.extend((1..=n).map(|i| (file.clone(), i)));
    }
    assert_eq!(got, want);
}

// ----------------------------------------------------------- codes, --disable

/// validate names each finding by the code `check` gives it, and
/// `--disable` leaves a code out: its findings are not shown, and an error
/// left out does not fail the run.
#[test]
fn findings_carry_check_s_codes_and_disable_leaves_a_code_out() {
    let path = fixture("rules/en_passant.pgn");
    let run = run(&["validate", &path]);
    assert_eq!(run.code, Some(1));
    let checked = crate::util::run(&["check", "--format", "jsonl", &path]);
    let codes: Vec<String> = parse_jsonl(&checked.stdout)
        .iter()
        .filter(|f| f["code"].as_str().is_some_and(|c| c.starts_with("E10")))
        .map(|f| {
            format!(
                "{}:{}: error[{} {}]",
                path,
                f["line"],
                f["code"].as_str().unwrap(),
                f["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(codes.len(), 2, "{}", checked.stdout);
    for code in &codes {
        assert!(
            run.stdout.lines().any(|l| l.starts_with(code.as_str())),
            "no {code} in\n{}",
            run.stdout
        );
    }
    for disable in ["E101", "illegal-move", "e101"] {
        let run = crate::util::run(&["validate", "--disable", disable, &path]);
        assert_eq!(run.code, Some(0), "{disable}: {}", run.stdout);
        assert!(diagnostic_lines(&run, "error").is_empty(), "{}", run.stdout);
    }
    // JSON Lines: a game whose findings are all left out is not printed.
    let all = records(&["validate", "--format", "jsonl", &path]);
    let left = records(&[
        "validate",
        "--format",
        "jsonl",
        "--disable",
        "W301",
        "--disable",
        "E101",
        &path,
    ]);
    assert!(left.len() < all.len(), "{} records, {} left", all.len(), left.len());
    let run = crate::util::run(&["validate", "--disable", "E999", &path]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("no such code: E999"), "{}", run.stderr);
}

/// A disabled warning code is left out; the others stay.
#[test]
fn disable_leaves_out_warnings_of_one_code_only() {
    let path = fixture("rules/notation.pgn");
    let all = run(&["validate", &path]);
    let some = run(&["validate", "--disable", "W121", &path]);
    let (all, some) = (diagnostic_lines(&all, "warning"), diagnostic_lines(&some, "warning"));
    let w121 = all.iter().filter(|w| w.contains("warning[W121 check-suffix]")).count();
    assert!(w121 > 0 && some.len() == all.len() - w121, "{all:#?}\n{some:#?}");
    assert!(some.iter().all(|w| !w.contains("W121")));
}

/// The summary counts the findings of each code, the most frequent first,
/// each as many as the diagnostics printed.
#[test]
fn the_summary_counts_findings_by_code() {
    let path = fixture("rules/notation.pgn");
    let run = run(&["validate", &path]);
    let counts = code_counts(&run.stdout);
    assert!(!counts.is_empty(), "{}", run.stdout);
    for (code, n, more) in &counts {
        let printed =
            run.stdout.lines().filter(|l| l.contains(&format!("warning[{code} "))).count();
        assert_eq!((printed as u64, *more), (*n, 0), "{code}\n{}", run.stdout);
    }
    let ns: Vec<u64> = counts.iter().map(|(_, n, _)| *n).collect();
    assert!(ns.windows(2).all(|w| w[0] >= w[1]), "not sorted by count: {ns:?}");
}

/// `--max-per-code N` shows the first N findings of each code; the
/// summary still counts them all and says how many were not shown, and
/// the exit status is the same.
#[test]
fn max_per_code_caps_each_code_and_the_summary_says_how_many_more() {
    let path = fixture("sample.pgn");
    let all = run(&["validate", &path]);
    let capped = run(&["validate", "--max-per-code", "2", &path]);
    assert_eq!((all.code, capped.code), (Some(1), Some(1)));
    assert_eq!(code_counts(&all.stdout).len(), code_counts(&capped.stdout).len());
    for ((code, n, _), (capped_code, capped_n, more)) in
        code_counts(&all.stdout).into_iter().zip(code_counts(&capped.stdout))
    {
        assert_eq!((&code, n), (&capped_code, capped_n));
        let shown =
            capped.stdout.lines().filter(|l| l.contains(&format!("[{code} "))).count() as u64;
        assert_eq!((shown, more), (n.min(2), n.saturating_sub(2)), "{code}\n{}", capped.stdout);
    }
    // The W128 findings (5 of them) are cut to 2, and the first two kept.
    let w128: Vec<&str> = all.stdout.lines().filter(|l| l.contains("[W128 ")).collect();
    let kept: Vec<&str> = capped.stdout.lines().filter(|l| l.contains("[W128 ")).collect();
    assert_eq!((w128.len(), &w128[..2]), (5, &kept[..]));
    // JSON Lines: a game is printed only when one of its findings is
    // shown; the summary goes to standard error with the counts.
    let all = records(&["validate", "--format", "jsonl", &path]);
    let run = run(&["validate", "--format", "jsonl", "--max-per-code", "1", &path]);
    assert_eq!(run.code, Some(1));
    let capped = parse_jsonl(&run.stdout);
    assert!(capped.len() < all.len(), "{} of {}", capped.len(), all.len());
    let counts = code_counts(&run.stderr);
    assert!(counts.contains(&("W128".to_owned(), 5, 4)), "{}", run.stderr);
    // Errors capped to none still fail the run.
    let run = crate::util::run(&["validate", "--max-per-code", "0", &path]);
    assert_eq!(run.code, Some(1));
    assert!(!run.stdout.contains("error["), "{}", run.stdout);
}

/// `disable` in arbiter.toml's `[validate]` table leaves codes out as
/// `--disable` does; `--config` names another file; an unknown code there
/// is an error.
#[test]
fn validate_reads_disabled_codes_from_the_configuration_file() {
    let path = fixture("sample.pgn");
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::write(
        dir.path().join("arbiter.toml"),
        "[validate]\ndisable = [\"E101\", \"empty-game\"]\n",
    )
    .expect("write arbiter.toml");
    let run = Arbiter::new(&["validate", &path]).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("[E101 ") && !run.stdout.contains("[W128 "), "{}", run.stdout);
    assert!(run.stdout.contains("[W123 "), "{}", run.stdout);
    // `[check]` is check's own: validate ignores it.
    let other = dir.path().join("other.toml");
    fs::write(&other, "[check]\ndisable = [\"E101\"]\n").expect("write other.toml");
    let other = other.to_str().expect("UTF-8 path");
    let run = Arbiter::new(&["validate", "--config", other, &path]).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    fs::write(dir.path().join("arbiter.toml"), "[validate]\ndisable = [\"W999\"]\n")
        .expect("write");
    let run = Arbiter::new(&["validate", &path]).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("unknown code \"W999\" in validate.disable"), "{}", run.stderr);
}

/// The `findings by code:` lines of a summary: code, count, and how many
/// were not shown.
fn code_counts(text: &str) -> Vec<(String, u64, u64)> {
    let mut lines = text.lines().skip_while(|l| *l != "findings by code:");
    lines.next();
    lines
        .map_while(|l| l.strip_prefix("  "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let more = l.split_once("… and ").map_or(0, |(_, rest)| {
                rest.split(' ').next().and_then(|n| n.parse().ok()).expect("a count")
            });
            (words[0].to_owned(), words[2].parse().expect("a count"), more)
        })
        .collect()
}

// ------------------------------------------------------------------ --limit

/// `games --limit N` prints the first N games and stops reading: on an
/// input of ten million games it ends at once.
#[test]
fn games_limit_stops_the_run_after_n_records() {
    let game = b"[Event \"E\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n";
    let run = Arbiter::new(&["games", "--format", "jsonl", "--limit", "3", "-"])
        .stdin_repeated(game, 10_000_000)
        .within(std::time::Duration::from_secs(60))
        .run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let records = parse_jsonl(&run.stdout);
    let indices: Vec<_> = records.iter().map(|r| r["index"].as_u64()).collect();
    assert_eq!(indices, [Some(1), Some(2), Some(3)]);
    // CSV: the header and N rows; 0 prints the header only.
    for (limit, lines) in [("2", 3), ("0", 1)] {
        let path = fixture("sample.pgn");
        let run = crate::util::run(&["games", "--limit", limit, &path]);
        assert_eq!((run.code, run.stdout.lines().count()), (Some(0), lines), "{}", run.stdout);
    }
}

/// Issue 21, item 20: the summary's categories add up: games without
/// errors and with errors make all the games; those with an invalid move
/// or start are some of the latter (here none: the errors are results
/// against the final position and moves after the end).
#[test]
fn r21_the_summary_s_categories_add_up() {
    let path = fixture("rules/result_consistency.pgn");
    let run = run(&["validate", &path]);
    let line = "8 games in 1 file: 2 without errors, 6 with errors (0 with an invalid move or start), 2 with warnings";
    assert!(run.stdout.contains(line), "{}", run.stdout);
}

// ------------------------------------------------------------------ colour

/// `--color always` colours diagnostics: the error red, warnings yellow,
/// codes and places bold; by default (not a terminal here) and with
/// `--color never` there is no escape; NO_COLOR turns `auto` off but not
/// `always`. The words are the same either way.
#[test]
fn color_always_colours_errors_and_warnings_and_auto_does_not_into_a_pipe() {
    let path = fixture("sample.pgn");
    let colored = run(&["validate", "--color", "always", &path]);
    assert_eq!(colored.code, Some(1));
    let error = colored.stdout.lines().find(|l| l.contains("E101")).expect("the error line");
    assert_eq!(
        error,
        format!(
            "\x1b[1m{path}:4546\x1b[0m: \x1b[1m\x1b[31merror\x1b[0m[\x1b[1mE101 illegal-move\x1b[0m]: \
             game 207 (Example, Alice - Example, Bob, round 1): 11. Nxe5+: illegal move: no White knight can reach e5"
        )
    );
    let warning = colored.stdout.lines().find(|l| l.contains("W128")).expect("a warning line");
    assert!(warning.contains("\x1b[1m\x1b[33mwarning\x1b[0m"), "{warning:?}");
    let plain = run(&["validate", &path]);
    assert!(!plain.stdout.contains('\x1b'), "{}", plain.stdout);
    assert_eq!(strip_escapes(&colored.stdout), plain.stdout);
    assert_eq!(run(&["validate", "--color", "never", &path]).stdout, plain.stdout);
    // `check` colours its diagnostics the same way.
    let check = run(&["check", "--color", "always", &path]);
    assert!(check.stdout.contains("\x1b[1m\x1b[33mwarning\x1b[0m"), "{}", check.stdout);
    let no_color = |when: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["validate", "--color", when, &path])
            .env("NO_COLOR", "1")
            .env("CLICOLOR_FORCE", "1")
            .output()
            .expect("the arbiter binary runs");
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    assert_eq!(no_color("auto"), plain.stdout);
    assert_eq!(no_color("always"), colored.stdout);
    assert_eq!(run(&["validate", "--color", "sometimes", &path]).code, Some(2));
}

/// `text` without its ANSI escapes (`ESC [ ... m`).
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('\x1b') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('m').expect("an escape ends with m");
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

// ------------------------------------------------------ why a move is illegal

/// Each illegal move says why in the text output, and its record carries
/// the reason's stable code (`validate --format jsonl`).
#[test]
fn an_illegal_move_says_why_in_text_and_as_a_code_in_jsonl() {
    let cases = [
        ("rules/castling.pgn", 43, "a king in check may not castle", "castling_in_check"),
        (
            "rules/castling.pgn",
            65,
            "castling rights lost: White may no longer castle kingside",
            "castling_rights_lost",
        ),
        (
            "rules/pinned_piece.pgn",
            9,
            "leaves the king in check (the knight on c3 is pinned)",
            "leaves_king_in_check",
        ),
        ("rules/into_check.pgn", 9, "the king would be in check on e3", "king_into_check"),
        ("sample.pgn", 4546, "no White knight can reach e5", "no_piece_reaches"),
    ];
    for (file, line, why, code) in cases {
        let path = fixture(file);
        let text = run(&["validate", "--errors-only", &path]);
        let header = format!("{path}:{line}: error[E101 illegal-move]");
        let found = text.stdout.lines().find(|l| l.starts_with(&header));
        assert!(
            found.is_some_and(|l| l.ends_with(&format!("illegal move: {why}"))),
            "{header}...{why} not in\n{}",
            text.stdout
        );
        let recs = records(&["validate", "--format", "jsonl", &path]);
        let rec = recs.iter().find(|r| r["error"]["line"] == line).expect("the record");
        assert_eq!(rec["error"]["reason"], code, "{rec}");
        assert!(rec["error"]["message"].as_str().is_some_and(|m| m.ends_with(why)), "{rec}");
    }
}

/// The excerpt keeps 40 columns either side of the move on a long line
/// (lichess writes a game's movetext on one line) and counts columns by
/// display width, so the caret stands under the move after wide text.
#[test]
fn the_excerpt_of_a_long_line_is_cut_around_the_move() {
    let comment = "{ 漢字の注釈 } ".repeat(20);
    let pgn = format!("[Event \"E\"]\n\n1. e4 {comment}e5 2. Ke3 {comment}*\n");
    let run = Arbiter::new(&["validate", "-"]).stdin(pgn.as_bytes()).run();
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let next = lines_after(
        &run.stdout,
        "-:3: error[E101 illegal-move]: game 1 (? - ?): 2. Ke3: illegal move: no White king can reach e3",
        3,
    );
    let (source, caret) = (next[1], next[2]);
    assert!(source.starts_with("3 | …") && source.ends_with('…'), "{source}");
    let width = |s: &str| unicode_width::UnicodeWidthStr::width(s);
    let before = &source[..source.find("Ke3").expect("the move")];
    assert_eq!(width(before), caret.find('^').expect("a caret"), "{source}\n{caret}");
    assert!(caret.ends_with("^^^"), "{caret}");
}

/// `check --format jsonl` and SARIF give the reason as a stable code.
#[test]
fn check_s_jsonl_and_sarif_carry_the_reason_code() {
    let path = fixture("tournament/faults.pgn");
    let found = records(&["check", "-q", "--format", "jsonl", &path]);
    let illegal = found.iter().find(|f| f["code"] == "E101").expect("the E101 finding");
    assert_eq!(illegal["reason"], "path_blocked");
    assert!(found.iter().filter(|f| f["code"] != "E101").all(|f| f["reason"].is_null()));
    let run = run(&["check", "-q", "--format", "sarif", &path]);
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().cloned().unwrap_or_default();
    let illegal = results.iter().find(|r| r["ruleId"] == "E101").expect("the E101 result");
    assert_eq!(illegal["properties"]["reason"], "path_blocked");
}
