//! `arbiter games`: one record per game, as CSV or JSON Lines; with
//! `--tags`, the `TagColumns` observer adds tags' values after the record's
//! fields.

use anyhow::{anyhow, bail};

use crate::{
    cli::{GamesArgs, GamesFormat},
    exit::ExitStatus,
    replay::tag_columns::{TagColumns, TagSelection, TagValues},
    sink::{CsvSink, JsonlSink, Limit, Sink},
};

/// Runs `games`.
pub(super) fn run(args: GamesArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let selection = args
        .tags
        .as_deref()
        .map(|text| TagSelection::parse(text).map_err(|error| anyhow!("--tags: {error}")))
        .transpose()?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let stdout = run.progress.writer();
    let summary = match selection {
        // No observer: the record is all there is to print.
        None => {
            let sink: Box<dyn Sink> = match args.format {
                GamesFormat::Csv => Box::new(CsvSink::new(stdout)?),
                GamesFormat::Jsonl => Box::new(JsonlSink::new(stdout)),
            };
            run.games(|| (), &mut Limit::new(sink, limit))?
        }
        Some(selection) => {
            let sink: Box<dyn Sink<TagValues>> = match (args.format, &selection) {
                (GamesFormat::Csv, TagSelection::Named(names)) => {
                    Box::new(CsvSink::with_tags(stdout, names)?)
                }
                (GamesFormat::Csv, TagSelection::All) => bail!(
                    "--tags all needs --format jsonl: CSV names its columns in its first \
                     row, before the games tell which tags they have; name the tags \
                     instead (--tags Site,WhiteElo,...)"
                ),
                (GamesFormat::Jsonl, _) => Box::new(JsonlSink::new(stdout)),
            };
            run.games(|| TagColumns::new(selection.clone()), &mut Limit::new(sink, limit))?
        }
    };
    Ok(if summary.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
