//! `arbiter validate`: diagnostics for the games with findings, a summary,
//! and an exit status that says whether any game has an error.

use std::io::{self, Write};

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
    let mut disabled = super::load_config(args.config.as_deref())?.validate_disabled()?;
    for text in &args.disable {
        disabled.insert(Code::parse(text).with_context(|| {
            format!("--disable: no such code: {text} (see `arbiter check --list-codes`)")
        })?);
    }
    let mut reported = Reported::new(args.errors_only, disabled);
    reported.max_per_code = args.max_per_code;
    let stdout = run.progress.writer();
    let (summary, reported) = if jsonl {
        let mut sink = WithFindings { sink: JsonlSink::new(stdout), reported };
        (run.games(|| (), &mut sink)?, sink.reported)
    } else {
        let mut sink = DiagnosticsSink::new(stdout, reported);
        sink.palette = run.palette;
        (run.games(|| (), &mut sink)?, sink.reported)
    };
    // The summary goes with the diagnostics, or to stderr beside JSON Lines.
    let mut summary_wtr: Box<dyn Write> =
        if jsonl { Box::new(io::stderr().lock()) } else { Box::new(io::stdout().lock()) };
    summary.render(&mut summary_wtr)?;
    reported.render_counts(&mut summary_wtr)?;
    Ok(if summary.input_errors > 0 {
        ExitStatus::Error
    } else if reported.games_with_errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}
