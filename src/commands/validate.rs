//! `arbiter validate`: diagnostics for the games with findings, a summary,
//! and an exit status that says whether any game has an error.

use std::io;

use crate::{
    cli::{ValidateArgs, ValidateFormat},
    exit::ExitStatus,
    pipeline,
    sink::{DiagnosticsSink, JsonlSink, Selection, Sink},
};

/// Runs `validate`.
pub fn run(args: ValidateArgs) -> anyhow::Result<ExitStatus> {
    let jsonl = args.format == ValidateFormat::Jsonl;
    let run = super::resolve(&args.input, jsonl);
    let selection = if args.errors_only { Selection::Errors } else { Selection::Findings };
    let stdout = run.progress.writer();
    let mut sink: Box<dyn Sink> = if jsonl {
        Box::new(JsonlSink::new(stdout, selection))
    } else {
        Box::new(DiagnosticsSink::new(stdout, args.errors_only))
    };
    let summary =
        pipeline::run(&run.files, run.replay, run.pipeline, &run.progress, || (), sink.as_mut())?;
    drop(sink);
    // The summary goes with the diagnostics, or to stderr beside JSON Lines.
    if jsonl {
        summary.render(&mut io::stderr().lock())?;
    } else {
        summary.render(&mut io::stdout().lock())?;
    }
    Ok(if summary.input_errors > 0 {
        ExitStatus::Error
    } else if summary.with_errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}
