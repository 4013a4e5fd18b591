//! The pipeline: inputs → chunks → parallel replay → records in file order.
//!
//! One thread opens the inputs one after another and cuts them into chunks
//! (cheap: it reads only the bytes around each cut); rayon's pool replays
//! chunks in parallel, one `Replayer` per worker; the calling thread puts
//! the results back in input order, numbers their games and lines, and
//! hands them to the sink. A fixed number of chunks is in
//! flight at any time, and a chunk's records travel a piece at a time
//! (its worker waits while a few wait for the sink), so memory grows
//! neither with the input nor with how many games a chunk holds; the
//! output is the same for any number of threads or any chunk size.
//!
//! Consumers are observers of the replay (`replay::observer`): `run`
//! delivers each record with its observer's output to a sink, which may
//! stop the run; `fold` is the path for aggregates (`stats`): each worker's
//! observer counts the games where they were made, and only the observers
//! travel to the calling thread, which merges them at the end.

use std::{
    collections::BTreeMap,
    io,
    ops::ControlFlow,
    path::PathBuf,
    sync::{
        Arc, Mutex, PoisonError,
        mpsc::{Receiver, SyncSender, channel, sync_channel},
    },
};

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::{
    pgn::{
        chunk::{Chunk, Chunker},
        sniff,
    },
    progress::Progress,
    record::GameRecord,
    replay::{ChunkCount, ReplayOptions, Replayer, observer::Observer},
    sink::{Sink, Summary, report_input_error},
    source::{self, InputError},
};

/// Combining two aggregates of disjoint sets of games into the aggregate of
/// their union. Implementations are associative and commutative, and
/// `Default::default()` is the identity (counts add; they saturate at
/// `u64::MAX` rather than wrap).
pub trait Merge {
    /// Adds `other` into `self`.
    fn merge(&mut self, other: Self);
}

/// How input is read and spread over threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Worker threads replaying chunks.
    pub jobs: usize,
    /// Target size of a chunk in bytes (chunks end at game boundaries).
    pub chunk_size: usize,
}

/// Default chunk size: large enough to amortise scheduling, small enough
/// that all cores start within milliseconds.
pub const DEFAULT_CHUNK_SIZE: usize = 2 << 20;

/// What flows from the chunker to the sink, numbered to keep input order.
enum Work {
    Chunk(Chunk),
    /// An input could not be opened or read to its end.
    Failed(InputError),
    /// An input was read to its end.
    Done,
}

/// What flows from the workers back, numbered like the work: a chunk's
/// records (or, for `fold`, their partial aggregate).
enum Outcome<T> {
    Records(T),
    Failed(InputError),
    Done,
}

/// A part of a chunk's games, their records and the observer's outputs,
/// with lines counted from the chunk's first and games from its first: the
/// chunker does not read a chunk's bytes, so games are numbered, and lines
/// made lines of the input, when the records are put back in order.
enum Piece<T> {
    /// The next games of the chunk.
    Games(Vec<(GameRecord, T)>),
    /// Its last games, and what it held.
    Last(Vec<(GameRecord, T)>, ChunkCount),
}

/// A chunk's records, as its worker sends them, a piece at a time.
type Pieces<T> = Receiver<Piece<T>>;

/// Chunks in flight per worker thread: enough to keep every core busy while
/// one chunk is slow, few enough to keep memory flat.
const IN_FLIGHT_PER_JOB: usize = 4;

/// Games a piece holds, and pieces a chunk may have waiting for the sink:
/// a chunk's records are held up to `PIECE_GAMES * (PIECES_WAITING + 1)`
/// games (8,192, games of 256 bytes in 2 MiB; real games are 1 to 2 KB),
/// so that a chunk of tiny games (60,000 of them in 2 MiB) costs no more
/// memory than one of real games: its worker waits for the sink instead.
const PIECE_GAMES: usize = 1024;
const PIECES_WAITING: usize = 7;

/// Replays every game of `paths`, each worker with an observer of its own
/// made by `observer`, and hands each record with its observer's output to
/// `sink` in input order, until the sink says to stop. An unreadable input
/// is reported to the sink and counted; the others are still read. Only a
/// failing sink (e.g. a closed pipe) is an `Err`.
pub fn run<O: Observer>(
    paths: &[PathBuf],
    replay: ReplayOptions,
    options: PipelineOptions,
    progress: &Progress,
    observer: impl Fn() -> O + Sync,
    sink: &mut dyn Sink<O::Output>,
) -> io::Result<Summary>
where
    O::Output: Send,
{
    let replay_chunk = |(replayer, observer): &mut (Replayer, O),
                        chunk: &Chunk,
                        out: &mut dyn FnMut(Pieces<_>)| {
        // The receiver goes first, so that the sink drains it as it fills.
        let (pieces, receiver) = sync_channel(PIECES_WAITING);
        out(receiver);
        let mut games = Vec::new();
        let count = replayer.replay(chunk, observer, |record, output| {
            games.push((record, output));
            if games.len() == PIECE_GAMES {
                // A sink that stopped has dropped the receiver.
                let _ = pieces.send(Piece::Games(std::mem::take(&mut games)));
            }
        });
        let _ = pieces.send(Piece::Last(games, count));
    };
    let init = || (Replayer::new(replay), observer());
    drive(paths, options, progress, init, replay_chunk, |done, permits| {
        deliver(done, permits, progress, sink)
    })
}

/// How many inputs a `fold` read.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Inputs {
    /// Inputs read to the end.
    pub files: u64,
    /// Inputs that could not be opened or read to the end (reported on
    /// standard error).
    pub input_errors: u64,
}

/// Replays every game of `paths` through one observer per worker thread,
/// which aggregates in place (`stats`), and merges the observers at the
/// end. Each game is counted on the thread that replayed it, while it is
/// still in the cache, and an observer stays on its thread for the whole
/// run (see `benches/HISTORY.md` for what the alternatives cost). The
/// result does not depend on threads or chunk size for an observer whose
/// merge is associative and commutative, and that does not depend on
/// where a game stands (the records it sees are numbered and lined within
/// their chunk). An unreadable input is reported and counted; the others
/// are still read.
pub fn fold<O>(
    paths: &[PathBuf],
    replay: ReplayOptions,
    options: PipelineOptions,
    progress: &Progress,
    observer: impl Fn() -> O,
) -> io::Result<(O, Inputs)>
where
    O: Observer<Output = ()> + Merge + Send,
{
    // One per worker thread (by rayon's index), so each lock is only ever
    // taken by its own thread. It is held while a chunk is replayed, which
    // panics on no input; were it to, rayon would end the run with that
    // panic, so a poisoned lock is not treated apart.
    let observers: Vec<Mutex<O>> =
        (0..options.jobs.max(1)).map(|_| Mutex::new(observer())).collect();
    let fold_chunk = |replayer: &mut Replayer, chunk: &Chunk, out: &mut dyn FnMut(u64)| {
        let worker = rayon::current_thread_index().unwrap_or(0) % observers.len();
        let mut observer = observers[worker].lock().unwrap_or_else(PoisonError::into_inner);
        out(replayer.replay(chunk, &mut *observer, |_, ()| {}).games);
    };
    let init = || Replayer::new(replay);
    let inputs = drive(paths, options, progress, init, fold_chunk, |done, permits| {
        let (mut inputs, mut games) = (Inputs::default(), 0);
        in_order(done, permits, |outcome| {
            match outcome {
                Outcome::Records(count) => {
                    games += count;
                    progress.games(games);
                }
                Outcome::Failed(error) => {
                    inputs.input_errors += 1;
                    progress.suspend(|| report_input_error(&error))?;
                }
                Outcome::Done => inputs.files += 1,
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(inputs)
    })?;
    let mut observers =
        observers.into_iter().map(|o| o.into_inner().unwrap_or_else(PoisonError::into_inner));
    let mut total = observers.next().unwrap_or_else(observer);
    observers.for_each(|o| total.merge(o));
    Ok((total, inputs))
}

/// Runs the chunker, the workers (`work` on each chunk, which hands its
/// outcome to the closure it is given, once) and `deliver` (on the
/// calling thread, given the workers' outcomes and the permits to hand
/// back), and returns what `deliver` returns.
fn drive<W, T: Send, R>(
    paths: &[PathBuf],
    options: PipelineOptions,
    progress: &Progress,
    init: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, &Chunk, &mut dyn FnMut(T)) + Sync,
    deliver: impl FnOnce(Receiver<(u64, Outcome<T>)>, &SyncSender<()>) -> io::Result<R>,
) -> io::Result<R> {
    let jobs = options.jobs.max(1);
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(io::Error::other)?;
    let in_flight = jobs * IN_FLIGHT_PER_JOB;
    let (work_tx, work_rx) = sync_channel::<(u64, Work)>(in_flight);
    let (done_tx, done_rx) = channel::<(u64, Outcome<T>)>();
    // Permits bound the chunks between the chunker and the sink, including
    // those waiting to be put back in order.
    let (permit_tx, permit_rx) = sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = permit_tx.send(());
    }
    std::thread::scope(|scope| {
        let chunk_size = options.chunk_size;
        let reading = progress.clone();
        let observer: source::ReadObserver = Arc::new(move |bytes| reading.read(bytes));
        // The chunker owns its ends: when it stops, the workers' input closes.
        scope.spawn(move || produce(paths, chunk_size, &observer, work_tx, permit_rx));
        scope.spawn(|| {
            pool.install(|| {
                work_rx.into_iter().par_bridge().for_each_init(&init, |worker, (seq, item)| {
                    let outcome = match item {
                        Work::Chunk(chunk) => {
                            let mut out = |t| {
                                let _ = done_tx.send((seq, Outcome::Records(t)));
                            };
                            return work(worker, &chunk, &mut out);
                        }
                        Work::Failed(error) => Outcome::Failed(error),
                        Work::Done => Outcome::Done,
                    };
                    let _ = done_tx.send((seq, outcome));
                });
            });
            drop(done_tx);
        });
        let result = deliver(done_rx, &permit_tx);
        progress.finish();
        // On a sink error or stop, stop the chunker: it waits for permits,
        // and the closed channel now refuses them.
        drop(permit_tx);
        result
    })
}

/// Opens each input in turn and sends its chunks, one permit each.
fn produce(
    paths: &[PathBuf],
    chunk_size: usize,
    observer: &source::ReadObserver,
    work: SyncSender<(u64, Work)>,
    permits: Receiver<()>,
) {
    let mut seq = 0;
    let mut send = |item: Work| {
        if permits.recv().is_err() {
            return false;
        }
        let sent = work.send((seq, item)).is_ok();
        seq += 1;
        sent
    };
    for path in paths {
        let input = match source::open(path, observer.clone()) {
            Ok(input) => input,
            Err(error) => {
                if !send(Work::Failed(error)) {
                    return;
                }
                continue;
            }
        };
        // A binary file given by mistake is skipped whole, with one line,
        // rather than read as thousands of broken games; judged by its
        // first bytes, whatever the chunks.
        let (head, input) = input.peek(sniff::HEAD);
        if let Err(not_pgn) = sniff::check(&head) {
            let source = io::Error::new(io::ErrorKind::InvalidData, not_pgn);
            if !send(Work::Failed(InputError { path: source::display(path), source })) {
                return;
            }
            continue;
        }
        let mut chunker =
            Chunker::new(Arc::from(source::display(path)), input, chunk_size, observer.clone());
        let last = loop {
            match chunker.next_chunk() {
                Ok(Some(chunk)) => {
                    if !send(Work::Chunk(chunk)) {
                        return;
                    }
                }
                Ok(None) => break Work::Done,
                Err(source) => {
                    break Work::Failed(InputError { path: source::display(path), source });
                }
            }
        };
        if !send(last) {
            return;
        }
    }
}

/// Puts outcomes back in order and hands them to the sink, until it says
/// to stop.
fn deliver<T>(
    done: Receiver<(u64, Outcome<Pieces<T>>)>,
    permits: &SyncSender<()>,
    progress: &Progress,
    sink: &mut dyn Sink<T>,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    // Games are numbered, and lines counted, here, in order, per input.
    let (mut index, mut lines_before) = (0, 0);
    in_order(done, permits, |outcome| {
        match outcome {
            Outcome::Records(pieces) => {
                // The chunk's pieces, as its worker sends them: it waits
                // while `PIECES_WAITING` are here.
                let mut last = None;
                for piece in pieces {
                    let games = match piece {
                        Piece::Games(games) => games,
                        Piece::Last(games, count) => {
                            last = Some(count);
                            games
                        }
                    };
                    for (mut record, output) in games {
                        record.index += index;
                        record.shift_lines(lines_before);
                        summary.add(&record);
                        if sink.record(&record, output)?.is_break() {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                }
                // Only a worker that panicked sends no last piece; rayon
                // ends the run with that panic.
                let Some(count) = last else {
                    return Err(io::Error::other("a worker stopped in the middle of a chunk"));
                };
                sink.chunk_end()?;
                index += count.games;
                summary.read += count.games;
                lines_before += count.lines;
                progress.games(summary.read);
            }
            Outcome::Failed(error) => {
                (index, lines_before) = (0, 0);
                summary.input_errors += 1;
                progress.suspend(|| sink.input_error(&error))?;
            }
            Outcome::Done => {
                (index, lines_before) = (0, 0);
                summary.files += 1;
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    sink.finish()?;
    Ok(summary)
}

/// Hands the outcomes to `each` in input order, giving a permit back for
/// each; stops at the first error, or stop, `each` returns.
fn in_order<T>(
    done: Receiver<(u64, Outcome<T>)>,
    permits: &SyncSender<()>,
    mut each: impl FnMut(Outcome<T>) -> io::Result<ControlFlow<()>>,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for (seq, outcome) in done {
        waiting.insert(seq, outcome);
        while let Some(outcome) = waiting.remove(&next) {
            next += 1;
            let _ = permits.send(());
            if each(outcome)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}
