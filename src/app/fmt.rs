//! `arbiter fmt`: rewrite PGN in export format, to standard output,
//! checked only (`--check`), or in place, atomically.

use std::{
    fs,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    path::Path,
};

use anyhow::{Context, bail};

use crate::{
    cli::FmtArgs,
    exit::ExitStatus,
    export::{Export, Exporter},
    pipeline,
    record::GameRecord,
    sink::{PgnSink, Sink},
    source,
};

/// Runs `fmt`.
pub(super) fn run(args: FmtArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if !args.in_place {
        let mut sink = PgnSink::new(run.progress.writer(), args.check);
        let summary = run.games(|| Exporter::new(run.config.replay), &mut sink)?;
        return Ok(if summary.input_errors > 0 {
            ExitStatus::Error
        } else if args.check && (sink.changed > 0 || sink.unformatted > 0) {
            ExitStatus::Findings
        } else {
            ExitStatus::Clean
        });
    }
    let mut status = ExitStatus::Clean;
    for file in &run.config.files {
        if let Err(error) = rewrite(file, run, args.fail_after_bytes) {
            run.progress.suspend(|| report_error(file, &error))?;
            status = ExitStatus::Error;
        }
    }
    Ok(status)
}

fn report_error(file: &str, error: &anyhow::Error) -> io::Result<()> {
    writeln!(io::stderr().lock(), "arbiter: error: {file}: {error:#}; the file is left unchanged")
}

/// Formats `file` into a temporary file beside it, then renames that over
/// the original: a failure at any point leaves the original as it was.
fn rewrite(file: &str, run: &super::Run, fail_after: Option<u64>) -> anyhow::Result<()> {
    if file == "-" {
        bail!("standard input cannot be formatted in place");
    }
    if source::is_compressed(file).context("reading the file")? {
        bail!("compressed files cannot be formatted in place (the output would not be compressed)");
    }
    let path = Path::new(file);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temp = tempfile::NamedTempFile::new_in(dir).context("creating a temporary file")?;
    let wtr = Limited { inner: BufWriter::new(temp.as_file()), left: fail_after };
    let mut sink = PgnSink::new(wtr, false);
    let mut failed_input = None;
    let summary = pipeline::run(
        std::slice::from_ref(&file.to_owned()),
        run.config.replay,
        run.config.pipeline,
        &run.progress,
        || Exporter::new(run.config.replay),
        &mut InputErrors { sink: &mut sink, error: &mut failed_input },
    )?;
    if let Some(error) = failed_input {
        bail!(error);
    }
    if summary.files != 1 {
        bail!("the file could not be read to its end");
    }
    drop(sink);
    temp.as_file().sync_all().context("writing the temporary file")?;
    let permissions = fs::metadata(path).context("reading the file's permissions")?.permissions();
    fs::set_permissions(temp.path(), permissions).context("copying the file's permissions")?;
    temp.persist(path).context("replacing the file")?;
    Ok(())
}

/// Passes records on, keeping the first input error instead of printing it.
struct InputErrors<'a, S> {
    sink: &'a mut S,
    error: &'a mut Option<String>,
}

impl<S: Sink<Export>> Sink<Export> for InputErrors<'_, S> {
    fn record(&mut self, record: &GameRecord, export: Export) -> io::Result<ControlFlow<()>> {
        self.sink.record(record, export)
    }

    fn input_error(&mut self, error: &crate::source::InputError) -> io::Result<()> {
        self.error.get_or_insert_with(|| error.source.to_string());
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.sink.finish()
    }
}

/// A writer that fails after a given number of bytes (`--fail-after-bytes`,
/// for tests), or never.
struct Limited<W> {
    inner: W,
    left: Option<u64>,
}

impl<W: Write> Write for Limited<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(left) = self.left.as_mut() {
            if *left < buf.len() as u64 {
                return Err(io::Error::other("simulated write failure (--fail-after-bytes)"));
            }
            *left -= buf.len() as u64;
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
