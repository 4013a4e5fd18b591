//! `arbiter split`: cuts inputs into game-aligned shards of N games
//! (`pgn::shard` finds where), each written whole under a temporary name
//! and renamed into place, optionally compressed.

use std::{
    fs::{self, File},
    io::{self, BufWriter, Write},
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    sync::Arc,
};

use anyhow::{Context, bail};

use crate::{
    cli::{SplitArgs, SplitCompress},
    exit::ExitStatus,
    pgn::{shard, sniff},
    sink::atomic::{Provisional, Replacement},
    source,
};

/// Runs `split`. An input that cannot be opened, or is not PGN, is
/// reported and skipped; a read error keeps the shards of what was read.
/// Either makes the exit status 2. A shard that cannot be written stops the
/// run, and it, like a signal (SIGINT, SIGTERM, SIGHUP), removes every
/// shard written: a partial set would read as the whole.
pub(super) fn run(args: SplitArgs) -> anyhow::Result<ExitStatus> {
    let dir = &args.output;
    check_output(dir)?;
    let expanded = source::expand(&args.files, args.recursive);
    #[allow(clippy::print_stderr)]
    for dir in &expanded.without_pgn {
        eprintln!("arbiter: warning: no PGN file found in {dir}");
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut shards = Shards {
        dir: dir.clone(),
        compress: args.compress,
        written: 0,
        open: None,
        provisional: Vec::new(),
    };
    let (mut total, mut status) = (shard::Split::default(), ExitStatus::Clean);
    for path in &expanded.files {
        let (split, error) = split_one(path, args.games, &mut shards)?;
        total.games += split.games;
        total.shards += split.shards;
        total.bytes += split.bytes;
        if let Some(error) = error {
            status = ExitStatus::Error;
            #[allow(clippy::print_stderr)]
            {
                eprintln!("arbiter: error: {error}");
            }
        }
    }
    // Every input read (or reported): the shards stay. Until now a signal,
    // or an error writing a shard, removed them all.
    shards.keep();
    if !args.quiet {
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "split: {} games ({} bytes) of {} input(s) into {} shards in {}",
                total.games,
                total.bytes,
                expanded.files.len(),
                total.shards,
                dir.display()
            );
        }
    }
    Ok(status)
}

/// Refuses an output path that is a file, or a directory that holds
/// shards already: new shards among old ones would mix two splits.
fn check_output(dir: &Path) -> anyhow::Result<()> {
    super::output_dir("-o", dir)?;
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("part-") && (name.ends_with(".pgn") || name.ends_with(".pgn.zst")) {
            bail!(
                "-o {}: holds shards already ({name}): remove them, or give another directory",
                dir.display()
            );
        }
    }
    Ok(())
}

/// Splits one input into `shards`. Returns what was split, and the error
/// that ended it early (the input could not be opened or read, or is not
/// PGN); an error writing a shard is returned as such.
fn split_one(
    path: &Path,
    games: u64,
    shards: &mut Shards,
) -> anyhow::Result<(shard::Split, Option<source::InputError>)> {
    let input_error = |source| source::InputError { path: source::display(path), source };
    let input = match source::open(path, Arc::new(|_| {})) {
        Ok(input) => input,
        Err(error) => return Ok((shard::Split::default(), Some(error))),
    };
    let (head, input) = input.peek(sniff::HEAD);
    if let Err(not_pgn) = sniff::check(&head) {
        let error = io::Error::new(io::ErrorKind::InvalidData, not_pgn);
        return Ok((shard::Split::default(), Some(input_error(error))));
    }
    let mut rdr: Box<dyn io::Read + Send> = match input {
        // Read, not mapped: a mapped file's pages read would stay resident.
        source::Input::Mapped(_) => match File::open(path) {
            Ok(file) => Box::new(file),
            Err(error) => return Ok((shard::Split::default(), Some(input_error(error)))),
        },
        source::Input::Stream(rdr) => rdr,
    };
    // A failure to write is told apart from one to read.
    let mut write_error = None;
    let (split, result) = shard::split(&mut rdr, games, &mut |piece| {
        let written = shards.write(piece);
        if let Err(error) = &written {
            write_error = Some(io::Error::new(error.kind(), error.to_string()));
        }
        written
    });
    if let Some(error) = write_error {
        return Err(error)
            .with_context(|| format!("cannot write a shard in {}", shards.dir.display()));
    }
    shards.finish().with_context(|| format!("cannot write a shard in {}", shards.dir.display()))?;
    Ok((split, result.err().map(input_error)))
}

/// The shards being written into a directory.
struct Shards {
    dir: PathBuf,
    compress: Option<SplitCompress>,
    /// Shards begun so far (the next one's number less one).
    written: u64,
    open: Option<OpenShard>,
    /// The shards in place, removed unless kept ([`Shards::keep`]).
    provisional: Vec<Provisional>,
}

/// A shard being written under a temporary name.
struct OpenShard {
    path: PathBuf,
    replacement: Replacement,
    wtr: Box<dyn FinishWrite>,
}

/// A writer that is finished explicitly (a zstd frame is ended).
trait FinishWrite: Write {
    fn finish(self: Box<Self>) -> io::Result<()>;
}

impl FinishWrite for BufWriter<File> {
    fn finish(mut self: Box<Self>) -> io::Result<()> {
        self.flush()
    }
}

impl FinishWrite for zstd::Encoder<'static, BufWriter<File>> {
    fn finish(self: Box<Self>) -> io::Result<()> {
        (*self).finish()?.flush()
    }
}

impl Shards {
    fn write(&mut self, piece: shard::Piece) -> io::Result<()> {
        if piece.new_shard || self.open.is_none() {
            self.finish()?;
            self.written += 1;
            let name = match self.compress {
                None => format!("part-{:06}.pgn", self.written),
                Some(SplitCompress::Zst) => format!("part-{:06}.pgn.zst", self.written),
            };
            let path = self.dir.join(name);
            let replacement = Replacement::begin_provisional(&path)?;
            let file = BufWriter::with_capacity(1 << 16, replacement.file().try_clone()?);
            let wtr: Box<dyn FinishWrite> = match self.compress {
                None => Box::new(file),
                Some(SplitCompress::Zst) => Box::new(zstd::Encoder::new(file, 3)?),
            };
            self.open = Some(OpenShard { path, replacement, wtr });
        }
        let open = self.open.as_mut().expect("a shard was opened above");
        open.wtr.write_all(piece.bytes)
    }

    /// Ends the shard being written, if any: renamed into place, with the
    /// permissions a new file gets (a temporary file is private).
    fn finish(&mut self) -> io::Result<()> {
        let Some(OpenShard { path, replacement, wtr }) = self.open.take() else { return Ok(()) };
        wtr.finish()?;
        fs::set_permissions(replacement.path(), fs::Permissions::from_mode(0o644))?;
        replacement.commit()?;
        self.provisional.push(Provisional::adopt(&path));
        Ok(())
    }

    /// Keeps the shards written: the split is whole.
    fn keep(&mut self) {
        self.provisional.drain(..).for_each(Provisional::keep);
    }
}
