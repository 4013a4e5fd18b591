//! `games`: the CSV reads back as the JSON Lines records, and `--tags`
//! adds the tags' values (named, or all) after the record's fields.

use serde_json::Value;

use crate::util::{Arbiter, every_fixture, fixture, parse_jsonl, run};

/// Tags asked for in the comparisons: the roster's, lichess's, and tags
/// that few or no fixtures have.
const TAGS: &str = "Event,Site,White,Round,WhiteElo,ECO,Opening,FEN,Annotator,Nope";

/// A game whose tags need quoting, repeat a name, differ by case only
/// and share names with the record's fields.
const TRICKY: &str = "[Event \"An \\\"open\\\", rapid\"]\n[Site \"first\"]\n[Site \"second\"]\n\
    [white \"lower\"]\n[White \"Upper\"]\n[Result \"*\"]\n[Empty \"\"]\n\n1. e4 *\n";

/// `games args...` (exit 0), standard output.
fn games(args: &[&str]) -> String {
    let out = run(&[&["games", "-q"], args].concat());
    assert_eq!(out.code, Some(0), "games {args:?}: {}", out.stderr);
    out.stdout
}

/// `games args...` with `input` on standard input (exit 0).
fn games_stdin(args: &[&str], input: &str) -> String {
    let args = [&["games", "-q"], args, &["-"]].concat();
    let out = Arbiter::new(&args).stdin(input.as_bytes()).run();
    assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
    out.stdout
}

/// A JSON value as its CSV cell reads: null empty, text as it is.
fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Bool(_) | Value::Number(_) => value.to_string(),
        other => panic!("not a scalar: {other}"),
    }
}

/// The CSV cell of column `column` for a JSON Lines record: the error
/// spread over `error_*`, the warnings as their `;`-separated kinds.
fn expected_cell(record: &Value, column: &str) -> String {
    if let Some(key) = column.strip_prefix("error_").filter(|k| *k != "ply") {
        return cell(&record["error"][key]);
    }
    if column == "warnings" {
        let kinds: Vec<&str> = record["warnings"]
            .as_array()
            .expect("warnings is an array")
            .iter()
            .map(|w| w["kind"].as_str().expect("a kind"))
            .collect();
        return kinds.join(";");
    }
    let value = record.get(column).unwrap_or_else(|| panic!("no field {column}: {record}"));
    cell(value)
}

/// Every CSV row, read by a CSV reader, holds its JSON Lines record's
/// values, and the tags' columns and fields are the same in both: text
/// with commas, quotes, Latin-1 and NUL bytes included.
#[test]
fn csv_reads_back_as_the_jsonl_records() {
    let dir = tempfile::tempdir().unwrap();
    let tricky = dir.path().join("tricky.pgn");
    std::fs::write(&tricky, TRICKY).unwrap();
    let mut files = every_fixture();
    files.extend(["tournament/faults.pgn", "tournament/swiss.pgn"].map(fixture));
    files.push(tricky.to_str().unwrap().to_owned());
    let (mut rows, mut commas, mut quotes) = (0, 0, 0);
    for file in &files {
        let csv = games(&["--tags", TAGS, file]);
        let records = parse_jsonl(&games(&["--format", "jsonl", "--tags", TAGS, file]));
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> =
            reader.headers().expect("a header").iter().map(str::to_owned).collect();
        let tag_columns: Vec<String> = TAGS.split(',').map(|n| format!("tag_{n}")).collect();
        assert_eq!(header[header.len() - tag_columns.len()..], tag_columns, "{file}");
        let read: Vec<csv::StringRecord> =
            reader.records().map(|row| row.expect("a CSV row")).collect();
        assert_eq!(read.len(), records.len(), "{file}: rows and records");
        for (row, record) in read.iter().zip(&records) {
            assert_eq!(row.len(), header.len(), "{file}: a row of another width");
            for (column, value) in header.iter().zip(row) {
                assert_eq!(value, expected_cell(record, column), "{file}: {column} of {record}");
                commas += usize::from(value.contains(','));
                quotes += usize::from(value.contains('"'));
            }
        }
        rows += read.len();
    }
    // The comparison met what needs quoting.
    assert!(
        rows > 300 && commas > 0 && quotes > 0,
        "{rows} rows, {commas} commas, {quotes} quotes"
    );
}

/// Named tags: one column or field each, in the order named, after the
/// record's; null (an empty cell) where the game has no such tag.
#[test]
fn named_tags_follow_the_record_in_the_order_named() {
    let sample = fixture("sample.pgn");
    let records = parse_jsonl(&games(&[
        "--format",
        "jsonl",
        "--limit",
        "2",
        "--tags",
        "WhiteElo,Site,Nope",
        &sample,
    ]));
    let tags: Vec<[&Value; 3]> =
        records.iter().map(|r| [&r["tag_WhiteElo"], &r["tag_Site"], &r["tag_Nope"]]).collect();
    // fixtures/sample.pgn, lines 2, 8, 24 and 30.
    assert_eq!(
        tags,
        [
            [&Value::from("2198"), &Value::from("https://lichess.org/JaM1klOA"), &Value::Null],
            [&Value::from("1408"), &Value::from("https://lichess.org/AWdGSi57"), &Value::Null],
        ]
    );
    let csv = games(&["--limit", "1", "--tags", "WhiteElo,Site,Nope", &sample]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",final_fen,tag_WhiteElo,tag_Site,tag_Nope"), "{csv}");
    assert!(
        lines.next().unwrap().ends_with(" 1 32\",\"2198\",\"https://lichess.org/JaM1klOA\","),
        "{csv}"
    );
    assert_eq!(lines.next(), None);
}

/// The first value of a repeated tag; names as written, case included;
/// `tag_Event` beside the record's `event`, never instead of it.
#[test]
fn named_tags_first_value_case_sensitive_beside_the_record_s_fields() {
    let line =
        games_stdin(&["--format", "jsonl", "--tags", "Site,White,white,Event,Black,Empty"], TRICKY);
    // One `tag_Site` key, the first value's.
    assert_eq!(line.matches("\"tag_Site\"").count(), 1, "{line}");
    let record = &parse_jsonl(&line)[0];
    assert_eq!(record["tag_Site"], "first");
    assert_eq!(record["tag_White"], "Upper");
    assert_eq!(record["tag_white"], "lower");
    assert_eq!(record["white"], "Upper");
    assert_eq!(record["tag_Event"], "An \"open\", rapid");
    assert_eq!(record["event"], "An \"open\", rapid");
    assert_eq!(record["tag_Black"], Value::Null);
    assert_eq!(record["tag_Empty"], "");

    let csv = games_stdin(&["--tags", "Site,Event,Black,Empty"], TRICKY);
    let row = csv.lines().nth(1).expect("a row");
    // Text quoted, its quotes doubled; a missing tag empty, an empty one "".
    assert!(row.ends_with(",\"first\",\"An \"\"open\"\", rapid\",,\"\""), "{row}");
}

/// `--tags all`: each tag of each game once, its first value, in file
/// order, after the record's fields.
#[test]
fn all_tags_are_each_game_s_own() {
    let line = games_stdin(&["--format", "jsonl", "--tags", "all"], TRICKY);
    assert_eq!(line.matches("\"tag_Site\"").count(), 1, "{line}");
    let tags = tag_fields(&line);
    assert_eq!(
        tags,
        [
            ("tag_Event".to_owned(), "An \"open\", rapid".to_owned()),
            ("tag_Site".into(), "first".into()),
            ("tag_white".into(), "lower".into()),
            ("tag_White".into(), "Upper".into()),
            ("tag_Result".into(), "*".into()),
            ("tag_Empty".into(), String::new()),
        ]
    );

    // On the sample, each game's tags as its text has them.
    let sample = fixture("sample.pgn");
    let out = games(&["--format", "jsonl", "--tags", "all", &sample]);
    let written = tags_as_written(&std::fs::read_to_string(&sample).unwrap());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), written.len());
    for (line, tags) in lines.iter().zip(&written) {
        assert_eq!(&tag_fields(line), tags, "{line}");
    }
}

/// The `tag_` fields of a JSON Lines record, in the order written, after
/// the record's last field.
fn tag_fields(line: &str) -> Vec<(String, String)> {
    let at = line.find(",\"tag_").map_or(line.len() - 1, |at| at + 1);
    assert!(line[..at].contains("\"final_fen\":"), "tags before the record's last field: {line}");
    let object = format!("{{{}", &line[at..]);
    let map: serde_json::Map<String, Value> = serde_json::from_str(&object).expect("JSON");
    // serde_json's map sorts keys: take the order from the text.
    let mut keys: Vec<(usize, &String)> =
        map.keys().map(|k| (object.find(&format!("\"{k}\"")).unwrap(), k)).collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| (k.clone(), map[k].as_str().expect("text").to_owned())).collect()
}

/// Each game's tags read from its text (a file of plain `[Name "value"]`
/// lines, games apart), as `tag_` fields, the first of each name.
fn tags_as_written(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        let tag = line.strip_prefix('[').and_then(|l| l.strip_suffix("\"]"));
        let Some((name, value)) = tag.and_then(|t| t.split_once(" \"")) else {
            in_tags = false;
            continue;
        };
        if !in_tags {
            games.push(Vec::new());
            in_tags = true;
        }
        let game = games.last_mut().unwrap();
        let key = format!("tag_{name}");
        if !game.iter().any(|(k, _)| *k == key) {
            game.push((key, value.replace("\\\"", "\"").replace("\\\\", "\\")));
        }
    }
    games
}

/// `--tags all` cannot be CSV, and a list with a slip is refused: exit 2,
/// a message, no output.
#[test]
fn tag_lists_that_cannot_be_written_are_usage_errors() {
    let sample = fixture("sample.pgn");
    for (args, message) in [
        (&["--tags", "all"][..], "--tags all needs --format jsonl"),
        (&["--tags", "Site,,ECO"], "--tags: an empty tag name"),
        (&["--tags", "Site,"], "--tags: an empty tag name"),
        (&["--tags", "Site;ECO"], "is not a tag name"),
        (&["--format", "jsonl", "--tags", "Site,all"], "give it alone"),
        (&["--format", "jsonl", "--tags", "ECO,ECO"], "ECO is named twice"),
    ] {
        let out = run(&[&["games"], args, &[&sample]].concat());
        assert_eq!(out.code, Some(2), "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
}
