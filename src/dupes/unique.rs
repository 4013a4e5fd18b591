//! `--unique -o FILE`: the input with one game per group of duplicates,
//! each game as its original bytes, in input order.
//!
//! Which games go is known only at the end (a later, longer game may
//! replace an earlier one), and the input may be standard input or change
//! meanwhile, so it is not read twice: every game's text is written to the
//! output's temporary file as it comes (`sink::atomic`, beside the target),
//! and at the end the duplicates are cut out of that file in one forward
//! pass, which is then renamed over the target. The disk holds the whole
//! input once, and memory 4 bytes a game (the length of its text). A
//! target that is not a regular file (`/dev/stdout`, a pipe) is written
//! from a temporary file in the temporary directory.

use std::{
    collections::HashMap,
    fs::{self, File},
    io::{self, BufWriter, Write},
    os::unix::fs::FileExt,
    path::Path,
};

use crate::sink::{
    Named,
    atomic::{self, Replacement, Target},
    join::Joiner,
};

/// Where the games' texts go until the end of the run.
#[derive(Debug)]
pub struct Store {
    target: Target,
    /// The target's replacement, or `None` when the target is written
    /// directly at the end (not a regular file).
    replacement: Option<Replacement>,
    /// The target's temporary file, or one in the temporary directory;
    /// errors name the target.
    wtr: BufWriter<Named<File>>,
    /// Each game's length in bytes, by ordinal; `u32::MAX`: in `long`.
    lengths: Vec<u32>,
    long: HashMap<u32, u64>,
    /// Joins each input's games to the last input's.
    joiner: Joiner,
}

impl Store {
    /// Starts writing the texts for `target` (its directory must be
    /// writable, unless it exists and is not a regular file).
    pub fn create(target: &Path) -> io::Result<Store> {
        let name = target;
        let target = atomic::target(target)?;
        // Errors name the output, or the temporary directory when the
        // texts wait there (a device or pipe is written at the end).
        let (replacement, file, name) = match &target {
            Target::Replace(path) => {
                let replacement = Replacement::begin(path)?;
                let file = replacement.file().try_clone()?;
                (Some(replacement), file, name.to_owned())
            }
            _ => {
                let dir = std::env::temp_dir();
                let name = format!("a temporary file in {} (TMPDIR)", dir.display());
                (None, tempfile::tempfile()?, name.into())
            }
        };
        Ok(Store {
            target,
            replacement,
            wtr: BufWriter::with_capacity(1 << 20, Named::new(file, &name)),
            lengths: Vec::new(),
            long: HashMap::new(),
            joiner: Joiner::default(),
        })
    }

    /// Adds the next game's text; `first` for the first game of an input,
    /// which is joined to the input before so that it reads back as its
    /// own (`sink::join`: the line breaks it needs go with it).
    pub fn add(&mut self, text: &[u8], first: bool) -> io::Result<()> {
        let length = self.joiner.write(&mut self.wtr, text, !first)?;
        match u32::try_from(length) {
            Ok(length) if length != u32::MAX => self.lengths.push(length),
            _ => {
                self.long.insert(self.lengths.len() as u32, length);
                self.lengths.push(u32::MAX);
            }
        }
        Ok(())
    }

    fn length(&self, ordinal: usize) -> u64 {
        match self.lengths[ordinal] {
            u32::MAX => self.long[&(ordinal as u32)],
            length => u64::from(length),
        }
    }

    /// Cuts the games `dropped` (ordinals, in increasing order, each
    /// once) out and puts the rest in place of the target. Returns the
    /// number of games written.
    pub fn finish(self, dropped: &[u32]) -> io::Result<u64> {
        let kept = self.ranges(dropped);
        let name = match &self.target {
            Target::Stdout => "standard output".into(),
            Target::Stderr => "standard error".into(),
            Target::Direct(path) | Target::Replace(path) => path.clone(),
        };
        // Its errors name where the texts wait already.
        let file = self.wtr.into_inner().map_err(io::IntoInnerError::into_error)?.into_inner();
        Self::put(self.replacement, &self.target, file, &kept)
            .map_err(|error| crate::sink::writing(&name, error))?;
        Ok((self.lengths.len() - dropped.len()) as u64)
    }

    /// The byte ranges of the texts kept, adjacent ones joined.
    fn ranges(&self, dropped: &[u32]) -> Vec<(u64, u64)> {
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        let mut at = 0;
        let mut dropped = dropped.iter().copied().peekable();
        for ordinal in 0..self.lengths.len() {
            let length = self.length(ordinal);
            if dropped.next_if_eq(&(ordinal as u32)).is_none() {
                match ranges.last_mut() {
                    Some((_, end)) if *end == at => *end += length,
                    _ => ranges.push((at, at + length)),
                }
            }
            at += length;
        }
        ranges
    }

    /// Writes the `ranges` of `file` in place of the target.
    fn put(
        replacement: Option<Replacement>,
        target: &Target,
        file: File,
        ranges: &[(u64, u64)],
    ) -> io::Result<()> {
        match replacement {
            Some(replacement) => {
                // In place: every kept range moves down, or stays.
                let mut to = 0;
                for &(start, end) in ranges {
                    if start != to {
                        copy(&file, start, end, |buf, offset| file.write_all_at(buf, to + offset))?;
                    }
                    to += end - start;
                }
                file.set_len(to)?;
                // A temporary file is private: give it the permissions of
                // the file it replaces, or those a new file gets.
                if let Target::Replace(target) = target {
                    let permissions = atomic::permissions(target, replacement.path())?;
                    fs::set_permissions(replacement.path(), permissions)?;
                }
                replacement.commit()?;
            }
            None => {
                let mut wtr: Box<dyn Write> = match target {
                    Target::Stdout => Box::new(io::stdout().lock()),
                    Target::Stderr => Box::new(io::stderr().lock()),
                    Target::Direct(path) | Target::Replace(path) => {
                        Box::new(BufWriter::new(atomic::open_direct(path)?))
                    }
                };
                for &(start, end) in ranges {
                    copy(&file, start, end, |buf, _| wtr.write_all(buf))?;
                }
                wtr.flush()?;
            }
        }
        Ok(())
    }
}

/// Reads `file` from `start` to `end` a block at a time, handing each
/// block and its offset from `start` to `write`. Blocks are read before
/// they are written, so `write` may write to `file` below `start`.
fn copy(
    file: &File,
    start: u64,
    end: u64,
    mut write: impl FnMut(&[u8], u64) -> io::Result<()>,
) -> io::Result<()> {
    let mut buf = vec![0; (1 << 20).min((end - start) as usize)];
    let mut offset = 0;
    while start + offset < end {
        let n = buf.len().min((end - start - offset) as usize);
        file.read_exact_at(&mut buf[..n], start + offset)?;
        write(&buf[..n], offset)?;
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_cut_out_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("unique.pgn");
        let mut store = Store::create(&target).unwrap();
        for (text, first) in [("a1\n", true), ("b22\n", false), ("c333", false), ("d4\n", true)] {
            store.add(text.as_bytes(), first).unwrap();
        }
        assert_eq!(store.finish(&[1, 3]).unwrap(), 2);
        assert_eq!(fs::read_to_string(&target).unwrap(), "a1\nc333");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }

    #[test]
    fn each_input_is_joined_to_the_last_with_the_line_breaks_it_needs() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("unique.pgn");
        let mut store = Store::create(&target).unwrap();
        // After an input without a final line break, a tag pair needs one;
        // moves without tags a blank line; a game of the same input none.
        let texts =
            [("[A \"a\"] *", true), ("[B \"b\"] *", true), ("1. e4 *", true), (" c", false)];
        for (text, first) in texts {
            store.add(text.as_bytes(), first).unwrap();
        }
        assert_eq!(store.finish(&[]).unwrap(), 4);
        assert_eq!(fs::read_to_string(&target).unwrap(), "[A \"a\"] *\n[B \"b\"] *\n\n1. e4 * c");
    }
}
