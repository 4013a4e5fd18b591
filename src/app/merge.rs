//! `arbiter merge`: reads partials written by `stats --partial` (or `tree
//! --partial`, told apart by their `format` field), merges them, and
//! writes the same outputs `stats` (or `tree`) would have.

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
    tree::{self, Tree},
};

/// What the partials add up to: the kind of the first decides.
enum Total {
    Stats(Stats),
    Tree(Option<Tree>),
}

/// Runs `merge`. A partial that cannot be read, is not a partial of this
/// format version, or is given twice (the same file, or the same content,
/// unless it holds no game) stops the run (exit status 2): a reduce step
/// must neither drop a shard nor count one twice.
pub(super) fn run(args: MergeArgs) -> anyhow::Result<ExitStatus> {
    super::stats::one_standard_output(&args.report)?;
    let mut total = None;
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
        let earlier = contents.insert((hasher.finish(), bytes.len()), path.clone());
        let total = total.get_or_insert_with(|| match tree::partial::is_tree(&bytes) {
            true => Total::Tree(None),
            false => Total::Stats(Stats::default()),
        });
        // A partial of no game adds nothing: equal ones are shards without
        // games (a cluster's empty partitions), never a shard counted twice.
        let counts = match total {
            Total::Stats(stats) => {
                let part = partial::read(bytes.as_slice());
                let part = part.with_context(|| format!("cannot merge {path}"))?;
                let counts = part.games().games > 0;
                stats.merge(part);
                counts
            }
            Total::Tree(tree) => {
                let part = tree::partial::read(&bytes);
                let part = part.with_context(|| format!("cannot merge {path}"))?;
                let counts = !part.nodes().is_empty();
                match tree {
                    Some(tree) => tree::partial::merge(tree, part)
                        .with_context(|| format!("cannot merge {path}"))?,
                    None => *tree = Some(part),
                }
                counts
            }
        };
        if let Some(earlier) = earlier.filter(|_| counts) {
            bail!(
                "partial {path} is the same as {earlier}: a shard given twice? (Two shards of the \
                 very same games make equal partials too: give those as one stream, `cat A B | \
                 arbiter merge -`.)"
            );
        }
    }
    match total {
        Some(Total::Tree(Some(tree))) => write_tree(&tree, &args)?,
        Some(Total::Stats(stats)) => {
            if args.min_games.is_some() {
                bail!("--min-games is for tree partials (these are stats partials)");
            }
            report::write(&stats, &super::stats::outputs(&args.report), &mut io::stdout().lock())?;
        }
        // `parts` is required, and each part read is counted.
        _ => bail!("no partial given"),
    }
    Ok(ExitStatus::Clean)
}

/// The outputs of `tree` from the merged tree partials.
fn write_tree(tree: &Tree, args: &MergeArgs) -> anyhow::Result<()> {
    let report = &args.report;
    if report.plot.is_some() || report.top.is_some() {
        bail!("--plot and --top are for stats partials (these are tree partials)");
    }
    let outputs = tree::report::Outputs {
        csv: report.csv.clone(),
        json: report.json,
        partial: report.partial.clone(),
        min_games: args.min_games.unwrap_or(1),
    };
    tree::report::write(tree, &outputs, &mut io::stdout().lock())
}
