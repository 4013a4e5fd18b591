//! The fuzz targets of `fuzz/` run on their seeds and on the reproducers of
//! past crashes, as a plain test: every property a target asserts is
//! checked on every fixture at each `cargo test`, with no nightly
//! toolchain and no instrumented build (a fuzzing run, `scripts/fuzz.sh`,
//! costs minutes of building before its first input). The seeds are cut as
//! `scripts/fuzz.sh` cuts them.

use std::{
    fs,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
};

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod arbiter_fuzz;

/// Seeds longer than this are cut at a game boundary (or at
/// `MAX_LEN`, the fuzzer's `-max_len`, when the first game is longer).
const SEED_LEN: usize = 16 * 1024;
const MAX_LEN: usize = 64 * 1024;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

/// `data` up to the last game that begins within `SEED_LEN` bytes (after a
/// blank line, LF or CRLF), else within `MAX_LEN`; at most `MAX_LEN` bytes.
fn cut(mut data: Vec<u8>) -> Vec<u8> {
    for limit in [SEED_LEN, MAX_LEN] {
        if data.len() <= limit {
            break;
        }
        let head = &data[..limit];
        let lf = head.windows(3).rposition(|w| w == b"\n\n[").map(|i| i + 2);
        let crlf = head.windows(4).rposition(|w| w == b"\n\r\n[").map(|i| i + 3);
        if let Some(at) = lf.max(crlf).filter(|&at| at > 0) {
            data.truncate(at);
            break;
        }
    }
    data.truncate(MAX_LEN);
    data
}

/// Every fixture, cut, and the target's reproducers, with their names.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    pgn_files(&root().join("fixtures"), &mut files);
    files.sort();
    let mut seeds: Vec<_> = files
        .into_iter()
        .map(|path| {
            let data = cut(fs::read(&path).expect("a fixture"));
            (path, data)
        })
        .collect();
    let mut reproducers = Vec::new();
    if let Ok(entries) = fs::read_dir(root().join("fuzz/regressions").join(target)) {
        for entry in entries {
            reproducers.push(entry.expect("a directory entry").path());
        }
    }
    reproducers.sort();
    seeds.extend(reproducers.into_iter().map(|path| {
        let data = fs::read(&path).expect("a reproducer");
        (path, data)
    }));
    seeds
}

/// Runs `check` on each seed of `target`; a panic names the seed.
fn run_on_seeds(target: &str, check: fn(&[u8])) {
    let seeds = seeds(target);
    assert!(seeds.len() > 60, "only {} seeds for {target}", seeds.len());
    for (path, data) in &seeds {
        if let Err(panic) = panic::catch_unwind(AssertUnwindSafe(|| check(data))) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            panic!("fuzz target {target} fails on the seed {}: {message}", path.display());
        }
    }
}

#[test]
fn replay_holds_on_every_seed() {
    run_on_seeds("replay", arbiter_fuzz::replay::check);
}

#[test]
fn fmt_holds_on_every_seed() {
    run_on_seeds("fmt", arbiter_fuzz::fmt::check);
}

#[test]
fn select_holds_on_every_seed() {
    run_on_seeds("select", arbiter_fuzz::select::check);
}

#[test]
fn split_holds_on_every_seed() {
    run_on_seeds("split", arbiter_fuzz::split::check);
}

/// A target that fails on a seed fails the test, naming the seed (here a
/// check that fails on every game).
#[test]
#[should_panic(expected = "fails on the seed")]
fn a_failing_seed_is_named() {
    run_on_seeds("fmt", |data| assert!(!data.starts_with(b"[Event"), "planted"));
}
