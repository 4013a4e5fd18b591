//! `arbiter fmt`: rewrite PGN in export format, to standard output,
//! checked only (`--check`), or in place, atomically.

use std::{
    fs,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    os::unix::fs::MetadataExt,
    path::Path,
};

use anyhow::{Context, bail};

use crate::{
    cli::FmtArgs,
    exit::ExitStatus,
    export::{Export, Exporter},
    pipeline,
    record::GameRecord,
    sink::{PgnSink, Sink, atomic::Replacement},
    source,
};

/// Runs `fmt`.
pub(super) fn run(args: FmtArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if !args.in_place {
        let mut sink = PgnSink::new(run.progress.writer(), args.check);
        // `--check` shows what would change, as `rustfmt --check` does.
        let exporter = || match args.check {
            true => Exporter::new(run.config.replay).with_diff(),
            false => Exporter::new(run.config.replay),
        };
        let summary = run.games(exporter, &mut sink)?;
        // A game left out leaves the output incomplete, as an input that
        // could not be read does.
        return Ok(if summary.input_errors > 0 || sink.left_out > 0 {
            ExitStatus::Error
        } else if args.check && (sink.changed > 0 || sink.unformatted > 0) {
            ExitStatus::Findings
        } else {
            ExitStatus::Clean
        });
    }
    let mut status = ExitStatus::Clean;
    for file in &run.config.files {
        if let Err(error) = rewrite(file, run, &args) {
            run.progress.suspend(|| report_error(file, &error))?;
            status = ExitStatus::Error;
        }
    }
    Ok(status)
}

fn report_error(file: &Path, error: &anyhow::Error) -> io::Result<()> {
    let file = source::display(file);
    writeln!(io::stderr().lock(), "arbiter: error: {file}: {error:#}; the file is left unchanged")
}

/// Formats `file` into a temporary file beside it, then renames that over
/// the original (`sink::atomic`): a failure or a signal at any point leaves
/// the original as it was, and no temporary file behind. A symbolic link is
/// followed (the file it names is rewritten, the link stays); a file that
/// is not a regular file, or has other hard links (which a rename would
/// split), is refused; the owner, group and permissions are kept, or the
/// file is refused; and a file changed while it was being formatted is left
/// as it is.
fn rewrite(file: &Path, run: &super::Run, args: &FmtArgs) -> anyhow::Result<()> {
    if source::is_stdin(file) {
        bail!("standard input cannot be formatted in place");
    }
    let path = fs::canonicalize(file).context("resolving the path")?;
    let before = fs::metadata(&path).context("reading the file")?;
    if !before.file_type().is_file() {
        bail!("not a regular file (a pipe, device or socket cannot be rewritten in place)");
    }
    if before.nlink() > 1 {
        bail!("the file has {} hard links, which rewriting it would split", before.nlink());
    }
    if source::is_compressed(&path).context("reading the file")? {
        bail!("compressed files cannot be formatted in place (the output would not be compressed)");
    }
    let temp = Replacement::begin(&path).context("creating a temporary file")?;
    let wtr = Limited { inner: BufWriter::new(temp.file()), left: args.fail_after_bytes };
    let mut sink = PgnSink::new(wtr, false).reported_as(source::display(file));
    let mut failed_input = None;
    let summary = pipeline::run(
        std::slice::from_ref(&path),
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
    if sink.left_out > 0 {
        bail!("a game too large was left out");
    }
    drop(sink);
    // The owner first: a change of owner clears the set-user-ID and
    // set-group-ID bits, which the permissions then put back.
    std::os::unix::fs::fchown(temp.file(), Some(before.uid()), Some(before.gid()))
        .context("keeping the file's owner and group")?;
    fs::set_permissions(temp.path(), before.permissions())
        .context("copying the file's permissions")?;
    if args.touch_before_rename {
        fs::OpenOptions::new().append(true).open(&path)?.write_all(b"\n")?;
    }
    // Another writer may have replaced or changed the file meanwhile.
    let now = fs::metadata(&path).context("reading the file again")?;
    let identity =
        |m: &fs::Metadata| (m.dev(), m.ino(), m.len(), m.modified().ok(), m.file_type().is_file());
    if identity(&now) != identity(&before) {
        bail!("the file changed while it was being formatted");
    }
    temp.commit().context("replacing the file")?;
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
