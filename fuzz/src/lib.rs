//! What the fuzz targets share: the input as a file the pipeline can open,
//! the chunk size an input asks for, the pipeline's work done on the
//! calling thread ([`run`], [`fold`]), and sinks that write each record
//! through every sink of the commands at once, into memory.
//!
//! Chunking, and the numbering of games and lines across chunks, are what
//! the chunk size must not change: [`run`] does what `pipeline::run` does,
//! without its threads, and the `replay` target compares both.
//!
//! The targets are the modules [`replay`], [`fmt`], [`select`] and
//! [`split`]:
//! `fuzz_targets/` hands them libFuzzer's inputs, and the main crate's
//! `tests/cli/fuzz_seeds.rs` includes this file as a module to run them on
//! the seeds and reproducers with no nightly toolchain. So nothing here
//! names the crate (`crate::`): the targets reach it as `super`.

pub mod fmt;
pub mod replay;
pub mod select;
pub mod split;

use std::{
    cell::RefCell,
    fs::File,
    io::{self, Write},
    ops::ControlFlow,
    os::{fd::AsRawFd, unix::fs::FileExt},
    path::Path,
    rc::Rc,
    sync::Arc,
};

use arbiter::{
    diagnostic::{Reported, WithFindings, text::DiagnosticsSink},
    export::Export,
    pgn::{chunk::Chunker, sniff, tags::TagList},
    record::GameRecord,
    replay::{ReplayOptions, Replayer, observer::Observer},
    sink::{CsvSink, JsonlSink, PgnSink, Sink, Summary},
    source::{self, Input, InputError},
    stats::{Counter, Merge, Stats},
    tournament::Collect,
};

/// The path of a file that holds `bytes`, for `pipeline::run`, or `None`
/// when the file would be read as compressed (its first bytes are a
/// compression format's magic): decompressors are not what is fuzzed, and
/// a few kilobytes of them may expand to gigabytes, which would only time
/// out.
///
/// The file is unnamed (`O_TMPFILE`, or unlinked at once), one per
/// thread (libFuzzer runs one, `cargo test` several), rewritten for each input, and opened by its `/proc/self/fd`
/// path: a regular file, so it is memory-mapped as a file argument is, and
/// nothing is left behind when the fuzzer exits, which it does without
/// running destructors.
pub fn input_file(bytes: &[u8]) -> Option<String> {
    thread_local! {
        static FILE: File = tempfile::tempfile().expect("a temporary file");
    }
    FILE.with(|file| write_input(file, bytes))
}

fn write_input(file: &File, bytes: &[u8]) -> Option<String> {
    file.set_len(0).expect("truncating the input file");
    file.write_all_at(bytes, 0).expect("writing the input file");
    let path = format!("/proc/self/fd/{}", file.as_raw_fd());
    let compressed = source::is_compressed(Path::new(&path)).expect("reading the input file back");
    (!compressed).then_some(path)
}

/// A small chunk size (in bytes), read off `byte` (an input's first):
/// 1 to 32 bytes, which cut at nearly every game boundary, or 64 bytes to
/// 8 KiB in steps of 64, which cut at some.
pub fn small_chunk_size(byte: u8) -> usize {
    match byte {
        0..128 => 1 + usize::from(byte % 32),
        _ => 64 * usize::from(byte - 127),
    }
}

/// `bytes` as a stream (standard input, a compressed file), or, with
/// `path`, as the mapped file [`input_file`] made of them.
pub fn open(bytes: &[u8], path: Option<&str>) -> Input {
    match path {
        Some(path) => source::open(Path::new(path), Arc::new(drop)).expect("the input file opens"),
        None => Input::Stream(Box::new(io::Cursor::new(bytes.to_vec()))),
    }
}

/// Replays `input` (named `name`), cut by the chunker into chunks of about
/// `chunk_size` bytes, with one observer as one worker of the pipeline has
/// one, and hands the records to `sink` numbered across chunks, as
/// `pipeline::run` does; but on this thread: the pipeline's threads and
/// channels cost more than a small input's replay, and no input steers
/// them.
pub fn run<O: Observer>(
    name: &str,
    input: Input,
    chunk_size: usize,
    options: ReplayOptions,
    observer: &mut O,
    sink: &mut dyn Sink<O::Output>,
) -> Summary {
    let mut summary = Summary::default();
    // An input that does not look like PGN is skipped whole, an input
    // error, as the pipeline skips it.
    let (head, input) = input.peek(sniff::HEAD);
    if !sniff::looks_like_pgn(&head) {
        summary.input_errors = 1;
        sink.finish().expect("sinks into memory do not fail");
        return summary;
    }
    let mut chunker = Chunker::new(Arc::from(name), input, chunk_size, Arc::new(drop));
    let mut replayer = Replayer::new(options);
    let (mut index, mut lines_before) = (0, 0);
    while let Some(chunk) = chunker.next_chunk().expect("bytes in memory are read") {
        let mut games = Vec::new();
        let count =
            replayer.replay(&chunk, observer, |record, output| games.push((record, output)));
        for (mut record, output) in games {
            record.index += index;
            record.shift_lines(lines_before);
            summary.add(&record);
            let flow = sink.record(&record, output).expect("sinks into memory do not fail");
            assert!(flow.is_continue(), "a sink without a limit stopped the run");
        }
        index += count.games;
        summary.read += count.games;
        lines_before += count.lines;
    }
    summary.files = 1;
    sink.finish().expect("sinks into memory do not fail");
    summary
}

/// The statistics of `input` (named `name`), cut into chunks of about
/// `chunk_size` bytes, each counted by a fresh `Counter` and dealt by
/// `deal` (given the chunk's number) to one of two workers, which are
/// merged at the end: the merges `pipeline::fold` makes, on this thread.
pub fn fold(name: &str, input: Input, chunk_size: usize, deal: impl Fn(usize) -> bool) -> Stats {
    let (head, input) = input.peek(sniff::HEAD);
    if !sniff::looks_like_pgn(&head) {
        return Counter::default().counted.finish();
    }
    let mut chunker = Chunker::new(Arc::from(name), input, chunk_size, Arc::new(drop));
    let mut replayer = Replayer::new(ReplayOptions::default());
    let mut workers = [Counter::default(), Counter::default()];
    let mut i = 0;
    while let Some(chunk) = chunker.next_chunk().expect("bytes in memory are read") {
        let mut counter = Counter::default();
        replayer.replay(&chunk, &mut counter, |_, ()| {});
        workers[usize::from(deal(i))].merge(counter);
        i += 1;
    }
    let [mut a, b] = workers;
    a.merge(b);
    a.counted.finish()
}

/// Keeps every record with what the observer made of it, to compare runs.
#[derive(Debug)]
pub struct Keep<T>(pub Vec<(GameRecord, T)>);

impl<T> Default for Keep<T> {
    fn default() -> Self {
        Keep(Vec::new())
    }
}

impl<T> Sink<T> for Keep<T> {
    fn record(&mut self, record: &GameRecord, output: T) -> io::Result<ControlFlow<()>> {
        self.0.push((record.clone(), output));
        Ok(ControlFlow::Continue(()))
    }
}

/// A writer whose bytes stay readable while a sink owns it: sinks keep
/// their writers and give them back to no one.
#[derive(Debug, Clone, Default)]
pub struct Shared(Rc<RefCell<Vec<u8>>>);

impl Shared {
    /// The bytes written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.borrow().clone()
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The sinks of `games` (CSV, JSON Lines) and of `check` and `crosstable`
/// (`Collect`), fed at once: what a run with the options of `games` (and
/// `check`) writes.
pub struct GamesSinks {
    csv: CsvSink<io::Sink>,
    jsonl: JsonlSink<Shared>,
    /// What the JSON Lines sink wrote.
    pub jsonl_bytes: Shared,
    /// The games `check` and `crosstable` read.
    pub collect: Collect,
}

impl Default for GamesSinks {
    fn default() -> Self {
        let jsonl_bytes = Shared::default();
        GamesSinks {
            csv: CsvSink::new(io::sink()).expect("a header into nothing"),
            jsonl: JsonlSink::new(jsonl_bytes.clone()),
            jsonl_bytes,
            collect: Collect::default(),
        }
    }
}

impl Sink<(TagList, u64)> for GamesSinks {
    // The sinks of the commands never stop a run (only `Limit` does).
    fn record(&mut self, r: &GameRecord, output: (TagList, u64)) -> io::Result<ControlFlow<()>> {
        let _ = Sink::<()>::record(&mut self.csv, r, ())?;
        let _ = Sink::<()>::record(&mut self.jsonl, r, ())?;
        self.collect.record(r, output)
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        panic!("a file in memory could not be read: {error}");
    }

    fn finish(&mut self) -> io::Result<()> {
        Sink::<()>::finish(&mut self.csv)?;
        Sink::<()>::finish(&mut self.jsonl)?;
        self.collect.finish()
    }
}

/// The sinks of `validate` (text diagnostics, all and errors only; JSON
/// Lines of the games with findings) and of `fmt` (the text, `--check`'s
/// list), fed at once: what a run with the options of `validate
/// --variations`, which are `fmt`'s, writes.
pub struct ValidateSinks {
    /// Every record with its export, to compare runs.
    pub kept: Vec<(GameRecord, Export)>,
    text: DiagnosticsSink<io::Sink>,
    errors: DiagnosticsSink<io::Sink>,
    jsonl: WithFindings<JsonlSink<io::Sink>>,
    pgn: PgnSink<io::Sink>,
    check: PgnSink<io::Sink>,
}

impl Default for ValidateSinks {
    fn default() -> Self {
        let reported = |errors_only| Reported::new(errors_only, Default::default());
        ValidateSinks {
            kept: Vec::new(),
            text: DiagnosticsSink::new(io::sink(), reported(false)),
            errors: DiagnosticsSink::new(io::sink(), reported(true)),
            jsonl: WithFindings { sink: JsonlSink::new(io::sink()), reported: reported(false) },
            pgn: PgnSink::new(io::sink(), false).without_notes(),
            check: PgnSink::new(io::sink(), true).without_notes(),
        }
    }
}

impl Sink<Export> for ValidateSinks {
    fn record(&mut self, r: &GameRecord, export: Export) -> io::Result<ControlFlow<()>> {
        let _ = Sink::<()>::record(&mut self.text, r, ())?;
        let _ = Sink::<()>::record(&mut self.errors, r, ())?;
        let _ = Sink::<()>::record(&mut self.jsonl, r, ())?;
        let _ = self.check.record(r, export.clone())?;
        let _ = self.pgn.record(r, export.clone())?;
        self.kept.push((r.clone(), export));
        Ok(ControlFlow::Continue(()))
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        panic!("a file in memory could not be read: {error}");
    }

    fn finish(&mut self) -> io::Result<()> {
        Sink::<()>::finish(&mut self.text)?;
        Sink::<()>::finish(&mut self.errors)?;
        Sink::<()>::finish(&mut self.jsonl)?;
        self.pgn.finish()?;
        self.check.finish()
    }
}
