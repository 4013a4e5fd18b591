//! Throughput of each stage of arbiter's pipeline, on the committed samples
//! in `fixtures/bench/` (provenance in its README):
//!
//! - `chunk`: cutting a whole file into chunks with `chunk::find_cut` at the
//!   default 2 MiB target (the chunker's game-boundary scan), in bytes/s;
//! - `replay`, `replay_final_fen`: one `Replayer` on one core replaying a
//!   file as one chunk, without and with the final FEN, in games/s;
//! - `tokenize`: what arbiter's own movetext lexer costs against letting
//!   pgn-reader tokenize. Both read the same bytes, the movetexts of the
//!   file (cut where the replay cuts them), and turn every move into a
//!   `SanPlus`: `pgn_reader` with a visitor that counts SANs,
//!   `arbiter_lexer_parse` with `replay::lexer::Lexer` plus
//!   `replay::notation::parse` on every word, and `arbiter_lexer` with the
//!   lexer alone, in bytes/s;
//! - `pipeline`: `pipeline::run` end to end (mapped input, chunking, rayon,
//!   ordering) into a sink that drops the records, at 1 and 2 jobs, on the
//!   three samples concatenated three times (about 13 MiB, 7 chunks of the
//!   default size), in bytes/s.
//!
//! Run with `cargo bench --bench pipeline`; `-- replay` and the like pick
//! groups.

use std::{
    hint::black_box,
    io::{self, Cursor, Write},
    ops::{ControlFlow, Range},
    path::PathBuf,
    time::Duration,
};

use arbiter::{
    chess::notation::{self, Written},
    pgn::{
        chunk::{Chunk, find_cut},
        cursor::GameCursor,
        lexer::{Lexer, Token},
    },
    pipeline::{self, DEFAULT_CHUNK_SIZE, PipelineOptions},
    progress::Progress,
    record::GameRecord,
    replay::{ReplayOptions, Replayer},
    sink::Sink,
};
use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use pgn_reader::{Reader, SanPlus, Visitor};

/// The samples, by name: lichess blitz/bullet games with `%clk` comments
/// and over-the-board master games of two eras without comments.
const SAMPLES: &[&str] = &["lichess-2017-09", "twic1599", "gnuchess-book"];

fn sample_path(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "fixtures", "bench", &format!("{name}.pgn")].iter().collect()
}

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    SAMPLES
        .iter()
        .map(|&name| {
            let path = sample_path(name);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            (name, bytes)
        })
        .collect()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
}

/// Cuts at the default chunk size until the whole file is consumed.
fn chunk(c: &mut Criterion) {
    let mut group = c.benchmark_group("chunk");
    configure(&mut group);
    for (name, bytes) in samples() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let (mut at, mut chunks) = (0, 0);
                while at < bytes.len() {
                    at += find_cut(&bytes[at..], DEFAULT_CHUNK_SIZE, true).unwrap_or(bytes.len());
                    chunks += 1;
                }
                black_box(chunks)
            })
        });
    }
    group.finish();
}

fn replay_group(c: &mut Criterion, group_name: &str, options: ReplayOptions) {
    let mut group = c.benchmark_group(group_name);
    configure(&mut group);
    for (name, bytes) in samples() {
        let chunk = Chunk::from_bytes("bench", bytes);
        let mut replayer = Replayer::new(options);
        let mut games = 0;
        replayer.replay(&chunk, &mut (), |_, ()| games += 1);
        group.throughput(Throughput::Elements(games));
        group.bench_function(name, |b| {
            b.iter(|| replayer.replay(&chunk, &mut (), |record, ()| drop(black_box(record))))
        });
    }
    group.finish();
}

/// One replayer, one core, one chunk holding the whole file.
fn replay(c: &mut Criterion) {
    replay_group(c, "replay", ReplayOptions::default());
    replay_group(
        c,
        "replay_final_fen",
        ReplayOptions { final_fen: true, ..ReplayOptions::default() },
    );
}

/// The movetext span of every game, found the way `Replayer::replay` finds
/// them: from where the tags end to where the next game begins.
fn movetext_spans(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut games = GameCursor::new(bytes, 1);
    let mut spans = Vec::new();
    while let Some(span) = games.next_game(|_, _| {}) {
        spans.push(span.movetext..games.finish_game(&span, games.lexer(&span)));
    }
    spans
}

/// pgn-reader's tokenizer: counts the SANs it hands to the visitor.
struct CountSans(u64);

impl Visitor for CountSans {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        black_box(san_plus);
        self.0 += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) {}
}

fn lex_and_parse(movetexts: &[&[u8]]) -> u64 {
    let mut moves = 0;
    for movetext in movetexts {
        for located in Lexer::new(movetext, 1) {
            if let Token::Word(word) = located.token
                && let Written::Move { san_plus, .. } = notation::parse(word)
            {
                black_box(san_plus);
                moves += 1;
            }
        }
    }
    moves
}

fn lex_only(movetexts: &[&[u8]]) -> u64 {
    let mut tokens = 0;
    for movetext in movetexts {
        for located in Lexer::new(movetext, 1) {
            black_box(located.token);
            tokens += 1;
        }
    }
    tokens
}

/// arbiter's lexer + notation parser against pgn-reader's tokenizer, on
/// the same movetext bytes.
fn tokenize(c: &mut Criterion) {
    let mut group = c.benchmark_group("tokenize");
    configure(&mut group);
    for (name, bytes) in samples() {
        let spans = movetext_spans(&bytes);
        let movetexts: Vec<&[u8]> = spans.iter().map(|span| &bytes[span.clone()]).collect();
        // The same movetexts as one stream for pgn-reader: games without
        // tags, separated by blank lines.
        let mut joined = Vec::with_capacity(bytes.len());
        for movetext in &movetexts {
            joined.extend_from_slice(movetext);
            joined.extend_from_slice(b"\n\n");
        }
        group.throughput(Throughput::Bytes(joined.len() as u64));
        group.bench_function(format!("pgn_reader/{name}"), |b| {
            b.iter(|| {
                let mut counter = CountSans(0);
                let mut rdr = Reader::new(Cursor::new(&joined[..]));
                while let Ok(Some(())) = rdr.read_game(&mut counter) {}
                black_box(counter.0)
            })
        });
        group.bench_function(format!("arbiter_lexer_parse/{name}"), |b| {
            b.iter(|| black_box(lex_and_parse(&movetexts)))
        });
        group.bench_function(format!("arbiter_lexer/{name}"), |b| {
            b.iter(|| black_box(lex_only(&movetexts)))
        });
    }
    group.finish();
}

/// Drops every record (after looking at it).
struct Discard(u64);

impl Sink for Discard {
    fn record(&mut self, record: &GameRecord, (): ()) -> io::Result<ControlFlow<()>> {
        black_box(record);
        self.0 += 1;
        Ok(ControlFlow::Continue(()))
    }
}

/// The whole pipeline on a mapped file, at 1 and 2 jobs.
fn pipeline(c: &mut Criterion) {
    let mut file = tempfile::Builder::new().suffix(".pgn").tempfile().expect("temp file");
    for _ in 0..3 {
        for (_, bytes) in samples() {
            file.write_all(&bytes).expect("write temp file");
            file.write_all(b"\n").expect("write temp file");
        }
    }
    file.flush().expect("flush temp file");
    let size = file.as_file().metadata().expect("temp file size").len();
    let paths = [file.path().to_owned()];
    let mut group = c.benchmark_group("pipeline");
    configure(&mut group);
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(size));
    for jobs in [1, 2] {
        let options = PipelineOptions { jobs, chunk_size: DEFAULT_CHUNK_SIZE };
        group.bench_function(format!("jobs={jobs}"), |b| {
            b.iter(|| {
                let mut sink = Discard(0);
                let summary = pipeline::run(
                    &paths,
                    ReplayOptions::default(),
                    options,
                    &Progress::hidden(),
                    || (),
                    &mut sink,
                )
                .expect("pipeline run");
                black_box((summary, sink.0))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, chunk, replay, tokenize, pipeline);
criterion_main!(benches);
