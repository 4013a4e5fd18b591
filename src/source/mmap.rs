//! Memory-mapping of regular files, and the SIGBUS report of a mapped
//! file truncated under the run: the crate's only `unsafe` code.

#![allow(unsafe_code)]

use std::{fs::File, io::Write, mem::ManuallyDrop, ops::Range, os::fd::FromRawFd, sync::Once};

use memmap2::{Advice, Mmap, UncheckedAdvice};

/// Maps `file` read-only, or `None` when it cannot be mapped (empty files,
/// special files): the caller then reads it as a stream.
pub fn map(file: &File) -> Option<Mmap> {
    // SAFETY: the map is only read. If another process truncates or
    // rewrites the file while arbiter runs, reads may see changed bytes or
    // fault (SIGBUS); like ripgrep, a command-line tool takes that risk for
    // the speed of reading without copies.
    let map = unsafe { Mmap::map(file) }.ok()?;
    report_truncation();
    // Read-ahead helps a front-to-back scan; failure only costs speed.
    let _ = map.advise(Advice::Sequential);
    (!map.is_empty()).then_some(map)
}

/// What a run that faults on a mapped file says before it ends.
const TRUNCATED: &[u8] = b"arbiter: error: an input file was truncated or became unreadable \
while it was being read (SIGBUS); the run is stopped and its output is incomplete\n";

/// Ends the run with a message and exit status 2 when a mapped file
/// shrinks under it (another program truncated it: the kernel raises
/// SIGBUS on the next read of a page past the new end), rather than dying
/// without one.
fn report_truncation() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // SAFETY: the action is async-signal-safe: it writes a constant
        // message with one write(2) and ends the process with _exit(2),
        // never returning to the faulting read.
        let _ = unsafe {
            signal_hook::low_level::register(signal_hook::consts::SIGBUS, || {
                let stderr = ManuallyDrop::new(File::from_raw_fd(2));
                let _ = (&*stderr).write_all(TRUNCATED);
                signal_hook::low_level::exit(2);
            })
        };
    });
}

/// How far around a faulting address the kernel may map pages that are
/// already cached: the whole page-cache folio holding the address (up to
/// 2 MiB where the file system keeps large folios, as ext4 and xfs do on
/// recent kernels), or `fault_around_bytes` (64 KiB) of small pages.
const FAULT_AROUND: usize = 2 << 20;

/// Drops the pages of `range` from memory once they have been read, so
/// that the resident size stays flat however large the file is.
///
/// A chunk's reads map pages beyond its range: a fault maps cached pages
/// up to `FAULT_AROUND` around it, into the chunks before and after, which
/// may have been dropped already. Each chunk therefore drops its range
/// widened by that much on both sides: whatever its reads mapped goes with
/// it, since it is dropped after its last read. Neighbours still reading a
/// dropped page fault it in again from the page cache. Narrower ranges let
/// the resident size grow with the file (see `benches/HISTORY.md`).
pub fn release(map: &Mmap, range: Range<usize>) {
    let start = range.start.saturating_sub(FAULT_AROUND);
    let end = range.end.saturating_add(FAULT_AROUND).min(map.len());
    // SAFETY: the map is read-only and backed by the file, so dropping its
    // pages loses nothing: a later read, by a neighbouring chunk or anyone,
    // faults them in again from the file. memmap2 aligns the start down to
    // its page and the kernel rounds the length up to whole pages.
    let _ = unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start) };
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::io::Write;

    use super::*;

    /// The resident size, in KiB, of the mappings of `path` in this
    /// process (`/proc/self/smaps`).
    fn resident_kib(path: &std::path::Path) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let path = path.to_str().unwrap();
        let mut ours = false;
        let mut kib = 0;
        for line in smaps.lines() {
            if let Some(rss) = line.strip_prefix("Rss:") {
                if ours {
                    kib += rss.trim().trim_end_matches(" kB").parse::<u64>().unwrap();
                }
            } else if line.contains('-') && line.split_whitespace().count() >= 5 {
                // A mapping's header line: range, perms, offset, dev, inode[, path].
                ours = line.ends_with(path);
            }
        }
        kib
    }

    /// Chunks of odd sizes, read and released one after another as the
    /// pipeline does: nothing of the file stays resident, neither the pages
    /// two chunks share nor those that faulting in a chunk's start maps
    /// around it, at the end of the chunk before (which was released
    /// already): the narrower ranges tried before all left pages resident
    /// (see `benches/HISTORY.md`).
    #[test]
    fn released_chunks_leave_no_page_resident() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let bytes: Vec<u8> = (0..16 << 20).map(|i: u32| (i % 251) as u8).collect();
        file.write_all(&bytes).unwrap();
        file.flush().unwrap();
        let map = super::map(file.as_file()).unwrap();
        // Pages, not huge pages: a partial release of a huge mapping drops
        // all of it, and would hide what this test looks for.
        map.advise(memmap2::Advice::NoHugePage).unwrap();
        let mut sum = 0u64;
        let mut start = 0;
        while start < map.len() {
            let end = (start + 100_003).min(map.len());
            sum += map[start..end].iter().map(|&b| u64::from(b)).sum::<u64>();
            release(&map, start..end);
            start = end;
        }
        assert_eq!(sum, bytes.iter().map(|&b| u64::from(b)).sum::<u64>());
        let left = resident_kib(file.path());
        assert!(left <= 64, "{left} KiB of the file still resident");
    }
}
