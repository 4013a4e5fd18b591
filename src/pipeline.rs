//! The pipeline: inputs → chunks → parallel replay → records in file order.
//!
//! One thread opens the inputs one after another and cuts them into chunks
//! (cheap: it reads only the bytes around each cut); rayon's pool replays
//! chunks in parallel, one `Replayer` per worker; the calling thread puts
//! the results back in input order, numbers their games and lines, and
//! hands them to the sink. A fixed number of chunks is in
//! flight at any time, so memory does not grow with the input, and the
//! output is the same for any number of threads or any chunk size.
//!
//! `fold` is the path for aggregates (`stats`): each worker folds the
//! records into an aggregate of its own where they were made, and only the
//! aggregates travel to the calling thread, which merges them at the end.

use std::{
    collections::BTreeMap,
    io,
    sync::{
        Arc, Mutex, PoisonError,
        mpsc::{Receiver, SyncSender, channel, sync_channel},
    },
};

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::{
    chunk::{Chunk, Chunker},
    input::{self, InputError},
    options::{PipelineOptions, ReplayOptions},
    progress::Progress,
    record::GameRecord,
    replay::Replayer,
    sink::{Sink, Summary, report_input_error},
    stats::Merge,
};

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

/// A chunk's records, with lines counted from the chunk's first, and how
/// many line breaks the chunk has: the chunker does not read a chunk's
/// bytes, so lines are made lines of the input when the records are put
/// back in order (counting them in the chunker read every byte twice: 1%
/// of `validate`'s CPU time on lichess games).
struct Replayed {
    records: Vec<GameRecord>,
    lines: u64,
}

/// Chunks in flight per worker thread: enough to keep every core busy while
/// one chunk is slow, few enough to keep memory flat.
const IN_FLIGHT_PER_JOB: usize = 4;

/// Replays every game of `paths` and hands the records to `sink` in input
/// order. An unreadable input is reported to the sink and counted; the
/// others are still read. Only a failing sink (e.g. a closed pipe) is an
/// `Err`.
pub fn run(
    paths: &[String],
    replay: ReplayOptions,
    options: PipelineOptions,
    progress: &Progress,
    sink: &mut dyn Sink,
) -> io::Result<Summary> {
    let replay_chunk = |replayer: &mut Replayer, chunk: &Chunk| {
        let mut records = Vec::new();
        let lines = replayer.replay(chunk, |record| records.push(record));
        Replayed { records, lines }
    };
    drive(paths, replay, options, progress, replay_chunk, |done, permits| {
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

/// Replays every game of `paths` and folds the records into one aggregate.
/// Each worker thread `add`s its chunks' records into an aggregate of its
/// own, and the calling thread merges them at the end. Each record is
/// added as soon as it is made, while still in the L1 cache (added after
/// their whole chunk, records had left the 2 MiB L2: twice the cache misses
/// on 50 MB of master games, simulated by cachegrind; added 64 at a time,
/// 11% more L1 misses than one at a time on 20 MB of them, and 3% more
/// CPU time for `stats` on the 348 MiB file, 11 interleaved rounds), and
/// dropped on the thread that made them, which keeps allocation cheap; an
/// aggregate stays on its thread: a per-chunk aggregate re-inserted every
/// player of every chunk and had the calling thread merge them all (on
/// master games `stats` took 21% longer than `validate` that way), and a
/// shared pool handed a worker whichever aggregate was put back last, so
/// the tables moved from core to core (one per thread: -1.4% CPU for
/// `stats` on 50 MB of master games, 15 interleaved rounds). The result
/// does not depend on threads or chunk size for an `A` whose merge is
/// associative and commutative, and `add` a merge of one game. The
/// records `add` sees are not numbered, and their lines count from their
/// chunk's first (only `run` puts them back in order): an aggregate must
/// not depend on where a game stands. An
/// unreadable input is reported and counted; the others are still read.
pub fn fold<A: Default + Merge + Send>(
    paths: &[String],
    replay: ReplayOptions,
    options: PipelineOptions,
    progress: &Progress,
    add: impl Fn(&mut A, &GameRecord) + Sync,
) -> io::Result<(A, Inputs)> {
    // One per worker thread (by rayon's index), so each lock is only ever
    // taken by its own thread. It is held while a chunk is replayed and
    // added, neither of which panics on any input; were one to, rayon
    // would end the run with that panic, so a poisoned lock is not
    // treated apart.
    let aggregates: Vec<Mutex<A>> =
        (0..options.jobs.max(1)).map(|_| Mutex::new(A::default())).collect();
    let fold_chunk = |replayer: &mut Replayer, chunk: &Chunk| {
        let worker = rayon::current_thread_index().unwrap_or(0) % aggregates.len();
        let mut aggregate = aggregates[worker].lock().unwrap_or_else(PoisonError::into_inner);
        let mut games = 0;
        replayer.visit(chunk, |record| {
            games += 1;
            add(&mut aggregate, record);
        });
        games
    };
    let inputs = drive(paths, replay, options, progress, fold_chunk, |done, permits| {
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
            Ok(())
        })?;
        Ok(inputs)
    })?;
    let mut total = A::default();
    aggregates
        .into_iter()
        .for_each(|a| total.merge(a.into_inner().unwrap_or_else(PoisonError::into_inner)));
    Ok((total, inputs))
}

/// Runs the chunker, the workers (`work` on each chunk) and `deliver` (on
/// the calling thread, given the workers' outcomes and the permits to
/// hand back), and returns what `deliver` returns.
fn drive<T: Send, R>(
    paths: &[String],
    replay: ReplayOptions,
    options: PipelineOptions,
    progress: &Progress,
    work: impl Fn(&mut Replayer, &Chunk) -> T + Sync,
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
        let observer: input::ReadObserver = Arc::new(move |bytes| reading.read(bytes));
        // The chunker owns its ends: when it stops, the workers' input closes.
        scope.spawn(move || produce(paths, chunk_size, &observer, work_tx, permit_rx));
        scope.spawn(|| {
            pool.install(|| {
                work_rx.into_iter().par_bridge().for_each_init(
                    || Replayer::new(replay),
                    |replayer, (seq, item)| {
                        let outcome = match item {
                            Work::Chunk(chunk) => Outcome::Records(work(replayer, &chunk)),
                            Work::Failed(error) => Outcome::Failed(error),
                            Work::Done => Outcome::Done,
                        };
                        let _ = done_tx.send((seq, outcome));
                    },
                );
            });
            drop(done_tx);
        });
        let result = deliver(done_rx, &permit_tx);
        progress.finish();
        // On a sink error, stop the chunker: it waits for permits, and the
        // closed channel now refuses them.
        drop(permit_tx);
        result
    })
}

/// Opens each input in turn and sends its chunks, one permit each.
fn produce(
    paths: &[String],
    chunk_size: usize,
    observer: &input::ReadObserver,
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
        let input = match input::open(path, observer.clone()) {
            Ok(input) => input,
            Err(error) => {
                if !send(Work::Failed(error)) {
                    return;
                }
                continue;
            }
        };
        let mut chunker =
            Chunker::new(Arc::from(path.as_str()), input, chunk_size, observer.clone());
        let last = loop {
            match chunker.next_chunk() {
                Ok(Some(chunk)) => {
                    if !send(Work::Chunk(chunk)) {
                        return;
                    }
                }
                Ok(None) => break Work::Done,
                Err(source) => break Work::Failed(InputError { path: path.clone(), source }),
            }
        };
        if !send(last) {
            return;
        }
    }
}

/// Puts outcomes back in order and hands them to the sink.
fn deliver(
    done: Receiver<(u64, Outcome<Replayed>)>,
    permits: &SyncSender<()>,
    progress: &Progress,
    sink: &mut dyn Sink,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    // Games are numbered, and lines counted, here, in order, per input.
    let (mut index, mut lines_before) = (0, 0);
    in_order(done, permits, |outcome| {
        match outcome {
            Outcome::Records(Replayed { mut records, lines }) => {
                // In place: a record takes 488 bytes, and the profile-guided
                // build copied each out of the vector (1% of `validate`'s
                // samples, `--jobs 1` on master games).
                for record in &mut records {
                    index += 1;
                    record.index = index;
                    record.shift_lines(lines_before);
                    summary.add(record);
                    sink.record(record)?;
                }
                lines_before += lines;
                progress.games(summary.games);
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
        Ok(())
    })?;
    sink.finish()?;
    Ok(summary)
}

/// Hands the outcomes to `each` in input order, giving a permit back for
/// each; stops at the first error `each` returns.
fn in_order<T>(
    done: Receiver<(u64, Outcome<T>)>,
    permits: &SyncSender<()>,
    mut each: impl FnMut(Outcome<T>) -> io::Result<()>,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for (seq, outcome) in done {
        waiting.insert(seq, outcome);
        while let Some(outcome) = waiting.remove(&next) {
            next += 1;
            let _ = permits.send(());
            each(outcome)?;
        }
    }
    Ok(())
}
