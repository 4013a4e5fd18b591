//! `arbiter merge`: reads partials written by `stats --partial`, merges
//! them, and writes the same outputs `stats` would have.

use std::{
    fs::File,
    io::{self, BufReader},
};

use anyhow::Context;

use crate::{
    cli::MergeArgs,
    exit::ExitStatus,
    stats::{Merge, Stats, partial, report},
};

/// Runs `merge`. A partial that cannot be read, or is not a partial of this
/// format version, stops the run (exit status 2): a reduce step must not
/// silently drop a shard.
pub(super) fn run(args: MergeArgs) -> anyhow::Result<ExitStatus> {
    let mut stats = Stats::default();
    for path in &args.parts {
        let part = if path == "-" {
            partial::read(io::stdin().lock())
        } else {
            let file = File::open(path).with_context(|| format!("cannot read partial {path}"))?;
            partial::read(BufReader::new(file))
        };
        stats.merge(part.with_context(|| format!("cannot merge {path}"))?);
    }
    report::write(&stats, &super::stats::outputs(&args.report), &mut io::stdout().lock())?;
    Ok(ExitStatus::Clean)
}
