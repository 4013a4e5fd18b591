//! `arbiter stats`: replays every game, folds the records into `Stats` on
//! the worker threads, and writes the report or the partial the command
//! line asks for.

use std::io;

use crate::{
    cli::{ReportArgs, StatsArgs},
    exit::ExitStatus,
    pipeline,
    stats::{Accumulator, game, report},
};

/// Runs `stats`.
pub fn run(args: StatsArgs) -> anyhow::Result<ExitStatus> {
    let mut run = super::resolve(&args.input, false);
    run.replay = game::replay_options(run.replay);
    let (counted, inputs) =
        pipeline::fold(&run.files, run.replay, run.pipeline, &run.progress, Accumulator::add)?;
    let stats = counted.finish();
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
