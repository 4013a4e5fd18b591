//! `arbiter stats`: replays every game, folds the records into `Stats` on
//! the worker threads, and writes the report or the partial the command
//! line asks for.

use std::io;

use crate::{
    cli::{ReportArgs, StatsArgs},
    exit::ExitStatus,
    pipeline,
    stats::{Counter, report},
};

/// Runs `stats`.
pub fn run(args: StatsArgs) -> anyhow::Result<ExitStatus> {
    let mut run = super::resolve(&args.input, false);
    // `stats` reports no warnings: the tag sections need no checks.
    run.replay.skip_tag_checks = true;
    let (counter, inputs) =
        pipeline::fold::<Counter>(&run.files, run.replay, run.pipeline, &run.progress)?;
    let stats = counter.counted.finish();
    report::write(&stats, &outputs(&args.report), &mut io::stdout().lock())?;
    Ok(if inputs.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}

/// The outputs `stats` and `merge` are asked for.
pub(super) fn outputs(args: &ReportArgs) -> report::Outputs {
    report::Outputs {
        csv: args.csv.clone(),
        json: args.json,
        plot: args.plot.clone(),
        top: args.top,
        partial: args.partial.clone(),
    }
}
