//! `arbiter validate`: diagnostics for the games with findings, a summary,
//! and an exit status that says whether any game has an error.

use std::io;

use anyhow::Context;

use crate::{
    cli::{ValidateArgs, ValidateFormat},
    diagnostic::{Reported, WithFindings, codes::Code, text::DiagnosticsSink},
    exit::ExitStatus,
    sink::JsonlSink,
};

/// Runs `validate`.
pub(super) fn run(args: ValidateArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let jsonl = args.format == ValidateFormat::Jsonl;
    let disabled = args
        .disable
        .iter()
        .map(|text| {
            Code::parse(text).with_context(|| {
                format!("--disable: no such code: {text} (see `arbiter check --list-codes`)")
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let reported = Reported::new(args.errors_only, disabled);
    let stdout = run.progress.writer();
    let (summary, reported) = if jsonl {
        let mut sink = WithFindings { sink: JsonlSink::new(stdout), reported };
        (run.games(|| (), &mut sink)?, sink.reported)
    } else {
        let mut sink = DiagnosticsSink::new(stdout, reported);
        (run.games(|| (), &mut sink)?, sink.reported)
    };
    // The summary goes with the diagnostics, or to stderr beside JSON Lines.
    if jsonl {
        summary.render(&mut io::stderr().lock())?;
    } else {
        summary.render(&mut io::stdout().lock())?;
    }
    Ok(if summary.input_errors > 0 {
        ExitStatus::Error
    } else if reported.games_with_errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}
