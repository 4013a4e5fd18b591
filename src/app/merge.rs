//! `arbiter merge`: reads partials written by `stats --partial`, merges
//! them, and writes the same outputs `stats` would have.

use std::{
    collections::HashMap,
    fs,
    hash::{DefaultHasher, Hash, Hasher},
    io::{self, Read},
    path::PathBuf,
};

use anyhow::{Context, bail};

use crate::{
    cli::MergeArgs,
    exit::ExitStatus,
    source,
    stats::{Merge, Stats, partial, report},
};

/// Runs `merge`. A partial that cannot be read, is not a partial of this
/// format version, or is given twice (the same file, or the same content)
/// stops the run (exit status 2): a reduce step must neither drop a shard
/// nor count one twice.
pub(super) fn run(args: MergeArgs) -> anyhow::Result<ExitStatus> {
    let mut stats = Stats::default();
    let mut files: HashMap<PathBuf, String> = HashMap::new();
    let mut contents: HashMap<(u64, usize), String> = HashMap::new();
    for given in &args.parts {
        let path = source::display(given);
        let mut bytes = Vec::new();
        if source::is_stdin(given) {
            io::stdin().lock().read_to_end(&mut bytes)
        } else {
            let file =
                fs::canonicalize(given).with_context(|| format!("cannot read partial {path}"))?;
            if let Some(earlier) = files.insert(file, path.clone()) {
                bail!("partial {path} is given twice (the same file as {earlier})");
            }
            fs::File::open(given).and_then(|mut file| file.read_to_end(&mut bytes))
        }
        .with_context(|| format!("cannot read partial {path}"))?;
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        if let Some(earlier) = contents.insert((hasher.finish(), bytes.len()), path.clone()) {
            bail!("partial {path} is the same as {earlier}: a shard given twice?");
        }
        let part = partial::read(bytes.as_slice());
        stats.merge(part.with_context(|| format!("cannot merge {path}"))?);
    }
    report::write(&stats, &super::stats::outputs(&args.report), &mut io::stdout().lock())?;
    Ok(ExitStatus::Clean)
}
