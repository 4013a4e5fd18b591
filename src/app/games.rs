//! `arbiter games`: one record per game, as CSV or JSON Lines.

use crate::{
    cli::{GamesArgs, GamesFormat},
    exit::ExitStatus,
    sink::{CsvSink, JsonlSink, Limit, Sink},
};

/// Runs `games`.
pub(super) fn run(args: GamesArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let stdout = run.progress.writer();
    let sink: Box<dyn Sink> = match args.format {
        GamesFormat::Csv => Box::new(CsvSink::new(stdout)?),
        GamesFormat::Jsonl => Box::new(JsonlSink::new(stdout)),
    };
    let mut sink = Limit::new(sink, args.limit.unwrap_or(u64::MAX));
    let summary = run.games(|| (), &mut sink)?;
    Ok(if summary.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
