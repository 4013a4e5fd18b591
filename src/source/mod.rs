//! Opens an input: a path or `-`, plain or compressed.
//!
//! Regular files are memory-mapped (see `mmap.rs`); standard input, pipes and
//! compressed files are streamed. Compression is detected by magic bytes
//! first and by extension second (see `decompress.rs`). Knows nothing about
//! PGN: it hands out bytes.

mod decompress;
pub mod mmap;

use std::{
    fs::{self, File},
    io::{self, BufReader, Read},
    path::{Path, PathBuf},
    sync::Arc,
};

use memmap2::Mmap;

/// An opened input.
pub enum Input {
    /// A regular, uncompressed file mapped into memory.
    Mapped(Mmap),
    /// A stream of uncompressed bytes.
    Stream(Box<dyn Read + Send>),
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::Mapped(map) => write!(f, "Mapped({} bytes)", map.len()),
            Input::Stream(_) => f.write_str("Stream"),
        }
    }
}

/// An input that could not be opened or read.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct InputError {
    /// The path as given.
    pub path: String,
    /// What went wrong.
    #[source]
    pub source: io::Error,
}

/// Told how many bytes of an input were read (compressed bytes for
/// compressed input), for the progress bar.
pub type ReadObserver = Arc<dyn Fn(u64) + Send + Sync>;

/// Counts the bytes read through it.
struct Observed<R> {
    inner: R,
    observer: ReadObserver,
}

impl<R: Read> Read for Observed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.observer)(n as u64);
        Ok(n)
    }
}

/// The files the command-line arguments name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expanded {
    /// The files, in order (`-`: standard input).
    pub files: Vec<PathBuf>,
    /// The symbolic links that lead back into a directory being walked,
    /// each skipped (a loop would read the same files again and again).
    pub loops: Vec<String>,
    /// The directories given in which no PGN file was found.
    pub without_pgn: Vec<String>,
}

/// The files the command-line arguments name: a directory stands for the
/// PGN files in it (`.pgn`, optionally `.zst`/`.gz`/`.bz2`/`.xz`), in name
/// order, and with `recursive` for those in its subdirectories too,
/// following symbolic links but not a loop of them. Anything that cannot be
/// listed is kept as it is, so that opening it reports why.
pub fn expand(args: &[PathBuf], recursive: bool) -> Expanded {
    let mut expanded = Expanded::default();
    for arg in args {
        if !is_stdin(arg) && arg.is_dir() {
            let before = expanded.files.len();
            walk(arg, recursive, &mut expanded);
            if expanded.files.len() == before {
                expanded.without_pgn.push(display(arg));
            }
        } else {
            expanded.files.push(arg.clone());
        }
    }
    expanded
}

fn walk(dir: &Path, recursive: bool, expanded: &mut Expanded) {
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .min_depth(1)
        .max_depth(if recursive { usize::MAX } else { 1 });
    for entry in walker {
        match entry {
            Ok(entry) if entry.file_type().is_dir() => {}
            Ok(entry) if is_pgn_name(entry.path()) => {
                expanded.files.push(entry.into_path());
            }
            Ok(_) => {}
            Err(error) if error.loop_ancestor().is_some() => {
                let link = error.path().unwrap_or(dir);
                expanded.loops.push(link.to_string_lossy().into_owned());
            }
            // Kept, so that opening it reports why it cannot be read.
            Err(error) => {
                let path = error.path().unwrap_or(dir);
                expanded.files.push(path.to_owned());
            }
        }
    }
}

fn is_pgn_name(path: &Path) -> bool {
    let name =
        path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    [".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2", ".pgn.xz"].iter().any(|ext| name.ends_with(ext))
}

/// The total size in bytes of `paths`, when every one is a regular file.
pub fn total_size(paths: &[PathBuf]) -> Option<u64> {
    paths.iter().map(|p| fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len())).sum()
}

/// Opens `path`; `-` is standard input. Streamed bytes are reported to
/// `observer` as they are read (mapped files are reported by the chunker).
pub fn open(path: &Path, observer: ReadObserver) -> Result<Input, InputError> {
    let wrap = |source| InputError { path: display(path), source };
    if is_stdin(path) {
        return stream(Box::new(Observed { inner: io::stdin(), observer }), None).map_err(wrap);
    }
    let file = File::open(path).map_err(wrap)?;
    let metadata = file.metadata().map_err(wrap)?;
    if metadata.is_dir() {
        return Err(wrap(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")));
    }
    if metadata.is_file()
        && let Some(map) = mmap::map(&file)
        && decompress::Format::sniff(&map, path).is_none()
    {
        return Ok(Input::Mapped(map));
    }
    stream(Box::new(Observed { inner: file, observer }), Some(path)).map_err(wrap)
}

/// Whether the file at `path` is compressed (by its first bytes, or its
/// name when it has too few).
pub fn is_compressed(path: &Path) -> io::Result<bool> {
    let head = decompress::read_head(&mut File::open(path)?)?;
    Ok(decompress::Format::sniff(&head, path).is_some())
}

/// Whether `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How `path` is written in reports and records: as given, with any bytes
/// that are not UTF-8 replaced by U+FFFD (the file itself is opened by its
/// real name).
pub fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Streams `rdr`, decompressing it when its first bytes (or its name) say so.
fn stream(mut rdr: Box<dyn Read + Send>, path: Option<&Path>) -> io::Result<Input> {
    let head = decompress::read_head(&mut rdr)?;
    let format = decompress::Format::sniff(&head, path.unwrap_or(Path::new("")));
    let rdr = BufReader::with_capacity(1 << 16, io::Cursor::new(head).chain(rdr));
    Ok(Input::Stream(match format {
        Some(format) => format.decoder(rdr)?,
        None => Box::new(rdr),
    }))
}
