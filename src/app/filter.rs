//! `arbiter filter`: the games that match the predicates, as their own
//! bytes (or in export format, or as records), to standard output or a
//! file; with `--rejects`, the others to a second file, so that the two
//! hold every game of the input once.

use std::{
    fs::File,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::Arc,
};

use anyhow::Context;

use crate::{
    cli::{FilterArgs, FilterFormat},
    exit::ExitStatus,
    export::{Export, Exporter},
    pipeline,
    record::GameRecord,
    replay::observer::GameText,
    select::Partitioned,
    sink::{
        self, CsvSink, JsonlSink, Limit, Named, PgnSink, Sink, Summary,
        atomic::{self, Replacement, Target},
        join::Joiner,
    },
    source::InputError,
};

/// Runs `filter`.
pub(super) fn run(args: FilterArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if let Some(path) = &args.output {
        super::output_file("--output", path)?;
    }
    if let Some(path) = &args.rejects {
        super::output_file("--rejects", path)?;
        let output = args.output.as_deref().unwrap_or(Path::new("-"));
        if super::same_output(output, path) {
            let name = |p: &Path| {
                if p.as_os_str() == "-" {
                    "standard output".into()
                } else {
                    p.display().to_string()
                }
            };
            anyhow::bail!(
                "--rejects {} and --output {} are the same file: each would replace the other's \
                 games (give two files)",
                name(path),
                name(output)
            );
        }
    }
    let mut output = Output::open(args.output.as_deref(), run)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let (summary, matched, left_out) = if args.count {
        let mut sink = Limit::new(Count::default(), limit);
        let summary = run.games(|| (), &mut sink)?;
        writeln!(run.progress.writer(), "{}", sink.sink.0)?;
        (summary, sink.sink.0, 0)
    } else if let Some(path) = &args.rejects {
        let mut rejects = Output::open(Some(path), run)?;
        let summary = partition(&args, run, &mut output, &mut rejects)?;
        rejects.finish()?;
        summary
    } else {
        let wtr = output.writer();
        let (summary, left_out) = match args.format {
            FilterFormat::Pgn => {
                let mut sink = Limit::new(TextSink::new(wtr), limit);
                (run.games(|| GameText, &mut sink)?, sink.sink.left_out)
            }
            FilterFormat::PgnExport => {
                let mut sink = Limit::new(PgnSink::new(wtr, false), limit);
                (run.games(|| Exporter::new(run.config.replay), &mut sink)?, sink.sink.left_out)
            }
            FilterFormat::Jsonl => {
                (run.games(|| (), &mut Limit::new(JsonlSink::new(wtr), limit))?, 0)
            }
            FilterFormat::Csv => (run.games(|| (), &mut Limit::new(CsvSink::new(wtr)?, limit))?, 0),
        };
        let matched = summary.games;
        (summary, matched, left_out)
    };
    output.finish()?;
    if !run.config.quiet {
        run.progress.suspend(|| {
            let left = match left_out {
                0 => String::new(),
                n => format!(", {n} left out (too large)"),
            };
            writeln!(
                io::stderr().lock(),
                "filter: {matched} of {} games matched{left}",
                summary.read
            )
        })?;
    }
    // A game left out is a game lost to the output: an error.
    Ok(if summary.input_errors > 0 || left_out > 0 {
        ExitStatus::Error
    } else if matched == 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}

/// Every game replayed, each to the output or the rejects; the summary,
/// the games matched, and the games left out of either.
fn partition(
    args: &FilterArgs,
    run: &super::Run,
    output: &mut Output,
    rejects: &mut Output,
) -> anyhow::Result<(Summary, u64, u64)> {
    let config = &run.config;
    let selection = &config.selection;
    let rejects = TextSink::new(rejects.writer());
    macro_rules! go {
        ($observer:expr, $sink:expr) => {{
            let mut split = Split { selected: $sink, rejects, matched: 0 };
            let summary = pipeline::run(
                &config.files,
                config.replay,
                config.pipeline,
                &run.progress,
                || Partitioned::new(selection.clone(), (GameText, $observer)),
                &mut split,
            )?;
            (summary, split.matched, split.selected.left_out() + split.rejects.left_out)
        }};
    }
    let wtr = output.writer();
    Ok(match args.format {
        FilterFormat::Pgn => go!((), TextSink::new(wtr)),
        FilterFormat::PgnExport => go!(Exporter::new(config.replay), PgnSink::new(wtr, false)),
        FilterFormat::Jsonl => go!((), JsonlSink::new(wtr)),
        FilterFormat::Csv => go!((), CsvSink::new(wtr)?),
    })
}

/// Where a stream of games goes: standard output, or a file written whole
/// or not at all, compressed by its name's extension (`filter`, `db
/// export`). A path that names something other than a regular file
/// (`/dev/null`, a pipe) is written directly: a rename would put a regular
/// file in its place.
pub(super) enum Output {
    Stdout(Box<dyn Write>),
    File { replacement: Option<(Replacement, PathBuf)>, encoder: Box<Encoder> },
}

/// A file's compression.
pub(super) enum Encoder {
    Plain(BufWriter<Named<File>>),
    Zstd(zstd::Encoder<'static, BufWriter<Named<File>>>),
    Gzip(flate2::write::GzEncoder<BufWriter<Named<File>>>),
}

impl Output {
    pub(super) fn open(path: Option<&Path>, run: &super::Run) -> anyhow::Result<Output> {
        let Some(path) = path.filter(|path| path.as_os_str() != "-") else {
            return Ok(Output::Stdout(Box::new(run.progress.writer())));
        };
        let what = || format!("creating {}", path.display());
        // Read, never written: such a name would hold plain PGN.
        let lower = path.to_string_lossy().to_ascii_lowercase();
        if let Some(suffix) = [".bz2", ".xz"].into_iter().find(|s| lower.ends_with(s)) {
            anyhow::bail!(
                "{}: arbiter reads {suffix} files but writes only .zst and .gz: give one of \
                 those, or a name without a compression suffix",
                path.display()
            );
        }
        let (replacement, file) = match atomic::target(path).with_context(what)? {
            Target::Stdout => return Ok(Output::Stdout(Box::new(run.progress.writer()))),
            Target::Stderr => return Ok(Output::Stdout(Box::new(io::stderr()))),
            Target::Direct(path) => {
                let file = atomic::open_direct(&path).with_context(what)?;
                (None, file)
            }
            Target::Replace(target) => {
                let replacement = Replacement::begin(&target).with_context(what)?;
                let file = replacement.file().try_clone().with_context(what)?;
                (Some((replacement, target)), file)
            }
        };
        let file = BufWriter::new(Named::new(file, path));
        let name = path.to_string_lossy().to_ascii_lowercase();
        let encoder = if name.ends_with(".zst") {
            Encoder::Zstd(zstd::Encoder::new(file, 3).with_context(what)?)
        } else if name.ends_with(".gz") {
            Encoder::Gzip(flate2::write::GzEncoder::new(file, flate2::Compression::default()))
        } else {
            Encoder::Plain(file)
        };
        Ok(Output::File { replacement, encoder: Box::new(encoder) })
    }

    pub(super) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(wtr) => wtr,
            Output::File { encoder, .. } => match &mut **encoder {
                Encoder::Plain(wtr) => wtr,
                Encoder::Zstd(wtr) => wtr,
                Encoder::Gzip(wtr) => wtr,
            },
        }
    }

    /// Flushes, and puts a file in place. Errors name the output.
    pub(super) fn finish(self) -> io::Result<()> {
        match self {
            Output::Stdout(mut wtr) => {
                wtr.flush().map_err(|error| sink::writing(Path::new("standard output"), error))
            }
            Output::File { replacement, encoder } => {
                let mut file = match *encoder {
                    Encoder::Plain(wtr) => wtr,
                    Encoder::Zstd(wtr) => wtr.finish()?,
                    Encoder::Gzip(wtr) => wtr.finish()?,
                };
                file.flush()?;
                let path = file.get_ref().path().to_owned();
                drop(file);
                let Some((replacement, target)) = replacement else { return Ok(()) };
                let put = || {
                    let permissions = atomic::permissions(&target, replacement.path())?;
                    std::fs::set_permissions(replacement.path(), permissions)
                };
                put()
                    .and_then(|()| replacement.commit())
                    .map_err(|error| sink::writing(&path, error))
            }
        }
    }
}

/// Writes each game's own bytes, joined so that each reads back as its
/// own (`sink::join`).
struct TextSink<W> {
    wtr: W,
    joiner: Joiner,
    /// The input and number of the last game written.
    last: Option<(Arc<str>, u64)>,
    /// Games left out: too large, read from a stream (only their first
    /// bytes are held).
    left_out: u64,
}

impl<W: Write> TextSink<W> {
    fn new(wtr: W) -> Self {
        TextSink { wtr, joiner: Joiner::default(), last: None, left_out: 0 }
    }
}

impl<W: Write> Sink<Vec<u8>> for TextSink<W> {
    fn record(&mut self, record: &GameRecord, text: Vec<u8>) -> io::Result<ControlFlow<()>> {
        if text.is_empty() {
            // `GameText`'s game too large from a stream: cut, it would
            // read back as another game, glued to the next.
            self.left_out += 1;
            let r = record;
            writeln!(
                io::stderr().lock(),
                "{}:{}: game {}: left out: larger than the {} MiB held of a game read from a \
                 stream (decompress the file and give it as a file to copy the game whole)",
                r.file,
                r.line,
                r.index,
                crate::pgn::chunk::MAX_GAME >> 20
            )?;
            return Ok(ControlFlow::Continue(()));
        }
        let follows = self
            .last
            .as_ref()
            .is_some_and(|(file, index)| *file == record.file && index + 1 == record.index);
        self.joiner.write(&mut self.wtr, &text, follows)?;
        self.last = Some((record.file.clone(), record.index));
        Ok(ControlFlow::Continue(()))
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}

/// Counts the records.
#[derive(Debug, Default)]
struct Count(u64);

impl Sink for Count {
    fn record(&mut self, _: &GameRecord, (): ()) -> io::Result<ControlFlow<()>> {
        self.0 += 1;
        Ok(ControlFlow::Continue(()))
    }
}

/// The selected games to one sink, the others' bytes to the rejects.
struct Split<S, R> {
    selected: S,
    rejects: R,
    matched: u64,
}

/// Where `Split` sends a selected game: the game's text and what the
/// observer made of it, of which a sink writes one.
trait Matches<T> {
    fn selected(&mut self, record: &GameRecord, text: Vec<u8>, output: T) -> io::Result<()>;
    fn finish(&mut self) -> io::Result<()>;
    /// Games left out, too large to write.
    fn left_out(&self) -> u64 {
        0
    }
}

impl<W: Write> Matches<()> for TextSink<W> {
    fn selected(&mut self, record: &GameRecord, text: Vec<u8>, (): ()) -> io::Result<()> {
        self.record(record, text).map(drop)
    }
    fn finish(&mut self) -> io::Result<()> {
        Sink::finish(self)
    }
    fn left_out(&self) -> u64 {
        self.left_out
    }
}

macro_rules! selected_by_output {
    ($sink:ty, $t:ty $(, $left_out:ident)?) => {
        impl<W: Write> Matches<$t> for $sink {
            fn selected(&mut self, record: &GameRecord, _: Vec<u8>, output: $t) -> io::Result<()> {
                self.record(record, output).map(drop)
            }
            fn finish(&mut self) -> io::Result<()> {
                Sink::<$t>::finish(self)
            }
            $(fn left_out(&self) -> u64 {
                self.$left_out
            })?
        }
    };
}

selected_by_output!(PgnSink<W>, Export, left_out);
selected_by_output!(JsonlSink<W>, ());
selected_by_output!(CsvSink<W>, ());

impl<T, S: Matches<T>, R: Sink<Vec<u8>>> Sink<(bool, (Vec<u8>, T))> for Split<S, R> {
    fn record(
        &mut self,
        record: &GameRecord,
        (selected, (text, output)): (bool, (Vec<u8>, T)),
    ) -> io::Result<ControlFlow<()>> {
        if selected {
            self.matched += 1;
            self.selected.selected(record, text, output)?;
        } else {
            let _ = self.rejects.record(record, text)?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        crate::sink::report_input_error(error)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.selected.finish()?;
        self.rejects.finish()
    }
}
