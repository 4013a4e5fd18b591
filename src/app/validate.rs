//! `arbiter validate`: diagnostics for the games with findings, a summary,
//! and an exit status that says whether any game has an error.

use std::io;

use crate::{
    cli::{ValidateArgs, ValidateFormat},
    diagnostic::text::DiagnosticsSink,
    exit::ExitStatus,
    sink::{JsonlSink, Selection},
};

/// Runs `validate`.
pub(super) fn run(args: ValidateArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let jsonl = args.format == ValidateFormat::Jsonl;
    let stdout = run.progress.writer();
    let (summary, with_errors) = if jsonl {
        let selection = if args.errors_only { Selection::Errors } else { Selection::Findings };
        let mut sink = JsonlSink::new(stdout, selection);
        let summary = run.games(|| (), &mut sink)?;
        let with_errors = summary.with_errors;
        (summary, with_errors)
    } else {
        let disabled = args.disable.iter().copied().collect();
        let mut sink = DiagnosticsSink::new(stdout, args.errors_only, disabled);
        let summary = run.games(|| (), &mut sink)?;
        (summary, sink.games_with_errors)
    };
    // The summary goes with the diagnostics, or to stderr beside JSON Lines.
    if jsonl {
        summary.render(&mut io::stderr().lock())?;
    } else {
        summary.render(&mut io::stdout().lock())?;
    }
    Ok(if summary.input_errors > 0 {
        ExitStatus::Error
    } else if with_errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}
