//! lichess variant games as lichess exports them (fixtures/variants): a win
//! by the variant's own rule marked `#`, pawn drops written `P@g4`. No
//! warning for either, and `fmt` writes nothing `validate` warns about.

use crate::util::*;

const LICHESS: &str = "variants/lichess.pgn";

#[test]
fn a_variant_win_marked_mate_is_no_check_suffix_warning() {
    for (event, plies) in [
        ("Rated Atomic game", 5),
        ("Rated King of the Hill game", 7),
        ("Rated Three-check game", 9),
        ("Rated Antichess game", 44),
    ] {
        let g = game_in(LICHESS, event);
        assert_valid(&g, plies);
        assert_termination(&g, "variant_win", plies);
        assert_no_warning(&g, "check_suffix");
    }
}

#[test]
fn a_pawn_drop_written_with_p_is_no_notation_warning() {
    let g = game_in(LICHESS, "Rated Crazyhouse game");
    assert_valid(&g, 57);
    assert_no_warning(&g, "nonstandard_notation");
}

#[test]
fn a_mate_mark_on_a_variant_move_that_wins_nothing_is_still_wrong() {
    // The same atomic game, with `#` on a move that explodes no king.
    let pgn = b"[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. Nf3# a6 2. Ne5 a5 3. Nxf7# 1-0\n";
    let run = Arbiter::new(&["games", "--format", "jsonl", "-"]).stdin(pgn).run();
    let records = parse_jsonl(&run.stdout);
    let warnings = warnings_of(&records[0], "check_suffix");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0]["message"].as_str().unwrap().starts_with("Nf3#"), "{warnings:?}");
}

#[test]
fn fmt_writes_variant_games_that_validate_without_warnings() {
    let out = run(&["fmt", &fixture(LICHESS)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // The marks as lichess writes them.
    for written in ["3. Nxf7# 1-0", "4. Ke4# 1-0", "5. Qxe5# 1-0", "P@"] {
        assert!(out.stdout.contains(written), "{written} not in\n{}", out.stdout);
    }
    let validated = Arbiter::new(&["validate", "-"]).stdin(&out.stdout_bytes).run();
    assert_eq!(validated.code, Some(0), "{}", validated.stderr);
    assert!(!validated.stdout.contains("warning["), "{}", validated.stdout);
    assert!(validated.stdout.contains("5 games in 1 file"), "{}", validated.stdout);
    assert!(validated.stdout.contains("0 with warnings"), "{}", validated.stdout);
}

/// An illegal move in a variant says why by the variant's rules: a capture
/// is compulsory in antichess (not "leaves the king in check", which a
/// non-royal king never is), and a crazyhouse drop needs the piece in hand.
#[test]
fn an_illegal_variant_move_says_why_by_the_variant_s_rules() {
    let pgn = "[Event \"A\"]\n[Variant \"Antichess\"]\n\n1. e4 d5 2. Nf3 *\n\n\
               [Event \"C\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 N@f6 *\n";
    let run = crate::util::Arbiter::new(&["validate", "--format", "jsonl", "-"])
        .stdin(pgn.as_bytes())
        .run();
    let recs = crate::util::parse_jsonl(&run.stdout);
    let reasons: Vec<_> = recs.iter().map(|r| r["error"]["reason"].clone()).collect();
    assert_eq!(reasons, ["capture_compulsory", "drop_not_possible"], "{}", run.stdout);
    assert!(
        recs[1]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.ends_with("Black has no knight in hand"))
    );
}
