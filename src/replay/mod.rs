//! Replay: from a chunk of PGN bytes to one `GameRecord` per game.
//!
//! The [`cursor`] walks the chunk game by game: it hands each tag pair to
//! the [`TagCollector`], which keeps them in a [`TagSet`], and the movetext
//! to our [`lexer`] (nothing is skipped silently), which also finds where
//! it ends. The moves are replayed on shakmaty under the [`rules`]. No I/O
//! and no output formats here: a broken game is data in its record, never
//! an `Err` and never a panic.

pub mod cursor;
pub mod game;
pub mod lexer;
pub mod notation;
pub mod resolve;
pub mod rules;
pub mod tags;

use std::borrow::Cow;

use compact_str::CompactString;
use pgn_reader::RawTag;
use shakmaty::{
    CastlingMode, Chess, FromSetup, PositionError, PositionErrorKinds,
    fen::Fen,
    variant::{Variant, VariantPosition},
};

use crate::{
    chunk::Chunk,
    export::{self, MovetextWriter},
    openings::OpeningBook,
    options::{KeepTags, ReplayOptions},
    record::{ErrorKind, Export, GameError, GameRecord, TagList, Warning, WarningKind},
};
use cursor::{GameCursor, GameSpan};
use game::MovetextFacts;
use rules::{RecordedResult, RuleTracker, result_consistent};
use tags::{TagCollector, TagSet};

/// Replays chunks; one per worker thread, reused for every chunk it gets.
#[derive(Debug)]
pub struct Replayer {
    options: ReplayOptions,
    /// The tags each game's record keeps.
    keep: KeepTags,
    rules: RuleTracker,
}

impl Replayer {
    /// A replayer with the given options.
    pub fn new(options: ReplayOptions) -> Self {
        let keep = if options.export { KeepTags::All } else { options.keep_tags };
        Replayer { options, keep, rules: RuleTracker::default() }
    }

    /// Replays every game of `chunk`, handing `emit` one record per game as
    /// soon as it is made, and returns how many line breaks the chunk has.
    /// Each record has index 0 and lines counted from the chunk's first (1):
    /// the pipeline numbers games and shifts lines in input order.
    pub fn replay(&mut self, chunk: &Chunk, mut emit: impl FnMut(GameRecord)) -> u64 {
        self.replay_chunk(chunk, |mut record, kept| {
            // The record takes a copy sized to fit; the buffers serve the
            // next game.
            let copy = record.tags.clone();
            *kept = std::mem::replace(&mut record.tags, copy);
            emit(record);
        })
    }

    /// Replays every game of `chunk` as [`Self::replay`] does, showing
    /// `visit` each record, which is then dropped: its kept tags' buffers
    /// serve the next game, so the records of `stats` (which keeps eight
    /// tags) cost no allocation for them.
    pub fn visit(&mut self, chunk: &Chunk, mut visit: impl FnMut(&GameRecord)) -> u64 {
        self.replay_chunk(chunk, |mut record, kept| {
            visit(&record);
            *kept = std::mem::take(&mut record.tags);
        })
    }

    /// Replays every game of `chunk`, handing `each` its record, whose
    /// `tags` are the collector's buffers, and the collector's (empty) place
    /// for them, to fill for the next game.
    fn replay_chunk(
        &mut self,
        chunk: &Chunk,
        mut each: impl FnMut(GameRecord, &mut TagList),
    ) -> u64 {
        let mut games = GameCursor::new(chunk.bytes(), 1);
        let mut collector = TagCollector::new(self.keep);
        loop {
            collector.reset();
            let Some(span) = games.next_game(|name, value| collector.tag(name, RawTag(value)))
            else {
                return games.line_at_end() - 1;
            };
            collector.tags.unreadable = span.unreadable_tags;
            let record = self.replay_game(chunk, &mut games, span, &mut collector);
            each(record, &mut collector.tags.all);
        }
    }

    /// Replays one game, whose tags `collector` has, and ends it in
    /// `games`.
    fn replay_game<'a>(
        &mut self,
        chunk: &'a Chunk,
        games: &mut GameCursor<'a>,
        span: GameSpan,
        collector: &mut TagCollector<'a>,
    ) -> GameRecord {
        let bytes = chunk.bytes();
        let tag_bytes = &bytes[span.start..span.movetext];
        if collector.tags.unreadable > 0 {
            collector.recover_long_tags(tag_bytes);
        }
        collector.finish_section(tag_bytes);
        let tags = &collector.tags;
        let mut warnings = Vec::new();
        if !tag_bytes.is_empty() || tags.count > 0 {
            if !self.options.skip_tag_checks {
                tags::check(tags, tag_bytes, span.line, &mut warnings);
            }
        } else {
            warnings.push(Warning {
                kind: WarningKind::MissingTag,
                message: "game without tags".into(),
                line: span.line,
            });
        }
        let mut lexer = games.lexer(&span);
        let (variant, setup) = start_position(tags, tag_bytes, &mut warnings, span.line);
        // Openings are classified for games from the standard position
        // whose tags do not name their opening already.
        let standard_start = tags.fen.is_none() && variant == "chess";
        let named =
            || ["ECO", "Opening"].iter().all(|n| tags.all.get(n).and_then(tags::given).is_some());
        let book = (self.options.classify_openings && standard_start && !named())
            .then(OpeningBook::standard);
        let rules = &mut self.rules;
        let mut writer = self.options.export.then(MovetextWriter::new);
        let export = writer.as_mut();
        let replayable = matches!(setup, Setup::Chess(_) | Setup::Variant(_));
        let facts = match setup {
            Setup::Chess(pos) => game::replay(
                pos,
                &mut lexer,
                game::Context { rules, variant: false, book, export },
                &self.options,
                &mut warnings,
            ),
            Setup::Variant(pos) => game::replay(
                pos,
                &mut lexer,
                game::Context { rules, variant: true, book: None, export },
                &self.options,
                &mut warnings,
            ),
            Setup::Unsupported => MovetextFacts {
                has_moves: lexer.any(|t| matches!(t.token, lexer::Token::Word(_))),
                ..MovetextFacts::default()
            },
            Setup::BadFen(error) => {
                MovetextFacts { error: Some((error, 0)), ..MovetextFacts::default() }
            }
        };
        // Whatever the setup, the lexer reads on to the end of the movetext,
        // to find where it ends, or a swallowed game.
        let end = games.finish_game(&span, lexer);
        // Decoded once, for the export, the record and its roster.
        let result = tags.get("Result");
        let export = writer.map(|writer| {
            let original = &bytes[span.lead..end];
            if replayable && facts.error.is_none() {
                let result = facts.result_marker.or(result.as_deref()).unwrap_or("*");
                let mut text = Vec::with_capacity(original.len() + 64);
                export::write_tags(&tags.all, result, &mut text);
                text.extend_from_slice(&writer.finish(result));
                text.push(b'\n');
                let changed = text != original;
                Export { text, formatted: true, changed }
            } else {
                Export { text: original.to_vec(), formatted: false, changed: false }
            }
        });
        let mut record = record(chunk, span, end, variant, facts, warnings, result.as_deref());
        // Only a selected record decodes the roster: a clean game of
        // `validate` allocates nothing.
        if self.options.roster_for.selects(&record) {
            let owned = |name| tags.get(name).map(CompactString::from);
            record.white = owned("White");
            record.black = owned("Black");
            record.event = owned("Event");
            record.round = owned("Round");
            record.result = result.as_deref().map(CompactString::from);
        }
        record.tags = std::mem::take(&mut collector.tags.all);
        record.export = export;
        record
    }
}

/// The record of the game of `span`, which ends at `end`, from what its
/// replay found and its `Result` tag (without roster, tags or export).
fn record(
    chunk: &Chunk,
    span: GameSpan,
    end: usize,
    variant: Cow<'static, str>,
    facts: MovetextFacts,
    mut warnings: Vec<Warning>,
    result: Option<&str>,
) -> GameRecord {
    let marker = facts.result_marker;
    let recorded = RecordedResult::parse(match RecordedResult::parse(result) {
        RecordedResult::Unknown if result != Some("*") => marker,
        _ => result,
    });
    result_warnings(result, marker, span.line, &mut warnings);
    let findings = facts.findings;
    if let RecordedResult::Win(winner) = recorded
        && findings.termination.is_none()
        && facts.error.is_none()
        && facts.final_side_cannot_mate(winner)
    {
        warnings.push(Warning {
                kind: WarningKind::ImpossibleWin,
                message: format!(
                    "{} is scored as a win, but {winner} has no mating material (on time this is a draw)",
                    result.or(marker).unwrap_or("?"),
                )
                .into(),
                line: span.line,
            });
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
    GameRecord {
        file: chunk.file.clone(),
        index: 0,
        line: span.line,
        white: None,
        black: None,
        event: None,
        round: None,
        result: None,
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
        moves_after_end,
        result_consistent,
        warnings,
        final_fen: facts.final_fen,
        tags: TagList::default(),
        opening: facts.opening,
        moves_hash: facts.moves_hash,
        offset: chunk.offset + span.start as u64,
        length: (end - span.start) as u64,
        export: None,
    }
}

/// Warns when the Result tag and the movetext marker disagree.
fn result_warnings(
    tag: Option<&str>,
    marker: Option<&str>,
    line: u64,
    warnings: &mut Vec<Warning>,
) {
    let message = match (tag, marker) {
        (Some(tag), Some(marker)) if tag != marker => {
            format!("Result tag {tag} but the movetext ends with {marker}")
        }
        (Some(tag), None) => format!("Result tag {tag} but the movetext has no result marker"),
        (None, Some(marker)) => format!("no Result tag; the movetext ends with {marker}"),
        _ => return,
    };
    warnings.push(Warning { kind: WarningKind::ResultMismatch, message: message.into(), line });
}

/// The position a game starts from.
enum Setup {
    Chess(Chess),
    Variant(VariantPosition),
    Unsupported,
    BadFen(GameError),
}

/// What the `Variant` tag asks for.
enum Rules {
    Standard,
    Chess960,
    Lichess(Variant),
    Unknown(String),
}

fn rules_of(tag: Option<&str>) -> Rules {
    let Some(tag) = tag else { return Rules::Standard };
    let key: String =
        tag.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Rules::Standard,
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Rules::Chess960,
        "atomic" => Rules::Lichess(Variant::Atomic),
        "antichess" | "giveaway" | "suicide" => Rules::Lichess(Variant::Antichess),
        "kingofthehill" | "koth" => Rules::Lichess(Variant::KingOfTheHill),
        "threecheck" | "3check" => Rules::Lichess(Variant::ThreeCheck),
        "crazyhouse" => Rules::Lichess(Variant::Crazyhouse),
        "racingkings" => Rules::Lichess(Variant::RacingKings),
        "horde" => Rules::Lichess(Variant::Horde),
        _ => Rules::Unknown(tag.to_owned()),
    }
}

/// Sets up the start position from the `Variant` and `FEN` tags; returns
/// the variant's name too.
fn start_position(
    tags: &TagSet,
    tag_bytes: &[u8],
    warnings: &mut Vec<Warning>,
    line: u64,
) -> (Cow<'static, str>, Setup) {
    let line_of_fen = || tags::tag_line(tag_bytes, "FEN", line);
    let rules = rules_of(tags.variant.map(|variant| tags.text(variant)).as_deref());
    let fen = match tags
        .fen
        .map(|fen| tags.text(fen))
        .map(|fen| Fen::from_ascii(fen.trim().as_bytes()))
    {
        None => None,
        Some(Ok(fen)) => Some(fen),
        Some(Err(error)) => return ("chess".into(), bad_fen(tags, error, line_of_fen())),
    };
    match rules {
        Rules::Unknown(name) => {
            warnings.push(Warning {
                kind: WarningKind::UnsupportedVariant,
                message: format!("variant \"{name}\" is not supported: its moves were not checked")
                    .into(),
                line,
            });
            (name.into(), Setup::Unsupported)
        }
        Rules::Lichess(variant) => {
            let pos = match fen {
                None => Ok(VariantPosition::new(variant)),
                Some(fen) => {
                    let mode = CastlingMode::detect(&fen.as_setup().clone());
                    lenient(
                        VariantPosition::from_setup(variant, fen.into_setup(), mode),
                        warnings,
                        line,
                    )
                }
            };
            let name = variant.uci().into();
            match pos {
                Ok(pos) => (name, Setup::Variant(pos)),
                Err(error) => (name, bad_fen(tags, error, line_of_fen())),
            }
        }
        Rules::Standard | Rules::Chess960 => {
            let chess960 = matches!(rules, Rules::Chess960);
            let pos = match fen {
                None => Ok(Chess::default()),
                Some(fen) => {
                    let setup = fen.into_setup();
                    let mode = if chess960 {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::detect(&setup)
                    };
                    lenient(Chess::from_setup(setup, mode), warnings, line)
                }
            };
            let name = if chess960 { "chess960" } else { "chess" }.into();
            match pos {
                Ok(pos) => (name, Setup::Chess(pos)),
                Err(error) => (name, bad_fen(tags, error, line_of_fen())),
            }
        }
    }
}

/// Accepts a FEN position whose castling rights or en passant square cannot
/// be right, or that has more material than a game could reach (lichess
/// "From Position" games may start anywhere), as python-chess does, with a
/// warning; rejects anything else (no king, a pawn on the back rank, the
/// side not to move in check, ...).
fn lenient<P>(
    pos: Result<P, PositionError<P>>,
    warnings: &mut Vec<Warning>,
    line: u64,
) -> Result<P, PositionError<P>> {
    let fixable = PositionErrorKinds::INVALID_CASTLING_RIGHTS
        | PositionErrorKinds::INVALID_EP_SQUARE
        | PositionErrorKinds::TOO_MUCH_MATERIAL;
    match pos {
        Err(error) if fixable.contains(error.kinds()) => {
            warnings.push(Warning {
                kind: WarningKind::MalformedTag,
                message: format!("FEN: {error}; accepted as set up").into(),
                line,
            });
            error
                .ignore_invalid_castling_rights()
                .or_else(PositionError::ignore_invalid_ep_square)
                .or_else(PositionError::ignore_too_much_material)
        }
        other => other,
    }
}

fn bad_fen(tags: &TagSet, error: impl std::fmt::Display, line: u64) -> Setup {
    Setup::BadFen(GameError {
        kind: ErrorKind::BadFen,
        san: tags.fen.map(|fen| tags.text(fen).into_owned()).unwrap_or_default(),
        fen: String::new(),
        line,
        message: format!("bad FEN: {error}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{options::TagNames, record::Selection};

    /// The records of `pgn` replayed with `roster_for`.
    fn records(pgn: &str, roster_for: Selection) -> Vec<GameRecord> {
        let mut records = Vec::new();
        let options = ReplayOptions { roster_for, ..ReplayOptions::default() };
        let chunk = Chunk::from_bytes("t", pgn.as_bytes().to_vec());
        Replayer::new(options).replay(&chunk, |record| records.push(record));
        records
    }

    /// `visit` lends each record the kept tags' buffers and takes them
    /// back: what it shows is what `replay` hands over, game after game.
    #[test]
    fn visited_records_are_the_replayed_ones() {
        let pgn = "[Event \"E\"]\n[ECO \"C20\"]\n[WhiteElo \"2100\"]\n\n1. e4 e5 1-0\n\n\
                   [Event \"F\"]\n\n1. d4 *\n\n\
                   [WhiteElo \"1900\"]\n[ECO \"A00\"]\n\n1. a3 0-1\n\n";
        let options = ReplayOptions {
            keep_tags: KeepTags::Only(TagNames::new(&["ECO", "WhiteElo"])),
            ..ReplayOptions::default()
        };
        let chunk = Chunk::from_bytes("t", pgn.as_bytes().to_vec());
        let (mut replayed, mut visited) = (Vec::new(), Vec::new());
        Replayer::new(options).replay(&chunk, |record| replayed.push(record));
        Replayer::new(options).visit(&chunk, |record| visited.push(record.clone()));
        assert_eq!(visited, replayed);
        let kept: Vec<Vec<_>> =
            visited.iter().map(|r| r.tags.iter().map(|(_, v)| v.to_owned()).collect()).collect();
        assert_eq!(kept, [vec!["C20", "2100"], vec![], vec!["1900", "A00"]]);
    }

    #[test]
    fn only_selected_records_carry_the_roster_values() {
        let roster = |white: &str| {
            format!(
                "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"3\"]\n\
                 [White \"{white}\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
            )
        };
        let pgn = format!(
            "{}1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n{}1. e4 Ke7 2. Ke2 1-0\n\n{}1. e4 e5 1-0\n\n",
            roster("clean"),
            roster("illegal"),
            roster("clean again"),
        );
        let names = |selection| -> Vec<_> {
            records(&pgn, selection)
                .into_iter()
                .map(|r| (r.white, r.black, r.event, r.round, r.result))
                .collect()
        };
        let full = |white: &str| {
            let given = |text: &str| Some(CompactString::from(text));
            (given(white), given("B"), given("E"), given("3"), given("1-0"))
        };
        assert_eq!(names(Selection::All), [full("clean"), full("illegal"), full("clean again")]);
        // A value left in the collector for a clean game is not handed to
        // the next game that is selected.
        assert_eq!(
            names(Selection::Errors),
            [Default::default(), full("illegal"), Default::default()]
        );
    }
}
