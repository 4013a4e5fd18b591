//! Memory-mapping of regular files: the crate's only `unsafe` code.

#![allow(unsafe_code)]

use std::fs::File;

use memmap2::Mmap;

/// Maps `file` read-only, or `None` when it cannot be mapped (empty files,
/// special files): the caller then reads it as a stream.
pub fn map(file: &File) -> Option<Mmap> {
    // SAFETY: the map is only read. If another process truncates or
    // rewrites the file while arbiter runs, reads may see changed bytes or
    // fault (SIGBUS); like ripgrep, a command-line tool takes that risk for
    // the speed of reading without copies.
    let map = unsafe { Mmap::map(file) }.ok()?;
    (!map.is_empty()).then_some(map)
}
