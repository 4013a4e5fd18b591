//! `arbiter stats`: replays every game, folds the records into `Stats` on
//! the worker threads, and writes the report or the partial the command
//! line asks for.

use std::io;

use crate::{
    cli::{ReportArgs, StatsArgs},
    exit::ExitStatus,
    pipeline,
    select::Selected,
    stats::{Counter, report},
};

/// Runs `stats`.
pub(super) fn run(args: StatsArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    one_standard_output(&args.report)?;
    let config = &run.config;
    let (counter, inputs) = if config.selection.is_everything() {
        pipeline::fold(
            &config.files,
            config.replay,
            config.pipeline,
            &run.progress,
            Counter::default,
        )?
    } else {
        let (selected, inputs) =
            pipeline::fold(&config.files, config.replay, config.pipeline, &run.progress, || {
                Selected::new(config.selection.clone(), Counter::default())
            })?;
        (selected.inner, inputs)
    };
    let stats = counter.counted.finish();
    report::write(&stats, &outputs(&args.report), &mut io::stdout().lock())?;
    Ok(if inputs.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}

/// Refuses `--partial -` with `--json`, before any game is read: both would
/// write to standard output, one document after the other.
/// Output paths of the wrong kind are refused then too.
pub(super) fn one_standard_output(args: &ReportArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.csv {
        super::output_dir("--csv", dir)?;
    }
    if let Some(dir) = &args.plot {
        super::output_dir("--plot", dir)?;
    }
    if let Some(path) = &args.partial {
        super::output_file("--partial", path)?;
    }
    if args.json && args.partial.as_deref().is_some_and(|path| path.as_os_str() == "-") {
        anyhow::bail!(
            "--partial - and --json both write to standard output: give --partial a file, \
             or leave out --json"
        );
    }
    Ok(())
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
