//! The fuzz target `split` (fuzz_targets/split.rs): any bytes, as the
//! stream `arbiter split` reads, cut into shards of 1 to 4 games (read off
//! the first byte) and read a few bytes at a time (read off the second).
//!
//! Nothing may panic; the shards put end to end must be the input byte for
//! byte; each shard must read as PGN alone, and hold the games the whole
//! input holds there, in order; every shard but the last must hold its
//! number of games at least; and the games counted must be those the
//! replay reports.

use std::io::{self, Read};

use super::{Keep, open, run};
use arbiter::{
    pgn::{shard, sniff},
    pipeline::DEFAULT_CHUNK_SIZE,
    record::GameRecord,
    replay::ReplayOptions,
};

/// A reader that hands out at most `.1` bytes a call, as a pipe may.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(self.1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// What a game is wherever it is read from (not its file, index, lines).
fn verdict(r: &GameRecord) -> impl PartialEq + std::fmt::Debug + use<> {
    (
        r.event.clone(),
        r.white.clone(),
        r.result.clone(),
        r.valid,
        r.plies,
        r.error.as_ref().map(|e| (e.kind, e.san.clone())),
        r.termination,
        r.warnings.len(),
    )
}

/// The records of `bytes` read as a stream, in one chunk.
fn records(bytes: &[u8]) -> Vec<GameRecord> {
    let mut kept = Keep::default();
    let mut observer = ();
    let options = ReplayOptions::default();
    run("split", open(bytes, None), DEFAULT_CHUNK_SIZE, options, &mut observer, &mut kept);
    kept.0.into_iter().map(|(r, ())| r).collect()
}

/// Runs the target on one input: panics where a property does not hold.
pub fn check(data: &[u8]) {
    let [first, second, ..] = *data else { return };
    let per_shard = 1 + u64::from(first % 4);
    let step = 1 + usize::from(second) * 7;
    let mut shards: Vec<(Vec<u8>, u64)> = Vec::new();
    let (split, result) = shard::split(&mut Trickle(data, step), per_shard, &mut |piece| {
        if piece.new_shard {
            shards.push((Vec::new(), 0));
        }
        let shard = shards.last_mut().expect("the first piece begins a shard");
        shard.0.extend_from_slice(piece.bytes);
        shard.1 += piece.games;
        Ok(())
    });
    result.expect("bytes in memory are read");
    let joined: Vec<u8> = shards.iter().flat_map(|s| s.0.iter().copied()).collect();
    assert!(joined == data, "the shards put end to end are not the input");
    assert_eq!(split.shards, shards.len() as u64);
    // Only an input that looks like PGN is split, as every command reads
    // only such an input.
    if !sniff::looks_like_pgn(&data[..data.len().min(sniff::HEAD)]) {
        return;
    }
    let whole: Vec<_> = records(data).iter().map(verdict).collect();
    let alone: Vec<_> = shards.iter().flat_map(|s| records(&s.0)).map(|r| verdict(&r)).collect();
    assert_eq!(alone, whole, "the shards read alone differ from the whole");
    // Every shard reads as PGN alone; all but the last hold N games, more
    // only where a shard could not begin (its first bytes would not).
    for (n, (bytes, games)) in shards.iter().enumerate() {
        assert!(sniff::looks_like_pgn(bytes), "shard {} does not read as PGN", n + 1);
        if n + 1 < shards.len() {
            assert!(*games >= per_shard, "shard {} of {}: {games}", n + 1, shards.len());
        }
    }
    assert_eq!(split.games, whole.len() as u64, "games counted");
}
