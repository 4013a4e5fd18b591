//! The record schema is a public contract, documented in docs/GUIDE.md
//! ("Record schema"): what `games` prints must be what the table there
//! says, field for field and in order, and its CSV header what the GUIDE
//! shows; with `--tags`, the tags' fields follow, as the GUIDE's example
//! of `games --tags` shows. A field added to the record (or a column to
//! the CSV) without the documentation fails here.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::util::{fixture, parse_jsonl, run};

/// The fixture whose records are compared: it has games with an error and
/// with warnings, so the nested objects are compared too.
const FIXTURE: &str = "sample.pgn";

// ------------------------------------------------------------------ the GUIDE

/// docs/GUIDE.md's "Record schema" section, up to the next `## ` heading.
fn schema_section() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/GUIDE.md");
    let guide = std::fs::read_to_string(path).expect("read docs/GUIDE.md");
    let start =
        guide.find("\n## Record schema\n").expect("GUIDE has a \"## Record schema\" section");
    let section = &guide[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |at| at + 3);
    section[..end].to_owned()
}

/// One row of the schema table: the field names of its first column, and
/// its last column (the meaning).
struct Row {
    fields: Vec<String>,
    meaning: String,
}

/// The rows of the section's table (`| field | type | meaning |`), in order.
fn schema_table(section: &str) -> Vec<Row> {
    let mut lines = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'));
    let header = lines.next().expect("the Record schema section has a table");
    assert_eq!(cells(header), ["field", "type", "meaning"], "the schema table's header: {header}");
    let separator = lines.next().expect("the table's separator row");
    assert!(separator.starts_with("|---"), "not a table separator: {separator}");
    let rows: Vec<Row> = lines
        .map(|line| {
            let cells = cells(line);
            assert_eq!(cells.len(), 3, "a schema row has 3 cells: {line}");
            Row { fields: field_names(&cells[0], line), meaning: cells[2].clone() }
        })
        .collect();
    assert!(!rows.is_empty(), "the schema table has no rows");
    rows
}

/// A table row's cells, trimmed (no cell of the schema holds an escaped `|`).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|cell| cell.trim().to_owned()).collect()
}

/// The names of a first cell: `` `name` `` or several, comma-separated.
/// Anything else fails, so that a name cannot slip out of the comparison.
fn field_names(cell: &str, line: &str) -> Vec<String> {
    cell.split(',')
        .map(|name| {
            let name = name.trim();
            let bare = name.strip_prefix('`').and_then(|n| n.strip_suffix('`'));
            match bare {
                Some(bare) if !bare.is_empty() && !bare.contains('`') => bare.to_owned(),
                _ => panic!("a schema field must be written `name`, got {name:?} in: {line}"),
            }
        })
        .collect()
}

/// Every `` `code span` `` of a text, in order.
fn code_spans(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// The documented fields of the record, in order.
fn documented_fields(rows: &[Row]) -> Vec<String> {
    rows.iter().flat_map(|row| row.fields.iter().cloned()).collect()
}

/// The documented keys of a nested object: the code spans of the meaning
/// of the row of field `field` (`error`: `kind`, `san`, ...).
fn documented_keys(rows: &[Row], field: &str) -> Vec<String> {
    let row = rows
        .iter()
        .find(|row| row.fields == [field])
        .unwrap_or_else(|| panic!("no schema row for `{field}` alone"));
    code_spans(&row.meaning)
}

/// The CSV header the section shows: the first line of its first fenced
/// block that starts with `file,`.
fn documented_csv_header(section: &str) -> Vec<String> {
    let line = section
        .lines()
        .skip_while(|line| !line.starts_with("```"))
        .find(|line| line.starts_with("file,"))
        .expect("the Record schema section shows the CSV header row in a code block");
    line.split(',').map(str::to_owned).collect()
}

// ------------------------------------------------------------ the records

/// A JSON value whose objects keep their keys in the order written
/// (`serde_json::Value` sorts them).
#[derive(Debug)]
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar,
}

impl Ordered {
    fn keys(&self) -> Vec<&str> {
        match self {
            Ordered::Object(entries) => entries.iter().map(|(key, _)| key.as_str()).collect(),
            other => panic!("not a JSON object: {other:?}"),
        }
    }

    fn get(&self, key: &str) -> &Ordered {
        match self {
            Ordered::Object(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, value)| value)
                .unwrap_or_else(|| panic!("no key {key:?}")),
            other => panic!("not a JSON object: {other:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
            entries.push((key, value));
        }
        Ok(Ordered::Object(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Ordered>()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
}

/// `games --format jsonl` on the fixture: each line with its keys in order.
fn jsonl_records() -> Vec<Ordered> {
    let path = fixture(FIXTURE);
    let out = run(&["games", "--format", "jsonl", &path]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let records: Vec<Ordered> = out
        .stdout
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    // The same lines as the other tests read them: the comparison below
    // covers every record there is.
    let values = parse_jsonl(&out.stdout);
    assert_eq!(records.len(), values.len());
    assert!(values.iter().any(|r| !r["error"].is_null()), "no record with an error to compare");
    assert!(
        values.iter().any(|r| r["warnings"].as_array().is_some_and(|w| !w.is_empty())),
        "no record with a warning to compare"
    );
    records
}

// ------------------------------------------------------------------ the tests

/// Every JSON Lines record has the GUIDE's fields, in the GUIDE's order,
/// and the nested `error` and `warnings` objects the keys the GUIDE lists.
#[test]
fn jsonl_records_have_the_guide_s_fields_in_order() {
    let rows = schema_table(&schema_section());
    let fields = documented_fields(&rows);
    let error_keys = documented_keys(&rows, "error");
    let warning_keys = documented_keys(&rows, "warnings");
    let records = jsonl_records();
    for record in &records {
        assert_eq!(
            record.keys(),
            fields,
            "a record's keys (left) differ from docs/GUIDE.md's Record schema table (right)"
        );
        if let error @ Ordered::Object(_) = record.get("error") {
            assert_eq!(error.keys(), error_keys, "`error`'s keys differ from the GUIDE's");
        }
        let Ordered::Array(warnings) = record.get("warnings") else {
            panic!("warnings is not an array: {record:?}")
        };
        for warning in warnings {
            assert_eq!(warning.keys(), warning_keys, "a warning's keys differ from the GUIDE's");
        }
    }
}

/// The CSV header of `games` is the header the GUIDE shows, and that is the
/// table's fields with `error` spread over its columns, as the GUIDE says.
#[test]
fn csv_header_is_the_guide_s() {
    let section = schema_section();
    let documented = documented_csv_header(&section);
    let out = run(&["games", &fixture(FIXTURE)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let header: Vec<&str> = out.stdout.lines().next().expect("a header row").split(',').collect();
    assert_eq!(header, documented, "games' CSV header (left) differs from docs/GUIDE.md's (right)");

    let spread: Vec<String> = documented_fields(&schema_table(&section))
        .into_iter()
        .flat_map(|field| match field.as_str() {
            "error" => ["kind", "san", "fen", "line"].map(|k| format!("error_{k}")).to_vec(),
            _ => vec![field],
        })
        .collect();
    assert_eq!(documented, spread, "the GUIDE's CSV header (left) and its schema table disagree");
}

/// With `--tags`, the record's fields come first, as the GUIDE has them,
/// then one `tag_NAME` per tag named, in the order named: in JSON Lines
/// and CSV alike.
#[test]
fn tags_follow_the_guide_s_fields() {
    let section = schema_section();
    let tags = ["tag_WhiteElo", "tag_Site", "tag_Nope"];
    let path = fixture(FIXTURE);
    let out = run(&["games", "--format", "jsonl", "--tags", "WhiteElo,Site,Nope", &path]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut fields = documented_fields(&schema_table(&section));
    fields.extend(tags.map(str::to_owned));
    let mut lines = 0;
    for line in out.stdout.lines() {
        let record: Ordered = serde_json::from_str(line).expect("JSON");
        assert_eq!(record.keys(), fields, "a tagged record's keys (left)");
        lines += 1;
    }
    assert!(lines > 100, "{lines} records");

    let out = run(&["games", "--tags", "WhiteElo,Site,Nope", &path]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut header = documented_csv_header(&section);
    header.extend(tags.map(str::to_owned));
    let written: Vec<&str> = out.stdout.lines().next().expect("a header row").split(',').collect();
    assert_eq!(written, header, "games --tags' CSV header (left)");
}

/// The GUIDE's `games --tags` example is what `games --tags` prints.
#[test]
fn the_guide_s_tags_example_is_the_output() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/GUIDE.md");
    let guide = std::fs::read_to_string(path).expect("read docs/GUIDE.md");
    let mut lines = guide.lines();
    let command = lines
        .by_ref()
        .find_map(|line| line.strip_prefix("$ arbiter ").filter(|c| c.contains("--tags ")))
        .expect("the GUIDE shows `arbiter games --tags ...` in a console block");
    let shown: Vec<&str> = lines.take_while(|line| !line.starts_with("```")).collect();
    let args: Vec<&str> = command.split_whitespace().collect();
    let out =
        crate::util::Arbiter::new(&args).current_dir(env!("CARGO_MANIFEST_DIR").as_ref()).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.lines().collect::<Vec<_>>(), shown, "`arbiter {command}` (left)");
}

// ------------------------------------------------------------ JSON Schema

/// `games --schema` prints docs/record.schema.json, reading no input, and
/// takes no other argument.
#[test]
fn games_schema_prints_the_committed_json_schema() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/record.schema.json");
    let committed = std::fs::read_to_string(path).expect("read docs/record.schema.json");
    let printed = run(&["games", "--schema"]);
    assert_eq!(printed.code, Some(0), "{}", printed.stderr);
    assert_eq!(printed.stdout, committed);
    let schema: serde_json::Value = serde_json::from_str(&printed.stdout).expect("JSON");
    // Round is text: "1.10" is round 1, board 10, not the number 1.1.
    assert_eq!(schema["properties"]["round"]["type"], serde_json::json!(["string", "null"]));
    let with_file = run(&["games", "--schema", &fixture(FIXTURE)]);
    assert_eq!(with_file.code, Some(2), "{}", with_file.stdout);
}

/// `round` is written as text: a round "6.1" stays "6.1" in JSON Lines,
/// never a number.
#[test]
fn round_is_a_string_in_json_lines() {
    let run = run(&["games", "--format", "jsonl", &fixture("tournament/faults.pgn")]);
    let recs = parse_jsonl(&run.stdout);
    assert!(recs.iter().any(|r| r["round"] == "6.1"), "no round 6.1");
    assert!(recs.iter().all(|r| r["round"].is_string() || r["round"].is_null()));
}

/// Every fixture's JSON Lines records validate against the schema
/// (scripts/schema_check.py, with Python's jsonschema; skipped, and said,
/// where Python or the package is missing: the skip is printed, the one
/// thing a test has to say).
#[test]
#[allow(clippy::print_stderr)]
fn every_fixture_s_records_match_the_json_schema() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/schema_check.py");
    let output = match std::process::Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_arbiter")])
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            eprintln!("skipped: python3 cannot be run ({error})");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    eprintln!("{}", stdout.trim());
}
