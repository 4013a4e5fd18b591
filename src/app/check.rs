//! `arbiter check`: replays every game keeping its tags, runs the checks
//! across the games, renders the findings and a summary. The exit status
//! says whether errors (or, with `--deny warnings`, any findings) remain.

use std::io::{self, Write};

use crate::{
    cli::{CheckArgs, CheckFormat, Deny},
    diagnostic::codes,
    exit::ExitStatus,
    tournament::{
        Collect, EventFormat, GameObserver,
        check::{
            self, CheckOptions,
            report::{self, Format, Totals},
        },
    },
};

/// Runs `check`.
pub(super) fn run(args: CheckArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if args.list_codes {
        codes::write_table(&mut io::stdout().lock())?;
        return Ok(ExitStatus::Clean);
    }
    let config = super::load_config(args.config.as_deref())?;
    let options = CheckOptions {
        // The command line overrides the file.
        format: if args.double_round_robin {
            Some(EventFormat::DoubleRoundRobin)
        } else {
            args.event_format.or(config.event.format)
        },
        rounds: args.rounds.or(config.event.rounds),
        disabled: config.disabled()?,
    };
    let deny_warnings = config.check.deny_warnings || args.deny.contains(&Deny::Warnings);
    let mut collect = Collect::default();
    let summary = run.games(GameObserver::default, &mut collect)?;
    let report = check::check(&collect.records, &options);
    let format = match args.format {
        CheckFormat::Text => Format::Text,
        CheckFormat::Jsonl => Format::Jsonl,
        CheckFormat::Sarif => Format::Sarif,
    };
    let records = &collect.records;
    report::render(&report, records, format, &run.palette, &mut io::stdout().lock())?;
    // The summary goes with text diagnostics, or to stderr beside data.
    let mut summary_wtr: Box<dyn Write> = match format {
        Format::Text => Box::new(io::stdout().lock()),
        Format::Jsonl | Format::Sarif => Box::new(io::stderr().lock()),
    };
    let files = summary.files + summary.input_errors;
    report::summary(&report, records.len(), files, &options.disabled, &mut summary_wtr)?;
    let totals = Totals::of(&report);
    Ok(if summary.input_errors > 0 {
        ExitStatus::Error
    } else if totals.errors > 0 || (deny_warnings && totals.warnings > 0) {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}
