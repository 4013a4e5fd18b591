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

impl Input {
    /// The input's first `n` bytes (fewer when it is shorter), and the
    /// input whole again: a stream's bytes are read and put back in front
    /// of it, so that whatever reads it next sees the same bytes however
    /// it cuts them. A read error is held back for the reader after them.
    pub fn peek(self, n: usize) -> (Vec<u8>, Input) {
        match self {
            Input::Mapped(map) => (map[..map.len().min(n)].to_vec(), Input::Mapped(map)),
            Input::Stream(mut rdr) => {
                let mut head = Vec::with_capacity(n);
                let error = (&mut rdr).take(n as u64).read_to_end(&mut head).err();
                let front = io::Cursor::new(head.clone());
                let rest: Box<dyn Read + Send> = match error {
                    None => Box::new(front.chain(rdr)),
                    Some(error) => Box::new(front.chain(HeldError(Some(error)))),
                };
                (head, Input::Stream(rest))
            }
        }
    }
}

/// A reader that fails once with the error it holds, then is empty.
struct HeldError(Option<io::Error>);

impl Read for HeldError {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
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
/// listed is kept as it is, so that opening it reports why; what is not a
/// regular file (a FIFO, a socket) is left out.
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
            // Regular files only: a FIFO named `*.pgn` in a directory would
            // hang the run waiting for a writer (one named on the command
            // line is read, as `<(zstdcat …)` is).
            Ok(entry) if entry.file_type().is_file() && is_pgn_name(entry.path()) => {
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

/// The total size in bytes of `paths`, when every one is a regular file
/// (standard input too, when it is one: `arbiter validate - < file`).
pub fn total_size(paths: &[PathBuf]) -> Option<u64> {
    paths
        .iter()
        .map(|p| match is_stdin(p) {
            true => stdin_size(),
            false => fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len()),
        })
        .sum()
}

/// What is left to read of standard input when it is a regular file (its
/// size less where it stands: a shell may have read some of it already),
/// else `None` (a pipe, a terminal). Asked of a duplicate of the
/// descriptor, which shares its offset and leaves standard input as it is.
fn stdin_size() -> Option<u64> {
    use std::io::Seek;
    #[cfg(unix)]
    let handle = std::os::fd::AsFd::as_fd(&io::stdin()).try_clone_to_owned().ok()?;
    #[cfg(windows)]
    let handle =
        std::os::windows::io::AsHandle::as_handle(&io::stdin()).try_clone_to_owned().ok()?;
    #[cfg(not(any(unix, windows)))]
    return None;
    #[cfg(any(unix, windows))]
    {
        let mut file = File::from(handle);
        let metadata = file.metadata().ok().filter(|m| m.is_file())?;
        let at = file.stream_position().ok()?;
        Some(metadata.len().saturating_sub(at))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten bytes, then a read error.
    struct Broken(bool);

    impl Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(io::Error::other("cut short"));
            }
            buf[..10].copy_from_slice(b"[Event \"x\"");
            Ok(10)
        }
    }

    fn read_all(input: Input) -> (Vec<u8>, Option<String>) {
        let Input::Stream(mut rdr) = input else { panic!("a stream") };
        let mut bytes = Vec::new();
        let error = rdr.read_to_end(&mut bytes).err().map(|e| e.to_string());
        (bytes, error)
    }

    #[test]
    fn a_peeked_stream_reads_whole_again_and_keeps_its_error() {
        let bytes: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
        let (head, input) = Input::Stream(Box::new(io::Cursor::new(bytes.clone()))).peek(1024);
        assert_eq!(head, bytes[..1024]);
        assert_eq!(read_all(input), (bytes, None));
        let (head, input) = Input::Stream(Box::new(Broken(false))).peek(1024);
        assert_eq!(head, b"[Event \"x\"");
        assert_eq!(read_all(input), (head, Some("cut short".to_owned())));
    }
}
