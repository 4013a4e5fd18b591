//! One diagnostic model for `validate` and `check` (ruff's `Message`): a
//! [`Finding`] is a [`Code`] from the one table in [`codes`], a message and
//! a place. [`of_game`] turns what the replay found about one game into
//! findings; the emitters ([`text`], [`jsonl`], [`sarif`]) write them.
//! Nothing here decides what is wrong: the Laws and the tag checks did.

pub mod codes;
pub mod jsonl;
pub mod sarif;
pub mod text;

use std::{
    borrow::Cow,
    collections::{BTreeMap, BTreeSet},
    fmt, io,
    ops::ControlFlow,
};

use self::codes::Code;
use crate::{
    record::{ErrorKind, Excerpt, GameRecord, QUOTED, quoted},
    sink::Sink,
    source::InputError,
};

/// One finding: what (the code and a message) and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What kind of finding; severity and hint come from its table row.
    pub code: Code,
    /// The game it is about, as an index into the checked records.
    pub record: usize,
    /// 1-based line in the game's file: the offending move or tag when
    /// known, else the game's first line.
    pub line: u64,
    /// 1-based ply the finding is about (0 = the start position), when it
    /// is about a move.
    pub ply: Option<u32>,
    /// A one-line explanation naming the move, tag, player or game.
    pub message: String,
    /// The position before the offending move, as FEN.
    pub fen: Option<String>,
    /// Why a move is not legal, as a stable code (`no_piece_reaches`).
    pub reason: Option<&'static str>,
    /// The offending token in its line, for the text output.
    pub excerpt: Option<Box<Excerpt>>,
}

impl Finding {
    /// A finding about game `record` as a whole, located at its first line.
    pub fn game(code: Code, record: usize, game: &GameRecord, message: String) -> Finding {
        Finding {
            code,
            record,
            line: game.line,
            ply: None,
            message,
            fen: None,
            reason: None,
            excerpt: None,
        }
    }
}

/// Appends the findings of game `i` (`r`): its first error, a result that
/// contradicts an automatic end, moves played after the end, a win on
/// time that Art. 6.9 scores as a draw, then its warnings, each with its
/// code, in that order.
pub fn of_game(i: usize, r: &GameRecord, findings: &mut Vec<Finding>) {
    if let Some(error) = &r.error {
        let (what, fen) = if error.kind == ErrorKind::GameTooLarge {
            ("game too large".to_owned(), None)
        } else if error.fen.is_empty() {
            (format!("FEN \"{}\"", error.san), None)
        } else {
            (move_label(&error.fen, &error.san), Some(error.fen.clone()))
        };
        findings.push(Finding {
            code: Code::of_error(error.kind),
            record: i,
            line: error.line,
            ply: r.error_ply,
            message: format!("{what}: {}", error.message),
            fen,
            reason: error.reason,
            excerpt: error.excerpt.clone(),
        });
    }
    if let (Some(termination), Some(end)) = (r.termination, r.termination_ply) {
        if !r.result_consistent {
            let result = r.result.as_deref().or(r.result_marker).unwrap_or("none");
            let mut finding = Finding::game(
                Code::ResultContradictsPosition,
                i,
                r,
                format!(
                    "result {result} contradicts the final position: {} after ply {end}",
                    termination.describe()
                ),
            );
            finding.ply = Some(end);
            findings.push(finding);
        }
        if r.moves_after_end > 0 {
            let mut finding = Finding::game(
                Code::MovesAfterEnd,
                i,
                r,
                format!(
                    "{} played after the game ended by {} after ply {end}",
                    match r.moves_after_end {
                        1 => "1 ply".to_owned(),
                        n => format!("{n} plies"),
                    },
                    termination.describe()
                ),
            );
            finding.ply = Some(end + 1);
            findings.push(finding);
        }
    }
    if r.timeout_draw {
        let result = r.result.as_deref().or(r.result_marker).unwrap_or("?");
        let winner = if result.starts_with('1') { "white" } else { "black" };
        findings.push(Finding::game(
            Code::TimeoutDraw,
            i,
            r,
            format!(
                "{result} on time, but {winner} cannot checkmate by any series of legal moves: a draw (Art. 6.9)"
            ),
        ));
    }
    for warning in &r.warnings {
        findings.push(Finding {
            code: Code::of_warning(warning.kind),
            record: i,
            line: warning.line,
            ply: None,
            message: warning.message.to_string(),
            fen: None,
            reason: None,
            excerpt: None,
        });
    }
}

/// The findings `validate` reports of each game: all of them, or its
/// errors only, less the codes disabled, and of each code the first
/// `max_per_code` only. `validate` ranks a game's own findings: its first
/// error, a result against the position or Art. 6.9 and moves after the
/// end are errors, the others warnings.
#[derive(Debug, Default)]
pub struct Reported {
    /// Errors only.
    pub errors_only: bool,
    /// Codes left out.
    pub disabled: BTreeSet<Code>,
    /// Show at most this many findings of each code (all, when `None`);
    /// the others are counted all the same.
    pub max_per_code: Option<u64>,
    /// Games with an error reported (shown or not: the cap changes what
    /// is printed, never the verdict).
    pub games_with_errors: u64,
    /// Findings reported, shown or not, by code.
    pub counts: BTreeMap<Code, u64>,
    /// The findings of the last game, each with whether it is an error.
    findings: Vec<(Finding, bool)>,
    scratch: Vec<Finding>,
}

impl Reported {
    /// Reports the findings of every code but the `disabled`, or of its
    /// errors only.
    pub fn new(errors_only: bool, disabled: BTreeSet<Code>) -> Reported {
        Reported { errors_only, disabled, ..Reported::default() }
    }

    /// The findings of `r` that are reported and shown, each with whether
    /// it is an error, in order; counts them by code, and the game if one
    /// is an error.
    pub fn of(&mut self, r: &GameRecord) -> &[(Finding, bool)] {
        self.findings.clear();
        // A clean game has nothing to say: no findings to build.
        if !r.has_error() && r.warnings.is_empty() {
            return &self.findings;
        }
        self.scratch.clear();
        of_game(0, r, &mut self.scratch);
        let errors = usize::from(r.error.is_some())
            + usize::from(r.termination.is_some() && !r.result_consistent)
            + usize::from(r.termination.is_some() && r.moves_after_end > 0)
            + usize::from(r.timeout_draw);
        let mut any_error = false;
        for (i, f) in self.scratch.drain(..).enumerate() {
            let error = i < errors;
            if !self.disabled.contains(&f.code) && (error || !self.errors_only) {
                any_error |= error;
                let count = self.counts.entry(f.code).or_default();
                *count += 1;
                if self.max_per_code.is_none_or(|max| *count <= max) {
                    self.findings.push((f, error));
                }
            }
        }
        self.games_with_errors += u64::from(any_error);
        &self.findings
    }

    /// Writes the findings reported by code, the most frequent first (then
    /// in code order), with how many of each were not shown; nothing when
    /// there were none. A long file's output is mostly one or two codes:
    /// this says which, and `--disable` or `--max-per-code` quiet them.
    pub fn render_counts(&self, wtr: &mut dyn io::Write) -> io::Result<()> {
        let mut counts: Vec<(Code, u64)> = self.counts.iter().map(|(&c, &n)| (c, n)).collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        if counts.is_empty() {
            return Ok(());
        }
        writeln!(wtr, "findings by code:")?;
        let name_width = counts.iter().map(|(c, _)| c.name().len()).max().unwrap_or(0);
        let count_width = counts.first().map_or(1, |(_, n)| n.to_string().len());
        for (code, n) in counts {
            write!(wtr, "  {} {:name_width$} {n:>count_width$}", code.code(), code.name())?;
            match self.max_per_code {
                Some(max) if n > max => writeln!(wtr, " (… and {} more not shown)", n - max)?,
                _ => writeln!(wtr)?,
            }
        }
        Ok(())
    }
}

/// Passes on the records of the games that have a reported finding
/// (`validate --format jsonl`).
#[derive(Debug)]
pub struct WithFindings<S> {
    /// Where the records go.
    pub sink: S,
    /// Which findings count.
    pub reported: Reported,
}

impl<T, S: Sink<T>> Sink<T> for WithFindings<S> {
    fn record(&mut self, record: &GameRecord, output: T) -> io::Result<ControlFlow<()>> {
        if self.reported.of(record).is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        self.sink.record(record, output)
    }

    fn input_error(&mut self, error: &InputError) -> io::Result<()> {
        self.sink.input_error(error)
    }

    fn chunk_end(&mut self) -> io::Result<()> {
        self.sink.chunk_end()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.sink.finish()
    }
}

/// `game 12 (Carlsen - Nepomniachtchi, round 6)`: how every diagnostic
/// names a game. Written straight to the output, with no string built per
/// line (see `benches/HISTORY.md`).
#[derive(Debug, Clone, Copy)]
pub struct GameLabel<'a>(pub &'a GameRecord);

impl fmt::Display for GameLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0;
        // Names are quoted as tokens are: a huge one is cut.
        fn name(name: Option<&str>) -> Cow<'_, str> {
            match name {
                Some(name) if name.len() > QUOTED => Cow::Owned(quoted(name.as_bytes())),
                Some(name) => Cow::Borrowed(name),
                None => Cow::Borrowed("?"),
            }
        }
        let (white, black) = (name(r.white.as_deref()), name(r.black.as_deref()));
        write!(f, "game {} ({white} - {black}", r.index)?;
        if let Some(round) = r.round.as_deref().filter(|round| !matches!(*round, "?" | "-" | "")) {
            write!(f, ", round {}", name(Some(round)))?;
        }
        f.write_str(")")
    }
}

/// `37. Nf3` or `37... Nf6`, read off the FEN of the position before it.
pub fn move_label(fen: &str, san: &str) -> String {
    let mut fields = fen.split(' ');
    let turn = fields.nth(1);
    let number = fields.nth(3).unwrap_or("?");
    match turn {
        Some("b") => format!("{number}... {san}"),
        Some(_) => format!("{number}. {san}"),
        None => san.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_labels_follow_the_side_to_move() {
        assert_eq!(move_label("8/8/8/8/8/8/8/K6k w - - 0 37", "Nf3"), "37. Nf3");
        assert_eq!(move_label("8/8/8/8/8/8/8/K6k b - - 0 37", "Nf6"), "37... Nf6");
    }

    #[test]
    fn a_game_s_findings_come_in_order_with_their_codes() {
        let pgn = "[Event \"E\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4 3. a3 1-0\n";
        let records = crate::testing::replay(pgn);
        let mut findings = Vec::new();
        of_game(7, &records[0], &mut findings);
        let codes: Vec<_> = findings.iter().map(|f| f.code).collect();
        // No move after mate; the result contradicts the mate; then the
        // warnings in the record's order (missing roster tags, then the
        // `#` missing on the mate).
        assert_eq!(codes[..2], [Code::IllegalMove, Code::ResultContradictsPosition]);
        assert_eq!(findings[0].ply, Some(5));
        assert!(
            findings[0].fen.is_some()
                && findings[0]
                    .message
                    .starts_with("3. a3: illegal move: White has no legal move (checkmate)")
        );
        assert_eq!(findings[1].ply, Some(4));
        let warnings: Vec<_> =
            records[0].warnings.iter().map(|w| Code::of_warning(w.kind)).collect();
        assert_eq!(codes[2..], warnings[..]);
        assert!(warnings.contains(&Code::MissingTag) && warnings.contains(&Code::CheckSuffix));
        assert!(findings.iter().all(|f| f.record == 7));
    }
}
