//! The run summary: counts over all records, and its rendering.

use std::{collections::BTreeMap, io};

use crate::record::{GameRecord, Termination};

/// Counts over every record of a run (and the inputs that failed).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Inputs read to the end.
    pub files: u64,
    /// Inputs that could not be opened or read to the end.
    pub input_errors: u64,
    /// Games read, selected or not.
    pub read: u64,
    /// Games selected (every game read, without predicates): those the
    /// sink was given.
    pub games: u64,
    /// Games whose every move is well-formed and legal.
    pub valid: u64,
    /// Games with an error finding (see `GameRecord::has_error`).
    pub with_errors: u64,
    /// Games with at least one warning.
    pub with_warnings: u64,
    /// Automatic ends found, by kind.
    pub terminations: BTreeMap<Termination, u64>,
    /// Games in which threefold repetition could be claimed.
    pub threefold: u64,
    /// Games in which the fifty-move rule could be claimed.
    pub fifty: u64,
    /// Games with a position the dead-position analysis left undetermined.
    pub undetermined: u64,
}

impl Summary {
    /// Counts one record.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        self.valid += u64::from(record.valid);
        self.with_errors += u64::from(record.has_error());
        self.with_warnings += u64::from(!record.warnings.is_empty());
        if let Some(termination) = record.termination {
            *self.terminations.entry(termination).or_default() += 1;
        }
        self.threefold += u64::from(record.threefold_ply.is_some());
        self.fifty += u64::from(record.fifty_ply.is_some());
        self.undetermined += u64::from(record.undetermined_ply.is_some());
    }

    /// Writes the summary for people.
    pub fn render(&self, wtr: &mut dyn io::Write) -> io::Result<()> {
        // Games without and with errors add up; those with an invalid move
        // or start are some of the latter.
        let games = if self.read > self.games {
            format!("{} of {} selected", self.games, plural(self.read, "game"))
        } else {
            plural(self.games, "game")
        };
        writeln!(
            wtr,
            "{} in {}: {} without errors, {} with errors ({} with an invalid move or start), {} with warnings",
            games,
            plural(self.files + self.input_errors, "file"),
            self.games.saturating_sub(self.with_errors),
            self.with_errors,
            self.games.saturating_sub(self.valid),
            self.with_warnings,
        )?;
        let ends = |draws: bool| {
            let parts: Vec<String> = self
                .terminations
                .iter()
                .filter(|(t, _)| t.is_draw() == draws)
                .map(|(t, n)| format!("{} {n}", t.describe()))
                .collect();
            let total: u64 = self
                .terminations
                .iter()
                .filter(|(t, _)| t.is_draw() == draws)
                .map(|(_, n)| n)
                .sum();
            if parts.is_empty() {
                total.to_string()
            } else {
                format!("{total} ({})", parts.join(", "))
            }
        };
        writeln!(wtr, "draws by rule: {}; decided by rule: {}", ends(true), ends(false))?;
        writeln!(
            wtr,
            "claimable draws: threefold repetition {}, fifty-move rule {}",
            self.threefold, self.fifty
        )?;
        if self.undetermined > 0 {
            writeln!(
                wtr,
                "dead positions: {} with a position the analysis could not decide within its budget (undetermined_ply)",
                plural(self.undetermined, "game")
            )?;
        }
        if self.input_errors > 0 {
            writeln!(wtr, "{} could not be read", plural(self.input_errors, "input"))?;
        }
        Ok(())
    }
}

/// `1 game`, `3 games`: a count and its noun, for messages.
pub fn plural(n: u64, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
