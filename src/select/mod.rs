//! Which games a command reads: the predicates shared by `filter`, `games`,
//! `validate`, `stats`, `tree` and `dupes`, parsed once into a
//! [`Selection`] and decided as early as each allows, through the observer
//! seam ([`Selected`], [`Partitioned`]):
//!
//! - on the tags ([`tags`]), before any move is replayed: a game that fails
//!   is skipped at once;
//! - on the positions and moves of the mainline ([`board`]), as the replay
//!   makes them, which stops as soon as they are decided (`Observer::rest`);
//! - on the record ([`verdict`]): what arbiter found.
//!
//! Different predicates must all hold; the values of one predicate are
//! alternatives, any of which may hold; a value written `!VALUE` excludes
//! the games it matches.

pub mod board;
pub mod tags;
pub mod verdict;

use std::{ops::ControlFlow, sync::Arc};

use shakmaty::{Bitboard, Move, Position};

use crate::{
    pgn::{tags::TagSet, values::GameResult},
    pipeline::Merge,
    record::GameRecord,
    replay::observer::{GameEnd, Observer, Rest},
};

use self::{
    board::{BoardTest, Decision, Identity, Progress, Reach, Signature},
    tags::{EloOf, Side, TagTest},
    verdict::VerdictTest,
};

/// An inclusive range, either end open: `MIN..MAX`, `MIN..`, `..MAX`, or
/// one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range<T> {
    /// The least value, if any.
    pub min: Option<T>,
    /// The greatest value, if any.
    pub max: Option<T>,
}

impl<T: PartialOrd + Copy> Range<T> {
    /// Whether `value` lies within.
    pub fn contains(&self, value: T) -> bool {
        self.min.is_none_or(|min| value >= min) && self.max.is_none_or(|max| value <= max)
    }
}

impl Range<u32> {
    /// Reads `MIN..MAX` of whole numbers (`what` names them in errors).
    pub fn parse(text: &str, what: &str) -> Result<Range<u32>, String> {
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| format!("not a {what} range: {text} (MIN..MAX, MIN.., ..MAX or N)"))
        };
        let (min, max) = tags::split_range(text);
        let range = Range { min: min.map(number).transpose()?, max: max.map(number).transpose()? };
        if range.min.is_none() && range.max.is_none() {
            return Err(format!("an empty {what} range"));
        }
        if let (Some(min), Some(max)) = (range.min, range.max)
            && min > max
        {
            return Err(format!(
                "{text}: a {what} range whose MIN is above its MAX matches nothing"
            ));
        }
        Ok(range)
    }
}

/// One predicate: its values, any of which may hold, and the values it
/// must not match.
#[derive(Debug, Clone)]
struct Clause<T> {
    any: Vec<T>,
    none: Vec<T>,
}

impl<T> Clause<T> {
    fn holds(&self, test: impl Fn(&T) -> bool) -> bool {
        (self.any.is_empty() || self.any.iter().any(&test)) && !self.none.iter().any(test)
    }

    /// Where the clause stands, from where each of its tests stands.
    fn decide(&self, test: impl Fn(&T) -> Decision) -> Decision {
        let any = if self.any.is_empty() {
            Decision::Yes
        } else {
            self.any.iter().map(&test).fold(Decision::No, Decision::or)
        };
        self.none.iter().map(test).fold(any, |so_far, d| so_far.and(!d))
    }
}

/// A predicate of the command line, with the values it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// `--player NAME`: either colour.
    Player,
    /// `--white NAME`.
    White,
    /// `--black NAME`.
    Black,
    /// `--event TEXT`.
    Event,
    /// `--site TEXT`.
    Site,
    /// `--round ROUND`.
    Round,
    /// `--date FROM..TO`.
    Date,
    /// `--elo MIN..MAX`: both players.
    Elo,
    /// `--either-elo MIN..MAX`.
    EitherElo,
    /// `--average-elo MIN..MAX`.
    AverageElo,
    /// `--white-elo MIN..MAX`.
    WhiteElo,
    /// `--black-elo MIN..MAX`.
    BlackElo,
    /// `--elo-diff MIN..MAX`.
    EloDiff,
    /// `--result RESULT`.
    Result,
    /// `--eco FROM..TO`.
    Eco,
    /// `--opening TEXT`.
    Opening,
    /// `--variant NAME`.
    Variant,
    /// `--speed CLASS`.
    Speed,
    /// `--termination-tag TEXT`.
    TerminationTag,
    /// `--tag NAME=VALUE` or `NAME~PATTERN`.
    Tag,
    /// `--error KIND`.
    Error,
    /// `--code CODE`.
    Code,
    /// `--ending END`.
    Ending,
    /// `--claimable threefold|fifty`.
    Claimable,
    /// `--plies MIN..MAX`.
    Plies,
    /// `--fen FEN`.
    Fen,
    /// `--placement BOARD`.
    Placement,
    /// `--material SIG`.
    Material,
    /// `--final-material SIG`.
    FinalMaterial,
    /// `--moves MOVES`.
    Moves,
}

impl Key {
    /// The option of the command line that gives it.
    pub fn flag(self) -> &'static str {
        match self {
            Key::Player => "--player",
            Key::White => "--white",
            Key::Black => "--black",
            Key::Event => "--event",
            Key::Site => "--site",
            Key::Round => "--round",
            Key::Date => "--date",
            Key::Elo => "--elo",
            Key::EitherElo => "--either-elo",
            Key::AverageElo => "--average-elo",
            Key::WhiteElo => "--white-elo",
            Key::BlackElo => "--black-elo",
            Key::EloDiff => "--elo-diff",
            Key::Result => "--result",
            Key::Eco => "--eco",
            Key::Opening => "--opening",
            Key::Variant => "--variant",
            Key::Speed => "--speed",
            Key::TerminationTag => "--termination-tag",
            Key::Tag => "--tag",
            Key::Error => "--error",
            Key::Code => "--code",
            Key::Ending => "--ending",
            Key::Claimable => "--claimable",
            Key::Plies => "--plies",
            Key::Fen => "--fen",
            Key::Placement => "--placement",
            Key::Material => "--material",
            Key::FinalMaterial => "--final-material",
            Key::Moves => "--moves",
        }
    }
}

/// The predicates of a run, parsed once and shared by every worker.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    inner: Arc<Predicates>,
}

#[derive(Debug, Default)]
struct Predicates {
    tags: Vec<Clause<TagTest>>,
    verdict: Vec<Clause<VerdictTest>>,
    /// The tests of positions and moves, in one list ...
    board: Vec<BoardTest>,
    /// ... which the clauses refer to by index.
    board_clauses: Vec<Clause<usize>>,
    /// The one ply position and material tests look at, if any.
    anchor: Option<u32>,
    /// The predicates as command-line arguments (`--player=carlsen`), in
    /// the order they were added: what `db build` records.
    arguments: Vec<String>,
}

/// How a [`Selection`] is put together, from the command line.
#[derive(Debug, Default)]
pub struct Builder {
    predicates: Predicates,
    /// Material signatures are White's first (`--material-strict`).
    strict: bool,
}

impl Builder {
    /// Material signatures name White's pieces first, rather than either
    /// side's.
    pub fn strict_material(&mut self, strict: bool) -> &mut Self {
        self.strict = strict;
        if strict {
            self.predicates.arguments.push("--material-strict".to_owned());
        }
        self
    }

    /// Position and material tests look at ply `ply` only (0: the start).
    pub fn anchor(&mut self, ply: Option<u32>) -> &mut Self {
        self.predicates.anchor = ply;
        self.predicates.arguments.extend(ply.map(|ply| format!("--ply={ply}")));
        self
    }

    /// Whole-game flags: `--valid`, `--invalid`, `--moves-after-end`,
    /// `--inconsistent-result`.
    pub fn flags(
        &mut self,
        valid: bool,
        invalid: bool,
        after_end: bool,
        inconsistent: bool,
    ) -> &mut Self {
        let tests = [
            (valid, VerdictTest::Valid(true), "--valid"),
            (invalid, VerdictTest::Valid(false), "--invalid"),
            (after_end, VerdictTest::MovesAfterEnd, "--moves-after-end"),
            (inconsistent, VerdictTest::InconsistentResult, "--inconsistent-result"),
        ];
        for (on, test, flag) in tests {
            if on {
                self.predicates.arguments.push(flag.to_owned());
                self.predicates.verdict.push(Clause { any: vec![test], none: Vec::new() });
            }
        }
        self
    }

    /// Adds predicate `key` with its values (`!VALUE` excludes).
    pub fn add(&mut self, key: Key, values: &[String]) -> Result<&mut Self, String> {
        if values.is_empty() {
            return Ok(self);
        }
        let mut parsed = Vec::new();
        for value in values {
            let (negated, text) = match value.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, value.as_str()),
            };
            parsed.push((negated, text));
        }
        let p = &mut self.predicates;
        p.arguments.extend(values.iter().map(|value| format!("{}={value}", key.flag())));
        match key {
            Key::Error | Key::Code | Key::Ending | Key::Claimable | Key::Plies => {
                let clause = clause(&parsed, |text| match key {
                    Key::Error => VerdictTest::error(text),
                    Key::Code => VerdictTest::code(text),
                    Key::Ending => VerdictTest::ending(text),
                    Key::Claimable => VerdictTest::claimable(text),
                    _ => Range::parse(text, "plies").map(VerdictTest::Plies),
                })?;
                p.verdict.push(clause);
            }
            Key::Fen | Key::Placement | Key::Material | Key::FinalMaterial | Key::Moves => {
                let strict = self.strict;
                let tests = clause(&parsed, |text| match key {
                    Key::Fen => Identity::parse(text)
                        // A placement alone is what `--placement` matches;
                        // a word that is no placement is not pointed there.
                        .map_err(|error| {
                            let alone = text.split_ascii_whitespace().count() == 1;
                            if alone && board::placement(text).is_ok() {
                                format!("{error}; or --placement {text}")
                            } else {
                                error
                            }
                        })
                        .map(|identity| BoardTest::Position(identity.clone(), identity.reach())),
                    Key::Placement => board::placement(text).map(|b| {
                        let reach = Reach::of(&b, Bitboard::EMPTY);
                        BoardTest::Placement(Box::new(b), reach)
                    }),
                    Key::Material => Signature::parse(text, strict).map(BoardTest::Material),
                    Key::FinalMaterial => {
                        Signature::parse(text, strict).map(BoardTest::FinalMaterial)
                    }
                    _ => BoardTest::moves(text),
                })?;
                let mut index = |tests: Vec<BoardTest>| {
                    tests
                        .into_iter()
                        .map(|test| {
                            p.board.push(test);
                            p.board.len() - 1
                        })
                        .collect()
                };
                let any = index(tests.any);
                let none = index(tests.none);
                p.board_clauses.push(Clause { any, none });
            }
            _ => {
                let clause = clause(&parsed, |text| tag_test(key, text))?;
                p.tags.push(clause);
            }
        }
        Ok(self)
    }

    /// The selection.
    pub fn build(self) -> Selection {
        Selection { inner: Arc::new(self.predicates) }
    }
}

fn clause<T>(
    values: &[(bool, &str)],
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Clause<T>, String> {
    let mut clause = Clause { any: Vec::new(), none: Vec::new() };
    for &(negated, text) in values {
        let test = parse(text)?;
        if negated { clause.none.push(test) } else { clause.any.push(test) }
    }
    Ok(clause)
}

fn tag_test(key: Key, text: &str) -> Result<TagTest, String> {
    let lower = || text.trim().to_lowercase();
    let elo = |of| Range::parse(text, "rating").map(|range| TagTest::Elo(of, range));
    match key {
        Key::Player => TagTest::player(Side::Either, text),
        Key::White => TagTest::player(Side::White, text),
        Key::Black => TagTest::player(Side::Black, text),
        Key::Event => Ok(TagTest::Contains { tag: "Event", text: lower() }),
        Key::Site => Ok(TagTest::Contains { tag: "Site", text: lower() }),
        Key::Opening => Ok(TagTest::Contains { tag: "Opening", text: lower() }),
        Key::TerminationTag => Ok(TagTest::Equals { tag: "Termination", text: lower() }),
        Key::Round => Ok(TagTest::Round(text.trim().to_owned())),
        Key::Date => TagTest::date(text),
        Key::Elo => elo(EloOf::Both),
        Key::EitherElo => elo(EloOf::Either),
        Key::AverageElo => elo(EloOf::Average),
        Key::WhiteElo => elo(EloOf::White),
        Key::BlackElo => elo(EloOf::Black),
        Key::EloDiff => Range::parse(text, "rating gap").map(TagTest::EloDiff),
        Key::Result => GameResult::parse(text)
            .map(TagTest::Result)
            .ok_or_else(|| format!("--result {text}: one of 1-0, 0-1, 1/2-1/2, *")),
        Key::Eco => TagTest::eco(text),
        Key::Variant => Ok(TagTest::variant(text)),
        Key::Speed => crate::pgn::values::Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == text.trim())
            .map(TagTest::Speed)
            .ok_or_else(|| {
                let names: Vec<_> =
                    crate::pgn::values::Speed::ALL.iter().map(|s| s.name()).collect();
                format!("--speed {text}: one of {}", names.join(", "))
            }),
        _ => TagTest::tag(text),
    }
}

impl Selection {
    /// Every game (no predicate).
    pub fn everything() -> Selection {
        Selection::default()
    }

    /// Whether a predicate reads what replay found (validity, errors,
    /// codes, ends, claims): the Laws must then be applied.
    pub fn reads_verdict(&self) -> bool {
        !self.inner.verdict.is_empty()
    }

    /// Whether a predicate looks at the positions or moves of the
    /// mainline (the moves must then be replayed to decide it).
    pub fn reads_board(&self) -> bool {
        !self.inner.board_clauses.is_empty()
    }

    /// Whether the tests of positions and moves may pass on a game that
    /// ends in `end` (`false` is a proof that they fail; see
    /// [`board::Ending`]).
    pub fn may_end_in(&self, end: &board::Ending) -> bool {
        let p = &self.inner;
        p.board_clauses.iter().all(|clause| {
            clause.any.is_empty() || clause.any.iter().any(|&i| p.board[i].may_end_in(end))
        })
    }

    /// The predicates as command-line arguments, one an option with its
    /// value (`--valid`, `--player=carlsen`), in the order they were added
    /// (a fixed order of the options, the values of one in the order given).
    pub fn arguments(&self) -> &[String] {
        &self.inner.arguments
    }

    /// Whether a predicate is on the tags.
    pub fn reads_tags(&self) -> bool {
        !self.inner.tags.is_empty()
    }

    /// Whether every game is selected.
    pub fn is_everything(&self) -> bool {
        let p = &self.inner;
        p.tags.is_empty() && p.verdict.is_empty() && p.board_clauses.is_empty()
    }

    /// Whether the game's tags pass (the rest is still to be decided).
    pub fn tags_pass(&self, tags: &TagSet<'_>) -> bool {
        self.inner.tags.iter().all(|clause| clause.holds(|test| test.matches(tags)))
    }

    /// Whether the replayed game passes what only the replay can tell.
    fn rest_passes(&self, progress: &Progress, record: &GameRecord) -> bool {
        let p = &self.inner;
        p.verdict.iter().all(|clause| clause.holds(|test| test.matches(record)))
            && p.board_clauses.iter().all(|clause| clause.holds(|&i| progress.passed(&p.board, i)))
    }
}

/// Decides one game after another: the state of a selection while a game
/// is replayed.
#[derive(Debug, Clone)]
struct Judge {
    selection: Selection,
    progress: Progress,
    /// Whether position and move tests are asked for.
    board: bool,
    /// Whether the game is chess or Chess960, whose positions `--fen`
    /// names (a variant's are not chess positions).
    chess: bool,
    /// Where the current game stands: decided as soon as its tags fail,
    /// or its positions and moves settle every predicate (the verdict's
    /// wait for the end of the game).
    decision: Decision,
}

impl Judge {
    fn new(selection: Selection) -> Judge {
        let board = !selection.inner.board.is_empty();
        let progress = Progress::default();
        Judge { selection, progress, board, chess: true, decision: Decision::Open }
    }

    /// A new game's tags: whether they pass.
    fn tags(&mut self, tags: &TagSet<'_>) -> bool {
        if self.board {
            self.progress.reset(&self.selection.inner.board);
            self.chess = crate::chess::setup::is_chess(
                tags.variant.map(|value| tags.text(value)).as_deref(),
            );
        }
        let pass = self.selection.tags_pass(tags);
        self.decision = if pass { self.decide() } else { Decision::No };
        pass
    }

    /// Where the game stands on what the replay tells, its tags passed.
    fn decide(&self) -> Decision {
        let p = &self.selection.inner;
        let verdict = if p.verdict.is_empty() { Decision::Yes } else { Decision::Open };
        p.board_clauses.iter().fold(verdict, |so_far, clause| {
            so_far.and(clause.decide(|&i| self.progress.decision(&p.board, i)))
        })
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        if self.board {
            let p = &self.selection.inner;
            self.progress.start(&p.board, p.anchor, pos, standard, self.chess);
            if self.progress.take_changed() {
                self.decision = self.decide();
            }
        }
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        if self.board && mainline {
            let p = &self.selection.inner;
            self.progress.after_move(&p.board, p.anchor, pos, m, ply);
            if self.progress.take_changed() {
                self.decision = self.decide();
            }
        }
    }

    /// Whether the replayed game passes the rest.
    fn rest(&self, record: &GameRecord) -> bool {
        self.selection.rest_passes(&self.progress, record)
    }
}

/// `inner`, shown only the selected games: a game whose tags fail is
/// skipped before any move is replayed; one whose moves or record fail is
/// dropped after it (`Observer::keep`). The inner observer sees the
/// callbacks of every game it may keep; `end_game` only for those it does.
#[derive(Debug, Clone)]
pub struct Selected<O> {
    judge: Judge,
    /// The observer of the selected games.
    pub inner: O,
}

impl<O> Selected<O> {
    /// `inner` behind `selection`.
    pub fn new(selection: Selection, inner: O) -> Selected<O> {
        Selected { judge: Judge::new(selection), inner }
    }
}

/// Forwards the callbacks of a game's moves to `self.inner`, after the
/// judge has seen them.
macro_rules! forward_moves {
    () => {
        fn start<P: Position>(&mut self, pos: &P, standard: bool) {
            self.judge.start(pos, standard);
            self.inner.start(pos, standard);
        }

        fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
            self.inner.before_move(pos, m);
        }

        fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
            self.judge.after_move(pos, m, ply, mainline);
            self.inner.after_move(pos, m, ply, mainline);
        }

        fn nag(&mut self, nag: u8) {
            self.inner.nag(nag);
        }

        fn comment(&mut self, text: &[u8]) {
            self.inner.comment(text);
        }

        fn begin_variation(&mut self) {
            self.inner.begin_variation();
        }

        fn end_variation(&mut self) {
            self.inner.end_variation();
        }
    };
}

impl<O: Observer> Observer for Selected<O> {
    type Output = O::Output;

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        if !self.judge.tags(tags) {
            return ControlFlow::Break(());
        }
        self.inner.tags(tags)
    }

    forward_moves!();

    fn rest(&self) -> Rest {
        match self.judge.decision {
            Decision::No => Rest::Drop,
            Decision::Yes => self.inner.rest(),
            Decision::Open => Rest::Replay.and(self.inner.rest()),
        }
    }

    fn keep(&mut self, record: &GameRecord) -> ControlFlow<()> {
        if !self.judge.rest(record) {
            return ControlFlow::Break(());
        }
        self.inner.keep(record)
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        self.inner.end_game(game)
    }
}

impl<O: Merge> Merge for Selected<O> {
    fn merge(&mut self, other: Self) {
        self.inner.merge(other.inner);
    }
}

/// `inner`, shown every game, each with whether it is selected (for
/// `filter --rejects`, which writes the others too): nothing is skipped,
/// so every game is replayed.
#[derive(Debug, Clone)]
pub struct Partitioned<O> {
    judge: Judge,
    /// Whether the current game's tags passed.
    tags_passed: bool,
    /// The observer of every game.
    pub inner: O,
}

impl<O> Partitioned<O> {
    /// `inner`, with `selection` deciding each game.
    pub fn new(selection: Selection, inner: O) -> Partitioned<O> {
        Partitioned { judge: Judge::new(selection), tags_passed: false, inner }
    }
}

impl<O: Observer> Observer for Partitioned<O> {
    /// Whether the game is selected, and what `inner` made of it.
    type Output = (bool, O::Output);

    fn tags(&mut self, tags: &TagSet<'_>) -> ControlFlow<()> {
        self.tags_passed = self.judge.tags(tags);
        self.inner.tags(tags)
    }

    forward_moves!();

    /// Every game is kept: once it is decided, what `inner` needs.
    fn rest(&self) -> Rest {
        match self.judge.decision {
            Decision::Open => Rest::Replay.and(self.inner.rest()),
            Decision::Yes | Decision::No => self.inner.rest(),
        }
    }

    fn keep(&mut self, record: &GameRecord) -> ControlFlow<()> {
        self.inner.keep(record)
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        let selected = self.tags_passed && self.judge.rest(game.record);
        (selected, self.inner.end_game(game))
    }
}
