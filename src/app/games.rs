//! `arbiter games`: one record per game, as CSV or JSON Lines.

use crate::{
    cli::{GamesArgs, GamesFormat},
    exit::ExitStatus,
    pipeline,
    sink::{CsvSink, JsonlSink, Limit, Selection, Sink},
};

/// Runs `games`.
pub fn run(args: GamesArgs) -> anyhow::Result<ExitStatus> {
    let run = super::resolve(&args.input, true);
    let stdout = run.progress.writer();
    let sink: Box<dyn Sink> = match args.format {
        GamesFormat::Csv => Box::new(CsvSink::new(stdout)?),
        GamesFormat::Jsonl => Box::new(JsonlSink::new(stdout, Selection::All)),
    };
    let mut sink = Limit::new(sink, args.limit.unwrap_or(u64::MAX));
    let summary =
        pipeline::run(&run.files, run.replay, run.pipeline, &run.progress, || (), &mut sink)?;
    Ok(if summary.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
