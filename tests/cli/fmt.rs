//! `arbiter fmt`: export format that is stable (formatting twice gives the
//! same bytes), faithful (the same positions, every comment and variation),
//! checkable (`--check`) and safe in place (atomic; a failed write leaves
//! the original intact).

use std::fs;

use serde_json::Value;

use crate::util::{Arbiter, every_fixture, fixture, parse_jsonl, run};

/// `arbiter fmt -q path`, which must succeed: its output, byte for byte.
fn format(path: &str) -> Vec<u8> {
    let out = run(&["fmt", "-q", path]);
    assert_eq!(out.code, Some(0), "{path}: {}", out.stderr);
    out.stdout_bytes
}

/// The facts about each game that formatting must not change, from a run
/// of `games` that must succeed (a failed run would read as no games).
fn positions(path: &str) -> Vec<Value> {
    let out = run(&["games", "--format", "jsonl", "--variations", path]);
    assert_eq!(out.code, Some(0), "games on {path}: {}", out.stderr);
    parse_jsonl(&out.stdout)
        .into_iter()
        .map(|r| {
            let keep = [
                "valid",
                "plies",
                "termination",
                "termination_ply",
                "threefold_ply",
                "fifty_ply",
                "final_fen",
                "white",
                "black",
            ];
            Value::Object(keep.iter().map(|k| ((*k).to_owned(), r[*k].clone())).collect())
        })
        .collect()
}

/// Comment texts (whitespace folded) and the number of `(` outside
/// comments, in the movetext of a PGN text.
fn comments_and_variations(text: &str) -> (Vec<String>, usize) {
    let mut comments = Vec::new();
    let mut variations = 0;
    let mut chars =
        text.lines().filter(|l| !l.trim_start().starts_with('[')).collect::<Vec<_>>().join("\n");
    chars.push('\n');
    let mut rest = chars.as_str();
    while let Some(i) = rest.find(['{', '(', ';']) {
        let (before, after) = rest.split_at(i);
        let _ = before;
        match after.as_bytes()[0] {
            b'(' => {
                variations += 1;
                rest = &after[1..];
            }
            b'{' => {
                let end = after.find('}').unwrap_or(after.len());
                comments.push(after[1..end].split_whitespace().collect::<Vec<_>>().join(" "));
                rest = after.get(end + 1..).unwrap_or("");
            }
            _ => {
                let end = after.find('\n').unwrap_or(after.len());
                comments.push(after[1..end].split_whitespace().collect::<Vec<_>>().join(" "));
                rest = &after[end..];
            }
        }
    }
    (comments, variations)
}

#[test]
fn formatting_twice_gives_the_same_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    for path in every_fixture() {
        let once = format(&path);
        let copy = dir.path().join("once.pgn");
        fs::write(&copy, &once).expect("write");
        let twice = format(copy.to_str().expect("UTF-8 path"));
        assert!(once == twice, "{path}: formatting is not idempotent");
    }
}

#[test]
fn formatted_games_replay_to_the_same_positions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut compared = 0;
    for path in every_fixture() {
        let formatted = dir.path().join("formatted.pgn");
        fs::write(&formatted, format(&path)).expect("write");
        let original = positions(&path);
        // Every fixture but the empty file holds games (each bad-input
        // fixture ends with a good one).
        let empty = fs::metadata(&path).expect("fixture").len() == 0;
        assert!(empty || !original.is_empty(), "{path}: no games read");
        assert_eq!(positions(formatted.to_str().expect("UTF-8 path")), original, "{path}");
        compared += original.len();
    }
    assert!(compared > 0, "no games compared");
}

#[test]
fn every_comment_and_variation_is_kept() {
    for name in ["sample.pgn", "rules/variations.pgn", "rules/notation.pgn"] {
        let path = fixture(name);
        let original = fs::read_to_string(&path).expect("UTF-8 fixture");
        let formatted = String::from_utf8(format(&path)).expect("UTF-8 output");
        let (got, want) = (comments_and_variations(&formatted), comments_and_variations(&original));
        assert_eq!(got.1, want.1, "{name}: variations");
        assert_eq!(got.0.len(), want.0.len(), "{name}: number of comments");
        if let Some((g, w)) = got.0.iter().zip(&want.0).find(|(g, w)| g != w) {
            panic!("{name}: comment {g:?} should be {w:?}");
        }
    }
    let formatted = String::from_utf8(format(&fixture("sample.pgn"))).expect("UTF-8 output");
    // Tag pairs stand one per line, however long; movetext is wrapped.
    let long = formatted.lines().find(|l| !l.starts_with('[') && l.chars().count() > 80);
    assert_eq!(long, None, "a movetext line is longer than 80 characters");
}

#[test]
fn check_lists_the_games_that_would_change() {
    let path = fixture("sample.pgn");
    let checked = run(&["fmt", "--check", &path]);
    assert_eq!(checked.code, Some(1));
    assert!(
        checked.stdout.lines().any(|l| l.ends_with("would be reformatted")),
        "{}",
        checked.stdout
    );
    // The broken game 207 cannot be formatted and says so.
    assert!(checked.stderr.contains("game 207: not formatted"), "{}", checked.stderr);

    let dir = tempfile::tempdir().expect("temp dir");
    let clean = dir.path().join("clean.pgn");
    fs::write(&clean, format(&fixture("rules/checkmate.pgn"))).expect("write");
    let checked = run(&["fmt", "--check", clean.to_str().expect("UTF-8 path")]);
    assert_eq!(checked.code, Some(0), "{}{}", checked.stdout, checked.stderr);
    assert_eq!(checked.stdout, "");
}

#[test]
fn in_place_rewrites_the_file_atomically() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("games.pgn");
    fs::copy(fixture("sample.pgn"), &file).expect("copy");
    let path = file.to_str().expect("UTF-8 path");
    let expected = format(path);
    let done = run(&["fmt", "--in-place", path]);
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(fs::read(&file).expect("read") == expected, "in-place output differs from fmt's");
    assert_eq!(
        fs::read_dir(dir.path()).expect("dir").count(),
        1,
        "a temporary file was left behind"
    );
}

#[test]
fn in_place_keeps_the_original_intact_when_writing_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("games.pgn");
    fs::copy(fixture("sample.pgn"), &file).expect("copy");
    let original = fs::read(&file).expect("read");
    let path = file.to_str().expect("UTF-8 path");
    let failed = run(&["fmt", "--in-place", "--fail-after-bytes", "5000", path]);
    assert_eq!(failed.code, Some(2));
    assert!(failed.stderr.contains("left unchanged"), "{}", failed.stderr);
    assert!(fs::read(&file).expect("read") == original, "the original file changed");
    assert_eq!(
        fs::read_dir(dir.path()).expect("dir").count(),
        1,
        "a temporary file was left behind"
    );
}

#[test]
fn in_place_refuses_standard_input_and_compressed_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    std::io::Write::write_all(&mut xz, b"[Event \"e\"]\n\n1. e4 *\n").expect("xz");
    // Told by their first bytes, whatever their name: xz's magic number is
    // six bytes long.
    let files = [
        ("games.pgn.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00".to_vec()),
        ("disguised-xz.pgn", xz.finish().expect("xz")),
    ];
    for (name, bytes) in files {
        let file = dir.path().join(name);
        fs::write(&file, &bytes).expect("write");
        let refused = run(&["fmt", "--in-place", file.to_str().expect("UTF-8 path")]);
        assert_eq!(refused.code, Some(2), "{name}");
        assert!(refused.stderr.contains("compressed"), "{name}: {}", refused.stderr);
        assert_eq!(fs::read(&file).expect("read"), bytes, "{name} was changed");
    }
    assert_eq!(run(&["fmt", "--in-place", "-"]).code, Some(2));
}

// ------------------------------------------------- round trip (issue 21)

/// `fmt` on `input` (standard input): its output and its standard error.
fn format_bytes(input: &[u8]) -> (Vec<u8>, String) {
    let out = Arbiter::new(&["fmt", "-q", "-"]).stdin(input).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    (out.stdout_bytes, out.stderr)
}

/// What `games` reads of `input`: per game, the facts formatting keeps.
fn read_back(input: &[u8]) -> Vec<Value> {
    let out = Arbiter::new(&["games", "--format", "jsonl", "--variations", "-"]).stdin(input).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let keep = ["valid", "plies", "termination", "final_fen", "white", "black", "event", "round"];
    // Export format writes a missing roster tag with its placeholder, `?`.
    let roster = |k: &str, v: &Value| match (k, v) {
        ("white" | "black" | "event" | "round", Value::Null) => Value::from("?"),
        _ => v.clone(),
    };
    parse_jsonl(&out.stdout)
        .into_iter()
        .map(|r| Value::Object(keep.iter().map(|k| ((*k).to_owned(), roster(k, &r[*k]))).collect()))
        .collect()
}

/// Formatting is idempotent and reads back as the same games.
#[track_caller]
fn assert_round_trips(input: &[u8]) -> (Vec<u8>, String) {
    let (once, stderr) = format_bytes(input);
    let (twice, _) = format_bytes(&once);
    let shown = String::from_utf8_lossy(input);
    assert!(once == twice, "not idempotent on {shown:?}:\n{}", String::from_utf8_lossy(&once));
    assert_eq!(read_back(&once), read_back(input), "read back differently: {shown:?}");
    (once, stderr)
}

/// Item 1: the marker written is one of the four results; the tag is kept.
#[test]
fn r21_a_non_standard_result_tag_is_kept_and_the_marker_is_a_result() {
    for tag in ["1:0", "e4", "{}", "½-½"] {
        let pgn = format!("[Event \"E\"]\n[Result \"{tag}\"]\n\n1. e4 e5\n");
        let (once, _) = assert_round_trips(pgn.as_bytes());
        let text = String::from_utf8(once).unwrap();
        assert!(text.contains(&format!("[Result \"{tag}\"]")), "{text}");
        assert!(text.trim_end().ends_with("1. e4 e5 *"), "{tag}: {text}");
    }
    // The 11-byte reproducer grew by one `{}` a pass.
    assert_round_trips(b"[Result\"{}\"");
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5\n";
    assert!(String::from_utf8(assert_round_trips(pgn.as_bytes()).0).unwrap().contains("e5 1-0"));
}

/// Item 2: a tag section that cannot be written back faithfully is copied
/// through byte for byte and reported.
#[test]
fn r21_unreadable_and_duplicate_tags_are_copied_through_and_reported() {
    for (section, why) in [
        ("[Annotator Important note without quotes]\n", "a tag line cannot be read"),
        ("[Foo]\n", "a tag line cannot be read"),
        ("[White \"Bob\"]\n", "a tag is given more than once"),
    ] {
        let pgn = format!("[Event \"E\"]\n[White \"Ann\"]\n{section}\n1. e4 e5 *\n");
        let (once, stderr) = assert_round_trips(pgn.as_bytes());
        assert_eq!(once, pgn.as_bytes(), "{section}");
        assert!(stderr.contains(&format!("not formatted, copied as it is: {why}")), "{stderr}");
    }
    let many: String = (0..1000).map(|i| format!("[Tag \"{i}\"]\n")).collect();
    let pgn = format!("[Event \"E\"]\n{many}\n1. e4 *\n");
    assert_eq!(assert_round_trips(pgn.as_bytes()).0, pgn.as_bytes());
}

/// Items 3 and 4: a long malformed tag line, and a line break inside a tag
/// value, neither grow nor split games.
#[test]
fn r21_long_malformed_tag_lines_and_control_characters_round_trip() {
    let long = format!("[X {}[Event \"U\"][\n\n1. e4 *\n", "a".repeat(8_200));
    assert_round_trips(long.as_bytes());
    assert_round_trips(b"[\"\\\n\"");
    let (once, stderr) = assert_round_trips(b"[Event \"a\\\nb\"]\n\n1. e4 *\n");
    assert_eq!(read_back(&once).len(), 1);
    assert!(stderr.contains("control character") || once.starts_with(b"[Event"), "{stderr}");
    let (once, _) = assert_round_trips(b"[Event \"tab\there\"]\n\n1. e4 *\n");
    assert!(
        !once.windows(2).any(|w| w[0] == b'\t' && w[1] == b'h')
            || once.starts_with(b"[Event \"tab\t")
    );
}

/// A game without moves copied through as it is, then a formatted game:
/// the formatted game's placeholder roster tags come first, and a later
/// tag gives one of the first game's again; read back, they are still two
/// games (the fuzzer's find: the two were read as one).
#[test]
fn a_game_without_moves_copied_through_stays_apart_from_the_next() {
    let pgn = b"[ECO \"A07\"]\n[Variation \"attack, Pachma{[%clk 0:01:00]}f3 d5 *\n\n[ECO \"A08\"]\n\n1. e4 *\n";
    let (once, stderr) = assert_round_trips(pgn);
    assert!(stderr.contains("game 1: not formatted, copied as it is"), "{stderr}");
    assert_eq!(read_back(&once).len(), 2, "{}", String::from_utf8_lossy(&once));
}

/// Every reproducer the fuzzer found (fuzz/regressions/fmt) round-trips,
/// also where the fuzzer cannot run.
#[test]
fn the_fuzzers_reproducers_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/fmt");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).expect("fuzz/regressions/fmt") {
        let bytes = fs::read(entry.expect("entry").path()).expect("reproducer");
        assert_round_trips(&bytes);
        seen += 1;
    }
    assert!(seen >= 5, "{seen} reproducers in {}", dir.display());
}

/// The property, on mutants of the fixtures: any input formats to a text
/// that formats to itself and reads back as the same games.
#[test]
fn r21_mutants_of_the_fixtures_round_trip() {
    const PIECES: &[&[u8]] = &[
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"{",
        b"}",
        b"(",
        b")",
        b"\n",
        b"\n\n",
        b"%",
        b";",
        b" ",
        b"*",
        b"1-0",
        b"\t",
        b"\r",
        b"\x00",
        b"[Event \"M\"]\n",
        b"e4",
        b"O-O",
        b"$1",
        b"1.",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let sources: Vec<Vec<u8>> = [
        "rules/castling.pgn",
        "rules/variations.pgn",
        "rules/notation.pgn",
        "bad-input/duplicated_tags.pgn",
        "sample.pgn",
    ]
    .iter()
    .map(|f| fs::read(fixture(f)).expect("fixture"))
    .collect();
    let mut mutants = 0;
    for round in 0..40 {
        let mut bytes = sources[round % sources.len()].clone();
        bytes.truncate(60_000);
        for _ in 0..250 {
            let at = below(bytes.len() + 1);
            match below(3) {
                0 => {
                    let piece = PIECES[below(PIECES.len())];
                    bytes.splice(at..at, piece.iter().copied());
                }
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ if at < bytes.len() => bytes[at] = PIECES[below(PIECES.len())][0],
                _ => {}
            }
            mutants += 1;
        }
        assert_round_trips(&bytes);
    }
    assert!(mutants >= 10_000, "{mutants} mutations");
}

// ------------------------------------------- in place, safely (issue 21)

/// A file of `fixtures/sample.pgn`'s games in a fresh directory.
fn sample_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("games.pgn");
    fs::copy(fixture("sample.pgn"), &file).expect("copy");
    (dir, file)
}

/// Item 5: a FIFO (any file that is not a regular file) is refused, and
/// stays what it was; nothing is read from it.
#[test]
fn r21_in_place_refuses_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe.pgn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let path = fifo.to_str().expect("UTF-8 path");
    let refused =
        Arbiter::new(&["fmt", "--in-place", path]).within(std::time::Duration::from_secs(30)).run();
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("not a regular file"), "{}", refused.stderr);
    assert!(fs::symlink_metadata(&fifo).expect("still there").file_type().is_fifo());
    assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1, "a file was left behind");
}

/// Item 7: a file changed by someone else while it was being formatted is
/// left as it is, with exit 2.
#[test]
fn r21_in_place_leaves_a_file_changed_meanwhile() {
    let (dir, file) = sample_copy();
    let path = file.to_str().expect("UTF-8 path");
    let refused = run(&["fmt", "--in-place", "--touch-before-rename", path]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("changed while it was being formatted"), "{}", refused.stderr);
    let mut expected = fs::read(fixture("sample.pgn")).expect("read");
    expected.push(b'\n');
    assert!(fs::read(&file).expect("read") == expected, "the other writer's change was lost");
    assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1, "a temporary file was left");
}

/// Item 8: a symbolic link is followed (its target is formatted, the link
/// stays a link); a file with other hard links is refused; the owner and
/// group are kept.
#[test]
fn r21_in_place_follows_links_refuses_hard_links_and_keeps_the_owner() {
    use std::os::unix::fs::MetadataExt;
    let (dir, file) = sample_copy();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&file, &link).expect("symlink");
    let expected = format(file.to_str().unwrap());
    let done = run(&["fmt", "--in-place", link.to_str().unwrap()]);
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    assert!(fs::read(&file).unwrap() == expected, "the link's target was not formatted");

    let (_dir, file) = sample_copy();
    let other = file.with_file_name("other.pgn");
    fs::hard_link(&file, &other).expect("hard link");
    let original = fs::read(&file).unwrap();
    let refused = run(&["fmt", "--in-place", file.to_str().unwrap()]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("hard links"), "{}", refused.stderr);
    assert!(fs::read(&other).unwrap() == original && fs::read(&file).unwrap() == original);

    // Running as root (as CI does), a file of another user stays theirs.
    let (_dir, file) = sample_copy();
    if fs::metadata(&file).unwrap().uid() == 0 {
        let chowned = std::os::unix::fs::chown(&file, Some(65534), Some(65534));
        assert!(chowned.is_ok(), "chown: {chowned:?}");
        let done = run(&["fmt", "--in-place", file.to_str().unwrap()]);
        assert_eq!(done.code, Some(0), "{}", done.stderr);
        let meta = fs::metadata(&file).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534), "the owner was not kept");
    }

    // Every permission bit, the set-user-ID and sticky bits too (a change
    // of owner clears the first).
    use std::os::unix::fs::PermissionsExt;
    let (_dir, file) = sample_copy();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o4751)).unwrap();
    let done = run(&["fmt", "--in-place", file.to_str().unwrap()]);
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o7777, 0o4751);
}

/// A game not formatted is reported by the path as given, in place as
/// with `--check` (in place once named it by the resolved, absolute path,
/// and a link by its target's).
#[test]
fn in_place_reports_a_file_by_the_path_as_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = "[Event \"E\"]\n[Foo]\n\n1. e4 e5 *\n";
    fs::write(dir.path().join("o1.pgn"), pgn).expect("write");
    std::os::unix::fs::symlink("o1.pgn", dir.path().join("link.pgn")).expect("symlink");
    let said = "1: game 1: not formatted, copied as it is: a tag line cannot be read\n";
    for (args, name) in [
        (&["fmt", "--check", "o1.pgn"][..], "o1.pgn"),
        (&["fmt", "--in-place", "o1.pgn"], "o1.pgn"),
        (&["fmt", "--in-place", "./link.pgn"], "./link.pgn"),
    ] {
        let done = Arbiter::new(args).current_dir(dir.path()).run();
        assert_eq!(done.code, Some(if args[1] == "--check" { 1 } else { 0 }), "{}", done.stderr);
        assert_eq!(done.stderr, format!("{name}:{said}"), "{args:?}");
    }
    assert_eq!(fs::read_to_string(dir.path().join("o1.pgn")).expect("read"), pgn);
}

/// The temporary files of `fmt --in-place` in `dir` (named
/// `.NAME.XXXXXX.arbiter-tmp`).
fn temporary_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    fs::read_dir(dir)
        .expect("list the directory")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.to_string_lossy().ends_with(".arbiter-tmp"))
        .collect()
}

/// Item 6: a signal in the middle of `fmt --in-place` leaves the file as it
/// was and no temporary file. SIGINT and SIGTERM remove it before the run
/// ends as the signal says; SIGKILL cannot be caught, and the next run on
/// the file sweeps what it left.
#[test]
fn r21_in_place_leaves_no_temporary_file_after_a_signal() {
    use std::time::{Duration, Instant};
    let sample = fs::read(fixture("sample.pgn")).expect("read");
    // Long enough to be caught writing: 20,000 games, a second or more
    // (at a tenth of this, the run sometimes ended before the signal).
    let original = sample.repeat(100);
    for (name, number) in [("INT", 2), ("TERM", 15), ("KILL", 9)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("games.pgn");
        fs::write(&file, &original).expect("write");
        let mut child = crate::util::spawn_silent(&[
            "fmt".as_ref(),
            "--in-place".as_ref(),
            "-q".as_ref(),
            file.as_os_str(),
        ]);
        let started = Instant::now();
        loop {
            let writing = temporary_files(dir.path())
                .iter()
                .any(|temp| fs::metadata(temp).is_ok_and(|meta| meta.len() > 0));
            if writing {
                break;
            }
            assert!(child.try_wait().expect("wait").is_none(), "SIG{name}: ended before writing");
            assert!(started.elapsed() < Duration::from_secs(60), "SIG{name}: nothing written");
            std::thread::sleep(Duration::from_millis(5));
        }
        crate::util::interrupt(child, name, number);
        assert!(fs::read(&file).expect("read") == original, "SIG{name}: the file changed");
        let left = temporary_files(dir.path());
        if name == "KILL" {
            assert_eq!(left.len(), 1, "SIGKILL leaves its temporary file: {left:?}");
            let done =
                Arbiter::new(&["fmt", "--in-place", "-q", file.to_str().expect("UTF-8")]).run();
            assert_eq!(done.code, Some(0), "{}", done.stderr);
            assert_ne!(fs::read(&file).expect("read"), original, "the next run formats it");
        }
        assert_eq!(temporary_files(dir.path()), Vec::<std::path::PathBuf>::new(), "SIG{name}");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1, "SIG{name}: files left");
    }
}

/// `--check` shows each changed game's unified diff under its line, as
/// `rustfmt --check` does, its hunks numbered by the lines of the file
/// (they are `diff -u`'s of the file against `fmt`'s output).
#[test]
fn check_prints_a_unified_diff_per_changed_game() {
    let tags = |round: u32, result: &str| {
        format!(
            "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"{round}\"]\n\
             [White \"A\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n"
        )
    };
    let text = format!(
        "{}1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n{}1. e4   e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n",
        tags(1, "1-0"),
        tags(2, "*")
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("two.pgn");
    fs::write(&path, text).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    let checked = run(&["fmt", "--check", path]);
    assert_eq!(checked.code, Some(1), "{}", checked.stderr);
    let expected = format!(
        "{path}:11: game 2 would be reformatted\n\
         --- {path}:11\n\
         +++ {path}:11 (formatted)\n\
         @@ -16,4 +16,5 @@\n\
         \x20[Black \"B\"]\n\
         \x20[Result \"*\"]\n\
         \x20\n\
         -1. e4   e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n\
         +1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n\
         +\n"
    );
    assert_eq!(checked.stdout, expected);
}
