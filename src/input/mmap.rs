//! Memory-mapping of regular files: the crate's only `unsafe` code.

#![allow(unsafe_code)]

use std::{fs::File, ops::Range};

use memmap2::{Advice, Mmap, UncheckedAdvice};

/// Maps `file` read-only, or `None` when it cannot be mapped (empty files,
/// special files): the caller then reads it as a stream.
pub fn map(file: &File) -> Option<Mmap> {
    // SAFETY: the map is only read. If another process truncates or
    // rewrites the file while arbiter runs, reads may see changed bytes or
    // fault (SIGBUS); like ripgrep, a command-line tool takes that risk for
    // the speed of reading without copies.
    let map = unsafe { Mmap::map(file) }.ok()?;
    // Read-ahead helps a front-to-back scan; failure only costs speed.
    let _ = map.advise(Advice::Sequential);
    (!map.is_empty()).then_some(map)
}

/// Drops the pages of `range` from memory once they have been read, so
/// that the resident size stays flat however large the file is.
pub fn release(map: &Mmap, range: Range<usize>) {
    const PAGE: usize = 4096;
    // Only whole pages inside the range: neighbours may still be in use.
    let start = range.start.next_multiple_of(PAGE);
    let end = range.end / PAGE * PAGE;
    if start < end {
        // SAFETY: the map is read-only and backed by the file, so dropping
        // its pages loses nothing: a later read faults them in again from
        // the file. No reference into the range outlives this call's
        // caller (the chunk being dropped).
        let _ =
            unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) };
    }
}
