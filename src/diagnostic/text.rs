//! The text emitter: compiler-style diagnostics, one line per finding,
//! `file:line: error[E101 illegal-move]: game 12 (White - Black, round 6):
//! 37. Nf3: illegal move`, then the position as FEN for a move, and for
//! `check` a hint. `DiagnosticsSink` is `validate`'s sink: the findings of
//! each game as they come. A [`Palette`] colours them, or leaves them
//! plain.

use std::{
    io::{self, Write},
    ops::ControlFlow,
};

use anstyle::{AnsiColor, Style};

use super::{Finding, GameLabel, Reported};
use crate::{
    record::{Excerpt, GameRecord, printable},
    sink::Sink,
};

/// The styles of a diagnostic's parts: plain, or coloured with ANSI
/// escapes (which the command decides, from `--color` and the terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// `error`.
    pub error: Style,
    /// `warning`.
    pub warning: Style,
    /// The code and name, `E101 illegal-move`.
    pub code: Style,
    /// The place, `file:line`.
    pub location: Style,
}

impl Palette {
    /// No escapes: a plain style writes nothing.
    pub const PLAIN: Palette = Palette {
        error: Style::new(),
        warning: Style::new(),
        code: Style::new(),
        location: Style::new(),
    };

    /// Errors red, warnings yellow, codes and places bold.
    pub const COLORED: Palette = Palette {
        error: AnsiColor::Red.on_default().bold(),
        warning: AnsiColor::Yellow.on_default().bold(),
        code: Style::new().bold(),
        location: Style::new().bold(),
    };

    /// The style of `severity` (`error` or `warning`).
    fn severity(&self, severity: &str) -> Style {
        if severity == "error" { self.error } else { self.warning }
    }
}

/// Writes one finding about `r`, with the code's hint when `hint`, in
/// the colours of `palette`. `severity` is how the command ranks it.
pub fn write(
    wtr: &mut dyn Write,
    r: &GameRecord,
    f: &Finding,
    severity: &str,
    hint: bool,
    palette: &Palette,
) -> io::Result<()> {
    let code = f.code;
    let (place, level, id) = (palette.location, palette.severity(severity), palette.code);
    // `{style}` opens a style and `{style:#}` closes it; both are empty
    // for a plain one. Names and messages quote the PGN: shown printable.
    writeln!(
        wtr,
        "{place}{}:{}{place:#}: {level}{severity}{level:#}[{id}{} {}{id:#}]: {}: {}",
        printable(&r.file),
        f.line,
        code.code(),
        code.name(),
        printable(&GameLabel(r).to_string()),
        printable(&f.message)
    )?;
    if let Some(excerpt) = &f.excerpt {
        write_excerpt(wtr, f.line, excerpt, level)?;
    }
    if let Some(fen) = &f.fen {
        writeln!(wtr, "    FEN: {}", printable(fen))?;
    }
    if hint {
        writeln!(wtr, "    hint: {}", code.hint())?;
    }
    Ok(())
}

/// Writes the token's line with a caret under the token, as compilers
/// do:
///
/// ```text
///    |
/// 12 | 1. f3 e5 2. g4 Qh4# 3. a3 1-0
///    |                        ^^
/// ```
///
/// Written by hand rather than with annotate-snippets: that crate renders
/// its own header (`error[E]: ... --> file:line:col`), and ours is the one
/// line per finding that grep and editors read; the excerpt is a dozen
/// lines.
fn write_excerpt(wtr: &mut dyn Write, line: u64, e: &Excerpt, caret: Style) -> io::Result<()> {
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    writeln!(wtr, "{gutter} |")?;
    writeln!(wtr, "{number} | {}", e.text)?;
    writeln!(wtr, "{gutter} | {}{caret}{}{caret:#}", " ".repeat(e.column), "^".repeat(e.width))
}

/// Writes the findings of each game as diagnostics (`validate`).
#[derive(Debug)]
pub struct DiagnosticsSink<W: Write> {
    wtr: W,
    /// Which findings are written.
    pub reported: Reported,
    /// Their colours (plain unless set).
    pub palette: Palette,
}

impl<W: Write> DiagnosticsSink<W> {
    /// Writes to `wtr`, plain, the findings `reported` keeps.
    pub fn new(wtr: W, reported: Reported) -> Self {
        DiagnosticsSink { wtr, reported, palette: Palette::PLAIN }
    }
}

impl<W: Write, T> Sink<T> for DiagnosticsSink<W> {
    fn record(&mut self, r: &GameRecord, _: T) -> io::Result<ControlFlow<()>> {
        let Self { wtr, reported, palette } = self;
        for (f, error) in reported.of(r) {
            write(wtr, r, f, if *error { "error" } else { "warning" }, false, palette)?;
        }
        Ok(ControlFlow::Continue(()))
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }
}
