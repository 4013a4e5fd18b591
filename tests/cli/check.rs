//! `arbiter check`: every code found at the right place (file, line, game),
//! on the planted faults of fixtures/tournament/faults.pgn (see make.py
//! there: one fault per game of a 10-player round robin) and, for the
//! move-level codes a tournament file rarely shows, on the rules and
//! bad-input fixtures; the clean tournament reports nothing; formats,
//! exit codes, the event format and the configuration file.

use std::{collections::BTreeSet, fs};

use serde_json::Value;

use crate::util::{Arbiter, fixture, parse_jsonl, run};

/// `arbiter check -q --format jsonl fixtures/<relative> <extra>...`: the
/// findings, one JSON object each.
fn findings(relative: &str, extra: &[&str]) -> Vec<Value> {
    let path = fixture(relative);
    let mut args = vec!["check", "-q", "--format", "jsonl", path.as_str()];
    args.extend(extra);
    let run = run(&args);
    assert!(matches!(run.code, Some(0 | 1)), "exit {:?}\n{}", run.code, run.stderr);
    parse_jsonl(&run.stdout)
}

/// Asserts a finding `code` at `line` of game `game` of `relative`.
#[track_caller]
fn assert_found(relative: &str, extra: &[&str], code: &str, line: u64, game: u64) {
    let found = findings(relative, extra);
    let path = fixture(relative);
    let hit = found.iter().find(|f| f["code"] == code && f["line"] == line && f["game"] == game);
    let Some(hit) = hit else {
        let codes: Vec<String> = found
            .iter()
            .map(|f| format!("{} line {} game {}", f["code"], f["line"], f["game"]))
            .collect();
        panic!("no {code} at line {line}, game {game} of {relative}; found:\n{}", codes.join("\n"));
    };
    assert_eq!(hit["file"], path.as_str(), "{hit}");
    let severity = if code.starts_with('E') { "error" } else { "warning" };
    assert_eq!(hit["severity"], severity, "{hit}");
    assert!(hit["hint"].as_str().is_some_and(|h| !h.is_empty()), "{hit}");
    assert!(hit["name"].as_str().is_some_and(|n| !n.is_empty()), "{hit}");
}

/// One test per code: `name: CODE in FILE at LINE, game GAME [with ARGS]`.
macro_rules! found {
    ($($test:ident: $code:literal in $file:literal at $line:literal, game $game:literal $(with $($arg:literal)+)?;)*) => {
        /// Every code a test below looks for.
        const TESTED: &[&str] = &[$($code),*];
        $(
            #[test]
            fn $test() {
                assert_found($file, &[$($($arg),+)?], $code, $line, $game);
            }
        )*
    };
}

const FAULTS: &str = "tournament/faults.pgn";

found! {
    // Moves and results (E1xx, W12x-W13x).
    e101_illegal_move: "E101" in "tournament/faults.pgn" at 567, game 27;
    e102_ambiguous_move: "E102" in "rules/ambiguous.pgn" at 9, game 1;
    e103_missing_promotion: "E103" in "rules/promotion.pgn" at 35, game 3;
    e104_null_move: "E104" in "bad-input/null_move.pgn" at 9, game 1;
    e105_unparseable_token: "E105" in "bad-input/unknown_tokens.pgn" at 9, game 1;
    e106_bad_fen: "E106" in "bad-input/bad_fen.pgn" at 9, game 1;
    e107_unterminated_comment: "E107" in "bad-input/unterminated_comment.pgn" at 9, game 1;
    e108_unterminated_variation: "E108" in "bad-input/unterminated_variation.pgn" at 9, game 1;
    e109_move_after_result: "E109" in "bad-input/move_after_result.pgn" at 9, game 1;
    // Scholar's mate scored 1/2-1/2.
    e110_result_contradicts_position: "E110" in "tournament/faults.pgn" at 1, game 1;
    e111_moves_after_end: "E111" in "rules/moves_after_end.pgn" at 1, game 1;
    e112_result_mismatch: "E112" in "tournament/faults.pgn" at 574, game 28;
    w121_check_suffix: "W121" in "tournament/faults.pgn" at 709, game 34;
    w122_move_number: "W122" in "tournament/faults.pgn" at 770, game 37;
    w123_nonstandard_notation: "W123" in "tournament/faults.pgn" at 729, game 35;
    w124_unmatched_variation_end: "W124" in "bad-input/stray_paren.pgn" at 9, game 1;
    w125_stray_bytes: "W125" in "bad-input/nul_bytes.pgn" at 10, game 1;
    w126_unsupported_variant: "W126" in "rules/unknown_variant.pgn" at 1, game 1;
    w127_impossible_win: "W127" in "rules/impossible_win.pgn" at 1, game 1;
    w128_empty_game: "W128" in "bad-input/no_moves.pgn" at 1, game 1;
    w129_unfinished_game: "W129" in "tournament/faults.pgn" at 593, game 29;
    w130_forfeit: "W130" in "tournament/faults.pgn" at 673, game 33;
    // Players (W2xx).
    w201_rating_changed: "W201" in "tournament/faults.pgn" at 333, game 17;
    w202_title_changed: "W202" in "tournament/faults.pgn" at 354, game 18;
    w203_name_variant_transposed: "W203" in "tournament/faults.pgn" at 245, game 13;
    w203_name_variant_initial: "W203" in "tournament/faults.pgn" at 264, game 14;
    w203_name_variant_case: "W203" in "tournament/faults.pgn" at 311, game 16;
    w204_fide_id_changed: "W204" in "tournament/faults.pgn" at 376, game 19;
    // Headers (W3xx).
    w301_missing_tag: "W301" in "tournament/faults.pgn" at 18, game 2;
    w302_malformed_tag: "W302" in "tournament/faults.pgn" at 40, game 3;
    w303_duplicate_tag: "W303" in "tournament/faults.pgn" at 62, game 4;
    w304_roster_order: "W304" in "tournament/faults.pgn" at 80, game 5;
    w305_invalid_date: "W305" in "tournament/faults.pgn" at 100, game 6;
    w306_malformed_rating: "W306" in "tournament/faults.pgn" at 120, game 7;
    w307_malformed_fide_id: "W307" in "tournament/faults.pgn" at 141, game 8;
    w308_malformed_time_control: "W308" in "tournament/faults.pgn" at 161, game 9;
    w309_date_before_event: "W309" in "tournament/faults.pgn" at 180, game 10;
    w310_several_events: "W310" in "tournament/faults.pgn" at 202, game 11;
    w311_site_mismatch: "W311" in "tournament/faults.pgn" at 225, game 12;
    // Pairings (E40x, W411). Game 32 is a round-7 game labelled 6.6: its
    // players already played games 27 and 28 of round 6.
    e401_player_twice_in_round: "E401" in "tournament/faults.pgn" at 651, game 32;
    // Game 22 is game 21 again with the names swapped.
    e402_duplicate_game: "E402" in "tournament/faults.pgn" at 441, game 22;
    // Game 24 is board 5.3 labelled 5.2.
    e403_duplicate_board: "E403" in "tournament/faults.pgn" at 485, game 24;
    // Game 47, "round 10.1", repeats the pairing of game 42.
    e404_too_many_meetings: "E404" in "tournament/faults.pgn" at 962, game 47 with "--rounds" "9";
    e405_round_out_of_range: "E405" in "tournament/faults.pgn" at 962, game 47 with "--rounds" "9";
    w411_repeat_pairing: "W411" in "tournament/faults.pgn" at 962, game 47;
}

#[test]
fn every_code_has_a_test() {
    let run = run(&["check", "--list-codes"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let listed: BTreeSet<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("| ")?.split(' ').next())
        .filter(|c| c.len() == 4 && c[1..].bytes().all(|b| b.is_ascii_digit()))
        .collect();
    let tested: BTreeSet<&str> = TESTED.iter().copied().collect();
    assert_eq!(listed, tested);
}

/// Exactly the planted faults: nothing else is reported on faults.pgn.
#[test]
fn faults_are_exactly_the_planted_ones() {
    let found: Vec<(String, u64)> = findings(FAULTS, &[])
        .iter()
        .map(|f| {
            (f["code"].as_str().unwrap_or_default().to_owned(), f["line"].as_u64().unwrap_or(0))
        })
        .collect();
    let expected = [
        ("E110", 1),
        ("W301", 18),
        ("W302", 40),
        ("W303", 62),
        ("W304", 80),
        ("W305", 100),
        ("W306", 120),
        ("W307", 141),
        ("W308", 161),
        ("W309", 180),
        ("W310", 202),
        ("W311", 225),
        ("W203", 245),
        ("W203", 264),
        ("W203", 311),
        ("W201", 333),
        ("W202", 354),
        ("W204", 376),
        ("E402", 441),
        ("E403", 485),
        ("E101", 567),
        ("E112", 574),
        ("W129", 593),
        // Both players of game 32.
        ("E401", 651),
        ("E401", 651),
        ("W130", 673),
        ("W121", 709),
        ("W123", 729),
        ("W122", 770),
        ("W411", 962),
    ];
    let expected: Vec<(String, u64)> =
        expected.iter().map(|(c, l)| ((*c).to_owned(), *l)).collect();
    assert_eq!(found, expected);
}

#[test]
fn the_clean_tournament_reports_nothing() {
    let path = fixture("tournament/clean.pgn");
    let run = run(&["check", "-q", &path]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "45 games in 1 file: 0 errors, 0 warnings\n\
         draws confirmed by the final position: 1 (stalemate 1)\n"
    );
    let run = crate::util::run(&["check", "-q", "--deny", "warnings", "--rounds", "9", &path]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
}

#[test]
fn text_diagnostics_name_code_place_and_hint() {
    let path = fixture(FAULTS);
    let run = run(&["check", "-q", &path]);
    assert_eq!(run.code, Some(1));
    let expected = format!(
        "{path}:567: error[E101 illegal-move]: game 27 (Eriksen, Øystein - Almeida, João, round 6.1): 5... Qh4: illegal move\n\
         \x20   FEN: rnbqkb1r/1pp1pppp/p7/3p4/2PPn3/N3B3/PPQ1PPPP/R3KBNR b KQkq - 1 5\n\
         \x20   hint: Correct the move from the scoresheet; the FEN shows the position before it.\n"
    );
    assert!(run.stdout.contains(&expected), "{}", run.stdout);
    assert!(run.stdout.contains("47 games in 1 file: 7 errors, 23 warnings\n"), "{}", run.stdout);
}

#[test]
fn a_move_error_has_its_ply_and_fen() {
    let found = findings(FAULTS, &[]);
    let illegal = found.iter().find(|f| f["code"] == "E101").cloned().unwrap_or_default();
    assert_eq!(illegal["ply"], 10);
    assert_eq!(illegal["white"], "Eriksen, Øystein");
    assert_eq!(illegal["round"], "6.1");
    assert_eq!(illegal["fen"], "rnbqkb1r/1pp1pppp/p7/3p4/2PPn3/N3B3/PPQ1PPPP/R3KBNR b KQkq - 1 5");
}

#[test]
fn byes_are_not_findings_but_a_forfeit_is() {
    // The Swiss has a bye each round (a game against "BYE" without moves)
    // and one forfeit (game 7).
    let found = findings("tournament/swiss.pgn", &[]);
    let codes: Vec<(&str, u64)> = found
        .iter()
        .map(|f| (f["code"].as_str().unwrap_or_default(), f["game"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(codes, [("W130", 7)]);
}

#[test]
fn warnings_fail_only_when_denied() {
    let path = fixture("tournament/swiss.pgn");
    assert_eq!(run(&["check", "-q", &path]).code, Some(0));
    assert_eq!(run(&["check", "-q", "--deny", "warnings", &path]).code, Some(1));
}

#[test]
fn an_unreadable_input_is_status_2_and_the_others_are_checked() {
    let path = fixture("tournament/swiss.pgn");
    let run = run(&["check", "-q", "/nonexistent/x.pgn", &path]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("/nonexistent/x.pgn"), "{}", run.stderr);
    assert!(run.stdout.contains("W130 forfeit"), "{}", run.stdout);
}

#[test]
fn the_event_format_decides_how_often_a_pair_may_meet() {
    let codes = |extra: &[&str]| -> Vec<String> {
        findings(FAULTS, extra)
            .iter()
            .filter(|f| f["game"] == 47)
            .map(|f| f["code"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(codes(&[]), ["W411"]);
    assert_eq!(codes(&["--double-round-robin"]), Vec::<String>::new());
    // 18 rounds of 10 players: two cycles, two meetings allowed.
    assert_eq!(codes(&["--rounds", "18"]), Vec::<String>::new());
    assert_eq!(codes(&["--rounds", "9"]), ["E404", "E405"]);
}

#[test]
fn the_configuration_file_disables_codes_and_sets_the_format() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let swiss = fixture("tournament/swiss.pgn");
    let faults = fixture(FAULTS);
    fs::write(
        dir.path().join("arbiter.toml"),
        "[check]\ndisable = [\"forfeit\"]\ndeny-warnings = true\n",
    )
    .expect("write arbiter.toml");
    let run = Arbiter::new(&["check", "-q", &swiss]).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("disabled: W130\n"), "{}", run.stdout);
    let other = dir.path().join("round-robin.toml");
    fs::write(&other, "[event]\nformat = \"round-robin\"\n").expect("write the config");
    let other = other.to_str().expect("UTF-8 path");
    let args = ["check", "-q", "--config", other, "--format", "jsonl", &faults];
    let run = Arbiter::new(&args).current_dir(dir.path()).run();
    let codes: Vec<Value> = parse_jsonl(&run.stdout)
        .into_iter()
        .filter(|f| f["game"] == 47)
        .map(|f| f["code"].clone())
        .collect();
    assert_eq!(codes, ["E404"]);
}

#[test]
fn a_bad_configuration_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let swiss = fixture("tournament/swiss.pgn");
    fs::write(dir.path().join("arbiter.toml"), "[check]\ndisable = [\"W999\"]\n").expect("write");
    let run = Arbiter::new(&["check", "-q", &swiss]).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("unknown code \"W999\""), "{}", run.stderr);
    let args = ["check", "-q", "--config", "missing.toml", &swiss];
    let run = Arbiter::new(&args).current_dir(dir.path()).run();
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("missing.toml"), "{}", run.stderr);
}

#[test]
fn sarif_holds_the_same_findings() {
    let path = fixture(FAULTS);
    let run = run(&["check", "-q", "--format", "sarif", &path]);
    assert_eq!(run.code, Some(1));
    let log: Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let sarif_run = &log["runs"][0];
    assert_eq!(sarif_run["tool"]["driver"]["name"], "arbiter");
    let results = sarif_run["results"].as_array().cloned().unwrap_or_default();
    let jsonl = findings(FAULTS, &[]);
    assert_eq!(results.len(), jsonl.len());
    for (result, finding) in results.iter().zip(&jsonl) {
        assert_eq!(result["ruleId"], finding["code"]);
        assert_eq!(result["level"], finding["severity"]);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["region"]["startLine"], finding["line"]);
        let rule = &sarif_run["tool"]["driver"]["rules"]
            [result["ruleIndex"].as_u64().unwrap_or(0) as usize];
        assert_eq!(rule["id"], result["ruleId"]);
    }
    // The summary goes to standard error beside data.
    assert!(run.stderr.contains("47 games in 1 file"), "{}", run.stderr);
}
