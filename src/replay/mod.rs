//! Replay, the driver: from a chunk of PGN bytes to one `GameRecord` per
//! game, shown to an [`Observer`] as it is replayed.
//!
//! The PGN layer's cursor walks the chunk game by game: it hands each tag
//! pair to the [`TagCollector`], and the movetext to the lexer, which also
//! finds where it ends. The chess layer sets up the start position; [`game`]
//! replays the moves on shakmaty under the Laws (`laws`), telling the
//! observer each move. No I/O and no output formats here: a broken game is
//! data in its record, never an `Err` and never a panic.

pub mod game;
pub mod observer;
pub mod tag_columns;

use std::{borrow::Cow, ops::ControlFlow};

use compact_str::CompactString;
use pgn_reader::RawTag;

use crate::{
    chess::setup::{self, Setup},
    laws::{
        RuleTracker,
        result::{self, result_consistent},
    },
    pgn::{
        chunk::{Chunk, MAX_GAME, TooLarge},
        cursor::{GameCursor, GameSpan},
        lexer,
        tags::{self, BLACK, EVENT, RESULT, ROUND, TagCollector, TagSet, WHITE},
        values::{self, GameResult},
    },
    record::{ErrorKind, GameError, GameRecord, Warning, WarningKind},
};
use game::MovetextFacts;
use observer::{Address, GameEnd, Observer, Rest};

/// How games are replayed: what goes into each record. What consumers make
/// of a game is theirs (`replay::observer`), not an option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Validate moves inside variations too, each from where it branches.
    pub variations: bool,
    /// Compute the FEN of each game's last position (`GameRecord::final_fen`).
    pub final_fen: bool,
    /// Stop replaying a game once the observer has what it needs of it
    /// (`Rest::Enough`): its record is then partial (the plies so far, no
    /// verdict), for commands that use only the games' texts or a count.
    pub early_stop: bool,
    /// Leave the Laws out: no automatic end, claim or result check in the
    /// records (`RuleFindings` stay empty), for commands that read none of
    /// them (`dupes`, and `filter` and `tree` without a predicate on the
    /// verdict): the rule tracker is an eighth of a replay.
    pub skip_laws: bool,
}

/// Replays chunks; one per worker thread, reused for every chunk it gets.
#[derive(Debug)]
pub struct Replayer {
    options: ReplayOptions,
    rules: RuleTracker,
}

/// What replaying a chunk counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChunkCount {
    /// Games found, skipped ones included.
    pub games: u64,
    /// Line breaks in the chunk.
    pub lines: u64,
}

impl Replayer {
    /// A replayer with the given options.
    pub fn new(options: ReplayOptions) -> Self {
        Replayer { options, rules: RuleTracker::default() }
    }

    /// Replays every game of `chunk`, showing each to `observer` and handing
    /// `emit` its record and what the observer made of it, as soon as they
    /// are made. A game the observer skips (at its tags, or by `keep`) has
    /// no record but is counted. Each record's index counts games from the chunk's first
    /// (1) and its lines count from the chunk's first line (1): the
    /// pipeline makes both the input's when it puts records in order.
    pub fn replay<O: Observer>(
        &mut self,
        chunk: &Chunk,
        observer: &mut O,
        mut emit: impl FnMut(GameRecord, O::Output),
    ) -> ChunkCount {
        let mut collector = TagCollector::default();
        let mut count = ChunkCount::default();
        if let Some(large) = chunk.too_large {
            // Only the game's tags are read, from its first bytes: what a
            // stream holds of it.
            let mut games = GameCursor::new(&chunk.bytes()[..large.held], 1);
            if let Some(span) = games.next_game(|name, value| collector.tag(name, RawTag(value))) {
                count.games = 1;
                collector.tags.unreadable = span.unreadable_tags;
                let too_large = Some(large);
                if let Some((record, output)) = self.replay_game(
                    chunk,
                    &mut games,
                    span,
                    &mut collector,
                    observer,
                    count.games,
                    too_large,
                ) {
                    emit(record, output);
                }
            }
            count.lines = large.lines;
            return count;
        }
        let mut games = GameCursor::new(chunk.bytes(), 1);
        loop {
            collector.reset();
            let Some(span) = games.next_game(|name, value| collector.tag(name, RawTag(value)))
            else {
                count.lines = games.line_at_end() - 1;
                return count;
            };
            count.games += 1;
            collector.tags.unreadable = span.unreadable_tags;
            if let Some((record, output)) = self.replay_game(
                chunk,
                &mut games,
                span,
                &mut collector,
                observer,
                count.games,
                None,
            ) {
                emit(record, output);
            }
        }
    }

    /// Replays one game, whose tags `collector` has, and ends it in
    /// `games`; `None` when the observer skips it. A game `too_large` is
    /// the chunk's only game: its moves are not read, and the record says
    /// why.
    #[allow(clippy::too_many_arguments)]
    fn replay_game<'a, O: Observer>(
        &mut self,
        chunk: &'a Chunk,
        games: &mut GameCursor<'a>,
        span: GameSpan,
        collector: &mut TagCollector<'a>,
        observer: &mut O,
        index: u64,
        too_large: Option<TooLarge>,
    ) -> Option<(GameRecord, O::Output)> {
        let bytes = chunk.bytes();
        let tag_bytes = &bytes[span.start..span.movetext];
        let tags = &collector.tags;
        let mut lexer = games.lexer(&span);
        let rest = match observer.tags(tags) {
            ControlFlow::Break(()) => Rest::Drop,
            ControlFlow::Continue(()) => observer.rest(),
        };
        if rest == Rest::Drop {
            if too_large.is_none() {
                games.finish_game(&span, lexer);
            }
            return None;
        }
        // Nothing needs the moves, nor a complete record: they are only
        // lexed, to find where the game ends.
        let skip_moves = rest == Rest::Enough && self.options.early_stop;
        let mut warnings = Vec::new();
        if skip_moves {
            // A partial record: its tags are not checked.
        } else if !tag_bytes.is_empty() || tags.count() > 0 {
            tags::check(tags, tag_bytes, span.line, &mut warnings);
        } else {
            warnings.push(Warning {
                kind: WarningKind::MissingTag,
                message: "game without tags".into(),
                line: span.line,
            });
        }
        let (variant, setup) = setup::start_position(
            tags.variant.map(|variant| tags.text(variant)).as_deref(),
            tags.fen.map(|fen| tags.text(fen)).as_deref(),
            || tags::tag_line(tag_bytes, "FEN", span.line),
            &mut warnings,
            span.line,
        );
        let standard = tags.fen.is_none() && variant == "chess";
        let rules = &mut self.rules;
        let replayed = too_large.is_none()
            && !skip_moves
            && matches!(setup, Setup::Chess(_) | Setup::Variant(_));
        let facts = match setup {
            _ if skip_moves && too_large.is_none() => MovetextFacts::default(),
            _ if let Some(large) = too_large => {
                let error = GameError {
                    kind: ErrorKind::GameTooLarge,
                    san: String::new(),
                    fen: String::new(),
                    line: span.line,
                    message: format!(
                        "{} bytes before the next game, more than the {} MiB a game may \
                         take: its moves were not read",
                        large.length - span.start as u64,
                        MAX_GAME >> 20
                    ),
                    reason: None,
                    excerpt: None,
                };
                MovetextFacts { error: Some((error, 0)), ..MovetextFacts::default() }
            }
            Setup::Chess(pos) => game::replay(
                pos,
                &mut lexer,
                game::Context { rules, variant: false, standard, observer: &mut *observer },
                &self.options,
                &mut warnings,
            ),
            Setup::Variant(pos) => game::replay(
                pos,
                &mut lexer,
                game::Context { rules, variant: true, standard: false, observer: &mut *observer },
                &self.options,
                &mut warnings,
            ),
            Setup::Unsupported => {
                let (has_moves, result_marker) = skim(&mut lexer);
                MovetextFacts { has_moves, result_marker, ..MovetextFacts::default() }
            }
            Setup::BadFen(error) => {
                let (_, result_marker) = skim(&mut lexer);
                MovetextFacts { error: Some((error, 0)), result_marker, ..MovetextFacts::default() }
            }
        };
        // Whatever the setup, the lexer reads on to the end of the movetext,
        // to find where it ends, or a swallowed game; a game too large ends
        // with its chunk.
        let end = match too_large {
            None => games.finish_game(&span, lexer),
            Some(_) => bytes.len(),
        };
        if facts.stopped == Some(Rest::Drop) {
            return None;
        }
        let length = too_large.map_or(end as u64, |large| large.length) - span.start as u64;
        // The record reads the last position too (Art. 6.9); a copy is
        // cheaper than the FEN an observer would parse again.
        let final_position = facts.final_position.clone();
        let mut record = record(chunk, span, variant, facts, warnings, tags);
        record.index = index;
        if observer.keep(&record).is_break() {
            return None;
        }
        let game = GameEnd {
            record: &record,
            tags,
            text: &bytes[span.lead..end],
            tag_section: tag_bytes,
            address: Address { offset: chunk.offset + span.start as u64, length },
            replayed,
            final_position: final_position.as_ref(),
            whole: too_large.is_none_or(|large| large.length == bytes.len() as u64),
        };
        let output = observer.end_game(&game);
        Some((record, output))
    }
}

/// A movetext not replayed (an unknown variant, a bad FEN), read to its
/// end: whether it has moves, and its result marker, so that the Result
/// tag is held against the marker the game has.
fn skim(lexer: &mut lexer::Lexer<'_>) -> (bool, Option<&'static str>) {
    let (mut moves, mut marker, mut depth) = (false, None, 0usize);
    for token in lexer.by_ref() {
        match token.token {
            lexer::Token::Word(_) => moves = true,
            lexer::Token::VariationStart => depth += 1,
            lexer::Token::VariationEnd => depth = depth.saturating_sub(1),
            lexer::Token::Result(result) if depth == 0 => {
                marker.get_or_insert(result);
            }
            _ => {}
        }
    }
    (moves, marker)
}

/// The record of the game of `span` from what its replay found and its
/// tags.
fn record(
    chunk: &Chunk,
    span: GameSpan,
    variant: Cow<'static, str>,
    facts: MovetextFacts,
    mut warnings: Vec<Warning>,
    tags: &TagSet,
) -> GameRecord {
    let result = tags.roster_text(RESULT);
    let result = result.as_deref();
    let marker = facts.result_marker;
    let recorded = GameResult::of(result, marker);
    // A game too large has a marker, unread: the tag is not held against it.
    if facts.error.as_ref().is_none_or(|(error, _)| error.kind != ErrorKind::GameTooLarge) {
        result::tag_and_marker(result, marker, span.line, &mut warnings);
    }
    let findings = facts.findings;
    let ended = findings.termination.is_some() || facts.error.is_some();
    let on_time = tags.first("Termination").is_some_and(|tag| values::on_time(&tag));
    let mut timeout_draw = false;
    // Beyond material, the analysis' statics (frozen pawns) judge every
    // decisive result; its search runs only for a win on time, where
    // Art. 6.9 makes it a draw (a resignation may stand anyway).
    if let Some(winner) = result::impossible_win(recorded, ended, |side| {
        facts.final_side_cannot_mate(side, on_time) == Some(true)
    }) {
        // Art. 6.9: on time, the game is drawn (a finding of its own, made
        // from the record); a resignation may stand.
        timeout_draw = on_time;
        if !on_time {
            let message = format!(
                "{} is scored as a win, but {winner} cannot checkmate by any series of legal moves (on time this is a draw)",
                result.or(marker).unwrap_or("?"),
            );
            warnings.push(Warning {
                kind: WarningKind::ImpossibleWin,
                message: message.into(),
                line: span.line,
            });
        }
    }
    if !facts.has_moves && facts.error.is_none() {
        warnings.push(Warning {
            kind: WarningKind::EmptyGame,
            message: "game without moves".into(),
            line: span.line,
        });
    }
    let (termination, termination_ply) = findings.termination.unzip();
    let (error, error_ply) = facts.error.unzip();
    let moves_after_end = termination_ply.map_or(0, |end| facts.plies.saturating_sub(end));
    let result_consistent = result_consistent(&findings, recorded);
    let owned = |index| tags.roster_text(index).map(CompactString::from);
    GameRecord {
        file: chunk.file.clone(),
        index: 0,
        line: span.line,
        white: owned(WHITE),
        black: owned(BLACK),
        event: owned(EVENT),
        round: owned(ROUND),
        result: result.map(CompactString::from),
        result_marker: marker,
        variant,
        valid: error.is_none(),
        error_ply,
        error,
        plies: facts.plies,
        termination,
        termination_ply,
        threefold_ply: findings.threefold_ply,
        fifty_ply: findings.fifty_ply,
        undetermined_ply: findings.undetermined_ply,
        on_time,
        timeout_draw,
        moves_after_end,
        result_consistent,
        warnings,
        final_fen: facts.final_fen,
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use shakmaty::{Move, Position};

    use super::*;

    /// Skips the games whose `White` is "skip"; notes what it sees.
    #[derive(Default)]
    struct Notes {
        seen: Vec<String>,
    }

    impl Observer for Notes {
        type Output = (Vec<String>, Address);

        fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
            if tags.get("White").as_deref() == Some("skip") {
                return ControlFlow::Break(());
            }
            self.seen.extend(tags.iter().map(|(name, value)| format!("{name}={value}")));
            ControlFlow::Continue(())
        }

        fn start<P: Position>(&mut self, _pos: &P, standard: bool) {
            self.seen.push(format!("start standard={standard}"));
        }

        fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
            let fullmoves = pos.fullmoves();
            self.seen.push(format!("{ply} {m} {mainline} {fullmoves}"));
        }

        fn comment(&mut self, text: &[u8]) {
            self.seen.push(format!("{{{}}}", String::from_utf8_lossy(text)));
        }

        fn begin_variation(&mut self) {
            self.seen.push("(".into());
        }

        fn end_variation(&mut self) {
            self.seen.push(")".into());
        }

        fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
            self.seen.push(format!("end {} {}", game.record.index, game.record.plies));
            (std::mem::take(&mut self.seen), game.address)
        }
    }

    fn replay<O: Observer>(
        pgn: &str,
        options: ReplayOptions,
        observer: &mut O,
    ) -> (Vec<(GameRecord, O::Output)>, ChunkCount) {
        let chunk = Chunk::from_bytes("t", pgn.as_bytes().to_vec());
        let mut games = Vec::new();
        let count = Replayer::new(options)
            .replay(&chunk, observer, |record, output| games.push((record, output)));
        (games, count)
    }

    #[test]
    fn observers_see_tags_moves_and_the_end_and_skip_games_by_their_tags() {
        let pgn = "[White \"A\"]\n[Event \"E\"]\n\n1. e4 {good} (1. d4 d5) e5 1-0\n\n\
                   [White \"skip\"]\n\n1. d4 *\n\n\
                   [White \"C\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n1. Kb1 *\n";
        let options = ReplayOptions { variations: true, ..ReplayOptions::default() };
        let (games, count) = replay(pgn, options, &mut Notes::default());
        assert_eq!(count, ChunkCount { games: 3, lines: pgn.matches('\n').count() as u64 });
        let indices: Vec<_> = games.iter().map(|(r, _)| r.index).collect();
        assert_eq!(indices, [1, 3], "a skipped game keeps its number");
        let (notes, address) = &games[0].1;
        assert_eq!(
            notes,
            &[
                "White=A",
                "Event=E",
                "start standard=true",
                "1 e2-e4 true 1",
                "{good}",
                "(",
                "1 d2-d4 false 1",
                "2 d7-d5 false 2",
                ")",
                "2 e7-e5 true 2",
                "end 1 2",
            ]
        );
        assert_eq!(address.offset, 0);
        let second = pgn.find("[White \"skip").unwrap() as u64;
        assert_eq!(address.length, second);
        let (notes, address) = &games[1].1;
        assert_eq!(notes[2], "start standard=false", "a FEN start is not the standard one");
        assert_eq!(address.offset, pgn.find("[White \"C").unwrap() as u64);
        assert_eq!(address.offset + address.length, pgn.len() as u64);
    }

    #[test]
    fn every_record_carries_the_roster_values() {
        let pgn = "[Event \"E\"]\n[Round \"3\"]\n[White \"Müller\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
                   1. e4 e5 1-0\n\n1. d4 *\n";
        let (games, _) = replay(pgn, ReplayOptions::default(), &mut ());
        let roster: Vec<_> = games
            .iter()
            .map(|(r, _)| {
                (
                    r.white.clone(),
                    r.black.clone(),
                    r.event.clone(),
                    r.round.clone(),
                    r.result.clone(),
                )
            })
            .collect();
        let given = |text: &str| Some(CompactString::from(text));
        assert_eq!(
            roster,
            [
                (given("Müller"), given("B"), given("E"), given("3"), given("1-0")),
                Default::default()
            ]
        );
    }

    #[test]
    fn moves_hashes_are_equal_for_equal_mainlines_only() {
        let pgn = "1. e4 e5 2. Nf3 *\n\n1. e4 (1. d4) e5 2. Nf3 {x} *\n\n1. e4 e5 2. Nc3 *\n\n[FEN \"bad\"]\n\n1. e4 *\n";
        let options = ReplayOptions { variations: true, ..ReplayOptions::default() };
        let (games, _) = replay(pgn, options, &mut observer::MovesHash::default());
        let hashes: Vec<u64> = games.iter().map(|(_, hash)| *hash).collect();
        assert_eq!(hashes[0], hashes[1]);
        assert_ne!(hashes[0], hashes[2]);
        assert_eq!(hashes[3], 0, "a game not replayed hashes to 0");
    }
}
