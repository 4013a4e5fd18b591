//! `arbiter tree`: counts the games into an opening tree on the worker
//! threads (`tree::Explorer`, behind the predicates), then writes the
//! table, CSV, JSON or partial the command line asks for.

use std::io;

use anyhow::bail;

use crate::{
    cli::TreeArgs,
    exit::ExitStatus,
    pipeline,
    select::Selected,
    tree::{Explorer, Root, Spec, Tree, report},
};

/// Runs `tree`.
pub(super) fn run(args: TreeArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if let Some(path) = &args.partial {
        super::output_file("--partial", path)?;
    }
    let root = Root::parse(&args.select.fen, &args.select.moves).map_err(anyhow::Error::msg)?;
    let spec = Spec { root, depth: args.depth };
    let limit = args.max_positions;
    let config = &run.config;
    let explorer = || Explorer::new(spec.clone(), limit);
    let (explorer, inputs) = if config.selection.is_everything() {
        pipeline::fold(&config.files, config.replay, config.pipeline, &run.progress, explorer)?
    } else {
        let (selected, inputs) =
            pipeline::fold(&config.files, config.replay, config.pipeline, &run.progress, || {
                Selected::new(config.selection.clone(), explorer())
            })?;
        (selected.inner, inputs)
    };
    let tree = explorer.into_tree();
    check_size(&tree)?;
    let outputs = report::Outputs {
        csv: args.csv.then(|| "-".into()),
        json: args.json,
        partial: args.partial,
        min_games: args.min_games,
    };
    report::write(&tree, &outputs, &mut io::stdout().lock())?;
    Ok(if inputs.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}

/// A tree that outgrew `--max-positions` is incomplete: an error, not a
/// smaller tree.
fn check_size(tree: &Tree) -> anyhow::Result<()> {
    if tree.overflowed() {
        bail!(
            "the tree has more than {} positions (--max-positions): use a smaller --depth, \
             predicates that select fewer games, or a larger --max-positions",
            tree.limit()
        );
    }
    Ok(())
}
