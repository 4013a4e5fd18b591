//! `arbiter stats` and `arbiter merge`.
//!
//! The tables of `fixtures/stats/games.pgn` are checked against counts made
//! by hand from its eleven games (listed in `expected_games`); White's
//! score on the sample is checked against a count of the `Result` tags in
//! the file's text; shards of the sample, `stats --partial` each and
//! `merge` in any order, must give byte-identical CSV files to one run.

use std::{fs, path::Path};

use serde_json::Value;

use crate::util::{Arbiter, Run, fixture, run};

/// The CSV files `--csv` writes, with their headers.
const TABLES: [(&str, &[&str]); 8] = [
    (
        "results.csv",
        &[
            "scope",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "unfinished",
            "other",
            "decided",
            "white_points",
            "white_score_pct",
            "ci95_low_pct",
            "ci95_high_pct",
            "draw_pct",
        ],
    ),
    ("endings.csv", &["category", "name", "games", "pct"]),
    ("lengths.csv", &["plies", "games", "pct", "cumulative_pct"]),
    (
        "openings.csv",
        &[
            "eco",
            "name",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "white_score_pct",
            "draw_pct",
        ],
    ),
    (
        "players.csv",
        &[
            "player",
            "games",
            "points",
            "score_pct",
            "white_games",
            "white_points",
            "white_score_pct",
            "black_games",
            "black_points",
            "black_score_pct",
            "rated_games",
            "avg_opponent_rating",
            "performance",
        ],
    ),
    (
        "rating_gap.csv",
        &[
            "gap_from",
            "gap_to",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "decided",
            "mean_gap",
            "white_score_pct",
            "expected_score_pct",
            "difference_pct",
        ],
    ),
    (
        "by_month.csv",
        &[
            "year",
            "month",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "white_score_pct",
            "draw_pct",
        ],
    ),
    (
        "time_controls.csv",
        &[
            "class",
            "min_seconds",
            "max_seconds",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "white_score_pct",
            "draw_pct",
        ],
    ),
];

#[track_caller]
fn ok(run: &Run) {
    assert_eq!(run.code, Some(0), "stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
}

fn path(dir: &Path) -> &str {
    dir.to_str().expect("temporary paths are UTF-8")
}

/// The CSV table `name` in `dir`: its header, then its rows, as strings.
fn table(dir: &Path, name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_path(dir.join(name)).expect("the CSV file exists");
    let header = rdr.headers().expect("a header").iter().map(str::to_owned).collect();
    let rows =
        rdr.records().map(|r| r.expect("a CSV row").iter().map(str::to_owned).collect()).collect();
    (header, rows)
}

/// Rows of a table as comma-joined strings, for compact expectations.
fn lines(dir: &Path, name: &str) -> Vec<String> {
    table(dir, name).1.iter().map(|row| row.join(",")).collect()
}

/// `stats --csv` on `fixtures/stats/games.pgn`, into a fresh directory.
fn fixture_tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    ok(&run(&["stats", "-q", "--csv", path(dir.path()), &fixture("stats/games.pgn")]));
    dir
}

/// The eleven games of the fixture, as counted by hand (plies of the valid
/// ones; G6 is invalid: 5. Ke3 is illegal after 8 plies):
///
/// | game | result | plies | automatic end | claim | players, ratings | date | time control |
/// |---|---|---|---|---|---|---|---|
/// | G1 | 1-0 | 7 | checkmate | | Alice 1500 - Bob 1400 | 2023-05 | 180+2 blitz |
/// | G2 | ½ | 6 | | | Bob 1450 - Alice 1500 | 2023-05 | 600+0 rapid |
/// | G3 | ½ | 8 | | threefold | Carol 1600 - Bob 1400 | 2023-06 | - correspondence |
/// | G4 | 0-1 | 4 | checkmate | | Alice 1500 - Carol 1600 | 2023-06 | 60+0 bullet |
/// | G5 | 0-1 (wrong) | 7 | checkmate | | Bob - Carol 1600 | 2022 | ? unknown |
/// | G6 | 1-0 | invalid | | | Alice 1500 - Bob 1400 | 2023-05 | 180+2 blitz |
/// | G7 | * | 2 | | | Carol - Alice | 2023-07 (UTCDate) | 300+3 blitz |
/// | G8 | none | 2 | | | ? - Dave | none | none |
/// | G9 | ½ | 19 | stalemate | | Dave 2000 - Bob 1400 | 2023-05 | 900+10 rapid |
/// | G10 | ½ | 4 | | fifty moves | Bob 1400 - Dave 2000 | 2023-05 | 1800+0 classical |
/// | G11 | ½ | 3 | insufficient material, 2 plies after | | Carol 1600 - Dave 2000 | 2023-07 | 180+0 blitz |
#[test]
fn results_and_endings_match_hand_counts() {
    let dir = fixture_tables();
    let results = table(dir.path(), "results.csv").1;
    let counts: Vec<&[String]> = results.iter().map(|row| &row[..9]).collect();
    assert_eq!(
        counts,
        [
            ["all", "11", "2", "5", "2", "1", "1", "9", "4.5"],
            ["valid", "10", "1", "5", "2", "1", "1", "8", "3.5"],
            ["invalid", "1", "1", "0", "0", "0", "0", "1", "1.0"],
        ]
    );
    // White's score 4.5/9 = 50%; draws 5/9. The interval: per-game scores
    // with sample variance (2·1 + 5·¼)/9 − ¼ = 1/9, × 9/8 = 1/8; the margin
    // is 1.96·√(1/8/9) = 23.10 points.
    let all = &results[0];
    assert_eq!((all[9].as_str(), all[12].as_str()), ("50.0", "55.56"));
    let close = |cell: &str, expected: f64| {
        let value: f64 = cell.parse().unwrap();
        assert!((value - expected).abs() <= 0.011, "{cell} vs {expected}");
    };
    close(&all[10], 26.90);
    close(&all[11], 73.10);
    assert_eq!(&results[1][9], "43.75");
    assert_eq!(
        (results[2][10].as_str(), results[2][11].as_str()),
        ("", ""),
        "one game: no interval"
    );

    let endings = lines(dir.path(), "endings.csv");
    for expected in [
        "automatic,checkmate,3,27.27",
        "automatic,stalemate,1,9.09",
        "automatic,insufficient_material,1,9.09",
        "automatic,fivefold_repetition,0,0.0",
        "claimable,threefold_repetition,1,9.09",
        "claimable,fifty_move_rule,1,9.09",
        "after_claim,drawn,2,18.18",
        "after_claim,white_won,0,0.0",
        "continued,moves_after_automatic_end,1,9.09",
        "inconsistent,result_contradicts_position,1,9.09",
        "error,illegal_move,1,9.09",
        "error,bad_fen,0,0.0",
        "termination_tag,Abandoned,1,9.09",
        "termination_tag,Normal,7,63.64",
        "termination_tag,Time forfeit,1,9.09",
        "termination_tag,Unterminated,1,9.09",
    ] {
        assert!(endings.contains(&expected.to_owned()), "{expected} not in {endings:#?}");
    }
    let tags = endings.iter().filter(|l| l.starts_with("termination_tag,")).count();
    assert_eq!(tags, 4);
}

#[test]
fn lengths_are_exact() {
    let dir = fixture_tables();
    // Valid games: 2 2 3 4 4 6 7 7 8 19.
    assert_eq!(
        lines(dir.path(), "lengths.csv"),
        [
            "2,2,20.0,20.0",
            "3,1,10.0,30.0",
            "4,2,20.0,50.0",
            "6,1,10.0,60.0",
            "7,2,20.0,80.0",
            "8,1,10.0,90.0",
            "19,1,10.0,100.0",
        ]
    );
    let json = stats_json(&["stats", "-q", "--json", &fixture("stats/games.pgn")]);
    let lengths = &json["lengths"];
    assert_eq!(lengths["games"], 10);
    assert_eq!(lengths["mean"], 6.2);
    assert_eq!((&lengths["min"], &lengths["max"]), (&Value::from(2), &Value::from(19)));
    // Nearest rank: the median is the 5th of 10, p25 the 3rd, p90 the 9th.
    let p = &lengths["percentiles"];
    assert_eq!(
        (&p["50"], &p["25"], &p["75"], &p["90"], &p["99"]),
        (&Value::from(4), &Value::from(3), &Value::from(7), &Value::from(8), &Value::from(19))
    );
    assert_eq!(json["summary"]["median_plies"], 4);
}

#[test]
fn openings_come_from_tags_else_from_the_book() {
    let dir = fixture_tables();
    // G1 and G5 (no tags) reach 1. e4 e5 2. Bc4, the book's deepest line
    // they pass; G4 has `ECO "A00"` only, and the book's name for its
    // line has that code; G10 and G11 start from a FEN: unclassified.
    assert_eq!(
        lines(dir.path(), "openings.csv"),
        [
            ",,2,0,2,0,50.0,100.0",
            "C23,Bishop's Opening,2,1,0,1,50.0,0.0",
            "A00,Barnes Opening: Fool's Mate,1,0,0,1,0.0,0.0",
            "A00,Van't Kruijs Opening,1,0,1,0,50.0,100.0",
            "A05,Zukertort Opening,1,0,1,0,50.0,100.0",
            "A30,English Opening: Symmetrical Variation,1,0,0,0,,",
            "C65,Ruy Lopez: Berlin Defense,1,0,1,0,50.0,100.0",
            "C68,Ruy Lopez: Exchange Variation,1,1,0,0,100.0,0.0",
            "D00,Queen's Pawn Game,1,0,0,0,,",
        ]
    );
}

#[test]
fn players_score_and_perform() {
    let dir = fixture_tables();
    // Alice: W G1 1, G4 0, G6 1; B G2 ½, G7 *. Rated opponents in G1, G2,
    // G4, G6: 1400 + 1450 + 1600 + 1400 = 5850, 2.5/4 ⇒ 1462.5 +
    // 400·log10(0.625/0.375) = 1551.2. Bob: 2/7 against 11700 ⇒ 1671.4 +
    // 400·log10(0.4) = 1512.3. Carol: 2/3 against 4900 ⇒ 1633.3 + 120.4.
    // Dave: 1.5/3 against 4400. "?" is no player.
    assert_eq!(
        lines(dir.path(), "players.csv"),
        [
            "Bob,7,2.0,28.57,3,1.0,33.33,4,1.0,25.0,7,1671.4,1512.3",
            "Alice,5,2.5,62.5,3,2.0,66.67,2,0.5,50.0,4,1462.5,1551.2",
            "Carol,5,3.0,75.0,3,1.0,50.0,2,2.0,100.0,3,1633.3,1753.7",
            "Dave,4,1.5,50.0,1,0.5,50.0,3,1.0,50.0,3,1466.7,1466.7",
        ]
    );
}

#[test]
fn rating_gap_compares_with_the_elo_expectation() {
    let dir = fixture_tables();
    // Gaps: G1 +100, G2 −50, G3 +200, G4 −100, G6 +100, G9 +600, G10 −600,
    // G11 −400; E(100) = 1/(1 + 10^(−1/4)) = 64.01%.
    assert_eq!(
        lines(dir.path(), "rating_gap.csv"),
        [
            "-625,-576,1,0,1,0,1,-600.0,50.0,3.07,46.93",
            "-425,-376,1,0,1,0,1,-400.0,50.0,9.09,40.91",
            "-125,-76,1,0,0,1,1,-100.0,0.0,35.99,-35.99",
            "-75,-26,1,0,1,0,1,-50.0,50.0,42.85,7.15",
            "75,124,2,2,0,0,2,100.0,100.0,64.01,35.99",
            "175,224,1,0,1,0,1,200.0,50.0,75.97,-25.97",
            "575,624,1,0,1,0,1,600.0,50.0,96.93,-46.93",
        ]
    );
}

#[test]
fn time_tables_by_month_and_speed() {
    let dir = fixture_tables();
    assert_eq!(
        lines(dir.path(), "by_month.csv"),
        [
            ",,1,0,0,0,,",
            "2022,,1,0,0,1,0.0,0.0",
            "2023,5,5,2,3,0,70.0,60.0",
            "2023,6,2,0,1,1,25.0,50.0",
            "2023,7,2,0,1,0,50.0,100.0",
        ]
    );
    assert_eq!(
        lines(dir.path(), "time_controls.csv"),
        [
            "ultrabullet,0,29,0,0,0,0,,",
            "bullet,30,179,1,0,0,1,0.0,0.0",
            "blitz,180,479,4,2,1,0,83.33,33.33",
            "rapid,480,1499,2,0,2,0,50.0,100.0",
            "classical,1500,21599,1,0,1,0,50.0,100.0",
            "correspondence,21600,,1,0,1,0,50.0,100.0",
            "unknown,,,2,0,0,1,0.0,0.0",
        ]
    );
}

#[test]
fn csv_files_parse_back_with_their_headers() {
    let dir = fixture_tables();
    let mut written: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    let mut expected: Vec<&str> = TABLES.iter().map(|(name, _)| *name).collect();
    expected.sort();
    assert_eq!(written, expected);
    for (name, header) in TABLES {
        let (found, rows) = table(dir.path(), name);
        assert_eq!(found, header, "{name}");
        assert!(!rows.is_empty(), "{name} has rows");
        assert!(rows.iter().all(|row| row.len() == header.len()), "{name}");
    }
    // An empty input still gets every file, with its header.
    let empty = tempfile::tempdir().unwrap();
    ok(&run(&["stats", "--csv", path(empty.path()), &fixture("bad-input/empty.pgn")]));
    for (name, header) in TABLES {
        assert_eq!(table(empty.path(), name).0, header, "{name}");
    }
}

/// Runs a command that prints one JSON document.
fn stats_json(args: &[&str]) -> Value {
    let run = run(args);
    ok(&run);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout))
}

/// Counts the `Result` tags in the text of a PGN file.
fn result_tags(text: &str) -> [u64; 4] {
    let mut counts = [0; 4];
    for line in text.lines() {
        let Some(value) = line.trim().strip_prefix("[Result \"") else { continue };
        match value.strip_suffix("\"]") {
            Some("1-0") => counts[0] += 1,
            Some("1/2-1/2") => counts[1] += 1,
            Some("0-1") => counts[2] += 1,
            Some("*") => counts[3] += 1,
            other => panic!("unexpected result {other:?}"),
        }
    }
    counts
}

#[test]
fn white_score_equals_a_count_of_the_result_tags() {
    let sample = fixture("sample.pgn");
    let [wins, draws, losses, unfinished] = result_tags(&fs::read_to_string(&sample).unwrap());
    let games = fs::read_to_string(&sample).unwrap().matches("[Event ").count() as u64;
    assert_eq!(wins + draws + losses + unfinished, games, "every game has a Result tag");
    let json = stats_json(&["stats", "-q", "--json", &sample]);
    let all = &json["results"][0];
    assert_eq!(all["scope"], "all");
    assert_eq!(
        [&all["games"], &all["white_wins"], &all["draws"], &all["black_wins"], &all["unfinished"]],
        [games, wins, draws, losses, unfinished].map(Value::from).each_ref()
    );
    let score = (wins as f64 + draws as f64 / 2.0) / (wins + draws + losses) as f64 * 100.0;
    let reported = all["white_score_pct"].as_f64().unwrap();
    assert!((reported - score).abs() < 0.005, "{reported} vs {score}");
    assert_eq!(json["summary"]["white_score_pct"], all["white_score_pct"]);
    assert_eq!(json["summary"]["games"], games);
}

/// Splits a PGN text into `n` pieces at game boundaries (before `[Event `
/// lines), as `split` would.
fn shards(text: &str, n: usize) -> Vec<String> {
    let starts: Vec<usize> = text.match_indices("\n[Event ").map(|(i, _)| i + 1).collect();
    let mut cuts = vec![0];
    for k in 1..n {
        cuts.push(starts[k * starts.len() / n]);
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| text[w[0]..w[1]].to_owned()).collect()
}

/// Every CSV file of `dir`, by name, as bytes.
fn csv_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    TABLES.iter().map(|(name, _)| ((*name).to_owned(), fs::read(dir.join(name)).unwrap())).collect()
}

#[test]
fn merged_shards_give_the_same_csv_as_one_run_in_any_order() {
    let work = tempfile::tempdir().unwrap();
    let sample = fixture("sample.pgn");
    let whole = work.path().join("whole");
    ok(&run(&["stats", "-q", "--csv", path(&whole), &sample]));

    let text = fs::read_to_string(&sample).unwrap();
    let pieces = shards(&text, 4);
    assert_eq!(pieces.concat(), text);
    let mut parts = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let pgn = work.path().join(format!("shard{i}.pgn"));
        fs::write(&pgn, piece).unwrap();
        let part = work.path().join(format!("shard{i}.arb.json"));
        // Shards run with different thread counts: it must not matter.
        let jobs = (i % 2 + 1).to_string();
        ok(&run(&["stats", "-q", "-j", &jobs, "--partial", path(&part), path(&pgn)]));
        parts.push(path(&part).to_owned());
    }
    let orders: [Vec<usize>; 3] = [vec![0, 1, 2, 3], vec![3, 2, 1, 0], vec![2, 0, 3, 1]];
    for order in orders {
        let out = work.path().join(format!("merged{order:?}"));
        let mut args = vec!["merge", "--csv", path(&out)];
        args.extend(order.iter().map(|&i| parts[i].as_str()));
        ok(&run(&args));
        assert_eq!(csv_bytes(&out), csv_bytes(&whole), "order {order:?}");
    }
    // Merging is associative: merge two pairs, then the two merges.
    let pair = |a: usize, b: usize| {
        let out = work.path().join(format!("pair{a}{b}.arb.json"));
        ok(&run(&["merge", "--partial", path(&out), &parts[a], &parts[b]]));
        path(&out).to_owned()
    };
    let (left, right) = (pair(0, 1), pair(2, 3));
    let out = work.path().join("tree");
    ok(&run(&["merge", "--csv", path(&out), &left, &right]));
    assert_eq!(csv_bytes(&out), csv_bytes(&whole));
    // The merged partial is the partial of the whole file, byte for byte.
    let once = work.path().join("once.arb.json");
    ok(&run(&["stats", "-q", "--partial", path(&once), &sample]));
    let all = work.path().join("all.arb.json");
    ok(&run(&["merge", "--partial", path(&all), &left, &right]));
    assert_eq!(fs::read(&all).unwrap(), fs::read(&once).unwrap());
}

#[test]
fn threads_and_chunk_sizes_do_not_change_the_tables() {
    let work = tempfile::tempdir().unwrap();
    let sample = fixture("sample.pgn");
    let one = work.path().join("one");
    ok(&run(&["stats", "-q", "-j", "1", "--csv", path(&one), &sample]));
    let many = work.path().join("many");
    let args = ["stats", "-q", "-j", "4", "--chunk-size", "3000", "--csv", path(&many), &sample];
    ok(&run(&args));
    assert_eq!(csv_bytes(&many), csv_bytes(&one));
}

#[test]
fn partials_stream_through_standard_input_and_output() {
    let games = fixture("stats/games.pgn");
    let part = run(&["stats", "-q", "--partial", "-", &games]);
    ok(&part);
    assert_eq!(part.stdout.lines().count(), 1, "one partial, one line");
    // Two partials concatenated on standard input: every count doubles.
    let twice = format!("{}{}", part.stdout, part.stdout);
    let merged = Arbiter::new(&["merge", "--json", "-"]).stdin(twice.as_bytes()).run();
    ok(&merged);
    let json: Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(json["summary"]["games"], 22);
    assert_eq!(json["players"][0]["player"], "Bob");
    assert_eq!(json["players"][0]["games"], 14);
}

#[test]
fn a_partial_and_json_on_standard_output_are_refused() {
    let games = fixture("stats/games.pgn");
    for args in [
        vec!["stats", "-q", "--partial", "-", "--json", &games],
        vec!["merge", "--partial", "-", "--json", "-"],
    ] {
        let out = Arbiter::new(&args).stdin(b"").run();
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains("both write to standard output"), "{}", out.stderr);
    }
    // To a file, the partial goes beside the JSON document.
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("part.json");
    let out = run(&["stats", "-q", "--partial", part.to_str().unwrap(), "--json", &games]);
    ok(&out);
    assert!(serde_json::from_str::<Value>(&out.stdout).is_ok(), "{}", out.stdout);
    assert!(fs::read_to_string(&part).unwrap().contains("arbiter-stats-partial"));
}

/// An error's cause is said once (it was printed twice: in the message
/// and again as its source).
#[test]
fn a_broken_partial_or_configuration_says_its_cause_once() {
    let truncated = b"{\"format\":\"arbiter-stats-partial\",\"version\":1,\"stats\":{\"x";
    let out = Arbiter::new(&["merge", "-"]).stdin(truncated).run();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.matches("EOF while parsing").count(), 1, "{}", out.stderr);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("arbiter.toml");
    fs::write(&config, "[check\nfoo=").unwrap();
    let games = fixture("stats/games.pgn");
    let out = run(&["check", "--config", config.to_str().unwrap(), &games]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.matches("unclosed table").count(), 1, "{}", out.stderr);
}

#[test]
fn bad_partials_stop_the_merge() {
    let work = tempfile::tempdir().unwrap();
    let good = work.path().join("good.arb.json");
    ok(&run(&["stats", "-q", "--partial", path(&good), &fixture("stats/games.pgn")]));
    let text = fs::read_to_string(&good).unwrap();
    let cases = [
        ("version", text.replacen("\"version\":1", "\"version\":99", 1), "version 99"),
        ("truncated", text[..text.len() / 2].to_owned(), "not a JSON document"),
        ("foreign", "{\"games\": 3}\n".to_owned(), "not an arbiter stats partial"),
        ("empty", String::new(), "empty"),
        // 1-0 + draws + 0-1 exceed the games counted.
        ("inconsistent", text.replacen("\"valid\":[10,", "\"valid\":[1,", 1), "corrupt partial"),
    ];
    for (name, content, message) in cases {
        assert_ne!(content, text, "{name}: the case changes the partial");
        let bad = work.path().join(format!("{name}.arb.json"));
        fs::write(&bad, content).unwrap();
        let run = run(&["merge", path(&good), path(&bad)]);
        assert_eq!(run.code, Some(2), "{name}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{name}: nothing written on error");
        assert!(run.stderr.contains(path(&bad)), "{name}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{name}: {}", run.stderr);
    }
    let missing = run(&["merge", path(&work.path().join("missing.arb.json"))]);
    assert_eq!(missing.code, Some(2));
    assert!(missing.stderr.contains("cannot read partial"), "{}", missing.stderr);
}

#[test]
fn terminal_summary_leads_with_the_headline() {
    let run = run(&["stats", "-q", "--top", "2", &fixture("stats/games.pgn")]);
    ok(&run);
    let mut lines = run.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("11 games: 10 valid, 1 invalid (invalid games count in every table but lengths)")
    );
    let second = lines.next().unwrap();
    assert!(
        second.starts_with("White scores 50.00% (95% CI 26.9")
            && second.contains("9 decided games"),
        "{second}"
    );
    assert!(run.stdout.contains("Players (top 2 of 4, by games)"), "{}", run.stdout);
    assert!(run.stdout.contains("\n  Bob "), "{}", run.stdout);
    assert!(!run.stdout.contains("\n  Dave "), "--top 2 leaves Dave out:\n{}", run.stdout);
    // Columns line up: every row of the results table is as wide as its header.
    let results: Vec<&str> =
        run.stdout.lines().skip_while(|l| *l != "Results").skip(1).take(4).collect();
    assert!(results.iter().all(|l| l.len() == results[0].len()), "{results:#?}");
}

#[test]
fn json_is_one_document_cut_by_top() {
    let games = fixture("stats/games.pgn");
    let json = stats_json(&["stats", "-q", "--json", &games]);
    for key in ["summary", "results", "endings", "lengths", "openings", "players", "rating_gap"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["players"].as_array().unwrap().len(), 4, "complete without --top");
    let cut = stats_json(&["stats", "-q", "--json", "--top", "1", &games]);
    assert_eq!(cut["players"].as_array().unwrap().len(), 1);
    assert_eq!(cut["openings"].as_array().unwrap().len(), 1);
    assert_eq!(cut["summary"], json["summary"]);
}

#[test]
fn plots_are_svg() {
    let dir = tempfile::tempdir().unwrap();
    let run = run(&["stats", "-q", "--json", "--plot", path(dir.path()), &fixture("sample.pgn")]);
    ok(&run);
    for name in ["rating_gap.svg", "lengths.svg", "by_time_control.svg", "by_year.svg"] {
        let svg = fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{name}");
        assert!(svg.contains("<rect") || svg.contains("<polyline"), "{name} draws something");
    }
}

#[test]
fn unreadable_inputs_are_reported_and_the_rest_counted() {
    let run = run(&["stats", "-q", "--json", "/nonexistent/x.pgn", &fixture("stats/games.pgn")]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("/nonexistent/x.pgn"), "{}", run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["summary"]["games"], 11);
}

/// Dates are read by the one date parser every command uses: a month or
/// day of one digit is read (`2013.5.6`), a stray character is no date,
/// as for `validate`'s tag check (the master corpus has `2021.05.09\``,
/// which `stats` used to count in May 2021).
#[test]
fn dates_are_read_as_every_command_reads_them() {
    let game = |date: &str| format!("[Date \"{date}\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n");
    let pgn: String = ["2021.05.09`", "2013.5.6", "2013.30.4", "2021.05.09"].map(game).concat();
    let dir = tempfile::tempdir().unwrap();
    let run =
        Arbiter::new(&["stats", "-q", "--csv", path(dir.path()), "-"]).stdin(pgn.as_bytes()).run();
    ok(&run);
    assert_eq!(
        lines(dir.path(), "by_month.csv"),
        [
            ",,1,1,0,0,100.0,0.0",
            "2013,,1,1,0,0,100.0,0.0",
            "2013,5,1,1,0,0,100.0,0.0",
            "2021,5,1,1,0,0,100.0,0.0"
        ]
    );
    // validate reports the three that are not in the standard's form.
    let validated = Arbiter::new(&["validate", "-"]).stdin(pgn.as_bytes()).run();
    let malformed: Vec<_> =
        validated.stdout.lines().filter(|l| l.contains("[W302 malformed-tag]: ")).collect();
    assert_eq!(malformed.len(), 3, "{}", validated.stdout);
}

/// Issue 21, item 9: `--partial FILE` and `--csv DIR` are written whole or
/// not at all. On a full file system (an 8 KiB tmpfs, where mounting one is
/// permitted, as for root in CI) the run fails (exit 2), and neither a
/// truncated file nor a temporary one is left; a partial already there is
/// kept intact.
#[test]
fn r21_partial_and_csv_files_are_never_left_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=8k", "tmpfs"])
        .arg(dir.path())
        .status()
        .is_ok_and(|status| status.success());
    if !mounted {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped: cannot mount a small tmpfs here (needs root)");
        }
        return;
    }
    let unmount = || std::process::Command::new("umount").arg(dir.path()).status();
    let sample = fixture("sample.pgn");
    let partial = dir.path().join("part.json");
    fs::write(&partial, b"the partial written before").unwrap();
    let full = run(&["stats", "-q", "--partial", path(&partial), &sample]);
    let csv = dir.path().join("tables");
    let full_csv = run(&["stats", "-q", "--csv", path(&csv), &sample]);
    let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    let kept = fs::read(&partial).unwrap();
    let tables: Vec<(String, u64)> = fs::read_dir(&csv)
        .map(|entries| {
            entries
                .map(|e| e.unwrap())
                .map(|e| {
                    (e.file_name().to_string_lossy().into_owned(), e.metadata().unwrap().len())
                })
                .collect()
        })
        .unwrap_or_default();
    let _ = unmount();
    assert_eq!(full.code, Some(2), "{}", full.stderr);
    assert_eq!(kept, b"the partial written before", "the partial was truncated");
    assert_eq!(full_csv.code, Some(2), "{}", full_csv.stderr);
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");
    // Each table there is whole: a CSV file with at least its header.
    assert!(tables.iter().all(|(_, len)| *len > 0), "{tables:?}");
}

/// Issue 21, item 19: a partial given twice, by the same path, through a
/// link, or as a copy, stops the merge (exit 2) instead of counting its
/// games twice.
#[test]
fn r21_a_partial_given_twice_stops_the_merge() {
    let work = tempfile::tempdir().unwrap();
    let part = work.path().join("part.json");
    ok(&run(&["stats", "-q", "--partial", path(&part), &fixture("sample.pgn")]));
    let link = work.path().join("link.json");
    std::os::unix::fs::symlink(&part, &link).unwrap();
    let copy = work.path().join("copy.json");
    fs::copy(&part, &copy).unwrap();
    for (second, says) in [(&part, "given twice"), (&link, "given twice"), (&copy, "the same as")] {
        let merged = run(&["merge", path(&part), path(second)]);
        assert_eq!(merged.code, Some(2), "{}", merged.stdout);
        assert!(merged.stderr.contains(says), "{}", merged.stderr);
        assert!(merged.stdout.is_empty(), "{}", merged.stdout);
    }
    ok(&run(&["merge", path(&part)]));
    // Two shards of the very same games: equal partials, refused with the
    // way out (one stream), which merges both.
    let twice = run(&["merge", path(&part), path(&copy)]);
    assert!(twice.stderr.contains("`cat A B | arbiter merge -`"), "{}", twice.stderr);
    let both = [fs::read(&part).unwrap(), fs::read(&copy).unwrap()].concat();
    let merged = Arbiter::new(&["merge", "--json", "-"]).stdin(&both).run();
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    let one = run(&["stats", "-q", "--json", &fixture("sample.pgn"), &fixture("sample.pgn")]);
    assert_eq!(merged.stdout, one.stdout);
}

/// Partials of no game (a cluster's empty partitions, each run on empty
/// standard input) are equal and add nothing: they are merged, stats and
/// tree alike, and the total is that of the other shards.
#[test]
fn partials_of_empty_shards_are_merged() {
    let work = tempfile::tempdir().unwrap();
    let sample = fixture("sample.pgn");
    for command in ["stats", "tree"] {
        let [empty1, empty2, full] =
            ["empty1", "empty2", "full"].map(|n| work.path().join(format!("{command}-{n}.json")));
        for empty in [&empty1, &empty2] {
            let made =
                Arbiter::new(&[command, "-q", "--partial", path(empty), "-"]).stdin(b"").run();
            assert_eq!(made.code, Some(0), "{}", made.stderr);
        }
        assert_eq!(fs::read(&empty1).unwrap(), fs::read(&empty2).unwrap());
        ok(&run(&[command, "-q", "--partial", path(&full), &sample]));
        let merged = run(&["merge", "--json", path(&empty1), path(&full), path(&empty2)]);
        assert_eq!(merged.code, Some(0), "{command}: {}", merged.stderr);
        let alone = run(&[command, "-q", "--json", &sample]);
        assert_eq!(merged.stdout, alone.stdout, "{command}");
    }
}

/// Issue 25: the length histogram ran to the longest game (600 plies
/// where the data end near 330); bars said nothing of their counts; the
/// rating-gap plot had no confidence band; White's score and draws by
/// time control and by year were tables only. On 1,000 blitz games of 4
/// plies in 2020 (White 400 points stronger; results 1-0, ½-½, 0-1 in
/// turn) and one long game: the axis ends after the 99.9th percentile's
/// bar, the long game alone in an overflow bar; every bar and point has
/// its n; the band is drawn; the new charts have the 1,000 games.
#[test]
fn r25_plots_end_where_the_data_end_and_show_n() {
    let dir = tempfile::tempdir().unwrap();
    let swiss = fs::read_to_string(fixture("tournament/swiss.pgn")).unwrap();
    // The Swiss's first game: 85 plies.
    let long = swiss.split("\n\n[Event").next().unwrap().to_owned() + "\n\n";
    let mut pgn = String::new();
    for (i, result) in ["1-0", "1/2-1/2", "0-1"].iter().cycle().take(1000).enumerate() {
        pgn += &format!(
            "[Event \"Blitz {i}\"]\n[Date \"2020.01.01\"]\n[White \"A\"]\n[Black \"B\"]\n\
             [Result \"{result}\"]\n[WhiteElo \"2400\"]\n[BlackElo \"2000\"]\n\
             [TimeControl \"180+2\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n"
        );
    }
    pgn += &long;
    let file = dir.path().join("games.pgn");
    fs::write(&file, pgn).unwrap();
    let plots = dir.path().join("plots");
    ok(&run(&["stats", "-q", "--json", "--plot", path(&plots), path(&file)]));
    let svg = |name: &str| fs::read_to_string(plots.join(name)).unwrap();
    let lengths = svg("lengths.svg");
    assert!(lengths.contains("<title>0-9 plies: n = 1000 games</title>"), "{lengths}");
    assert!(lengths.contains("<title>10+ plies: n = 1 games</title>"), "{lengths}");
    assert!(lengths.contains("the last bar: 10 or more"), "{lengths}");
    // Labels on the bars, and no tick as far as the long game.
    assert!(lengths.contains("\n1000\n</text>"), "{lengths}");
    assert!(!lengths.contains("\n80\n</text>"), "{lengths}");
    let gap = svg("rating_gap.svg");
    assert!(gap.contains("<polygon"), "a confidence band: {gap}");
    assert!(gap.contains("<title>gap 375..424: n = 1000 decided games, White 50.0% (95% CI"));
    assert!(gap.contains("actual, 95% confidence interval"));
    let speeds = svg("by_time_control.svg");
    assert!(speeds.contains("<title>blitz: n = 1000 decided games, White 50.0% (95% CI"));
    assert!(speeds.contains("draws 33.3%"), "{speeds}");
    let years = svg("by_year.svg");
    assert!(years.contains("<title>2020: n = 1000 decided games"), "{years}");
    // 2024 has one game: too few to chart.
    assert!(!years.contains("<title>2024"), "{years}");
}

/// The players table pads names by display width: a name with combining
/// accents (decomposed, as some exports write them) and a CJK name line
/// up with the others, the `games` column ending in the same column.
#[test]
fn players_table_aligns_accented_and_cjk_names() {
    let tomas = "Dvor\u{30c}a\u{301}k, Toma\u{301}s\u{30c}";
    let pgn = format!(
        "[Event \"E\"]\n[White \"{tomas}\"]\n[Black \"王皓\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
         [Event \"E\"]\n[White \"Smith, John\"]\n[Black \"{tomas}\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n"
    );
    let run = Arbiter::new(&["stats", "-"]).stdin(pgn.as_bytes()).run();
    ok(&run);
    let table: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Players"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(table.len(), 4, "{}", run.stdout);
    // The display width up to the end of the `games` cell (the first
    // number after the name, right-aligned under its header).
    let games_end = |line: &str| {
        let at = line.find(" games").map(|at| at + " games".len()).unwrap_or_else(|| {
            let digit = line.find(|c: char| c.is_ascii_digit()).expect("a number");
            digit + line[digit..].find(' ').expect("more cells")
        });
        unicode_width::UnicodeWidthStr::width(&line[..at])
    };
    let ends: Vec<usize> = table.iter().map(|l| games_end(l)).collect();
    assert!(ends.iter().all(|&e| e == ends[0]), "{ends:?}\n{}", table.join("\n"));
}

/// `--csv` and `--plot` write into a directory: a file at that path is
/// refused before any game is read, with a message that names the file and
/// says what to do (not the bare "File exists (os error 17)"); `merge`
/// takes the same options and says the same.
#[test]
fn an_output_directory_that_is_a_file_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("tables.csv");
    fs::write(&file, "keep me").expect("write");
    let file = file.to_str().expect("UTF-8 path");
    let sample = fixture("sample.pgn");
    for flag in ["--csv", "--plot"] {
        let run = run(&["stats", flag, file, &sample]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{flag} {file}: a file of that name exists")),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("remove or rename the file"), "{}", run.stderr);
        assert!(!run.stderr.contains("os error"), "{}", run.stderr);
    }
    let run = run(&["stats", "--partial", dir.path().to_str().expect("UTF-8"), &sample]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("is a directory, and --partial writes one file"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(file).expect("read"), "keep me");
    // In a directory that is not there: said before any game is read, by
    // `stats` and `tree` alike.
    let missing = dir.path().join("nodir").join("p.json");
    let missing = missing.to_str().expect("UTF-8");
    for command in ["stats", "tree"] {
        let run = crate::util::run(&[command, "-q", "--partial", missing, &sample]);
        assert_eq!(run.code, Some(2), "{command}: {}", run.stderr);
        assert!(run.stderr.contains("does not exist"), "{command}: {}", run.stderr);
        assert!(!run.stderr.contains("os error"), "{command}: {}", run.stderr);
    }
}
