//! Broken input, one case per file under fixtures/bad-input (written by
//! fixtures/tools/make_bad_input.py). Every file except empty.pgn ends
//! with the same good game (Scholar's mate, Event "Good game after"),
//! which must be read normally whatever came before it.

use serde_json::Value;

use crate::util::{
    assert_error, assert_good_game, assert_no_warning, assert_termination, assert_valid,
    assert_warning, fixture, game, games, parse_jsonl, records, run, warning_kinds, warnings_of,
};

fn bad(file: &str) -> Vec<Value> {
    games(&format!("bad-input/{file}"))
}

#[test]
fn garbage_between_games_is_a_game_of_its_own() {
    let recs = bad("garbage_between_games.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let before = &recs[0];
    assert_eq!(before["event"], "Good game before");
    assert_valid(before, 7);
    // The two lines of mail between the games: no tags, first word "This".
    let garbage = &recs[1];
    assert_eq!(garbage["index"], 2);
    assert_eq!(garbage["line"], 11);
    assert!(garbage["event"].is_null());
    assert_error(garbage, "unparseable_token", "This", 1, 11);
    assert_eq!(recs[2]["index"], 3);
    assert_good_game(&recs[2], 14);
}

#[test]
fn unterminated_comment_is_reported_where_it_opens() {
    let recs = bad("unterminated_comment.pgn");
    let g = game(&recs, "Comment never closed");
    assert_eq!(g["valid"], false, "{g}");
    assert_eq!(g["error"]["kind"], "unterminated_comment");
    assert_eq!(g["error"]["line"], 9);
    // e4 e5 Nf3 were played before the `{`.
    assert_eq!(g["plies"], 3);
    assert_eq!(g["error_ply"], 4);
}

#[test]
fn unterminated_comment_does_not_swallow_the_next_game() {
    let recs = bad("unterminated_comment.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert_good_game(&recs[1], 12);
}

#[test]
fn unterminated_variation_is_reported_where_it_opens() {
    let recs = bad("unterminated_variation.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["valid"], false, "{g}");
    assert_eq!(g["error"]["kind"], "unterminated_variation");
    assert_eq!(g["error"]["line"], 9);
    // Only 1. e4 e5 are mainline moves; the rest is inside the variation.
    assert_eq!(g["plies"], 2);
    assert_eq!(g["error_ply"], 3);
    assert_good_game(&recs[1], 11);
}

#[test]
fn truncated_last_game_is_read_up_to_the_cut() {
    let recs = bad("truncated_last_game.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert_eq!(recs[0]["event"], "Good game before");
    assert_valid(&recs[0], 7);
    let g = &recs[1];
    assert_eq!(g["event"], "Truncated");
    assert_eq!(g["line"], 11);
    // The file ends in the middle of `3. Bb5`.
    assert_error(g, "unparseable_token", "Bb", 5, 19);
    assert_eq!(g["result"], "1-0");
    assert!(g["result_marker"].is_null(), "{g}");
    assert!(warning_kinds(g).contains(&"result_mismatch".to_owned()), "{g}");
}

#[test]
fn tag_without_a_value_is_a_malformed_tag() {
    let recs = bad("tags_without_values.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert!(g["event"].is_null(), "{g}");
    assert_eq!(g["white"], "White");
    assert_warning(g, "malformed_tag", 1);
    assert_valid(g, 7);
    assert_good_game(&recs[1], 11);
}

#[test]
fn duplicated_tags_keep_the_first_value() {
    let recs = bad("duplicated_tags.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["white"], "First White");
    assert_eq!(g["round"], "1");
    assert_valid(g, 7);
    assert_eq!(warnings_of(g, "duplicate_tag").len(), 2, "{g}");
}

#[test]
fn a_quote_inside_a_tag_value_is_read_to_the_lines_last_quote() {
    // As python-chess reads it: one game, its Black `Bad"Quote`, not a
    // game cut in two at the inner quote.
    let recs = bad("quote_inside_tag_value.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert_eq!(recs[0]["black"], "Bad\"Quote");
    assert_valid(&recs[0], 7);
    assert_good_game(&recs[1], 11);
    // `fmt` writes it escaped, and it reads back as the same games.
    let path = fixture("bad-input/quote_inside_tag_value.pgn");
    let formatted = run(&["fmt", "-q", &path]);
    assert_eq!(formatted.code, Some(0), "{}", formatted.stderr);
    assert!(formatted.stdout.contains("[Black \"Bad\\\"Quote\"]"), "{}", formatted.stdout);
    let back = crate::util::Arbiter::new(&["games", "-q", "--format", "jsonl", "-"])
        .stdin(formatted.stdout.as_bytes())
        .run();
    let back = parse_jsonl(&back.stdout);
    assert_eq!(back.len(), 2);
    assert_eq!(back[0]["black"], "Bad\"Quote");
}

#[test]
fn duplicated_tags_are_reported_on_the_repeated_line() {
    let recs = bad("duplicated_tags.pgn");
    let g = &recs[0];
    // `[White "Second White"]` is line 8, `[Round "99"]` line 9.
    assert_warning(g, "duplicate_tag", 8);
    assert_warning(g, "duplicate_tag", 9);
    assert_good_game(&recs[1], 13);
}

#[test]
fn a_tag_repeated_twice_or_without_a_column_keeps_its_first_value() {
    let recs = bad("repeated_tags.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["white"], "First White");
    assert_valid(g, 7);
    // Each name once, where it is first repeated.
    assert_warning(g, "duplicate_tag", 9);
    assert_warning(g, "duplicate_tag", 10);
    assert_eq!(warnings_of(g, "duplicate_tag").len(), 2, "{g}");
    assert_good_game(&recs[1], 15);
}

#[test]
fn latin1_tag_values_are_decoded() {
    let recs = bad("latin1_tags.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["white"], "Müller, Jörg");
    assert_eq!(g["black"], "Cañete, José");
    assert_valid(g, 7);
    assert_eq!(g["warnings"], serde_json::json!([]));
    assert_good_game(&recs[1], 11);
}

#[test]
fn utf8_bom_is_skipped() {
    let recs = bad("utf8_bom.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["event"], "BOM at the start");
    assert_eq!(g["white"], "Bom White");
    assert_eq!(g["line"], 1);
    assert_valid(g, 7);
    assert_eq!(g["warnings"], serde_json::json!([]));
    assert_good_game(&recs[1], 11);
}

#[test]
fn crlf_line_endings_read_like_lf() {
    let recs = bad("crlf.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["white"], "Crlf White");
    assert_eq!(g["result"], "*");
    assert_valid(g, 8);
    assert_eq!(g["warnings"], serde_json::json!([]));
    let g = &recs[1];
    assert_eq!(g["white"], "Crlf Illegal");
    assert_eq!(g["line"], 12);
    assert_error(g, "illegal_move", "Ke6", 4, 21);
    assert_good_game(&recs[2], 23);
}

#[test]
fn castling_written_with_zeros_is_castling() {
    let recs = bad("zero_castling.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_valid(g, 12);
    assert_eq!(g["final_fen"], "2kr1bnr/ppp1pppp/2n5/q7/6b1/2N2N2/PPPPBPPP/R1BQ1RK1 w - - 8 7");
    assert_warning(g, "nonstandard_notation", 9);
    assert_good_game(&recs[1], 11);
}

#[test]
fn null_move_is_an_error() {
    let recs = bad("null_move.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert_error(&recs[0], "null_move", "--", 2, 9);
    assert_good_game(&recs[1], 11);
}

#[test]
fn hundred_kilobyte_comment_line_is_read() {
    let recs = bad("long_lines.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = game(&recs, "Long comment");
    assert_valid(g, 3);
    assert_good_game(&recs[2], 21);
}

#[test]
fn hundred_kilobyte_tag_value_is_read() {
    let recs = bad("long_lines.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = game(&recs, "Long tag value");
    assert_eq!(g["line"], 11);
    let white = g["white"].as_str().unwrap_or_else(|| panic!("no White: {}", g["warnings"]));
    assert_eq!(white.len(), 100_000);
    assert!(white.bytes().all(|b| b == b'A'));
    assert_valid(g, 2);
    assert_good_game(&recs[2], 21);
}

/// A long tag line keeps its place among the tags: read after the others
/// (as it was when it had to be recovered from past pgn-reader's buffer),
/// it made the roster look out of order, a false W304.
#[test]
fn a_long_tag_line_keeps_its_place_in_the_roster() {
    let path = fixture("bad-input/long_lines.pgn");
    let run = crate::util::run(&["check", "--format", "jsonl", &path]);
    let findings = crate::util::parse_jsonl(&run.stdout);
    assert!(!findings.is_empty(), "{}", run.stdout);
    assert!(findings.iter().all(|f| f["code"] != "W304"), "{}", run.stdout);
}

#[test]
fn unknown_tokens_are_unparseable() {
    let recs = bad("unknown_tokens.pgn");
    assert_eq!(recs.len(), 4, "{recs:#?}");
    assert_error(game(&recs, "Word in the movetext"), "unparseable_token", "foo", 3, 9);
    assert_error(
        game(&recs, "Knight to a square off the board"),
        "unparseable_token",
        "Nz9",
        3,
        19,
    );
    assert_error(game(&recs, "Pawn to the ninth rank"), "unparseable_token", "e9", 3, 29);
    assert_good_game(&recs[3], 31);
}

#[test]
fn empty_file_has_no_games() {
    let path = fixture("bad-input/empty.pgn");
    let run = run(&["games", "--format", "jsonl", &path]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "");
}

#[test]
fn empty_file_does_not_disturb_the_next_file() {
    let empty = fixture("bad-input/empty.pgn");
    let mates = fixture("rules/checkmate.pgn");
    let recs = records(&["games", "--format", "jsonl", &empty, &mates]);
    assert_eq!(recs.len(), 4);
    assert!(recs.iter().all(|r| r["file"] == mates.as_str()), "{recs:#?}");
    assert_eq!(recs[0]["index"], 1);
    assert_eq!(recs[0]["line"], 1);
}

#[test]
fn game_without_moves_is_an_empty_game() {
    let recs = bad("no_moves.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = game(&recs, "Only a result");
    assert_valid(g, 0);
    assert_eq!(g["result_marker"], "*");
    assert_warning(g, "empty_game", 1);
    let g = game(&recs, "Only a comment");
    assert_valid(g, 0);
    assert_eq!(g["line"], 11);
    assert_warning(g, "empty_game", 11);
    assert_good_game(&recs[2], 21);
}

#[test]
fn move_after_the_result_marker_is_an_error() {
    let recs = bad("move_after_result.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_error(g, "move_after_result", "Nf3", 3, 9);
    assert_eq!(g["result_marker"], "1-0");
    assert_good_game(&recs[1], 11);
}

#[test]
fn stray_closing_parenthesis_is_a_warning() {
    let recs = bad("stray_paren.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_valid(g, 4);
    assert_warning(g, "unmatched_variation_end", 9);
    assert_good_game(&recs[1], 11);
}

#[test]
fn nul_bytes_between_moves_are_ignored_with_a_warning() {
    let recs = bad("nul_bytes.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let g = &recs[0];
    assert_valid(g, 4);
    assert_eq!(g["final_fen"], "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_warning(g, "stray_bytes", 10);
    assert_good_game(&recs[1], 12);
}

#[test]
fn games_without_blank_lines_between_them_are_separate() {
    let recs = bad("no_blank_lines.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = &recs[0];
    assert_eq!(g["event"], "First without blank lines");
    assert_eq!(g["line"], 1);
    assert_valid(g, 2);
    let g = &recs[1];
    assert_eq!(g["event"], "Second without blank lines");
    assert_eq!(g["line"], 9);
    assert_valid(g, 2);
    assert_eq!(g["final_fen"], "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
    assert_good_game(&recs[2], 17);
}

#[test]
fn fen_without_a_white_king_is_a_bad_fen() {
    let recs = bad("bad_fen.pgn");
    assert_eq!(recs.len(), 3, "{recs:#?}");
    let g = game(&recs, "FEN without a white king");
    assert_eq!(g["valid"], false);
    assert_eq!(g["error"]["kind"], "bad_fen");
    assert_eq!(g["error"]["san"], "4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(g["error_ply"], 0);
    assert_eq!(g["plies"], 0);
    assert_no_warning(g, "empty_game");
    assert_good_game(&recs[2], 25);
}

#[test]
fn text_that_is_not_a_fen_is_a_bad_fen() {
    let recs = bad("bad_fen.pgn");
    let g = game(&recs, "FEN that is not a FEN");
    assert_eq!(g["valid"], false);
    assert_eq!(g["error"]["kind"], "bad_fen");
    assert_eq!(g["error"]["san"], "hello world");
    assert_eq!(g["error_ply"], 0);
    assert_eq!(g["plies"], 0);
    // Its movetext, not replayed, is still read for its result marker:
    // the Result tag agrees with it (no E112 "no result marker").
    for g in &recs[..2] {
        assert_eq!(g["result_marker"], "*", "{g}");
        assert_no_warning(g, "result_mismatch");
    }
}

#[test]
fn bad_fen_is_reported_on_the_fen_tag_line() {
    let recs = bad("bad_fen.pgn");
    assert_eq!(game(&recs, "FEN without a white king")["error"]["line"], 9);
    assert_eq!(game(&recs, "FEN that is not a FEN")["error"]["line"], 21);
}

#[test]
fn percent_lines_between_games_are_skipped_as_pgn_reader_skips_them() {
    let recs = bad("percent_lines_between_games.pgn");
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let before = game(&recs, "Before the percent lines");
    assert_valid(before, 7);
    assert!(warning_kinds(before).is_empty(), "{before}");
    assert_good_game(&recs[1], 14);
}

/// The file's long Site line starts 15,800 bytes in: a splitter whose
/// buffer began at the start of the file or chunk would find its end past
/// the 16 KiB it holds and drop the line; each game's tags are read from
/// the game's own start, so no chunking loses it.
#[test]
fn a_long_tag_line_far_into_a_file_is_read_however_the_file_is_cut() {
    let path = fixture("bad-input/long_tag_far_in.pgn");
    for chunk in ["2097152", "16000", "15900", "100", "1"] {
        let recs = records(&["games", "--format", "jsonl", "--chunk-size", chunk, &path]);
        assert_eq!(recs.len(), 3, "--chunk-size {chunk}: {recs:#?}");
        let g = game(&recs, "Long Site far in");
        assert_eq!(g["line"], 11);
        assert_valid(g, 7);
        assert!(warning_kinds(g).is_empty(), "--chunk-size {chunk}: {g}");
        assert_good_game(&recs[2], 21);
    }
}

/// Issue 21, item 10: variations nested past the limit (64) make the game
/// an error where the limit is passed, with `--variations` (without, they
/// are skipped and cost nothing); the next game is read normally.
#[test]
fn r21_variations_nested_too_deep_are_an_error_at_the_limit() {
    let path = fixture("bad-input/deep_variations.pgn");
    let recs = records(&["games", "--format", "jsonl", "--variations", &path]);
    assert_eq!(recs.len(), 2, "{recs:#?}");
    let error = &recs[0]["error"];
    assert_eq!(
        (&error["kind"], &error["san"], &error["line"]),
        (&"variations_too_deep".into(), &"(".into(), &9.into())
    );
    // Where the 65th `(` opens: after 1. e4, in the variation's 1. d4.
    assert_eq!(recs[0]["valid"], false);
    assert_eq!(error["fen"], "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(recs[0]["plies"], 2, "the mainline goes on after the variations");
    assert_good_game(&recs[1], 11);
    let recs = records(&["games", "--format", "jsonl", &path]);
    assert_valid(&recs[0], 2);
}

/// Issue 21, item 10: memory is bounded by the limit, not by the input: a
/// game of ten million `(` takes little memory in `validate --variations`
/// and `fmt` (it took 2.8 GB before the limit). Peak RSS by GNU time, when
/// it is installed.
#[test]
fn r21_nested_variations_take_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.pgn");
    let mut pgn = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    pgn.extend(std::iter::repeat_n(b'(', 10_000_000));
    pgn.extend_from_slice(b" *\n");
    std::fs::write(&file, &pgn).unwrap();
    let path = file.to_str().unwrap();
    for args in [["validate", "--variations", path], ["fmt", "-q", path]] {
        let Some((_, peak_kib)) = crate::util::peak_memory(&args) else { return };
        assert!(peak_kib < 200 * 1024, "{args:?}: {peak_kib} KiB peak");
    }
}

/// Issue 21, item 21: repeated `)` without `(` are one warning with a
/// count, as other repeated findings are.
#[test]
fn r21_repeated_unmatched_parens_are_one_warning() {
    let pgn = format!("[Event \"E\"]\n\n1. e4 {} e5 *\n", ")".repeat(100_000));
    let run = crate::util::Arbiter::new(&["validate", "-"]).stdin(pgn.as_bytes()).run();
    let lines: Vec<_> = run.stdout.lines().filter(|l| l.contains("[W124 ")).collect();
    assert_eq!(lines.len(), 1, "{}", &run.stdout[..run.stdout.len().min(2000)]);
    assert!(
        lines[0].ends_with("`)` without a matching `(` (and 99999 more in this game)"),
        "{}",
        lines[0]
    );
}

/// Issue 21, item 14: a huge token, tag value or name is quoted cut to 80
/// bytes and `…` in findings, records and labels, never echoed whole.
#[test]
fn r21_huge_tokens_are_quoted_cut() {
    let huge = "x".repeat(1 << 20);
    let pgn = format!(
        "[Event \"E\"]\n[White \"{huge}\"]\n[Date \"{huge}\"]\n[Variant \"{huge}\"]\n\n1. e4 *\n\n\
         [Event \"F\"]\n[FEN \"{huge}\"]\n\n1. e4 *\n\n[Event \"G\"]\n\n1. e4 {huge} *\n"
    );
    let run = crate::util::Arbiter::new(&["validate", "-"]).stdin(pgn.as_bytes()).run();
    assert!(run.stdout.len() < 4000, "{} bytes of diagnostics", run.stdout.len());
    assert!(run.stdout.contains(&format!("{}…", "x".repeat(80))), "{}", run.stdout);
    let records =
        crate::util::Arbiter::new(&["games", "--format", "jsonl", "-"]).stdin(pgn.as_bytes()).run();
    for record in parse_jsonl(&records.stdout) {
        let quoted = [&record["error"]["san"], &record["variant"]];
        for value in quoted.into_iter().filter_map(|v| v.as_str()) {
            assert!(value.chars().count() <= 81, "{} bytes quoted", value.len());
        }
        for warning in record["warnings"].as_array().unwrap() {
            assert!(warning["message"].as_str().unwrap().len() < 400, "{warning}");
        }
    }
}

/// Issue 21, item 15: a truncated compressed file (a download cut short)
/// gives every complete game decoded before the error, then the error with
/// how far the read got (exit 2); the incomplete last game is not
/// reported as a game.
#[test]
fn r21_a_truncated_compressed_file_gives_its_complete_games() {
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let compressed = zstd::encode_all(&sample[..], 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.pgn.zst");
    std::fs::write(&file, &compressed[..compressed.len() * 6 / 10]).unwrap();
    let path = file.to_str().unwrap();
    let run = crate::util::run(&["games", "--format", "jsonl", path]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("the games before were read"), "{}", run.stderr);
    let games = parse_jsonl(&run.stdout);
    // The complete games of the decoded part, in order, as in the whole file.
    let whole = records(&["games", "--format", "jsonl", &fixture("sample.pgn")]);
    assert!(games.len() > 50, "{} games", games.len());
    for (cut, full) in games.iter().zip(&whole) {
        assert_eq!(
            (&cut["index"], &cut["plies"], &cut["valid"]),
            (&full["index"], &full["plies"], &full["valid"])
        );
    }
    assert!(games.len() < whole.len());
}

/// A `.zst` that begins with a skippable frame, as `pzstd` writes one (its
/// frame sizes), is zstd: it was taken for a file that is not PGN.
#[test]
fn a_zst_that_begins_with_a_skippable_frame_is_read() {
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let mut file = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 0x11, 0x22, 0x33, 0x44];
    file.extend(zstd::encode_all(&sample[..], 3).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.pgn.zst");
    std::fs::write(&path, &file).unwrap();
    let whole = records(&["games", "--format", "jsonl", &fixture("sample.pgn")]);
    let from_file = records(&["games", "--format", "jsonl", path.to_str().unwrap()]);
    let piped =
        crate::util::Arbiter::new(&["games", "-q", "--format", "jsonl", "-"]).stdin(&file).run();
    for games in [from_file, parse_jsonl(&piped.stdout)] {
        assert_eq!(games.len(), whole.len());
        assert!(games.iter().zip(&whole).all(|(a, b)| a["plies"] == b["plies"]));
    }
}

/// Issue 21, item 22: a plain file is read through a memory map, and a
/// program that truncates it meanwhile makes the next read fault (SIGBUS).
/// The run ends with a message and exit status 2, not silently killed.
/// Made deterministic by a full output pipe: arbiter stalls with most of
/// the file unread, the file is truncated, then the pipe is drained.
#[test]
fn r21_a_file_truncated_while_it_is_read_is_reported() {
    use std::{
        io::Read,
        process::{Command, Stdio},
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shrinking.pgn");
    // 32 MB: far more than one worker's chunks in flight (4 × 2 MiB).
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    std::fs::write(&file, sample.repeat(70)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["games", "-q", "-j", "1", "--format", "jsonl"])
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // The first records: the file is mapped and being read.
    let mut first = [0; 4096];
    stdout.read_exact(&mut first).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::OpenOptions::new().write(true).open(&file).unwrap().set_len(0).unwrap();
    stdout.read_to_end(&mut Vec::new()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}: {stderr}", output.status);
    assert!(stderr.contains("truncated or became unreadable while it was being read"), "{stderr}");
}

/// Issue 21, item 17: a tag section after a blank line that gives a tag
/// of the section before again (a new Event) is the next game; the first
/// is a game without moves. The real game keeps its own players and
/// result (the placeholder's `Result "*"` is not held against its mate),
/// whether one blank line or a line of spaces and a blank line separate
/// the two sections.
#[test]
fn r21_a_second_tag_section_after_a_blank_line_is_the_next_game() {
    let recs = bad("second_tag_section.pgn");
    let events: Vec<_> = recs.iter().map(|r| r["event"].as_str().unwrap_or("")).collect();
    assert_eq!(
        events,
        [
            "Placeholder",
            "Real game after a placeholder",
            "Placeholder",
            "Real game after a placeholder and a space line",
            "Blank line inside the tags",
            "Two blank lines before the moves",
            "Good game after",
        ],
        "{recs:#?}"
    );
    for (i, (placeholder, real)) in [(0, 1), (2, 3)].into_iter().enumerate() {
        let (p, g) = (&recs[placeholder], &recs[real]);
        assert_eq!((p["white"].as_str(), p["plies"].as_u64()), (Some("?"), Some(0)), "{p}");
        assert_eq!(p["result_marker"], Value::Null, "{p}");
        assert_warning(p, "empty_game", [1, 19][i]);
        assert_eq!(
            (g["index"].as_u64(), g["line"].as_u64()),
            (Some(real as u64 + 1), Some([9, 28][i]))
        );
        assert_eq!(
            (&g["white"], &g["black"], &g["result"]),
            (&"Fool".into(), &"Mate".into(), &"0-1".into())
        );
        assert_valid(g, 4);
        assert_termination(g, "checkmate", 4);
        assert_eq!(g["result_consistent"], true, "{g}");
    }
    assert_good_game(&recs[6], 60);
    // No false E110 against the mated game's placeholder result.
    let run = run(&["validate", &fixture("bad-input/second_tag_section.pgn")]);
    assert!(!run.stdout.contains("E110"), "{}", run.stdout);
    assert!(run.stdout.contains("7 games in 1 file"), "{}", run.stdout);
}

/// Issue 21, item 17: a blank line inside one game's tags (no tag given
/// twice: ChessBase writes one after Event), and two blank lines between
/// the tags and the moves, keep the game whole.
#[test]
fn r21_blank_lines_inside_one_games_tags_or_before_its_moves_keep_it_whole() {
    let recs = bad("second_tag_section.pgn");
    let inside = game(&recs, "Blank line inside the tags");
    assert_eq!((inside["line"].as_u64(), inside["round"].as_str()), (Some(38), Some("3")));
    assert_eq!(inside["white"], "White", "{inside}");
    assert_valid(inside, 7);
    assert!(warning_kinds(inside).is_empty(), "{inside}");
    let two = game(&recs, "Two blank lines before the moves");
    assert_eq!(two["line"], 49, "{two}");
    assert_valid(two, 7);
    assert!(warning_kinds(two).is_empty(), "{two}");
}

/// Issue 21, item 18: `%` escape lines and `;` comment lines between the
/// tags of one game are ignored (they split it in two, and every later
/// game's number shifted by one); a `;` comment between the tags and the
/// moves stays the movetext's.
#[test]
fn r21_escape_and_comment_lines_between_tags_are_ignored() {
    let recs = bad("comments_between_tags.pgn");
    let events: Vec<_> = recs.iter().map(|r| r["event"].as_str().unwrap_or("")).collect();
    assert_eq!(
        events,
        [
            "Escape lines between tags",
            "Comment lines between tags",
            "Comment before the moves",
            "Good game after"
        ],
        "{recs:#?}"
    );
    for (i, line) in [1, 13, 26].into_iter().enumerate() {
        let g = &recs[i];
        assert_eq!((g["index"].as_u64(), g["line"].as_u64()), (Some(i as u64 + 1), Some(line)));
        assert_eq!((&g["white"], &g["round"]), (&"White".into(), &(i + 1).to_string().into()));
        assert_valid(g, 7);
        assert!(warning_kinds(g).is_empty(), "{g}");
    }
    assert_good_game(&recs[3], 36);
}

/// A game whose comment takes `mib` MiB in lines of 1,000 bytes, then the
/// good game; with the good game's line.
fn huge_game_then_good(mib: usize) -> (Vec<u8>, u64) {
    huge_game_in_lines_then_good(mib, true)
}

/// The same, the comment in lines of 1000 bytes, or its moves all on one
/// line.
fn huge_game_in_lines_then_good(mib: usize, in_lines: bool) -> (Vec<u8>, u64) {
    let mut pgn = b"[Event \"Huge\"]\n[White \"Long\"]\n[Black \"Winded\"]\n\n1. e4 {".to_vec();
    let line = [b"x".repeat(999), if in_lines { b"\n".to_vec() } else { b"x".to_vec() }].concat();
    let lines = (mib << 20) / line.len() + 1;
    for _ in 0..lines {
        pgn.extend_from_slice(&line);
    }
    pgn.extend_from_slice(b"} e5 *\n\n");
    let good_line = pgn.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    pgn.extend_from_slice(
        b"[Event \"Good game after\"]\n[Site \"Fixture\"]\n[Date \"2024.01.01\"]\n[Round \"2\"]\n\
          [White \"White\"]\n[Black \"Black\"]\n[Result \"1-0\"]\n\n\
          1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    (pgn, good_line)
}

/// The records of a huge game and the good game after it: one game too
/// large, with its tags, then the good game on its line, numbered 2.
#[track_caller]
fn assert_too_large_then_good(records: &[Value], good_line: u64, path: &str) {
    assert_eq!(records.len(), 2, "{path}: {} records", records.len());
    let huge = &records[0];
    assert_eq!(
        (&huge["index"], &huge["line"], &huge["event"]),
        (&1.into(), &1.into(), &"Huge".into())
    );
    assert_eq!(
        (&huge["white"], &huge["valid"], &huge["plies"]),
        (&"Long".into(), &false.into(), &0.into())
    );
    assert_eq!(huge["error"]["kind"], "game_too_large", "{path}: {huge}");
    assert_eq!(huge["warnings"].as_array().map(Vec::len), Some(4), "{path}: {huge}");
    let message = huge["error"]["message"].as_str().unwrap();
    assert!(message.contains("more than the 16 MiB a game may take"), "{path}: {message}");
    assert_eq!(records[1]["index"], 2, "{path}");
    assert_good_game(&records[1], good_line);
}

/// Issue 21, item 16: a game over 16 MiB is one game with a
/// `game_too_large` error (E114), the same from a plain file, standard
/// input and a compressed file (it came out as pieces, each a game with
/// errors, from a stream); the game after it is read normally, numbered and
/// on its line.
#[test]
fn r21_a_game_over_16_mib_is_one_game_too_large_on_every_path() {
    // Its moves in lines, or on one line longer than the windows the end of
    // a game too large is looked for in (the game after it was taken for
    // the end of a tag section and swallowed).
    for in_lines in [true, false] {
        a_game_over_16_mib_is_one_game_too_large(huge_game_in_lines_then_good(20, in_lines));
    }
}

fn a_game_over_16_mib_is_one_game_too_large((pgn, good_line): (Vec<u8>, u64)) {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("huge.pgn");
    std::fs::write(&plain, &pgn).unwrap();
    let zst = dir.path().join("huge.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&pgn[..], 1).unwrap()).unwrap();
    let (plain, zst) = (plain.to_str().unwrap(), zst.to_str().unwrap());
    let from_stdin =
        crate::util::Arbiter::new(&["games", "-q", "--format", "jsonl", "-"]).stdin(&pgn).run();
    let runs = [
        (plain, records(&["games", "-q", "--format", "jsonl", plain])),
        ("-", parse_jsonl(&from_stdin.stdout)),
        (zst, records(&["games", "-q", "--format", "jsonl", zst])),
    ];
    for (path, recs) in &runs {
        assert_too_large_then_good(recs, good_line, path);
        let without_file = |r: &Value| {
            let mut r = r.clone();
            r["file"] = Value::Null;
            r
        };
        let first: Vec<_> = runs[0].1.iter().map(without_file).collect();
        assert_eq!(recs.iter().map(without_file).collect::<Vec<_>>(), first, "{path}");
    }
    // At any chunk size, and as an error of `validate` (exit 1).
    let small = records(&["games", "-q", "--format", "jsonl", "--chunk-size", "1000", zst]);
    assert_too_large_then_good(&small, good_line, "--chunk-size 1000");
    let run = run(&["validate", "-q", plain]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.starts_with(&format!("{plain}:1: error[E114 game-too-large]: game 1")));
    // `filter` copies it byte for byte from a file; from a stream, where
    // only its first 16 MiB are held, it leaves it out and says so (exit
    // 2), never cuts it (the next game would read back glued to it).
    let out = dir.path().join("out.pgn");
    let out_path = out.to_str().unwrap();
    for (input, format) in [(plain, "pgn"), (zst, "pgn"), (zst, "pgn-export")] {
        let filter = crate::util::run(&["filter", "-q", "--format", format, input, "-o", out_path]);
        let written = std::fs::read(&out).unwrap();
        if input == plain {
            assert_eq!(filter.code, Some(0), "{}", filter.stderr);
            assert!(written == pgn, "filter of {input} is not the input");
            continue;
        }
        assert_eq!(filter.code, Some(2), "{format}: {}", filter.stderr);
        assert!(filter.stderr.contains("game 1: ") && filter.stderr.contains("left out"));
        let back = records(&["games", "-q", "--format", "jsonl", out_path]);
        assert_eq!(back.len(), 1, "{format}: {back:?}");
        assert_eq!(back[0]["valid"], true, "{format}: the good game alone");
    }
    // `dupes --unique` the same, but whole or not at all: from a stream it
    // writes no file.
    let unique = dir.path().join("unique.pgn");
    let unique_path = unique.to_str().unwrap();
    for input in [plain, zst] {
        let dupes = crate::util::run(&["dupes", "-q", "--unique", "-o", unique_path, input]);
        if input == plain {
            assert_eq!(dupes.code, Some(0), "{}", dupes.stderr);
            assert!(std::fs::read(&unique).unwrap() == pgn, "dupes --unique of {input}");
            std::fs::remove_file(&unique).unwrap();
        } else {
            assert_eq!(dupes.code, Some(2), "{}", dupes.stderr);
            assert!(dupes.stderr.contains("game 1 is larger than"), "{}", dupes.stderr);
            assert!(!unique.exists(), "a cut game written");
        }
    }
    // `split` cuts between the two (from a file and from a stream).
    for input in [plain, zst] {
        let out = dir.path().join("shards");
        let split =
            crate::util::run(&["split", "-q", "--games", "1", input, "-o", out.to_str().unwrap()]);
        assert_eq!(split.code, Some(0), "{}", split.stderr);
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 2, "{input}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// Issue 21, item 16: a game too large is skipped, not held: a 100 MiB game
/// costs a stream no more memory than two windows of 16 MiB; `fmt` copies
/// it from a plain file, and leaves it out from a stream (exit 2).
#[test]
fn r21_a_game_too_large_is_skipped_in_bounded_memory() {
    let (pgn, good_line) = huge_game_then_good(100);
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("huge.pgn");
    std::fs::write(&plain, &pgn).unwrap();
    let zst = dir.path().join("huge.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&pgn[..], 1).unwrap()).unwrap();
    drop(pgn);
    let (plain_path, zst) = (plain.to_str().unwrap(), zst.to_str().unwrap());
    let args = ["games", "-q", "--format", "jsonl"];
    for (input, stdin) in [(zst, None), ("-", Some(plain.as_path())), (plain_path, None)] {
        let args = [&args[..], &[input]].concat();
        let Some((stdout, peak_kib)) = crate::util::peak_memory_with_stdin(&args, stdin) else {
            return;
        };
        let recs = parse_jsonl(&String::from_utf8(stdout).unwrap());
        assert_too_large_then_good(&recs, good_line, input);
        assert!(peak_kib < 80 * 1024, "{input}: {peak_kib} KiB peak");
    }
    let copied = run(&["fmt", "-q", plain_path]);
    assert_eq!(copied.code, Some(0), "{}", copied.stderr);
    assert!(copied.stderr.contains("game 1: not formatted, copied as it is"), "{}", copied.stderr);
    // The huge game whole, as it is, then the good game.
    let original = std::fs::read(&plain).unwrap();
    let good = b"[Event \"Good game after\"]";
    let at = |bytes: &[u8]| bytes.windows(good.len()).rposition(|w| w == good).unwrap();
    let (copy, huge) = (&copied.stdout_bytes, &original[..at(&original)]);
    assert!(at(copy) == huge.len() && copy.starts_with(huge), "{} bytes", copy.len());
    let left_out = run(&["fmt", "-q", zst]);
    assert_eq!(left_out.code, Some(2), "{}", left_out.stderr);
    assert!(left_out.stderr.contains("game 1: not formatted, left out"), "{}", left_out.stderr);
    assert!(
        left_out.stdout.starts_with("[Event \"Good game after\"]"),
        "{}",
        &left_out.stdout[..200]
    );
}

/// A binary file given by mistake (here the arbiter binary itself, and a
/// PNG header) is skipped with one line, not read as thousands of broken
/// games; the other inputs are still read, and the status says an input
/// was not (2).
#[test]
fn a_file_that_is_not_pgn_is_skipped_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("photo.pgn");
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0".to_vec();
    png.extend((0..4096u32).map(|i| (i * 7 % 251) as u8));
    std::fs::write(&image, png).unwrap();
    let sample = fixture("sample.pgn");
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let image = image.to_str().unwrap();
    let out = run(&["validate", "-q", exe, image, &sample]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            format!("arbiter: error: {exe}: does not look like PGN, skipped"),
            format!("arbiter: error: {image}: does not look like PGN, skipped"),
        ],
    );
    // Only the sample's findings and games.
    assert!(!out.stdout.contains(exe) && !out.stdout.contains(image), "{}", out.stdout);
    assert!(out.stdout.contains("207 games in "), "{}", out.stdout);
    assert!(out.stdout.contains("2 inputs could not be read"), "{}", out.stdout);
}

/// A file whose lines end with a carriage return alone (classic Mac OS)
/// read as one line, its games one broken game: it is skipped with a line
/// that says why and how to convert it; converted, its games are read.
#[test]
fn lines_ended_by_a_carriage_return_alone_are_refused_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let game = |event: &str| format!("[Event \"{event}\"]\r[Result \"*\"]\r\r1. e4 e5 *\r\r");
    let mac = dir.path().join("mac.pgn");
    std::fs::write(&mac, [game("a"), game("b"), game("c")].concat()).unwrap();
    let mac = mac.to_str().unwrap();
    for command in ["validate", "filter"] {
        let out = run(&[command, "-q", mac]);
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert!(out.stderr.contains("carriage return alone (classic Mac OS)"), "{}", out.stderr);
    }
    let unix = dir.path().join("unix.pgn");
    std::fs::write(
        &unix,
        std::fs::read(mac)
            .unwrap()
            .iter()
            .map(|&b| if b == b'\r' { b'\n' } else { b })
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let count = run(&["filter", "-q", "--count", unix.to_str().unwrap()]);
    assert_eq!(count.stdout.trim(), "3");
}

/// A directory without a PGN file is most likely a wrong path: a warning,
/// and the status the games decide (none here: 0), as ripgrep warns when
/// it searched no file.
#[test]
fn a_directory_without_pgn_files_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a game\n").unwrap();
    let path = dir.path().to_str().unwrap();
    let out = run(&["validate", "-q", path]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stderr, format!("arbiter: warning: no PGN file found in {path}\n"));
    assert!(out.stdout.contains("0 games in 0 files"), "{}", out.stdout);
    // A directory with one is not warned about.
    std::fs::write(dir.path().join("a.pgn"), "[Event \"x\"]\n[Round \"1\"]\n\n1. e4 *\n").unwrap();
    let out = run(&["validate", "-q", path]);
    assert_eq!(out.stderr, "");
}

/// Terminal escape sequences in tags and comments (a screen clear, a
/// window title, colours) and a carriage return in a name are printed
/// as visible characters by every command that writes text for people,
/// never obeyed; the data outputs keep the bytes.
#[test]
fn escape_sequences_are_shown_not_obeyed() {
    let game = |round: u32, white: &str, black: &str, moves: &str, result: &str| {
        format!(
            "[Event \"E\x1b]0;title\x07\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    };
    let (evil, other) = ("Evil\x1b[2J", "Other\rX");
    let pgn = game(1, evil, other, "1. e4 {\x1b[31mred} e5 2. Ke3", "1-0")
        + &game(2, other, evil, "1. d4 d5", "0-1")
        + &game(3, other, evil, "1. d4 d5", "0-1")
        // Left out of the crosstable, E406 in `check`: the messages name it.
        + &game(4, evil, evil, "1. c4 c5", "1-0");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("escapes.pgn");
    std::fs::write(&path, pgn).unwrap();
    let path = path.to_str().unwrap();
    for command in ["validate", "check", "crosstable", "stats", "dupes"] {
        let run = run(&[command, "-q", "--color", "never", path]);
        let out = run.stdout + &run.stderr;
        assert!(out.contains("Evil␛[2J"), "{command}: {out}");
        assert!(out.contains("Other␍X"), "{command}: {out}");
        assert!(!out.contains(['\x1b', '\x07', '\r']), "{command}: {out:?}");
        if matches!(command, "validate" | "check") {
            // The excerpt's caret stays under the move.
            let lines: Vec<&str> = out.lines().collect();
            let at = lines.iter().position(|l| l.starts_with("7 | ")).expect(&out);
            assert_eq!(lines[at], "7 | 1. e4 {␛[31mred} e5 2. Ke3 1-0", "{command}");
            let column = lines[at].chars().position(|c| c == 'K');
            assert_eq!(lines[at + 1].chars().position(|c| c == '^'), column, "{command}");
        }
        if command == "crosstable" {
            assert!(out.starts_with("E␛]0;title␇ (round robin"), "{out}");
            assert!(out.contains("): Evil␛[2J against themselves"), "{out}");
        }
        if command == "check" {
            assert!(out.contains("Evil␛[2J plays against themselves"), "{out}");
        }
    }
    let records = records(&["games", "--format", "jsonl", path]);
    assert_eq!(records[0]["white"], evil);
    assert_eq!(records[0]["black"], other);
}
