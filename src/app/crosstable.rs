//! `arbiter crosstable`: replays every game keeping its tags, gathers the
//! games of each event within the limits, and writes one table per event
//! as terminal tables, CSV or HTML; an event over the limits is refused.

use std::io;

use crate::{
    cli::{CrosstableArgs, TiebreakArg},
    exit::ExitStatus,
    replay::observer::KeepTags,
    tournament::crosstable::{self, Events, Limits, Style, Tiebreak},
};

/// Runs `crosstable`.
pub(super) fn run(args: CrosstableArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    // The command line overrides the file, which is read (and a broken one
    // refused) before any game.
    let given = match args.event_format {
        Some(format) => Some(format),
        None => super::load_config(args.config.as_deref())?.event.format,
    };
    let limit = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    let limits = Limits { players: limit(args.max_players), rounds: limit(args.max_rounds) };
    let mut events = Events::new(limits);
    let summary = run.games(|| KeepTags, &mut events)?;
    let tiebreaks: Vec<Tiebreak> = args
        .tiebreaks
        .iter()
        .map(|t| match t {
            TiebreakArg::Bh => Tiebreak::Buchholz,
            TiebreakArg::BhC1 => Tiebreak::BuchholzCut1,
            TiebreakArg::Sb => Tiebreak::SonnebornBerger,
            TiebreakArg::Win => Tiebreak::Wins,
            TiebreakArg::De => Tiebreak::DirectEncounter,
        })
        .collect();
    let style = if args.csv {
        Style::Csv
    } else if args.html {
        Style::Html
    } else {
        Style::Text
    };
    let refused = crosstable::write(
        &events,
        &tiebreaks,
        given,
        style,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )?;
    Ok(if summary.input_errors > 0 || refused > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
