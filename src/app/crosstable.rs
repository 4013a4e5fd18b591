//! `arbiter crosstable`: replays every game keeping its tags, builds the
//! standings and writes them as a terminal table, CSV or HTML.

use std::io;

use crate::{
    cli::{CrosstableArgs, TiebreakArg},
    exit::ExitStatus,
    tournament::crosstable::{self, Tiebreak},
    tournament::{Collect, GameObserver},
};

/// Runs `crosstable`.
pub(super) fn run(args: CrosstableArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let mut collect = Collect::default();
    let summary = run.games(GameObserver::default, &mut collect)?;
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
    let table = crosstable::build(&collect.records, &tiebreaks);
    let mut stdout = io::stdout().lock();
    if args.csv {
        crosstable::render_csv(&table, &mut stdout)?;
    } else if args.html {
        crosstable::render_html(&table, &mut stdout)?;
    } else {
        crosstable::render_text(&table, &mut stdout)?;
    }
    Ok(if summary.input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}
