//! `arbiter tree`: the opening tree of `fixtures/tree/transpositions.pgn`,
//! whose eleven games are built so that every count can be read off them
//! (its games are listed in `fixtures/README.md`): transpositions merged
//! into one row, a repetition counted once, a `--fen` root reached at
//! different plies, a `--moves` root, predicates, `--min-games`,
//! `--depth`, the CSV and JSON shapes, partials merged into the tree of
//! the whole, and usage errors. `scripts/tree_oracle.py` checks the
//! counts against python-chess on more games (in the differential test).

use std::fs;

use serde_json::Value;

use crate::util::{Arbiter, Run, fixture, run};

const GAMES: &str = "tree/transpositions.pgn";

/// The position after 1. d4 Nf6 2. c4 e6, and 1. c4 e6 2. d4 Nf6.
const QUEENS_INDIAN: &str = "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq -";
/// The French after 1. e4 e6 2. d4 d5 (and 1. d4 e6 2. e4 d5).
const FRENCH: &str = "rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq -";

#[track_caller]
fn ok(run: &Run) {
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
}

/// `arbiter tree --json ARGS fixtures/tree/transpositions.pgn`.
fn tree(args: &[&str]) -> Value {
    let path = fixture(GAMES);
    let mut all = vec!["tree", "-q", "--json"];
    all.extend_from_slice(args);
    all.push(&path);
    let run = run(&all);
    ok(&run);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout))
}

fn rows(json: &Value) -> &Vec<Value> {
    json["rows"].as_array().expect("rows")
}

/// The row of the moves `path` from the root ("" for the root).
fn row<'a>(json: &'a Value, path: &str) -> &'a Value {
    let found: Vec<&Value> = rows(json).iter().filter(|r| r["path"] == path).collect();
    match found.as_slice() {
        [one] => one,
        _ => panic!("one row {path:?} expected, in {:#?}", paths(json)),
    }
}

fn paths(json: &Value) -> Vec<&str> {
    rows(json).iter().map(|r| r["path"].as_str().unwrap()).collect()
}

/// A row's games, White wins, draws and Black wins.
fn results(row: &Value) -> [u64; 4] {
    ["games", "white_wins", "draws", "black_wins"].map(|k| row[k].as_u64().unwrap())
}

#[test]
fn transpositions_are_one_row_with_every_route() {
    let json = tree(&["--depth", "4"]);
    let fens: Vec<&str> = rows(&json).iter().map(|r| r["fen"].as_str().unwrap()).collect();
    let mut unique = fens.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), fens.len(), "each position once");
    // Games 1 and 3 (1. d4 Nf6 2. c4 e6) and game 2 (1. c4 e6 2. d4 Nf6).
    let merged: Vec<&Value> = rows(&json).iter().filter(|r| r["fen"] == QUEENS_INDIAN).collect();
    assert_eq!(merged.len(), 1);
    let merged = merged[0];
    assert_eq!(results(merged), [3, 1, 1, 1]);
    assert_eq!(merged["routes"], 2);
    // Shown under the move order most of its games took.
    assert_eq!(merged["path"], "1. d4 Nf6 2. c4 e6");
    assert_eq!(merged["first_year"], 2001);
    assert_eq!(merged["last_year"], 2005, "game 3's ????.??.?? is no year");
    // The rows of the other move order stop where it joins.
    assert_eq!(results(row(&json, "1. c4 e6 2. d4")), [1, 0, 1, 0]);
    assert!(!paths(&json).contains(&"1. c4 e6 2. d4 Nf6"));
    assert_eq!(json["root"]["positions"], rows(&json).len());
}

#[test]
fn a_game_that_repeats_a_position_counts_once_in_it() {
    // Game 4: 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3: the start position at plies 0
    // and 4, 1. Nf3 at plies 1 and 5.
    let json = tree(&["--depth", "5"]);
    assert_eq!(results(row(&json, "")), [9, 3, 2, 3], "nine games from the start position");
    assert_eq!(results(row(&json, "1. Nf3")), [1, 0, 1, 0]);
    // 3. Nf3 is the same move from the same position: one route, once.
    assert_eq!(row(&json, "1. Nf3")["routes"], 1);
    assert_eq!(results(row(&json, "1. Nf3 Nf6 2. Ng1")), [1, 0, 1, 0]);
}

#[test]
fn a_fen_root_counts_games_reaching_it_at_any_ply() {
    // Game 7 reaches it at ply 4, game 8 at ply 4 by 1. d4 e6 2. e4 d5,
    // game 10 at ply 2 of its own (its FEN is after 1. e4 e6).
    let json = tree(&["--fen", &format!("{FRENCH} 0 3")]);
    assert_eq!(json["root"]["fen"], FRENCH);
    assert_eq!(json["root"]["moves"], Value::Null);
    let root = row(&json, "");
    assert_eq!(results(root), [3, 1, 1, 1]);
    assert_eq!((root["first_year"].as_u64(), root["last_year"].as_u64()), (Some(2017), Some(2019)));
    assert_eq!(results(row(&json, "3. Nc3")), [2, 0, 1, 1]);
    assert_eq!(results(row(&json, "3. e5")), [1, 1, 0, 0]);
    assert_eq!(paths(&json), ["", "3. Nc3", "3. e5"], "most games first");
    // A root with moves counts only the games that begin with them.
    let json = tree(&["--moves", "1. e4 e6 2. d4 d5"]);
    assert_eq!(results(row(&json, "")), [1, 0, 0, 1]);
    assert_eq!(json["root"]["moves"], "1. e4 e6 2. d4 d5");
}

#[test]
fn a_moves_root_is_the_sicilian_of_its_games() {
    let json = tree(&["--moves", "1. e4 c5", "--depth", "2"]);
    let root = row(&json, "");
    // Games 5 (1-0), 6 (*) and 9 (0-1, an illegal third move: counted up
    // to it); not the atomic game 11.
    assert_eq!(results(root), [3, 1, 0, 1]);
    assert_eq!(root["unscored"], 1);
    assert_eq!(root["white_score_pct"], 50.0);
    assert_eq!(root["draw_pct"], 0.0);
    // (2700 + 2650 + 2500 + 2500 + 2600 + 2600) / 6.
    assert_eq!(root["avg_rating"], 2591.7);
    // White to move: a win against 2650, a loss against 2600 (game 6 has
    // no score): 50% against 2625.
    assert_eq!(root["side"], "white");
    assert_eq!(root["rated_games"], 2);
    assert_eq!(root["performance"], 2625.0);
    assert_eq!((root["first_year"].as_u64(), root["last_year"].as_u64()), (Some(2015), Some(2021)));
    assert_eq!(results(row(&json, "2. Nf3")), [2, 1, 0, 1]);
    assert_eq!(results(row(&json, "2. Nc3")), [1, 0, 0, 0]);
    let d6 = row(&json, "2. Nf3 d6");
    assert_eq!(d6["move"], "d6");
    assert_eq!(d6["depth"], 2);
    assert_eq!(d6["share_pct"], 66.67);
    // Black played 2... d6: a loss against 2700, a win against 2600.
    assert_eq!(d6["side"], "black");
    assert_eq!(d6["performance"], 2650.0);
    assert_eq!(paths(&json), ["", "2. Nf3", "2. Nf3 d6", "2. Nc3", "2. Nc3 Nc6"]);
}

#[test]
fn predicates_choose_the_games() {
    // Both players rated 2500 or more: games 1, 2, 5, 6 and 9.
    let json = tree(&["--elo", "2500.."]);
    assert_eq!(results(row(&json, "")), [5, 2, 1, 1]);
    assert_eq!(results(row(&json, "1. e4")), [3, 1, 0, 1]);
    assert_eq!(results(row(&json, "1. d4")), [1, 1, 0, 0]);
    assert_eq!(results(row(&json, "1. c4")), [1, 0, 1, 0]);
    // A predicate on the record needs whole games: the same tree, less
    // game 9.
    let json = tree(&["--valid"]);
    assert_eq!(results(row(&json, "")), [8, 3, 2, 2]);
    assert_eq!(results(row(&json, "1. e4")), [3, 1, 0, 1]);
    // A predicate on the moves: games that reached the French.
    let json = tree(&["--placement", FRENCH.split(' ').next().unwrap()]);
    assert_eq!(results(row(&json, "")), [2, 1, 0, 1], "game 10 starts elsewhere");
}

#[test]
fn min_games_leaves_out_rows_and_those_under_them() {
    let json = tree(&["--depth", "2", "--min-games", "2"]);
    assert_eq!(paths(&json), ["", "1. e4", "1. e4 c5", "1. d4", "1. d4 Nf6"]);
    assert_eq!(json["root"]["rows"], 5);
    // The start, 4 first moves and 6 replies.
    assert_eq!(json["root"]["positions"], 11);
    // The root stays, whatever its games.
    let json = tree(&["--min-games", "100"]);
    assert_eq!(paths(&json), [""]);
}

#[test]
fn depth_is_the_plies_followed() {
    for depth in [0u64, 1, 2, 3] {
        let json = tree(&["--depth", &depth.to_string()]);
        let deepest = rows(&json).iter().map(|r| r["depth"].as_u64().unwrap()).max();
        assert_eq!(deepest, Some(depth));
    }
    let first: Vec<&str> = vec!["", "1. e4", "1. d4", "1. Nf3", "1. c4"];
    assert_eq!(paths(&tree(&[])), first);
}

#[test]
fn csv_and_json_have_the_documented_columns() {
    let path = fixture(GAMES);
    let csv = run(&["tree", "-q", "--csv", "--depth", "2", &path]);
    ok(&csv);
    let header = "depth,path,move,fen,games,share_pct,white_wins,draws,black_wins,unscored,\
                  white_score_pct,draw_pct,avg_rating,side,rated_games,performance,first_year,\
                  last_year,routes";
    let mut lines = csv.stdout.lines();
    assert_eq!(lines.next(), Some(header));
    let json = tree(&["--depth", "2"]);
    assert_eq!(lines.count(), rows(&json).len());
    let mut reader = csv::Reader::from_reader(csv.stdout.as_bytes());
    let first: Vec<String> =
        reader.records().next().unwrap().unwrap().iter().map(String::from).collect();
    let root = row(&json, "");
    assert_eq!(first[0], "0");
    assert_eq!(first[3], root["fen"].as_str().unwrap());
    assert_eq!(first[4], root["games"].to_string());
    assert_eq!(first[12], root["avg_rating"].to_string());
    let keys: Vec<&str> = json["root"].as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = ["depth", "fen", "games", "moves", "positions", "rows"];
    expected.sort_unstable();
    assert_eq!(keys, expected);
    let columns: Vec<&str> = header.split(',').collect();
    for row in rows(&json) {
        let mut keys: Vec<&str> = row.as_object().unwrap().keys().map(String::as_str).collect();
        let mut columns = columns.clone();
        keys.sort_unstable();
        columns.sort_unstable();
        assert_eq!(keys, columns);
    }
}

#[test]
fn the_table_indents_and_numbers_the_moves() {
    let run = run(&["tree", "-q", "--moves", "1. e4 c5", "--depth", "2", &fixture(GAMES)]);
    ok(&run);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "Tree of 1. e4 c5 (rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -), depth 2: \
         3 games, 5 positions"
    );
    let cells = |line: &str| line.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(cells(lines[1])[..3], ["move", "games", "share"]);
    assert!(lines[2].starts_with("1. e4 c5 "), "{}", lines[2]);
    assert!(lines[3].starts_with("2. Nf3 "), "{}", lines[3]);
    assert!(lines[4].starts_with("  2... d6 "), "{}", lines[4]);
    assert_eq!(cells(lines[4])[2..8], ["2", "66.7", "1", "0", "1", "50.0"]);
    assert_eq!(cells(lines[4]).last().map(String::as_str), Some("2015-2020"));
}

/// Splits a PGN text in two before its `n`th `[Event ` line.
fn halves(text: &str, n: usize) -> (String, String) {
    let cut = text.match_indices("\n[Event ").nth(n - 1).unwrap().0 + 1;
    (text[..cut].to_owned(), text[cut..].to_owned())
}

#[test]
fn merged_partials_give_the_tree_of_the_whole() {
    let work = tempfile::tempdir().unwrap();
    let whole = fixture(GAMES);
    let (first, second) = halves(&fs::read_to_string(&whole).unwrap(), 5);
    let mut parts = Vec::new();
    for (i, half) in [first, second].iter().enumerate() {
        let pgn = work.path().join(format!("half{i}.pgn"));
        fs::write(&pgn, half).unwrap();
        let part = work.path().join(format!("half{i}.tree.json"));
        let (pgn, part) = (pgn.to_str().unwrap().to_owned(), part.to_str().unwrap().to_owned());
        let jobs = (i + 1).to_string();
        ok(&run(&["tree", "-q", "-j", &jobs, "--depth", "3", "--partial", &part, &pgn]));
        parts.push(part);
    }
    for (tree_flags, merge_flags) in
        [(vec![], vec![]), (vec!["--csv"], vec!["--csv", "-"]), (vec!["--json"], vec!["--json"])]
    {
        let mut args = vec!["tree", "-q", "--depth", "3", "--min-games", "2"];
        args.extend(&tree_flags);
        args.push(&whole);
        let one = run(&args);
        ok(&one);
        for order in [[0, 1], [1, 0]] {
            let mut args = vec!["merge", "--min-games", "2"];
            args.extend(&merge_flags);
            args.extend(order.map(|i| parts[i].as_str()));
            let merged = run(&args);
            ok(&merged);
            assert_eq!(merged.stdout, one.stdout, "{merge_flags:?} {order:?}");
        }
    }
    // The merged partial is the partial of the whole, byte for byte.
    let once = run(&["tree", "-q", "--depth", "3", "--partial", "-", &whole]);
    let merged = run(&["merge", "--partial", "-", &parts[0], &parts[1]]);
    ok(&merged);
    assert_eq!(merged.stdout, once.stdout);
    assert_eq!(merged.stdout.lines().count(), 1);
    // Partials on standard input, and the CSV into a directory.
    let both = format!(
        "{}{}",
        fs::read_to_string(&parts[0]).unwrap(),
        fs::read_to_string(&parts[1]).unwrap()
    );
    let dir = work.path().join("out");
    let from_stdin =
        Arbiter::new(&["merge", "--csv", dir.to_str().unwrap(), "-"]).stdin(both.as_bytes()).run();
    ok(&from_stdin);
    let csv = run(&["tree", "-q", "--depth", "3", "--csv", &whole]);
    assert_eq!(fs::read_to_string(dir.join("tree.csv")).unwrap(), csv.stdout);
}

#[test]
fn threads_and_chunk_sizes_do_not_change_the_tree() {
    let whole = fixture(GAMES);
    let one = run(&["tree", "-q", "-j", "1", "--depth", "4", "--csv", &whole]);
    let many =
        run(&["tree", "-q", "-j", "4", "--chunk-size", "300", "--depth", "4", "--csv", &whole]);
    ok(&one);
    ok(&many);
    assert_eq!(many.stdout, one.stdout);
}

#[test]
fn bad_roots_limits_and_partials_are_errors() {
    let games = fixture(GAMES);
    let work = tempfile::tempdir().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases: &[(&[&str], &str)] = &[
        (&["--fen", "not a fen"], "--fen not a fen"),
        (&["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "--fen 8/8/8/8/8/8/8/8"),
        (&["--fen", start, "--moves", "e4"], "one root only"),
        (&["--moves", "e4", "--moves", "d4"], "one root only"),
        (&["--fen", &format!("!{start}")], "cannot be excluded"),
        (&["--moves", "1. e4 e4"], "not legal"),
        (&["--depth", "4", "--max-positions", "10"], "more than 10 positions (--max-positions)"),
    ];
    for (args, message) in cases {
        let mut all = vec!["tree", "-q"];
        all.extend_from_slice(args);
        all.push(&games);
        let run = run(&all);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: nothing printed");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
    let partial = |name: &str, args: &[&str]| {
        let path = work.path().join(name).to_str().unwrap().to_owned();
        let mut all = vec!["-q", "--partial", path.as_str(), games.as_str()];
        all.splice(0..0, args.iter().copied());
        ok(&run(&all));
        path
    };
    let depth1 = partial("depth1.json", &["tree"]);
    let depth2 = partial("depth2.json", &["tree", "--depth", "2"]);
    let stats = partial("stats.json", &["stats"]);
    let cases: &[(&[&str], &str)] = &[
        (&[&depth1, &depth2], "a tree of start"),
        (&[&depth1, &stats], "not an arbiter tree partial"),
        (&[&stats, &depth1], "not an arbiter stats partial"),
        (&["--min-games", "2", &stats], "--min-games is for tree partials"),
        (&["--top", "3", &depth1], "--plot and --top are for stats partials"),
    ];
    for (args, message) in cases {
        let mut all = vec!["merge"];
        all.extend_from_slice(args);
        let run = run(&all);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
}

/// The column names of docs/GUIDE.md's table of `tree`'s columns, in
/// order (a cell may name several).
fn documented_columns() -> Vec<String> {
    let guide = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/GUIDE.md")).unwrap();
    let section = &guide[guide.find("\n### `arbiter tree FILE...`").expect("the tree section")..];
    let table = &section[section.find("\n| column | meaning |").expect("the columns table")..];
    let mut names = Vec::new();
    for line in table.lines().skip(3).take_while(|line| line.starts_with('|')) {
        let first = line.split('|').nth(1).unwrap();
        names.extend(first.split('`').skip(1).step_by(2).map(str::to_owned));
    }
    names
}

#[test]
fn the_guide_documents_every_column_in_order() {
    let csv = run(&["tree", "-q", "--csv", &fixture(GAMES)]);
    ok(&csv);
    let header: Vec<String> =
        csv.stdout.lines().next().unwrap().split(',').map(String::from).collect();
    assert_eq!(documented_columns(), header);
}
