//! Opens an input: a path or `-`, plain or compressed.
//!
//! Regular files are memory-mapped (see `mmap.rs`); standard input, pipes and
//! compressed files are streamed. Compression is detected by magic bytes
//! first and by extension second (see `decompress.rs`). Knows nothing about
//! PGN: it hands out bytes.

mod decompress;
mod mmap;

use std::{
    fs::File,
    io::{self, BufRead, BufReader, Read},
    path::Path,
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

/// Opens `path`; `-` is standard input.
pub fn open(path: &str) -> Result<Input, InputError> {
    let wrap = |source| InputError { path: path.to_owned(), source };
    if path == "-" {
        return stream(Box::new(io::stdin()), None).map_err(wrap);
    }
    let file = File::open(path).map_err(wrap)?;
    let metadata = file.metadata().map_err(wrap)?;
    if metadata.is_dir() {
        return Err(wrap(io::Error::new(io::ErrorKind::IsADirectory, "is a directory")));
    }
    if metadata.is_file()
        && let Some(map) = mmap::map(&file)
        && decompress::Format::sniff(&map, Path::new(path)).is_none()
    {
        return Ok(Input::Mapped(map));
    }
    stream(Box::new(file), Some(Path::new(path))).map_err(wrap)
}

/// Streams `rdr`, decompressing it when its first bytes (or its name) say so.
fn stream(rdr: Box<dyn Read + Send>, path: Option<&Path>) -> io::Result<Input> {
    let mut rdr = BufReader::with_capacity(1 << 16, rdr);
    let head = rdr.fill_buf()?;
    let format = decompress::Format::sniff(head, path.unwrap_or(Path::new("")));
    Ok(Input::Stream(match format {
        Some(format) => format.decoder(rdr)?,
        None => Box::new(rdr),
    }))
}
