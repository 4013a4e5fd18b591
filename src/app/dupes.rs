//! `arbiter dupes`: replays every game keeping a fixed-size entry for it,
//! groups the duplicates at the end, prints the groups and a summary, and
//! with `--unique` writes the input with one game per group.

use std::{
    io::{self, Write},
    path::Path,
};

use anyhow::{Context, bail};

use crate::{
    cli::{DupesArgs, DupesFormat, KeepArg},
    dupes::{
        self,
        fingerprint::Fingerprint,
        groups,
        index::{Index, Selection},
        report::{self, Keep, Totals},
        unique::Store,
    },
    exit::ExitStatus,
    pipeline,
    select::Partitioned,
    source,
};

/// `--keep`'s choice.
pub(super) fn keep(arg: KeepArg) -> Keep {
    match arg {
        KeepArg::First => Keep::First,
        KeepArg::Longest => Keep::Longest,
    }
}

/// `--unique -o FILE`'s store, its temporary file made first: a directory
/// that cannot be written to fails the run before any game is read.
pub(super) fn unique_store(output: Option<&Path>) -> anyhow::Result<Option<Store>> {
    let Some(path) = output else { return Ok(None) };
    super::output_file("--output", path)?;
    let store = Store::create(path)
        .with_context(|| format!("creating a temporary file for {}", path.display()))?;
    Ok(Some(store))
}

/// Runs `dupes`.
pub(super) fn run(args: DupesArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let keep = keep(args.keep);
    let store = unique_store(args.output.as_deref())?;
    let keep_text = store.is_some();
    let mut index = Index::new(Selection { min_plies: args.min_plies }, store);
    let config = &run.config;
    let summary = if config.selection.is_everything() {
        run.games(|| Fingerprint::new(keep_text), &mut index)?
    } else {
        // Every game goes to the index (`--unique` writes the games not
        // selected too), each with whether it is selected.
        let observer = || Partitioned::new(config.selection.clone(), Fingerprint::new(keep_text));
        pipeline::run(
            &config.files,
            config.replay,
            config.pipeline,
            &run.progress,
            observer,
            &mut index,
        )?
    };
    let people = dupes::people(&index.names);
    let spill = std::mem::take(&mut index.spill).finish().context("writing the prefixes")?;
    let mut entries = index.take_entries();
    let found = groups::find(&mut entries, &people, spill).context("reading the prefixes")?;
    drop(entries);
    let totals =
        Totals::of(&found, summary.games, summary.files + summary.input_errors, index.left_out);
    let mut stdout = run.progress.writer();
    match args.format {
        DupesFormat::Text => report::text(&index, &found, keep, &mut stdout)?,
        DupesFormat::Jsonl => report::jsonl(&index, &found, keep, &mut stdout)?,
    }
    let mut written = None;
    if let (Some(store), Some(path)) = (index.store.take(), &args.output) {
        if summary.input_errors > 0 {
            // Games of an unreadable input would be missing from it.
            drop(store);
            stdout.flush()?;
            bail!("{} is not written: an input could not be read", path.display());
        }
        if let (n, Some(first)) = &index.cut {
            // Cut, it would read back glued to the game after it.
            drop(store);
            stdout.flush()?;
            bail!(
                "{} is not written: {first}{} larger than the {} MiB held of a game read from a \
                 stream (decompress the file and give it as a file)",
                path.display(),
                match n {
                    1 => " is".to_owned(),
                    n => format!(" and {} more are", n - 1),
                },
                crate::pgn::chunk::MAX_GAME >> 20
            );
        }
        // Its errors name the output.
        let count = store.finish(&report::dropped(&found, keep))?;
        written = Some((source::display(path), count));
    }
    // The summary goes with the table, or to stderr beside data.
    let mut summary_wtr: Box<dyn Write> = match args.format {
        DupesFormat::Text => stdout,
        DupesFormat::Jsonl => {
            stdout.flush()?;
            Box::new(io::stderr().lock())
        }
    };
    let written = written.as_ref().map(|(path, count)| (path.as_str(), *count));
    report::summary(&totals, args.min_plies, written, &mut summary_wtr)?;
    summary_wtr.flush()?;
    Ok(if summary.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
