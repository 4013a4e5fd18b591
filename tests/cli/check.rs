//! `arbiter check`: every code found at the right place (file, line, game)
//! with its message, from one table (`EXPECTED`): the planted faults of
//! fixtures/tournament/faults.pgn (see make.py there: one fault per game of
//! a 10-player round robin), which are all a plain run reports there, and,
//! for the move-level codes a tournament file rarely shows, the rules and
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

/// A finding that a run of `check` must report: one row of [`EXPECTED`].
#[derive(Debug)]
struct Expected {
    /// The test that looks for it.
    test: &'static str,
    code: &'static str,
    /// The input, under `fixtures/`.
    file: &'static str,
    line: u64,
    game: u64,
    /// A fragment of its message.
    says: &'static str,
    /// Options of the run beyond `check -q --format jsonl FILE`.
    with: &'static [&'static str],
}

impl Expected {
    /// Whether `finding` is this one.
    fn is(&self, finding: &Value) -> bool {
        finding["code"] == self.code
            && finding["line"] == self.line
            && finding["game"] == self.game
            && finding["message"].as_str().is_some_and(|m| m.contains(self.says))
    }
}

/// Asserts the finding of the row of [`EXPECTED`] for test `test`: at its
/// place, with its file, severity, name and hint.
#[track_caller]
fn assert_found(test: &str) {
    let expected = EXPECTED.iter().find(|e| e.test == test).expect("a row for the test");
    let found = findings(expected.file, expected.with);
    let Some(hit) = found.iter().find(|f| expected.is(f)) else {
        let codes: Vec<String> = found
            .iter()
            .map(|f| {
                format!("{} line {} game {}: {}", f["code"], f["line"], f["game"], f["message"])
            })
            .collect();
        panic!("no finding {expected:?}; found:\n{}", codes.join("\n"));
    };
    assert_eq!(hit["file"], fixture(expected.file).as_str(), "{hit}");
    let severity = if expected.code.starts_with('E') { "error" } else { "warning" };
    assert_eq!(hit["severity"], severity, "{hit}");
    assert!(hit["hint"].as_str().is_some_and(|h| !h.is_empty()), "{hit}");
    assert!(hit["name"].as_str().is_some_and(|n| !n.is_empty()), "{hit}");
}

/// The table [`EXPECTED`] and one test per row:
/// `name: CODE in FILE, line LINE, game GAME, says "FRAGMENT" [with ARGS]`.
macro_rules! expected {
    ($($test:ident: $code:literal in $file:expr, line $line:literal, game $game:literal,
        says $says:literal $(with $($arg:literal)+)?;)*) => {
        /// Every finding a test looks for. The rows in FAULTS without
        /// options are its planted faults, in file order.
        const EXPECTED: &[Expected] = &[$(Expected {
            test: stringify!($test),
            code: $code,
            file: $file,
            line: $line,
            game: $game,
            says: $says,
            with: &[$($($arg),+)?],
        }),*];
        $(
            #[test]
            fn $test() {
                assert_found(stringify!($test));
            }
        )*
    };
}

/// One fault planted in each game (fixtures/tournament/make.py), plus a
/// copied game and a repeated pairing.
const FAULTS: &str = "tournament/faults.pgn";

expected! {
    // The planted faults of FAULTS, in file order. Scholar's mate scored
    // 1/2-1/2.
    e110_result_contradicts_position: "E110" in FAULTS, line 1, game 1,
        says "result 1/2-1/2 contradicts the final position: checkmate after ply 7";
    // Headers (W3xx).
    w301_missing_tag: "W301" in FAULTS, line 18, game 2,
        says "missing Seven Tag Roster tag Site";
    w302_malformed_tag: "W302" in FAULTS, line 40, game 3,
        says "Date \"2024-03-01\": not a date";
    w303_duplicate_tag: "W303" in FAULTS, line 62, game 4,
        says "tag Round appears more than once";
    w304_roster_order: "W304" in FAULTS, line 80, game 5,
        says "the first tags are Event, Date, Site, Round";
    w305_invalid_date: "W305" in FAULTS, line 100, game 6,
        says "Date \"2024.03.32\": month 3 has 31 days";
    w306_malformed_rating: "W306" in FAULTS, line 120, game 7,
        says "WhiteElo \"27O0\": not a rating";
    w307_malformed_fide_id: "W307" in FAULTS, line 141, game 8,
        says "BlackFideId \"1OOOOO22\": not a FIDE ID";
    w308_malformed_time_control: "W308" in FAULTS, line 161, game 9,
        says "TimeControl \"90m+30s\": not of the form";
    w309_date_before_event: "W309" in FAULTS, line 180, game 10,
        says "Date \"2024.02.28\" is before EventDate \"2024.03.01\"";
    w310_several_events: "W310" in FAULTS, line 202, game 11,
        says "\"Arbiter Invitational 2042\" (1 game";
    w311_site_mismatch: "W311" in FAULTS, line 225, game 12,
        says "Site \"Utrecht\", but \"Utrecht NED\"";
    // Players (W2xx).
    w203_name_variant_transposed: "W203" in FAULTS, line 245, game 13,
        says "\"Pieter Jansen\" (1 game) looks like a spelling of \"Jansen, Pieter\"";
    w203_name_variant_initial: "W203" in FAULTS, line 264, game 14,
        says "\"Eriksen,Ø\" (1 game) looks like a spelling of \"Eriksen, Øystein\"";
    w203_name_variant_case: "W203" in FAULTS, line 311, game 16,
        says "\"GUPTA, ARJUN\" (1 game) looks like a spelling of \"Gupta, Arjun\"";
    w201_rating_changed: "W201" in FAULTS, line 333, game 17,
        says "WhiteElo \"2537\" for Horvath, Katalin, but \"2532\"";
    w202_title_changed: "W202" in FAULTS, line 354, game 18,
        says "WhiteTitle \"CM\" for Eriksen, Øystein, but \"FM\"";
    w204_fide_id_changed: "W204" in FAULTS, line 376, game 19,
        says "WhiteFideId \"10999999\" for Jansen, Pieter, but \"10000100\"";
    // Pairings (E40x, W411). Game 22 is game 21 again with the names
    // swapped.
    e402_duplicate_game: "E402" in FAULTS, line 441, game 22,
        says "the same 64 plies as game 21 (line 420)";
    // Game 24 is board 5.3 labelled 5.2.
    e403_duplicate_board: "E403" in FAULTS, line 485, game 24,
        says "round 5, board 2 holds two games: also game 23";
    // Moves and results (E1xx, W12x-W13x).
    e101_illegal_move: "E101" in FAULTS, line 567, game 27,
        says "5... Qh4: illegal move: no Black queen can reach h4: the way from d8 is blocked";
    e112_result_mismatch: "E112" in FAULTS, line 574, game 28,
        says "Result tag 0-1 but the movetext ends with 1-0";
    w129_unfinished_game: "W129" in FAULTS, line 593, game 29,
        says "scored * (unfinished or unknown result)";
    // Game 32 is a round-7 game labelled 6.6: both its players already
    // played in round 6, in games 27 and 28.
    e401_player_twice_in_round_white: "E401" in FAULTS, line 651, game 32,
        says "Almeida, João plays twice in round 6: also game 27";
    e401_player_twice_in_round_black: "E401" in FAULTS, line 651, game 32,
        says "Dvořák, Tomáš plays twice in round 6: also game 28";
    w130_forfeit: "W130" in FAULTS, line 673, game 33,
        says "no moves, scored 1-0: a forfeit?";
    w121_check_suffix: "W121" in FAULTS, line 709, game 34,
        says "Bc4 gives check but has no + or #";
    w123_nonstandard_notation: "W123" in FAULTS, line 729, game 35,
        says "0-0 (not SAN) read as O-O";
    w122_move_number: "W122" in FAULTS, line 770, game 37,
        says "move number 6 stands where move 5 is played";
    // Game 47, "round 10.1", repeats the pairing of game 42: a warning
    // while the format is unknown, errors in an event of 9 rounds.
    w411_repeat_pairing: "W411" in FAULTS, line 962, game 47,
        says "Almeida, João and Berg, Ingrid meet for the 2nd time (first: game 42";
    e404_too_many_meetings: "E404" in FAULTS, line 962, game 47,
        says "meet for the 2nd time (first: game 42 (line 858)); the format allows 1"
        with "--rounds" "9";
    e405_round_out_of_range: "E405" in FAULTS, line 962, game 47,
        says "round 10 in an event of 9 rounds" with "--rounds" "9";
    // A player on both sides: the same name, or one name but for case.
    e406_self_pairing: "E406" in "tournament/self_pairing.pgn", line 11, game 2,
        says "Kowalski, Marek plays against themselves";
    e406_self_pairing_in_capitals: "E406" in "tournament/self_pairing.pgn", line 21, game 3,
        says "\"OKAFOR, Chidi\" and \"Okafor, Chidi\", one player's names, play each other";
    // Move-level codes a tournament file rarely shows, in the rules and
    // bad-input fixtures.
    e102_ambiguous_move: "E102" in "rules/ambiguous.pgn", line 9, game 1,
        says "5. Re3: ambiguous move: the rooks on a3 and h3 can reach e3; say which";
    e103_missing_promotion: "E103" in "rules/promotion.pgn", line 35, game 3,
        says "2. a8: missing promotion piece: a pawn reaching the last rank must promote";
    e104_null_move: "E104" in "bad-input/null_move.pgn", line 9, game 1,
        says "1... --: null move";
    e105_unparseable_token: "E105" in "bad-input/unknown_tokens.pgn", line 9, game 1,
        says "2. foo: unparseable token";
    e106_bad_fen: "E106" in "bad-input/bad_fen.pgn", line 9, game 1,
        says "bad FEN: illegal position: missing king";
    e107_unterminated_comment: "E107" in "bad-input/unterminated_comment.pgn", line 9, game 1,
        says "2... {: unterminated comment";
    e108_unterminated_variation: "E108" in "bad-input/unterminated_variation.pgn", line 9, game 1,
        says "2. (: unterminated variation";
    e109_move_after_result: "E109" in "bad-input/move_after_result.pgn", line 9, game 1,
        says "2. Nf3: move after the result";
    e113_variations_too_deep: "E113" in "bad-input/deep_variations.pgn", line 9, game 1,
        says "variations nested too deeply" with "--variations";
    e114_game_too_large: "E114" in "bad-input/game_too_large.pgn.zst", line 1, game 1,
        says "17000135 bytes before the next game, more than the 16 MiB a game may take";
    e115_timeout_draw: "E115" in "rules/timeout.pgn", line 1, game 1,
        says "0-1 on time, but black cannot checkmate by any series of legal moves: a draw (Art. 6.9)";
    e111_moves_after_end: "E111" in "rules/moves_after_end.pgn", line 1, game 1,
        says "2 plies played after the game ended by insufficient material";
    w124_unmatched_variation_end: "W124" in "bad-input/stray_paren.pgn", line 9, game 1,
        says "`)` without a matching `(`";
    w125_stray_bytes: "W125" in "bad-input/nul_bytes.pgn", line 10, game 1,
        says "control bytes (e.g. NUL) in the movetext";
    w126_unsupported_variant: "W126" in "rules/unknown_variant.pgn", line 1, game 1,
        says "variant \"Bughouse\" is not supported";
    w127_impossible_win: "W127" in "rules/impossible_win.pgn", line 1, game 1,
        says "white cannot checkmate by any series of legal moves";
    w128_empty_game: "W128" in "bad-input/no_moves.pgn", line 1, game 1,
        says "game without moves";
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
    let tested: BTreeSet<&str> = EXPECTED.iter().map(|e| e.code).collect();
    assert_eq!(listed, tested);
}

/// Exactly the planted faults, in file order: the rows of [`EXPECTED`] in
/// FAULTS found by a plain run, and nothing else.
#[test]
fn faults_are_exactly_the_planted_ones() {
    let found = findings(FAULTS, &[]);
    let planted: Vec<&Expected> =
        EXPECTED.iter().filter(|e| e.file == FAULTS && e.with.is_empty()).collect();
    let place = |code: &str, line: u64, game: u64| format!("{code} line {line} game {game}");
    let found_places: Vec<String> = found
        .iter()
        .map(|f| {
            let (line, game) = (f["line"].as_u64().unwrap_or(0), f["game"].as_u64().unwrap_or(0));
            place(f["code"].as_str().unwrap_or_default(), line, game)
        })
        .collect();
    let planted_places: Vec<String> =
        planted.iter().map(|e| place(e.code, e.line, e.game)).collect();
    assert_eq!(found_places, planted_places);
    for (finding, expected) in found.iter().zip(&planted) {
        assert!(expected.is(finding), "expected {expected:?}, found {finding}");
    }
}

#[test]
fn several_events_are_one_finding_of_bounded_length() {
    // Twenty events: the first five named, the others counted.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("events.pgn");
    let pgn: String =
        (0..20).map(|i| format!("[Event \"Open {i}\"]\n[Round \"1\"]\n\n1. e4 *\n\n")).collect();
    std::fs::write(&file, pgn).unwrap();
    let found = findings(file.to_str().unwrap(), &[]);
    let several: Vec<&Value> = found.iter().filter(|f| f["code"] == "W310").collect();
    assert_eq!(several.len(), 1, "{found:?}");
    let message = several[0]["message"].as_str().unwrap();
    assert!(message.starts_with("20 events in the input: "), "{message}");
    assert!(message.contains("Open 4") && !message.contains("Open 5"), "{message}");
    assert!(message.ends_with("and 15 more"), "{message}");
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
        "{path}:567: error[E101 illegal-move]: game 27 (Eriksen, Øystein - Almeida, João, round 6.1): 5... Qh4: illegal move: no Black queen can reach h4: the way from d8 is blocked\n\
         \x20   |\n\
         567 | …a6 2. c4 Nf6 3. Qc2 Ne4 4. d4 d5 5. Be3 Qh4 6. O-O-O c6 7. Bf4 Qd6 8. c5\n\
         \x20   |                                          ^^^\n\
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

/// Issue 21, item 11: the SARIF log is written result by result, never
/// built whole (it took 8.7 KB a finding: 1.9 GB for the lichess bench
/// file, 0.2 GB now). 40,000 findings stay well under 150 MB; peak RSS by
/// GNU time, when it is installed.
#[test]
fn r21_sarif_is_streamed_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.pgn");
    std::fs::write(&file, "1. e4 *\n\n".repeat(20_000)).unwrap();
    let args = ["check", "-q", "--format", "sarif", file.to_str().unwrap()];
    let Some((stdout, peak_kib)) = crate::util::peak_memory(&args) else { return };
    let log: serde_json::Value = serde_json::from_slice(&stdout).expect("one SARIF document");
    let results = log["runs"][0]["results"].as_array().unwrap().len();
    assert!(results >= 40_000, "{results} results");
    assert!(peak_kib < 150 * 1024, "{peak_kib} KiB peak");
}

/// Issue 21, item 11: `check` holds every game's record and tags, and no
/// more: its memory grows by a bounded amount per game (the guide says
/// about 1.2 KB a master game, 2 to 2.5 KB a lichess game, and under 4 KB),
/// measured as the slope between 10,000 and 40,000 lichess-like games of
/// seventeen tags and two new players each (the least peak of two runs).
#[test]
fn r21_check_memory_grows_linearly_with_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let game = |n: usize| {
        format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/{n:08}\"]\n\
             [Date \"2024.01.01\"]\n[Round \"-\"]\n[White \"player{n}\"]\n\
             [Black \"opponent{n}\"]\n[Result \"1-0\"]\n[UTCDate \"2024.01.01\"]\n\
             [UTCTime \"00:00:00\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n\
             [WhiteRatingDiff \"+6\"]\n[BlackRatingDiff \"-6\"]\n[ECO \"C20\"]\n\
             [Opening \"King's Pawn Game\"]\n[TimeControl \"180+0\"]\n\
             [Termination \"Normal\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        )
    };
    let mut peaks = Vec::new();
    for games in [10_000, 40_000] {
        let file = dir.path().join(format!("{games}.pgn"));
        std::fs::write(&file, (0..games).map(game).collect::<String>()).unwrap();
        let args = ["check", "-q", "--format", "jsonl", file.to_str().unwrap()];
        let Some((_, peak_kib)) = crate::util::least_peak_memory(&args, 2) else { return };
        peaks.push(peak_kib);
    }
    let per_game = (peaks[1].saturating_sub(peaks[0])) as f64 * 1024.0 / 30_000.0;
    assert!(per_game < 4.0 * 1024.0, "{per_game:.0} bytes a game ({peaks:?} KiB)");
}

/// Issue 25: an engine match (`Round "1.1"`, `"1.2"`: two games of one
/// pairing a round) got an E401 for each game and a W411 for each
/// meeting, even with `format = "match"`. As a match (on the command line
/// or in arbiter.toml) it has no E401, W411 or E404; a Swiss still has its
/// E401 where a player really plays twice in a round.
#[test]
fn r25_a_match_has_no_player_twice_in_round() {
    let codes = |relative: &str, extra: &[&str]| -> Vec<String> {
        findings(relative, extra).iter().map(|f| f["code"].as_str().unwrap().to_owned()).collect()
    };
    let matched = "tournament/match.pgn";
    let unknown = codes(matched, &[]);
    assert_eq!(unknown.iter().filter(|c| *c == "E401").count(), 4, "{unknown:?}");
    assert!(unknown.iter().any(|c| c == "W411"), "{unknown:?}");
    assert_eq!(codes(matched, &["--event-format", "match"]), Vec::<String>::new());
    // A round robin allows one meeting: the three others are E404.
    let round_robin = codes(matched, &["--event-format", "round-robin"]);
    assert_eq!(round_robin.iter().filter(|c| *c == "E404").count(), 3, "{round_robin:?}");
    // The planted E401s of the faults (a player twice in round 6) stay
    // under any format but a match.
    let e401 =
        |extra: &[&str]| findings(FAULTS, extra).iter().filter(|f| f["code"] == "E401").count();
    assert_eq!(e401(&["--event-format", "swiss"]), 2);
    assert_eq!(e401(&["--event-format", "match"]), 0);
    // arbiter.toml sets it; the command line overrides the file.
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::write(dir.path().join("arbiter.toml"), "[event]\nformat = \"match\"\n").expect("write");
    let path = fixture(matched);
    let run_in = |extra: &[&str]| {
        let mut args = vec!["check", "-q", "--format", "jsonl", path.as_str()];
        args.extend(extra);
        let run = Arbiter::new(&args).current_dir(dir.path()).run();
        parse_jsonl(&run.stdout).len()
    };
    assert_eq!(run_in(&[]), 0);
    assert_eq!(run_in(&["--event-format", "swiss"]), 7);
    let run = run(&["check", "-q", "--event-format", "knockout", &path]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}
