//! The fuzz target `replay` (fuzz_targets/replay.rs): any bytes, as the file or the standard input the
//! commands that read games are given, cut into chunks of the default size
//! (one chunk) and of a small size read off the first byte, and replayed
//! with the options of `games` and of `validate --variations`.
//!
//! Nothing may panic, and the records, with what each command's observer
//! made of them, must be the same whatever the chunk size, streamed or
//! mapped, and through the real pipeline (two threads) as through its copy
//! on this thread ([`run`](super::run)); `stats` must count the same
//! however the chunks are dealt to workers. The records of the one-chunk
//! runs go through every sink: `games` (CSV, JSON Lines), `check` (text,
//! JSON Lines, SARIF; the summary), `crosstable` (text, CSV, HTML),
//! `validate` (text, errors only, JSON Lines; the summary) and `fmt` (the
//! text, `--check`), and `stats` writes its report; equal records make
//! equal bytes, so the sinks run once an input. `games --limit` writes a
//! prefix. `tree` must count the same with its early stops as from whole
//! replays, however the chunks are dealt, and its partial read back must
//! give the same rows.

use std::sync::Arc;

use super::{
    GamesSinks, Keep, Shared, ValidateSinks, fold, input_file, open, run, small_chunk_size,
};
use arbiter::{
    diagnostic::text::Palette,
    export::{Export, Exporter},
    pgn::chunk::Chunker,
    pipeline::{self, DEFAULT_CHUNK_SIZE, PipelineOptions},
    progress::Progress,
    record::GameRecord,
    replay::{ReplayOptions, Replayer},
    sink::{JsonlSink, Limit, Summary},
    stats::{Merge, Stats, report as stats_report},
    tournament::{
        Collect, EventFormat, Game, GameObserver,
        check::{
            self, CheckOptions,
            report::{self, Format},
        },
        crosstable::{self, Tiebreak},
    },
    tree::{self, Explorer, Root, Spec, Tree},
};

/// The replay of `games`, `check` and `validate --format jsonl`.
const GAMES: ReplayOptions =
    ReplayOptions { variations: false, final_fen: true, early_stop: false, skip_laws: false };

/// The replay of `validate --variations` (text) and `fmt`.
const VARIATIONS: ReplayOptions =
    ReplayOptions { variations: true, final_fen: false, early_stop: false, skip_laws: false };

/// Runs the target on one input: panics where a property does not hold.
pub fn check(data: &[u8]) {
    let Some(&first) = data.first() else { return };
    let Some(path) = input_file(data) else { return };
    let path = path.as_str();
    let small = small_chunk_size(first);
    let what = |how: &str| format!("one chunk vs {how} chunks of {small} bytes");

    // `games`, `check`, `crosstable`: streamed in one chunk, through every
    // sink; then mapped in small chunks, and through the pipeline.
    let mut sinks = GamesSinks::default();
    let input = open(data, None);
    let summary =
        run(path, input, DEFAULT_CHUNK_SIZE, GAMES, &mut GameObserver::default(), &mut sinks);
    let (games, jsonl) = (&sinks.collect.records, sinks.jsonl_bytes.bytes());
    assert_eq!(summary.games, games.len() as u64, "every game has a record");
    tournament(games, &summary);
    let mut mapped = Collect::default();
    let input = open(data, Some(path));
    let mapped_summary = run(path, input, small, GAMES, &mut GameObserver::default(), &mut mapped);
    same_games(games, &mapped.records, &what("mapped"));
    assert_eq!(summary, mapped_summary, "{}: summary", what("mapped"));
    let threads = PipelineOptions { jobs: 2, chunk_size: small };
    let paths = [std::path::PathBuf::from(path)];
    let mut piped = Collect::default();
    let piped_summary = pipeline::run(
        &paths,
        GAMES,
        threads,
        &Progress::hidden(),
        GameObserver::default,
        &mut piped,
    )
    .expect("a sink into memory does not fail");
    same_games(games, &piped.records, &what("pipeline"));
    assert_eq!(summary, piped_summary, "{}: summary", what("pipeline"));

    // `validate --variations` and `fmt`: streamed, in one chunk through
    // every sink, then in small chunks.
    let mut validate = ValidateSinks::default();
    let mut exporter = Exporter::new(VARIATIONS);
    let input = open(data, None);
    let summary = run(path, input, DEFAULT_CHUNK_SIZE, VARIATIONS, &mut exporter, &mut validate);
    summary.render(&mut Vec::new()).expect("into memory");
    let mut chunked = Keep::default();
    let input = open(data, None);
    run(path, input, small, VARIATIONS, &mut Exporter::new(VARIATIONS), &mut chunked);
    same_exports(&validate.kept, &chunked.0, &what("streamed"));

    // `games --limit`, which stops the pipeline while chunks are in
    // flight, on one input in eight (a run costs threads).
    if data.len().is_multiple_of(8) {
        let limit = u64::from(first % 5);
        let limited = Shared::default();
        let mut sink = Limit::new(JsonlSink::new(limited.clone()), limit);
        pipeline::run(&paths, GAMES, threads, &Progress::hidden(), || (), &mut sink)
            .expect("a sink into memory does not fail");
        let lines = jsonl.split_inclusive(|&b| b == b'\n').take(limit as usize);
        let prefix: Vec<u8> = lines.flatten().copied().collect();
        assert!(limited.bytes() == prefix, "--limit {limit} does not write a prefix");
    }

    // `stats`: counted by chunk, dealt to two workers as the input says.
    let whole = fold(path, open(data, None), DEFAULT_CHUNK_SIZE, |_| false);
    let dealt = fold(path, open(data, Some(path)), small, |i| (first >> (i % 8)) & 1 == 1);
    assert!(whole == dealt, "{}: stats", what("dealt"));
    write_stats(&whole);

    // `tree`, from the start position, 0 to 3 plies deep.
    let spec = Spec { root: Root::start(), depth: u32::from(first % 4) };
    let stopped = count_tree(
        path,
        open(data, None),
        DEFAULT_CHUNK_SIZE,
        |_| false,
        || Explorer::new(spec.clone(), usize::MAX),
    );
    let whole = count_tree(
        path,
        open(data, Some(path)),
        small,
        |i| (first >> (i % 8)) & 1 == 1,
        || Explorer::exhaustive(spec.clone(), usize::MAX),
    );
    let rows = tree::report::rows(&stopped, 0);
    assert_eq!(rows, tree::report::rows(&whole, 0), "{}: tree", what("dealt, whole"));
    let mut partial = Vec::new();
    tree::partial::write(&mut partial, &stopped).expect("into memory");
    let back = tree::partial::read(&partial).expect("a partial reads back");
    assert_eq!(rows, tree::report::rows(&back, 0), "tree: partial");
    for (csv, json) in [(None, false), (Some("-".into()), false), (None, true)] {
        let outputs = tree::report::Outputs { csv, json, partial: None, min_games: 1 };
        tree::report::write(&stopped, &outputs, &mut Vec::new()).expect("into memory");
    }
}

/// A tree counted as `pipeline::fold` counts it, chunk by chunk, each
/// chunk's explorer merged into one of two workers as `deal` says.
fn count_tree(
    name: &str,
    input: arbiter::source::Input,
    chunk_size: usize,
    deal: impl Fn(usize) -> bool,
    explorer: impl Fn() -> Explorer,
) -> Tree {
    let mut chunker = Chunker::new(Arc::from(name), input, chunk_size, Arc::new(drop));
    let mut replayer = Replayer::new(ReplayOptions { early_stop: true, ..Default::default() });
    let mut workers = [explorer(), explorer()];
    let mut i = 0;
    while let Some(chunk) = chunker.next_chunk().expect("bytes in memory are read") {
        let mut counter = explorer();
        replayer.replay(&chunk, &mut counter, |_, ()| {});
        workers[usize::from(deal(i))].merge(counter);
        i += 1;
    }
    let [mut a, b] = workers;
    a.merge(b);
    a.into_tree()
}

/// Panics unless `b` are the games `a` are; `what` says which runs.
#[track_caller]
fn same_games(a: &[Game], b: &[Game], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: number of games");
    for (a, b) in a.iter().zip(b) {
        assert_eq!(a, b, "{what}: game {}", a.index);
    }
}

/// Panics unless `b` are the records and exports `a` are.
#[track_caller]
fn same_exports(a: &[(GameRecord, Export)], b: &[(GameRecord, Export)], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: number of games");
    for (a, b) in a.iter().zip(b) {
        assert_eq!(a, b, "{what}: game {}", a.0.index);
    }
}

/// What `check` (default and Swiss options) and `crosstable` (every
/// tiebreak) write of `games`, into memory.
fn tournament(games: &[Game], summary: &Summary) {
    let mut out = Vec::new();
    summary.render(&mut out).expect("into memory");
    let swiss =
        CheckOptions { format: Some(EventFormat::Swiss), rounds: Some(5), ..Default::default() };
    // One SARIF log: a log is mostly the table of codes, which no input
    // changes, and writing two took most of the target's time.
    for (options, sarif) in [(CheckOptions::default(), true), (swiss, false)] {
        let report = check::check(games, &options);
        for format in [Format::Text, Format::Jsonl, Format::Sarif] {
            if format != Format::Sarif || sarif {
                // Coloured: the escapes are written around every part.
                let palette = Palette::COLORED;
                report::render(&report, games, format, &palette, &mut out).expect("into memory");
            }
        }
        report::summary(&report, games.len(), 1, &options.disabled, &mut out).expect("into memory");
    }
    let tiebreaks = [
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::DirectEncounter,
    ];
    // `crosstable`'s sink, fed the games as the pipeline feeds it, with
    // its limits (an event over them is refused, not built).
    let mut events = crosstable::Events::new(crosstable::Limits { players: 2000, rounds: 100 });
    for game in games {
        let _ = arbiter::sink::Sink::record(&mut events, &game.record, game.tags.clone())
            .expect("into memory");
    }
    let mut messages = Vec::new();
    for style in [crosstable::Style::Text, crosstable::Style::Csv, crosstable::Style::Html] {
        crosstable::write(&events, &tiebreaks, None, style, &mut out, &mut messages)
            .expect("into memory");
    }
}

/// What `stats` writes of `stats`: its terminal report and its JSON
/// document, into memory.
fn write_stats(stats: &Stats) {
    let mut out = Vec::new();
    for json in [false, true] {
        let outputs = stats_report::Outputs { json, ..Default::default() };
        stats_report::write(stats, &outputs, &mut out).expect("into memory");
    }
}
