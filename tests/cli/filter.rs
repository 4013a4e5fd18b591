//! `arbiter filter` and the predicates every command takes (issue 22): each
//! predicate on a fixture of eight games whose answers can be read off it,
//! the same selection in `games`, `filter`, `validate` and `stats`, the
//! matched and rejected files holding every game once, byte for byte, and
//! usage errors. The position predicates are checked against python-chess
//! by `scripts/select_oracle.py` (in the differential test).

use std::fs;

use crate::util::{Arbiter, every_fixture, fixture, parse_jsonl, run};

const GAMES: &str = "select/predicates.pgn";

/// The game numbers `games` prints with `predicates`.
fn selected(predicates: &[&str]) -> Vec<u64> {
    let path = fixture(GAMES);
    let mut args = vec!["games", "-q", "--format", "jsonl"];
    args.extend_from_slice(predicates);
    args.push(&path);
    let run = run(&args);
    assert_eq!(run.code, Some(0), "{predicates:?}: {}", run.stderr);
    parse_jsonl(&run.stdout).iter().map(|r| r["index"].as_u64().unwrap()).collect()
}

#[test]
fn each_predicate_selects_the_games_it_describes() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let najdorf_ply_4 = "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3";
    let cases: &[(&[&str], &[u64])] = &[
        (&[], &[1, 2, 3, 4, 5, 6, 7, 8]),
        (&["--player", "carlsen"], &[1, 2]),
        (&["--player", "carlsen, m"], &[1, 2]),
        (&["--player", "Bob Mate"], &[5, 6, 7]),
        (&["--white", "carlsen"], &[1]),
        (&["--black", "carlsen"], &[2]),
        (&["--player", "!carlsen", "--player", "!mate"], &[3, 4, 8]),
        (&["--event", "club"], &[5, 6, 7]),
        (&["--site", "LICHESS"], &[2, 4]),
        (&["--round", "3"], &[1, 7]),
        (&["--date", "2023"], &[1, 2]),
        (&["--date", "2023.01"], &[1]),
        (&["--date", "..2000"], &[5, 6, 7]),
        (&["--date", "2001..2008.10.14"], &[3, 8]),
        (&["--elo", "2800.."], &[2]),
        (&["--either-elo", "2800.."], &[1, 2]),
        (&["--average-elo", "2800..2900"], &[1]),
        (&["--white-elo", "2800.."], &[1, 2]),
        (&["--black-elo", "..2780"], &[1, 3]),
        (&["--elo-diff", "80.."], &[1, 2]),
        (&["--result", "1-0"], &[1, 6, 8]),
        (&["--result", "1-0", "--result", "0-1"], &[1, 2, 5, 6, 8]),
        (&["--result", "!1-0"], &[2, 3, 4, 5, 7]),
        (&["--eco", "B"], &[1]),
        (&["--eco", "D40..D49"], &[3]),
        (&["--opening", "najdorf"], &[1]),
        (&["--variant", "atomic"], &[4]),
        (&["--variant", "standard"], &[1, 2, 3, 5, 6, 7, 8]),
        (&["--speed", "bullet"], &[2]),
        (&["--speed", "blitz"], &[4]),
        (&["--speed", "classical"], &[1]),
        (&["--speed", "unknown"], &[3, 5, 6, 7, 8]),
        (&["--termination-tag", "time forfeit"], &[2]),
        (&["--tag", "Annotator=Coach"], &[7]),
        (&["--tag", "Site~^https://lichess"], &[2, 4]),
        (&["--tag", "!FEN~."], &[1, 2, 3, 4, 5, 6, 7]),
        (&["--valid"], &[1, 2, 3, 4, 5, 7, 8]),
        (&["--invalid"], &[6]),
        (&["--error", "illegal_move"], &[6]),
        (&["--error", "illegal-move"], &[6]),
        (&["--error", "any"], &[6]),
        (&["--code", "illegal-move"], &[6]),
        (&["--ending", "checkmate"], &[5]),
        (&["--claimable", "threefold_repetition"], &[]),
        (&["--claimable", "fifty-move-rule"], &[]),
        (&["--plies", "4..4"], &[2, 5]),
        (&["--fen", najdorf_ply_4], &[1, 7]),
        (&["--fen", najdorf_ply_4, "--ply", "4"], &[1, 7]),
        (&["--fen", najdorf_ply_4, "--ply", "2"], &[]),
        (&["--placement", start], &[1, 2, 3, 4, 5, 6, 7]),
        (&["--moves", "1. e4 c5"], &[1]),
        (&["--moves", "e4 e5"], &[6]),
        (&["--material", "KRPvK"], &[8]),
        (&["--material", "KvKRP"], &[8]),
        (&["--material", "KvKRP", "--material-strict"], &[]),
        (&["--final-material", "KRPvK"], &[8]),
        (&["--player", "carlsen", "--result", "0-1"], &[2]),
    ];
    for (predicates, expected) in cases {
        assert_eq!(selected(predicates), *expected, "{predicates:?}");
        // `filter` replays a game only until it is decided: the same games.
        assert_eq!(filtered(predicates), final_positions(&fixture(GAMES), predicates));
    }
}

/// The final position of each game `games` selects from `path` with
/// `predicates` (read whole).
fn final_positions(path: &str, predicates: &[&str]) -> Vec<String> {
    let mut args = vec!["games", "-q", "--format", "jsonl"];
    args.extend_from_slice(predicates);
    args.push(path);
    let run = Arbiter::new(&args).run();
    parse_jsonl(&run.stdout).iter().map(|r| r["final_fen"].as_str().unwrap().to_owned()).collect()
}

/// The final positions of the games `filter` writes with `predicates`,
/// checked against its `--count` and `--rejects`: the games it writes are
/// replayed only until their selection is decided.
fn filtered(predicates: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let (matched, rejected) = (dir.path().join("m.pgn"), dir.path().join("r.pgn"));
    let (m, r) = (matched.to_str().unwrap(), rejected.to_str().unwrap());
    let path = fixture(GAMES);
    let with = |extra: &[&str]| {
        let mut args = vec!["filter", "-q"];
        args.extend_from_slice(predicates);
        args.extend_from_slice(extra);
        args.push(&path);
        Arbiter::new(&args).run()
    };
    let count = with(&["--count"]);
    with(&["-o", m]);
    let written = final_positions(m, &[]);
    with(&["-o", m, "--rejects", r]);
    assert_eq!(final_positions(m, &[]), written, "{predicates:?} with --rejects");
    assert_eq!(count.stdout.trim(), written.len().to_string(), "{predicates:?}");
    let rejects = final_positions(r, &[]);
    assert_eq!(written.len() + rejects.len(), 8, "{predicates:?}");
    written
}

#[test]
fn every_command_selects_the_same_games() {
    let path = fixture("sample.pgn");
    let predicates = ["--result", "1-0", "--plies", "..60"];
    let with = |command: &[&str]| {
        let mut args = command.to_vec();
        args.extend_from_slice(&predicates);
        args.push(&path);
        run(&args)
    };
    let games = parse_jsonl(&with(&["games", "-q", "--format", "jsonl"]).stdout).len();
    assert!(games > 10, "{games}");
    let count = with(&["filter", "-q", "--count"]);
    assert_eq!(count.stdout.trim(), games.to_string());
    let validate = with(&["validate", "-q"]);
    assert!(
        validate.stdout.contains(&format!("{games} of 207 games selected")),
        "{}",
        validate.stdout
    );
    let stats = with(&["stats", "-q", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stats.stdout).expect("JSON");
    assert_eq!(report["results"][0]["games"], games as u64, "{}", &stats.stdout[..300]);
}

#[test]
fn matched_and_rejected_games_hold_every_game_once_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (matched, rejected) = (dir.path().join("m.pgn"), dir.path().join("r.pgn"));
    let (m, r) = (matched.to_str().unwrap(), rejected.to_str().unwrap());
    for file in every_fixture() {
        if file.ends_with(".zst") {
            continue;
        }
        let input = fs::read(&file).unwrap();
        let count = |path: &str| {
            parse_jsonl(&run(&["games", "-q", "--format", "jsonl", path]).stdout).len()
        };
        for predicates in [&["--result", "1-0"][..], &["--material", "KQvK"], &["--invalid"]] {
            let mut args = vec!["filter", "-q", "-o", m, "--rejects", r];
            args.extend_from_slice(predicates);
            args.push(&file);
            let done = run(&args);
            assert!(matches!(done.code, Some(0 | 1)), "{file}: {}", done.stderr);
            let (out, rest) = (fs::read(&matched).unwrap(), fs::read(&rejected).unwrap());
            assert_eq!(out.len() + rest.len(), input.len(), "{file} {predicates:?}");
            assert_eq!(count(m) + count(r), count(&file), "{file} {predicates:?}");
            // The matches are the games `games` selects, in order.
            let mut args = vec!["games", "-q", "--format", "jsonl"];
            args.extend_from_slice(predicates);
            args.push(&file);
            let selected = parse_jsonl(&run(&args).stdout);
            let written = parse_jsonl(&run(&["games", "-q", "--format", "jsonl", m]).stdout);
            assert_eq!(selected.len(), written.len(), "{file} {predicates:?}");
            for (a, b) in selected.iter().zip(&written) {
                assert_eq!(
                    (&a["white"], &a["black"], &a["plies"]),
                    (&b["white"], &b["black"], &b["plies"])
                );
            }
        }
    }
}

#[test]
fn output_is_compressed_by_its_name_and_limited() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixture("sample.pgn");
    for name in ["out.pgn.zst", "out.pgn.gz"] {
        let out = dir.path().join(name);
        let done = run(&["filter", "-q", "--result", "0-1", "-o", out.to_str().unwrap(), &path]);
        assert_eq!(done.code, Some(0), "{}", done.stderr);
        let bytes = fs::read(&out).unwrap();
        assert!(bytes.starts_with(b"\x28\xb5\x2f\xfd") || bytes.starts_with(b"\x1f\x8b"), "{name}");
        let back = run(&["filter", "-q", "--count", out.to_str().unwrap()]);
        let direct = run(&["filter", "-q", "--count", "--result", "0-1", &path]);
        assert_eq!(back.stdout, direct.stdout, "{name}");
    }
    // Read but never written: refused, rather than plain PGN under the name.
    for name in ["out.pgn.bz2", "OUT.PGN.XZ"] {
        let out = dir.path().join(name);
        let refused = run(&["filter", "-q", "-o", out.to_str().unwrap(), &path]);
        assert_eq!(refused.code, Some(2), "{}", refused.stderr);
        assert!(refused.stderr.contains("writes only .zst and .gz"), "{}", refused.stderr);
        assert!(!out.exists(), "{name} was written");
    }
    let limited = run(&["filter", "-q", "--limit", "3", "--format", "jsonl", &path]);
    assert_eq!(parse_jsonl(&limited.stdout).len(), 3);
    let exported = run(&["filter", "-q", "--format", "pgn-export", "--moves", "e4", &path]);
    assert!(exported.stdout.starts_with("[Event "), "{}", &exported.stdout[..100]);
}

#[test]
fn no_match_exits_1_and_bad_predicates_exit_2() {
    let path = fixture(GAMES);
    let none = run(&["filter", "-q", "--player", "nobody at all", &path]);
    assert_eq!((none.code, none.stdout.as_str()), (Some(1), ""));
    for bad in [
        &["--elo", "x"][..],
        &["--date", "2023.13"],
        &["--eco", "Z00"],
        &["--fen", "not a fen"],
        &["--moves", "1. e5"],
        &["--material", "KXvK"],
        &["--code", "Z999"],
        &["--error", "bad_luck"],
        &["--speed", "glacial"],
        &["--tag", "Site~("],
        &["--result", "2-0"],
        // Ranges the wrong way round match nothing: said, not run.
        &["--elo", "2500..2000"],
        &["--plies", "10..5"],
        &["--date", "2020..2010"],
        &["--eco", "B99..B20"],
    ] {
        let mut args = vec!["filter", "-q"];
        args.extend_from_slice(bad);
        args.push(&path);
        let refused = Arbiter::new(&args).run();
        assert_eq!(refused.code, Some(2), "{bad:?}: {}", refused.stderr);
        assert!(refused.stderr.starts_with("arbiter: error: "), "{bad:?}: {}", refused.stderr);
        assert!(refused.stdout.is_empty());
    }
    // An illegal move is named as a game numbers it, after the moves before.
    let illegal = run(&["filter", "-q", "--moves", "1. e4 e5 2. Nf6", &path]);
    assert_eq!(illegal.code, Some(2));
    assert!(illegal.stderr.contains("2. Nf6 is not legal after 1. e4 e5"), "{}", illegal.stderr);
}

/// `--fen` of a word that is no placement says so, and does not point to
/// `--placement`, which would refuse it too; a placement alone is still
/// pointed there.
#[test]
fn a_fen_that_is_no_placement_is_told_so() {
    let path = fixture(GAMES);
    let xyz = run(&["filter", "-q", "--fen", "xyz", &path]);
    assert_eq!(xyz.code, Some(2), "{}", xyz.stderr);
    assert!(
        xyz.stderr.starts_with("arbiter: error: --fen xyz: \"xyz\" is not a FEN's board placement"),
        "{}",
        xyz.stderr
    );
    assert!(!xyz.stderr.contains("side to move"), "{}", xyz.stderr);
    assert!(!xyz.stderr.contains("--placement"), "{}", xyz.stderr);
    let placement = run(&["filter", "-q", "--placement", "xyz", &path]);
    assert_eq!(placement.code, Some(2), "{}", placement.stderr);
    assert!(
        placement.stderr.contains("--placement xyz: \"xyz\" is not a FEN's board placement"),
        "{}",
        placement.stderr
    );
    let alone = run(&["filter", "-q", "--fen", "8/8/8/8/8/8/8/8", &path]);
    assert!(alone.stderr.contains("a FEN with only the placement"), "{}", alone.stderr);
    assert!(alone.stderr.contains("; or --placement 8/8/8/8/8/8/8/8"), "{}", alone.stderr);
}

/// An output file whose path is a directory is refused before any game is
/// read, naming the option and saying what to give instead.
#[test]
fn an_output_file_that_is_a_directory_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dir = dir.path().to_str().expect("UTF-8 path");
    let sample = crate::util::fixture("sample.pgn");
    for args in [
        vec!["filter", "-o", dir, &sample],
        vec!["dupes", "--unique", "-o", dir, &sample],
        vec!["tree", "--partial", dir, &sample],
    ] {
        let run = crate::util::run(&args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(&format!("{dir}: is a directory, and --")), "{}", run.stderr);
        assert!(run.stderr.contains("give the path of a file"), "{}", run.stderr);
    }
}

#[test]
fn an_output_that_is_not_a_regular_file_or_is_a_link_is_written_not_replaced() {
    // `-o /dev/null` must not put a regular file in the device's place (a
    // rename over it would, run as root): a named pipe stands in for it,
    // read by `cat` into a file. An existing file keeps its permissions,
    // and a symbolic link its place.
    use std::{
        os::unix::fs::{FileTypeExt, PermissionsExt},
        process::{Command, Stdio},
        time::Duration,
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let sample = fixture("sample.pgn");
    let db = tmp.path().join("db");
    let built = run(&["db", "build", "-q", &sample, "-o", db.to_str().unwrap()]);
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    let pipe = tmp.path().join("pipe");
    let pipe_arg = pipe.to_str().unwrap().to_owned();
    let db_arg = db.to_str().unwrap().to_owned();
    let cases: [Vec<&str>; 3] = [
        vec!["filter", "-q", &sample, "-o", &pipe_arg],
        vec!["filter", "-q", &sample, "--player", "nobody", "--rejects", &pipe_arg],
        vec!["db", "export", "-q", &db_arg, "-o", &pipe_arg],
    ];
    let expected = fs::read(&sample).unwrap();
    for args in &cases {
        let _ = fs::remove_file(&pipe);
        let made = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo failed");
        let copy = tmp.path().join("copy.pgn");
        // The reader first: opening a pipe to write waits for one. `exec`,
        // so that a kill reaches `cat` waiting on a pipe nobody opens.
        let mut reader = Command::new("sh")
            .args(["-c", "exec cat \"$1\" > \"$2\"", "sh"])
            .arg(&pipe)
            .arg(&copy)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("sh runs");
        let result = Arbiter::new(args).within(Duration::from_secs(60)).run();
        let still_a_pipe = fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo();
        if !still_a_pipe {
            let _ = reader.kill();
        }
        let _ = reader.wait();
        assert!(matches!(result.code, Some(0 | 1)), "{args:?}: {}", result.stderr);
        assert!(still_a_pipe, "{args:?} put a file in the pipe's place");
        assert!(fs::read(&copy).unwrap() == expected, "{args:?}: not every game came through");
    }
    let out = tmp.path().join("out.pgn");
    fs::write(&out, "old").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
    let again = run(&["filter", "-q", &sample, "-o", out.to_str().unwrap()]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(fs::read(&out).unwrap() == expected);
    // A symbolic link: the file it names is written, the link stays.
    let link = tmp.path().join("link.pgn");
    let real = tmp.path().join("real.pgn");
    fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink("real.pgn", &link).unwrap();
    let through = run(&["filter", "-q", &sample, "-o", link.to_str().unwrap()]);
    assert_eq!(through.code, Some(0), "{}", through.stderr);
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    assert!(fs::read(&real).unwrap() == expected, "the linked file was not written");
    // `/dev/stdout` is the stream the shell opened, not the file it names:
    // `>>` appends, and matched games sent there with rejects into the
    // same file are refused. A loop of links is an error, not replaced.
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    let log = tmp.path().join("log.txt");
    let shell = |script: &str| {
        Command::new("sh")
            .args(["-c", script, "sh", arbiter, &sample, log.to_str().unwrap()])
            .output()
            .expect("sh runs")
    };
    let appended =
        shell("printf 'LOG\\n' > \"$3\"; \"$1\" filter -q \"$2\" -o /dev/stdout >> \"$3\"");
    assert!(appended.status.success(), "{}", String::from_utf8_lossy(&appended.stderr));
    let mut kept = b"LOG\n".to_vec();
    kept.extend_from_slice(&expected);
    assert!(fs::read(&log).unwrap() == kept, "-o /dev/stdout >> FILE did not append");
    let same = shell("\"$1\" filter -q \"$2\" --player carlsen --rejects \"$3\" > \"$3\"");
    assert_eq!(same.status.code(), Some(2), "{}", String::from_utf8_lossy(&same.stderr));
    let (a, b) = (tmp.path().join("loop-a"), tmp.path().join("loop-b"));
    std::os::unix::fs::symlink("loop-b", &a).unwrap();
    std::os::unix::fs::symlink("loop-a", &b).unwrap();
    let looped = run(&["filter", "-q", &sample, "-o", a.to_str().unwrap()]);
    assert_eq!(looped.code, Some(2), "{}", looped.stderr);
    assert!(looped.stderr.contains("too many levels of symbolic links"), "{}", looped.stderr);
    assert!(fs::symlink_metadata(&a).unwrap().file_type().is_symlink(), "the loop was replaced");
    // A link to a file not yet written: the file is made, the link stays.
    let ahead = tmp.path().join("ahead.pgn");
    std::os::unix::fs::symlink("later.pgn", &ahead).unwrap();
    let through = run(&["filter", "-q", &sample, "-o", ahead.to_str().unwrap()]);
    assert_eq!(through.code, Some(0), "{}", through.stderr);
    assert!(fs::symlink_metadata(&ahead).unwrap().file_type().is_symlink());
    assert!(fs::read(tmp.path().join("later.pgn")).unwrap() == expected);
}

#[test]
fn matched_and_rejected_games_into_one_file_are_refused() {
    // Each file replaces the other's games: refused before anything is
    // written, under any name for the same file.
    let tmp = tempfile::tempdir().expect("tempdir");
    let at = |name: &str| tmp.path().join(name).to_str().unwrap().to_owned();
    let (out, hard) = (at("out.pgn"), at("hard.pgn"));
    fs::write(&out, "kept").unwrap();
    fs::hard_link(&out, &hard).unwrap();
    std::os::unix::fs::symlink("out.pgn", at("link.pgn")).unwrap();
    std::os::unix::fs::symlink("new.pgn", at("dangling.pgn")).unwrap();
    let dotted = format!("{}/./out.pgn", tmp.path().to_str().unwrap());
    let games = fixture(GAMES);
    let pairs = [
        (out.as_str(), out.as_str()),
        (out.as_str(), dotted.as_str()),
        (out.as_str(), &at("link.pgn")),
        (out.as_str(), hard.as_str()),
        (&at("new.pgn"), &at("dangling.pgn")),
        ("-", "-"),
    ];
    for (output, rejects) in pairs {
        let args =
            ["filter", "-q", &games, "--player", "carlsen", "-o", output, "--rejects", rejects];
        let refused = run(&args);
        assert_eq!(refused.code, Some(2), "{args:?}: {}", refused.stderr);
        assert!(refused.stderr.contains("are the same file"), "{}", refused.stderr);
        assert_eq!(fs::read_to_string(&out).unwrap(), "kept", "{args:?}");
        assert!(!tmp.path().join("new.pgn").exists(), "{args:?}");
    }
    // Standard output for both, by default.
    let both = run(&["filter", "-q", &games, "--rejects", "-"]);
    assert_eq!(both.code, Some(2), "{}", both.stderr);
    // Two files: every game once.
    let (a, b) = (at("a.pgn"), at("b.pgn"));
    let two = run(&["filter", "-q", &games, "--player", "carlsen", "-o", &a, "--rejects", &b]);
    assert_eq!(two.code, Some(0), "{}", two.stderr);
    let count = |f: &str| fs::read_to_string(f).unwrap().matches("[Event ").count();
    assert_eq!(count(&a) + count(&b), 8);
}

/// Writes each of `texts` to a file `N.pgn` in `dir`; their paths.
fn write_files(dir: &std::path::Path, texts: &[impl AsRef<[u8]>]) -> Vec<String> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let file = dir.join(format!("{i}.pgn"));
            fs::write(&file, text).unwrap();
            file.to_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn games_from_many_files_read_back_as_themselves_in_every_output() {
    // Each file read alone; then every command that writes games' own
    // bytes into one output must give back the same games, whatever a
    // file ends or starts with.
    let dir = tempfile::tempdir().unwrap();
    let texts: [&[u8]; 8] = [
        b"[Event \"a\"]\n\n1. e4 e5 1-0\n",
        b"[Event \"b\"]\n\n1. d4 d5 0-1",
        b"1. e4 e5 2. Nf3 1-0\n\n1. d4 d5 0-1\n",
        b"\xef\xbb\xbf[Event \"c\"]\n\n1. c4 c5 1/2-1/2\n",
        b"*\n",
        b"{ a comment first } 1. Nf3 Nf6 *\n",
        b"[Event \"e\"]\n\n1. e4 (1. d4 d5",
        b"[Event \"d\"]\r\n\r\n1. g3 g6 *\r\n",
    ];
    let files = write_files(dir.path(), &texts);
    let games = |file: &str| -> Vec<(String, u64)> {
        let out = run(&["games", "-q", "--format", "jsonl", file]);
        parse_jsonl(&out.stdout)
            .iter()
            .map(|r| (r["event"].as_str().unwrap_or("").to_owned(), r["plies"].as_u64().unwrap()))
            .collect()
    };
    let expected: Vec<(String, u64)> = files.iter().flat_map(|f| games(f)).collect();
    assert_eq!(expected.len(), 9);
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let db = out("db");
    let mut build = vec!["db", "build", "-q", "-o", &db];
    build.extend(files.iter().map(String::as_str));
    assert_eq!(run(&build).code, Some(0));
    let (filtered, kept, rejects, unique, exported, searched) =
        (out("f.pgn"), out("k.pgn"), out("r.pgn"), out("u.pgn"), out("e.pgn"), out("s.pgn"));
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["filter", "-q", "-o", &filtered],
        vec!["filter", "-q", "-o", &kept, "--rejects", &rejects, "--plies", "3.."],
        vec!["dupes", "--unique", "-o", &unique],
    ];
    for command in &mut commands {
        command.extend(files.iter().map(String::as_str));
    }
    commands.push(vec!["db", "export", "-q", &db, "-o", &exported]);
    let mut written = None;
    for command in &commands {
        let result = run(command);
        assert!(matches!(result.code, Some(0 | 1)), "{command:?}: {}", result.stderr);
        if command[0] == "dupes" {
            let said = format!("{}{}", result.stdout, result.stderr);
            let count = said.split("wrote ").nth(1).and_then(|s| s.split(' ').next());
            written = count.and_then(|n| n.parse::<usize>().ok());
        }
    }
    let search = run(&["db", "search", &db, "--format", "pgn"]);
    fs::write(&searched, search.stdout_bytes).unwrap();
    // `fmt` writes each game in export format (a missing Event as `?`), or
    // as it is when it cannot (the unterminated variation): the same games.
    let formatted = out("fmt.pgn");
    let mut fmt = vec!["fmt", "-q"];
    fmt.extend(files.iter().map(String::as_str));
    fs::write(&formatted, run(&fmt).stdout_bytes).unwrap();
    let unnamed = |games: Vec<(String, u64)>| -> Vec<(String, u64)> {
        games.into_iter().map(|(e, p)| (if e == "?" { String::new() } else { e }, p)).collect()
    };
    assert_eq!(unnamed(games(&formatted)), expected, "{}", fs::read_to_string(&formatted).unwrap());
    for file in [&filtered, &exported, &searched] {
        assert_eq!(games(file), expected, "{file}: {}", fs::read_to_string(file).unwrap());
    }
    let mut parts = [games(&kept), games(&rejects)].concat();
    parts.sort();
    let mut all = expected.clone();
    all.sort();
    assert_eq!(parts, all, "kept and rejected: every game once");
    // `--unique` keeps as many games as it says (one of each group).
    let written = written.expect("dupes says how many games it wrote");
    assert!(written >= 6, "{written}");
    assert_eq!(games(&unique).len(), written, "{}", fs::read_to_string(&unique).unwrap());
}

#[test]
fn a_file_ending_without_a_line_break_does_not_join_the_next_files_game() {
    let dir = tempfile::tempdir().unwrap();
    let texts = [
        "[Event \"a\"]\n\n1. e4 e5 1-0\n",
        "[Event \"b\"]\n\n1. d4 d5 0-1",
        "[Event \"c\"]\n\n1. c4 c5 1/2-1/2",
        "[Event \"d\"]\n\n1. Nf3 Nf6 *\n",
    ];
    let files = write_files(dir.path(), &texts);
    let events = |pgn: &str| -> Vec<(String, bool)> {
        let file = dir.path().join("read.pgn");
        fs::write(&file, pgn).unwrap();
        let records =
            parse_jsonl(&run(&["games", "-q", "--format", "jsonl", file.to_str().unwrap()]).stdout);
        records
            .iter()
            .map(|r| (r["event"].as_str().unwrap_or("").to_owned(), r["valid"] == true))
            .collect()
    };
    let all = |names: &[&str]| -> Vec<(String, bool)> {
        names.iter().map(|n| (n.to_string(), true)).collect()
    };
    let mut args = vec!["filter", "-q"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args);
    assert_eq!(events(&out.stdout), all(&["a", "b", "c", "d"]), "{}", out.stdout);
    // The games kept and the games rejected: each side reads back whole.
    let rejects = dir.path().join("rejects.pgn");
    args.extend(["--tag", "Event=a", "--rejects", rejects.to_str().unwrap()]);
    let kept = run(&args);
    assert_eq!(events(&kept.stdout), all(&["a"]));
    assert_eq!(events(&fs::read_to_string(&rejects).unwrap()), all(&["b", "c", "d"]));
}
