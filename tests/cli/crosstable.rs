//! `arbiter crosstable`: standings and tie-breaks of the fixture round
//! robin and Swiss (fixtures/tournament, see make.py), against values
//! worked out by hand below; the CSV, HTML and terminal outputs; one table
//! per event, and the limits past which an event is not a tournament.

use std::{collections::HashMap, fs};

use crate::util::{Arbiter, fixture, peak_memory, run};

/// The CSV rows of `arbiter crosstable --csv`, as header → value maps.
/// An empty `relative` reads only the files among `extra`.
fn rows(relative: &str, extra: &[&str]) -> Vec<HashMap<String, String>> {
    let path = if relative.is_empty() { String::new() } else { fixture(relative) };
    let mut args = vec!["crosstable", "-q", "--csv"];
    args.extend((!path.is_empty()).then_some(path.as_str()));
    args.extend(extra);
    let run = run(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut rdr = csv::Reader::from_reader(run.stdout.as_bytes());
    let header: Vec<String> =
        rdr.headers().expect("a header row").iter().map(str::to_owned).collect();
    rdr.records()
        .map(|row| {
            header.iter().cloned().zip(row.expect("a CSV row").iter().map(str::to_owned)).collect()
        })
        .collect()
}

/// The values of `columns` for each row, in rank order.
fn table(rows: &[HashMap<String, String>], columns: &[&str]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| columns.iter().map(|c| r.get(*c).cloned().unwrap_or_default()).collect())
        .collect()
}

/// The Swiss (7 players, 3 rounds; S1..S7 in rating order):
///
/// ```text
/// R1: S1-S5 1-0, S6-S2 0-1, S3-S7 ½-½, S4 bye (1-0 against "BYE")
/// R2: S2-S1 ½-½, S4-S3 1-0, S5-S7 1-0 forfeit (no moves), S6 bye
/// R3: S1-S4 1-0, S3-S2 0-1, S7-S6 ½-½, S5 bye
/// ```
///
/// Scores: S1 2.5, S2 2.5, S3 0.5, S4 2 (bye), S5 2 (forfeit + bye),
/// S6 1.5 (bye), S7 1. Unplayed rounds: byes (S4 R1, S6 R2, S5 R3) and the
/// forfeit (S5 and S7, R2).
///
/// Adjusted scores (played points + ½ per unplayed round): S1 2.5, S2 2.5,
/// S3 0.5, S4 1 + ½ = 1.5, S5 0 + 1 = 1, S6 ½ + ½ = 1, S7 1 + ½ = 1.5.
///
/// BH (opponent's adjusted score; own score for an unplayed round):
/// S1 = S5 1 + S2 2.5 + S4 1.5 = 5; S2 = S6 1 + S1 2.5 + S3 0.5 = 4;
/// S3 = S7 1.5 + S4 1.5 + S2 2.5 = 5.5; S4 = own 2 + S3 0.5 + S1 2.5 = 5;
/// S5 = S1 2.5 + own 2 + own 2 = 6.5; S6 = S2 2.5 + own 1.5 + S7 1.5 = 5.5;
/// S7 = S3 0.5 + own 1 + S6 1 = 2.5.
/// BH-C1 (less the smallest part): S1 5 - 1 = 4; S2 4 - 0.5 = 3.5;
/// S3 5.5 - 1.5 = 4; S4 5 - 0.5 = 4.5; S5 6.5 - 2 = 4.5; S6 5.5 - 1.5 = 4;
/// S7 2.5 - 0.5 = 2.
/// SB (each BH part times the points of that round): S1 1 + 1.25 + 1.5 =
/// 3.75; S2 1 + 1.25 + 0.5 = 2.75; S3 0.75 + 0 + 0 = 0.75; S4 2 + 0.5 + 0 =
/// 2.5; S5 0 + 2 + 2 = 4; S6 0 + 1.5 + 0.75 = 2.25; S7 0.25 + 0 + 0.5 = 0.75.
/// WIN (forfeits and byes included): S1 2, S2 2, S3 0, S4 2, S5 2, S6 1, S7 0.
///
/// Ranking (Swiss default BH-C1, BH, DE, WIN, SB): S1 and S2 (2.5) part on
/// BH-C1 4 > 3.5; S4 and S5 (2) tie on BH-C1 4.5 and part on BH 6.5 > 5:
/// S5 third. DE is never reached (shown empty).
#[test]
fn swiss_standings_and_tiebreaks() {
    let rows = rows("tournament/swiss.pgn", &[]);
    let got = table(&rows, &["Rk", "Name", "Rtg", "Pts", "Gms", "BH-C1", "BH", "DE", "WIN", "SB"]);
    let expected = [
        ["1", "Kowalski, Marek", "2301", "2.5", "3", "4", "5", "", "2", "3.75"],
        ["2", "Larsen, Freja", "2288", "2.5", "3", "3.5", "4", "", "2", "2.75"],
        ["3", "Okafor, Chidi", "2180", "2", "1", "4.5", "6.5", "", "2", "4"],
        ["4", "Nakamura, Yui", "2203", "2", "2", "4.5", "5", "", "2", "2.5"],
        ["5", "Petrov, Elena", "2102", "1.5", "2", "4", "5.5", "", "1", "2.25"],
        ["6", "Quinn, Aoife", "2055", "1", "2", "2", "2.5", "", "0", "0.75"],
        ["7", "Moreau, Hugo", "2250", "0.5", "3", "4", "5.5", "", "0", "0.75"],
    ];
    assert_eq!(got, expected.map(|row| row.map(str::to_owned)));
    // Cells: opponent's row number, colour, points and kind, each in its
    // column (the terminal's `3w1`, `6w+`, `bye+`).
    let round =
        |n: u32| ["opponent", "colour", "result", "kind"].map(|part| format!("r{n}_{part}"));
    let cells = |n: u32| table(&rows, &round(n).each_ref().map(String::as_str));
    assert_eq!(cells(1)[0], ["3", "w", "1", "game"]);
    assert_eq!(cells(2)[0], ["2", "b", "0.5", "game"]);
    assert_eq!(cells(2)[2], ["6", "w", "1", "forfeit"]);
    assert_eq!(cells(3)[2], ["", "w", "1", "bye"]);
    assert_eq!(cells(2)[5], ["3", "b", "0", "forfeit"]);
}

/// The round robin (10 players P1..P10 in rating order; the higher-rated
/// player wins except P1-P2 ½, P5 beats P1, P4 beats P2, P9-P10 ½):
/// scores P1 7.5, P2 7.5, P3 7, P4 7, P5 6, P6 4, P7 3, P8 2, P9 0.5,
/// P10 0.5 (45 in all).
///
/// With no unplayed games BH is the others' total: 45 - own score: P1 and
/// P2 37.5, P3 and P4 38, P9 and P10 44.5. BH-C1 drops the weakest
/// opponent: 0.5 for P1-P4 (P9 or P10): 37, 37, 37.5, 37.5; for P9 and
/// P10 the other one's 0.5: 44.
///
/// SB: P1 beat P3 7, P4 7, P6 4, P7 3, P8 2, P9 0.5, P10 0.5 (= 24), drew
/// P2 (7.5 / 2 = 3.75): 27.75. P2 beat P3 7, P5 6, P6 4, P7 3, P8 2, P9 0.5,
/// P10 0.5 (= 23), drew P1 (3.75): 26.75. P3 beat P4 7, P5 6, P6 4, P7 3,
/// P8 2, P9 0.5, P10 0.5: 23. P4 beat P2 7.5, P5 6, P6 4, P7 3, P8 2,
/// P9 0.5, P10 0.5: 23.5. P9 and P10 drew each other: 0.5 / 2 = 0.25.
///
/// Ranking (round-robin default DE, SB, WIN, BH, BH-C1): P1-P2 drew, DE ½
/// each, SB 27.75 > 26.75: P1 first. P3 beat P4: DE 1 > 0, P3 third
/// although P4's SB is higher. P9 and P10 are equal on everything: both
/// ninth.
#[test]
fn round_robin_standings_and_tiebreaks() {
    let rows = rows("tournament/clean.pgn", &[]);
    let got = table(&rows, &["Rk", "Name", "Pts", "Gms", "DE", "SB", "WIN", "BH", "BH-C1"]);
    let expected = [
        ["1", "Almeida, João", "7.5", "9", "0.5", "27.75", "7", "37.5", "37"],
        ["2", "Berg, Ingrid", "7.5", "9", "0.5", "26.75", "7", "37.5", "37"],
        ["3", "Castellanos, Lucía", "7", "9", "1", "23", "7", "38", "37.5"],
        ["4", "Dvořák, Tomáš", "7", "9", "0", "23.5", "7", "38", "37.5"],
    ];
    assert_eq!(got[..4], expected.map(|row| row.map(str::to_owned)));
    let bottom = [
        ["9", "Ivanov, Pavel", "0.5", "9", "0.5", "0.25", "0", "44.5", "44"],
        ["9", "Jansen, Pieter", "0.5", "9", "0.5", "0.25", "0", "44.5", "44"],
    ];
    assert_eq!(got[8..], bottom.map(|row| row.map(str::to_owned)));
    // Every player has a game in every round.
    assert!(rows.iter().all(|r| (1..=9).all(|n| r[&format!("r{n}_kind")] == "game")), "{rows:?}");
}

#[test]
fn the_order_of_tiebreaks_is_chosen() {
    // SB first: P4 (23.5) before P3 (23), then the two leaders by SB too.
    let rows = rows("tournament/clean.pgn", &["--tiebreaks", "sb,de"]);
    let names: Vec<String> = table(&rows, &["Name"]).into_iter().flatten().take(4).collect();
    assert_eq!(names, ["Almeida, João", "Berg, Ingrid", "Dvořák, Tomáš", "Castellanos, Lucía"]);
    assert_eq!(rows[0].keys().filter(|k| ["SB", "DE", "BH"].contains(&k.as_str())).count(), 2);
}

#[test]
fn html_is_a_self_contained_page() {
    let path = fixture("tournament/swiss.pgn");
    let run = run(&["crosstable", "-q", "--html", &path]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let page = &run.stdout;
    assert!(page.starts_with("<!DOCTYPE html>\n"), "{page}");
    assert!(page.contains("<meta charset=\"utf-8\">"));
    assert!(page.contains("<table class=\"arbiter-crosstable\">"));
    assert!(page.contains("<td class=\"name\">Kowalski, Marek</td>"));
    assert!(page.contains(
        "<caption>Arbiter Open 2024 (Swiss, 7 players, 3 rounds) \
         <span class=\"where\">Leiden NED, 2024.05.11 – 2024.05.13</span></caption>"
    ));
    for external in ["<script", "<link", "src=", "http"] {
        assert!(!page.contains(external), "{external} in {page}");
    }
    assert!(page.trim_end().ends_with("</html>"));
}

#[test]
fn the_terminal_table_is_aligned() {
    let path = fixture("tournament/swiss.pgn");
    let run = run(&["crosstable", "-q", &path]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "Arbiter Open 2024 (Swiss, 7 players, 3 rounds)");
    assert_eq!(lines[1], "Leiden NED, 2024.05.11 – 2024.05.13");
    assert_eq!(
        lines[3],
        "No  Rk  Name              Rtg  Pts  Gms     1     2     3  BH-C1  BH  DE  WIN  SB"
    );
    assert_eq!(
        lines[4],
        " 1   1  Kowalski, Marek  2301   2½    3   3w1   2b½   4w1      4   5        2  3¾"
    );
}

/// The title lines of terminal output, in order.
fn titles(stdout: &str) -> Vec<&str> {
    let is_title = |l: &&str| l.ends_with(" rounds)") && l.contains(" players, ");
    stdout.lines().filter(is_title).collect()
}

/// Issue 21, item 12: two events in one input were one table under the
/// first one's name. Now each event has its own table under its own name,
/// in input order, the same as the event alone, in every format.
#[test]
fn r21_two_events_give_two_crosstables() {
    let (swiss, clean) = (fixture("tournament/swiss.pgn"), fixture("tournament/clean.pgn"));
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.pgn");
    let text = fs::read_to_string(&swiss).unwrap() + "\n" + &fs::read_to_string(&clean).unwrap();
    fs::write(&both, text).unwrap();
    let both = both.to_str().unwrap();
    let run_both = run(&["crosstable", "-q", both]);
    assert_eq!(run_both.code, Some(0), "{}", run_both.stderr);
    assert_eq!(
        titles(&run_both.stdout),
        [
            "Arbiter Open 2024 (Swiss, 7 players, 3 rounds)",
            "Arbiter Invitational 2024 (round robin, 10 players, 9 rounds)"
        ]
    );
    // The tables as each event alone gives them, then one legend.
    let without_legend = |text: &str| text.split("\nLegend:\n").next().unwrap().to_owned();
    let alone = |path: &str| without_legend(&run(&["crosstable", "-q", path]).stdout);
    assert_eq!(without_legend(&run_both.stdout), alone(&swiss) + "\n" + &alone(&clean));
    assert_eq!(run_both.stdout.matches("\nLegend:\n").count(), 1);
    // CSV: one table, the event in the first column; each event's rows as
    // the event alone gives them.
    let csv = rows("", &[both]);
    let events: Vec<String> = table(&csv, &["Event"]).into_iter().flatten().collect();
    assert_eq!(events[..7], ["Arbiter Open 2024"; 7]);
    assert_eq!(events[7..], ["Arbiter Invitational 2024"; 10]);
    let columns = ["Rk", "Name", "Pts", "BH-C1", "SB", "r1_opponent", "r3_result", "r9_kind"];
    assert_eq!(table(&csv[..7], &columns), table(&rows("tournament/swiss.pgn", &[]), &columns));
    assert_eq!(table(&csv[7..], &columns), table(&rows("tournament/clean.pgn", &[]), &columns));
    // The Swiss has no round 9: empty.
    assert_eq!(csv[0]["r9_opponent"], "");
    // HTML: one page, a table per event, each captioned with its title.
    let page = run(&["crosstable", "-q", "--html", both]).stdout;
    let captions: Vec<&str> =
        page.lines().filter_map(|l| l.strip_prefix("<caption>")?.split(" <span").next()).collect();
    assert_eq!(
        captions,
        [
            "Arbiter Open 2024 (Swiss, 7 players, 3 rounds)",
            "Arbiter Invitational 2024 (round robin, 10 players, 9 rounds)"
        ]
    );
    assert!(page.contains("<title>Crosstables of 2 events</title>"), "{page}");
    assert_eq!(page.matches("<html").count(), 1);
}

/// Issue 21, item 12: an event of thousands of players is not a
/// tournament (the lichess bench file was one table of 36,510 players and
/// 9.9 GB). It is refused, named with its counts, exit status 2; the other
/// events still get their tables; output and memory stay small.
#[test]
fn r21_an_event_of_thousands_of_players_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pool.pgn");
    // A server's pool: one player against 5,000 others, no rounds.
    let mut pgn = String::new();
    for i in 0..5000 {
        pgn += &format!(
            "[Event \"Rated Blitz game\"]\n[Round \"-\"]\n[White \"Bot\"]\n[Black \"P{i}\"]\n\
             [Result \"1-0\"]\n\n1. e4 1-0\n\n"
        );
    }
    pgn += &fs::read_to_string(fixture("tournament/swiss.pgn")).unwrap();
    fs::write(&file, pgn).unwrap();
    let path = file.to_str().unwrap();
    let refused = run(&["crosstable", "-q", path]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    let expected = format!(
        "arbiter: error: \"Rated Blitz game\" (5000 games, from {path}:1) is not a tournament: \
         5001 players (more than --max-players 2000), 0 rounds, up to 5000 games for one player \
         (more than --max-rounds 100); no crosstable written\n"
    );
    assert_eq!(refused.stderr, expected);
    let swiss = run(&["crosstable", "-q", &fixture("tournament/swiss.pgn")]).stdout;
    assert_eq!(refused.stdout, swiss);
    let Some((stdout, peak_kib)) = peak_memory(&["crosstable", "-q", path]) else { return };
    assert_eq!(stdout.len(), swiss.len());
    assert!(peak_kib < 64 * 1024, "{peak_kib} KiB peak");
    // The limits are options: the Swiss has 7 players and 3 rounds.
    let swiss = fixture("tournament/swiss.pgn");
    for (option, limit, refused) in
        [("--max-players", "6", true), ("--max-players", "7", false), ("--max-rounds", "2", true)]
    {
        let run = run(&["crosstable", "-q", option, limit, &swiss]);
        assert_eq!((run.code, run.stdout.is_empty()), (Some(if refused { 2 } else { 0 }), refused));
        let over = format!("(more than {option} {limit})");
        assert_eq!(run.stderr.contains(&over), refused, "{}", run.stderr);
    }
}

/// A game with one name on both sides cannot be placed in a table: it is
/// left out, said on stderr with where it is (exit 2), and the table is
/// that of the other games. One name written in two cases is two players
/// here (`check` finds them, E406).
#[test]
fn a_game_of_a_player_against_themselves_is_left_out() {
    let path = fixture("tournament/self_pairing.pgn");
    let run = run(&["crosstable", "-q", "--csv", &path]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "arbiter: error: \"Club Championship 2024\" (3 games, from {path}:1): 1 game left \
             out of the crosstable, one name on both sides: game 2 ({path}:11): Kowalski, Marek \
             against themselves\n"
        )
    );
    let mut rdr = csv::Reader::from_reader(run.stdout.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<[String; 3]> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            [&r[at("Name")], &r[at("Pts")], &r[at("Gms")]].map(str::to_owned)
        })
        .collect();
    // Kowalski's one game is his win in round 1; round 2 has no column.
    assert_eq!(
        rows,
        [["Okafor, Chidi", "1", "2"], ["Kowalski, Marek", "1", "1"], ["OKAFOR, Chidi", "0", "1"]]
            .map(|r| r.map(str::to_owned))
    );
    assert!(!header.iter().any(|h| h.starts_with("r2_")), "{header:?}");
    // Nothing is left out of the other fixtures.
    for clean in ["tournament/swiss.pgn", "tournament/clean.pgn"] {
        let run = crate::util::run(&["crosstable", "-q", &fixture(clean)]);
        assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    }
}

/// Issue 21, item 12: 4,000 games, each of its own round between two new
/// players, took 2.8 GB (a cell for each of 8,000 players in each of 4,000
/// rounds, before anything said it was no tournament). Memory is now
/// linear in the games, and the limits are checked before any table is
/// sized.
#[test]
fn r21_the_4000_games_of_the_issue_run_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4000.pgn");
    let pgn: String = (1..=4000)
        .map(|i| {
            format!(
                "[Event \"E\"]\n[Round \"{i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n\
                 [Result \"1-0\"]\n\n1. e4 1-0\n\n"
            )
        })
        .collect();
    fs::write(&file, pgn).unwrap();
    let path = file.to_str().unwrap();
    let Some((stdout, peak_kib)) = peak_memory(&["crosstable", "-q", path]) else { return };
    assert!(peak_kib < 64 * 1024, "{peak_kib} KiB peak");
    assert!(stdout.is_empty(), "{} bytes of output", stdout.len());
    let refused = run(&["crosstable", "-q", path]);
    assert_eq!(refused.code, Some(2));
    assert!(
        refused.stderr.contains("8000 players (more than --max-players 2000), 4000 rounds (more"),
        "{}",
        refused.stderr
    );
}

/// Issue 21, item 12: a week of TWIC (1,110 games of 22 events) was one
/// table under the first event's name; now each event has its own, in
/// input order.
#[test]
fn r21_a_file_of_many_events_has_a_table_each() {
    let path = fixture("bench/twic1599.pgn");
    let run = run(&["crosstable", "-q", &path]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = fs::read_to_string(&path).unwrap();
    let mut events: Vec<&str> = Vec::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("[Event \"")) {
        let name = line.trim_end_matches("\"]").trim();
        if !events.contains(&name) {
            events.push(name);
        }
    }
    let named: Vec<&str> = titles(&run.stdout)
        .into_iter()
        .map(|t| t.rsplit_once(" (").map_or(t, |(name, _)| name))
        .collect();
    assert_eq!(named, events);
}

/// Issue 25: the terminal and HTML tables end with a legend of the cell
/// notation and of exactly the tie-breaks shown; points are written with
/// `½` in the table as in the cells (never `2.5` beside `2b½`), and the
/// CSV keeps decimals.
#[test]
fn r25_a_legend_and_one_way_of_writing_points() {
    let swiss = fixture("tournament/swiss.pgn");
    let text = run(&["crosstable", "-q", "--tiebreaks", "sb,bh-c1", &swiss]).stdout;
    let (tables, legend) = text.split_once("\nLegend:\n").expect("a legend");
    for term in ["3w1, 3b½, 3b0", "4w+, 4b=, 4b-", "bye+", "BH-C1", "SB"] {
        assert!(legend.lines().any(|l| l.trim_start().starts_with(term)), "{term}: {legend}");
    }
    assert!(legend.contains("Buchholz cut 1") && legend.contains("Sonneborn-Berger"));
    // Only the tie-breaks shown are explained.
    assert!(!legend.lines().any(|l| l.trim_start().starts_with("DE ")), "{legend}");
    assert!(tables.contains("  2½  ") && tables.contains("3¾"), "{tables}");
    assert!(!tables.lines().skip(3).any(|l| l.contains('.')), "{tables}");
    let page = run(&["crosstable", "-q", "--html", &swiss]).stdout;
    assert!(page.contains("<dl class=\"arbiter-legend\">"), "{page}");
    assert!(page.contains("<dt>BH-C1</dt><dd>Buchholz cut 1"), "{page}");
    assert!(page.contains("<dt>bye+</dt>"), "{page}");
    assert!(page.contains("<td>2½</td>") && !page.contains("<td>2.5</td>"), "{page}");
    // CSV: decimals, which programs read.
    assert_eq!(rows("tournament/swiss.pgn", &[])[0]["Pts"], "2.5");
}

/// Issue 25: a match crosstable (`--event-format match`, or arbiter.toml)
/// is named a match, shows both games of a round in its cell and has no
/// tie-breaks; the header gives the site and the first and last dates.
#[test]
fn r25_a_match_crosstable() {
    let path = fixture("tournament/match.pgn");
    let text = run(&["crosstable", "-q", "--event-format", "match", &path]).stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Arbiter Engine Match 2024 (match, 2 players, 2 rounds)");
    assert_eq!(lines[1], "Delft NED, 2024.06.01 – 2024.06.03");
    assert_eq!(lines[3], "No  Rk  Name      Rtg  Pts  Gms        1        2");
    assert_eq!(lines[4], " 1   1  Engine A         3    4  2w½ 2b1  2w1 2b½");
    // Detected, it is a round robin of two players, with tie-breaks.
    let detected = run(&["crosstable", "-q", &path]).stdout;
    assert!(detected.starts_with("Arbiter Engine Match 2024 (round robin,"), "{detected}");
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("arbiter.toml"), "[event]\nformat = \"match\"\n").unwrap();
    let from_file = Arbiter::new(&["crosstable", "-q", &path]).current_dir(dir.path()).run();
    assert_eq!(from_file.stdout, text);
    let args = ["crosstable", "-q", "--event-format", "swiss", &path];
    let overridden = Arbiter::new(&args).current_dir(dir.path()).run();
    assert!(overridden.stdout.starts_with("Arbiter Engine Match 2024 (Swiss,"));
    // CSV: two games in a round, each column space-separated.
    let csv = rows("tournament/match.pgn", &["--event-format", "match"]);
    assert_eq!(
        table(&csv, &["r1_opponent", "r1_colour", "r1_result", "r1_kind"])[0],
        ["2 2", "w b", "0.5 1", "game game"]
    );
}
