//! `arbiter check`: everything `validate` finds about each game, plus the
//! checks across the games of an event that an arbiter runs before
//! publishing a tournament's PGN.
//!
//! Input: the [`Game`]s of the whole input, in input order (see
//! `tournament::Collect`); output: a [`Report`] of
//! [`Finding`]s, each with a [`Code`] from the one table and a location. The
//! checks never re-parse PGN: `games` maps each record's own findings,
//! `headers` reads tags, `players` resolves who is who, `pairings` checks
//! rounds, boards, meetings and duplicates. `report` renders the findings.

pub mod config;
mod games;
mod headers;
mod pairings;
pub mod report;

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    diagnostic::{Finding, codes::Code},
    record::Termination,
    tournament::{EventFormat, Game, event, players},
};

/// What `check` is told about the event, resolved from the command line
/// and the configuration file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// The event's format; `None`: any repeated pairing is listed for
    /// review (W411).
    pub format: Option<EventFormat>,
    /// The event's number of rounds. Without a format, it gives the number
    /// of meetings allowed: one per cycle of a round robin of the players
    /// seen (so a Swiss shorter than one cycle allows one).
    pub rounds: Option<u32>,
    /// Codes not reported.
    pub disabled: BTreeSet<Code>,
}

/// Everything `check` found.
#[derive(Debug, Default)]
pub struct Report {
    /// The findings in input order (by game, then line, then code).
    pub findings: Vec<Finding>,
    /// Draws scored 1/2-1/2 that the final position confirms: the game
    /// ended automatically (stalemate, dead position, fivefold repetition,
    /// 75-move rule), counted by kind.
    pub confirmed_draws: BTreeMap<Termination, u64>,
}

/// Checks `records` (the whole input, in input order).
pub fn check(records: &[Game], options: &CheckOptions) -> Report {
    let mut report = Report::default();
    let findings = &mut report.findings;
    for (i, record) in records.iter().enumerate() {
        games::check(i, record, findings, &mut report.confirmed_draws);
        headers::check(i, record, findings);
    }
    let events = event::events(records);
    headers::check_events(records, &events, findings);
    let copies = pairings::duplicates(records, findings);
    for event in &events {
        let originals: Vec<usize> =
            event.games.iter().copied().filter(|i| !copies.contains(i)).collect();
        let players = players::identify(records, &originals, findings);
        pairings::check(records, event, &players, &copies, options, findings);
    }
    findings.retain(|f| !options.disabled.contains(&f.code));
    findings.sort_by_key(|f| (f.record, f.line, f.code));
    report
}
