//! Replays one game's movetext tokens on a position.
//!
//! Input: the lexer's tokens and a start position; output: `MovetextFacts`
//! (plies, the first error, rule findings, the result marker) plus warnings.
//! Generic over shakmaty's `Position`, so standard chess runs on `Chess`
//! without the cost of variant dispatch. The first bad mainline move stops
//! the replay of the mainline; the lexer still runs to the end so the
//! result marker and structural problems are seen.

use std::ops::ControlFlow;

use shakmaty::{
    ByColor, Chess, Color, EnPassantMode,
    fen::Fen,
    san::{San, Suffix},
};

use super::observer::{Observer, Rest};
use crate::{
    chess::{
        notation::{self, Written},
        resolve::Replayable,
        why,
    },
    laws::{
        RuleFindings, RuleTracker,
        dead::{self, Mate},
        result,
    },
    pgn::lexer::{Lexer, Located, Token},
    record::{
        ErrorKind, Excerpt, GameError, MAX_VARIATION_DEPTH, Termination, Warning, WarningKind,
    },
    replay::ReplayOptions,
};

/// What replaying a movetext found.
#[derive(Debug, Default)]
pub struct MovetextFacts {
    /// Mainline plies legally replayed.
    pub plies: u32,
    /// The first error and its ply.
    pub error: Option<(GameError, u32)>,
    /// Rule findings for the mainline.
    pub findings: RuleFindings,
    /// The first result marker outside variations.
    pub result_marker: Option<&'static str>,
    /// FEN of the last mainline position, when asked for.
    pub final_fen: String,
    /// Whether any move token was seen.
    pub has_moves: bool,
    /// Per side, whether it lacks mating material in the last position.
    pub cannot_mate: ByColor<bool>,
    /// The last mainline position, in chess (not a variant), for the
    /// analysis of Art. 6.9 when the result needs it.
    pub final_position: Option<Chess>,
    /// Whether the observer stopped the replay (`Rest`), and then whether
    /// it drops the game.
    pub stopped: Option<Rest>,
}

impl MovetextFacts {
    /// Whether `side` cannot mate from the last position by any series of
    /// legal moves: by material, or proved by the analysis of
    /// [`crate::laws::dead`] where [`result::may_be_unwinnable`] lets it
    /// run: its static reasoning (frozen pawns), and when `search`, its
    /// search too (`None` when it ran out of budget, or without `search`
    /// when the statics do not decide).
    pub fn final_side_cannot_mate(&self, side: Color, search: bool) -> Option<bool> {
        if *self.cannot_mate.get(side) {
            return Some(true);
        }
        match &self.final_position {
            // On time, a winner with a man or two that every reply captures
            // (`Qg7+ Kxg7`) is searched too: no static rule sees it.
            Some(pos)
                if result::may_be_unwinnable(pos, side) || (search && captured(pos, side)) =>
            {
                let budget = if search { dead::GAME_BUDGET } else { 0 };
                match dead::can_mate(pos, side, budget) {
                    Mate::Impossible => Some(true),
                    Mate::Possible => Some(false),
                    Mate::Undetermined => None,
                }
            }
            _ => Some(false),
        }
    }
}

/// Whether `side` has at most two men besides its king in `pos`, and the
/// other side, to move, only captures: a forced capture may leave `side`
/// unable to mate. Checked before a search, which cost a third more
/// `validate` time on lichess games when run for every win on time by one
/// or two men (benches/HISTORY.md).
fn captured(pos: &Chess, side: Color) -> bool {
    use shakmaty::Position;
    let board = pos.board();
    pos.turn() != side
        && (board.by_color(side) & !board.kings()).count() <= 2
        && pos.legal_moves().iter().all(|m| m.is_capture())
}

/// A finding that may repeat many times in a game: reported once, with the
/// first occurrence and a count.
#[derive(Debug, Default)]
struct Repeated {
    first: Option<(String, u64)>,
    count: u32,
}

impl Repeated {
    fn note(&mut self, message: impl FnOnce() -> String, line: u64) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((message(), line));
        }
    }

    fn into_warning(self, kind: WarningKind, warnings: &mut Vec<Warning>) {
        if let Some((message, line)) = self.first {
            let message = match self.count {
                1 => message.into(),
                n => format!("{message} (and {} more in this game)", n - 1).into(),
            };
            warnings.push(Warning { kind, message, line });
        }
    }
}

/// A variation being replayed (with `--variations`): where to return to.
struct Frame<P> {
    pos: P,
    before_last: Option<P>,
    ply: u32,
    broken: bool,
    line: u64,
}

/// State of one movetext replay.
struct Replay<'r, 'a, P, O> {
    pos: P,
    /// Position before the last move of the current line (for variations).
    before_last: Option<P>,
    ply: u32,
    /// Set by the first mainline error: the mainline is not replayed further.
    mainline_done: bool,
    frames: Vec<Frame<P>>,
    /// Depth of variations being skipped (without `--variations`).
    skipped_depth: u32,
    /// Line of the outermost skipped `(`.
    skipped_line: u64,
    variations: bool,
    rules: &'r mut RuleTracker,
    observer: &'r mut O,
    warnings: &'r mut Vec<Warning>,
    facts: MovetextFacts,
    suffixes: Repeated,
    notation: Repeated,
    numbers: Repeated,
    stray: Repeated,
    unmatched: Repeated,
    /// The last mainline move as written, its suffix and line.
    last_move: Option<(&'a [u8], Option<Suffix>, u64)>,
    /// Whether the side to move is in check, when known (saves the test
    /// when resolving the next move).
    in_check: Option<bool>,
    /// `ReplayOptions::early_stop`.
    early_stop: bool,
    /// Whether the Laws are applied (not `ReplayOptions::skip_laws`).
    laws: bool,
    /// Whether the position is a variant's, which may end by its own rule.
    variant: bool,
    /// The bytes the tokens are slices of, for an error's excerpt.
    source: &'a [u8],
}

/// How a movetext is replayed, besides the options.
pub struct Context<'r, O> {
    /// Tracks the Laws; reused across games.
    pub rules: &'r mut RuleTracker,
    /// Whether the position is a variant's (enables its end check).
    pub variant: bool,
    /// Whether the start is the standard position of standard chess.
    pub standard: bool,
    /// Who watches the moves.
    pub observer: &'r mut O,
}

/// Replays `tokens` from `start`.
pub fn replay<'a, P: Replayable, O: Observer>(
    start: P,
    tokens: &mut Lexer<'a>,
    context: Context<'_, O>,
    options: &ReplayOptions,
    warnings: &mut Vec<Warning>,
) -> MovetextFacts {
    let Context { rules, variant, standard, observer } = context;
    if !options.skip_laws {
        rules.start(&start, variant);
    }
    observer.start(&start, standard);
    let mut replay = Replay {
        pos: start,
        before_last: None,
        ply: 0,
        mainline_done: false,
        frames: Vec::new(),
        skipped_depth: 0,
        skipped_line: 0,
        variations: options.variations,
        rules,
        observer,
        warnings,
        facts: MovetextFacts::default(),
        suffixes: Repeated::default(),
        notation: Repeated::default(),
        numbers: Repeated::default(),
        stray: Repeated::default(),
        unmatched: Repeated::default(),
        last_move: None,
        in_check: None,
        early_stop: options.early_stop,
        laws: !options.skip_laws,
        variant,
        source: tokens.source(),
    };
    tokens.try_for_each_token(|Located { token, line }| {
        replay.token(token, line);
        // The rest is lexed by the caller, to find where the game ends.
        if replay.facts.stopped.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    replay.finish(options.final_fen)
}

impl<'a, P: Replayable, O: Observer> Replay<'_, 'a, P, O> {
    fn in_variation(&self) -> bool {
        !self.frames.is_empty() || self.skipped_depth > 0
    }

    fn token(&mut self, token: Token<'a>, line: u64) {
        match token {
            Token::Word(word) => {
                self.facts.has_moves = true;
                if self.skipped_depth == 0 {
                    self.word(word, line);
                }
            }
            Token::MoveNumber(number) if !self.in_variation() && !self.mainline_done => {
                let expected = self.pos.fullmoves().get();
                if number != expected {
                    self.numbers.note(
                        || format!("move number {number} stands where move {expected} is played"),
                        line,
                    );
                }
            }
            Token::UnterminatedComment => self.error(ErrorKind::UnterminatedComment, b"{", line),
            Token::VariationStart => self.open_variation(line),
            Token::VariationEnd => self.close_variation(line),
            Token::Result(result) if !self.in_variation() => {
                self.facts.result_marker.get_or_insert(result);
            }
            Token::Stray => self
                .stray
                .note(|| "control bytes (e.g. NUL) in the movetext, ignored".to_owned(), line),
            // Annotations of a variation that is not replayed are not seen.
            Token::Nag(nag) if self.skipped_depth == 0 => self.observer.nag(nag),
            Token::Comment(text) if self.skipped_depth == 0 => self.observer.comment(text),
            Token::Nag(_) | Token::Comment(_) => {}
            Token::MoveNumber(_) | Token::Result(_) => {}
        }
    }

    fn open_variation(&mut self, line: u64) {
        let too_deep = self.variations && self.frames.len() >= MAX_VARIATION_DEPTH;
        if too_deep && self.skipped_depth == 0 {
            self.error(ErrorKind::VariationsTooDeep, b"(", line);
        }
        if !self.variations || self.skipped_depth > 0 || too_deep {
            if self.skipped_depth == 0 {
                self.skipped_line = line;
            }
            self.skipped_depth = self.skipped_depth.saturating_add(1);
            return;
        }
        // A variation replaces the last move: it starts where that move did.
        let branch = self.before_last.clone().unwrap_or_else(|| self.pos.clone());
        let broken = match self.frames.last() {
            Some(outer) => outer.broken,
            None => self.mainline_done,
        };
        let frame = Frame {
            pos: std::mem::replace(&mut self.pos, branch),
            before_last: self.before_last.take(),
            ply: self.ply,
            broken,
            line,
        };
        self.ply = self.ply.saturating_sub(1);
        self.in_check = None;
        self.frames.push(frame);
        self.observer.begin_variation();
    }

    fn close_variation(&mut self, line: u64) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
        } else if let Some(frame) = self.frames.pop() {
            self.pos = frame.pos;
            self.before_last = frame.before_last;
            self.ply = frame.ply;
            self.in_check = None;
            self.observer.end_variation();
        } else {
            self.unmatched.note(|| "`)` without a matching `(`".to_owned(), line);
        }
    }

    fn word(&mut self, word: &'a [u8], line: u64) {
        let mainline = self.frames.is_empty();
        let written = notation::parse(word);
        if mainline && self.facts.result_marker.is_some() {
            let kind = match written {
                Written::Garbage => ErrorKind::UnparseableToken,
                _ => ErrorKind::MoveAfterResult,
            };
            return self.error(kind, word, line);
        }
        let line_broken = match self.frames.last() {
            Some(frame) => frame.broken,
            None => self.mainline_done,
        };
        if line_broken {
            return;
        }
        let (san_plus, normalised) = match written {
            Written::Move { san_plus, normalised } => (san_plus, normalised),
            Written::Null => return self.error(ErrorKind::NullMove, word, line),
            Written::Garbage => return self.error(ErrorKind::UnparseableToken, word, line),
        };
        let resolved = match notation::resolve(&self.pos, san_plus.san, word, self.in_check) {
            Ok(resolved) => resolved,
            Err(kind) => return self.error(kind, word, line),
        };
        if let Some(reason) = if normalised { Some("not SAN") } else { resolved.nonstandard } {
            let canonical = San::from_move(&self.pos, resolved.m);
            self.notation.note(|| format!("{} ({reason}) read as {canonical}", text(word)), line);
        }
        if self.variations {
            self.before_last = Some(self.pos.clone());
        }
        self.observer.before_move(&self.pos, &resolved.m);
        if !mainline {
            self.pos.play_unchecked(resolved.m);
            self.ply += 1;
            self.in_check = None;
            self.observer.after_move(&self.pos, &resolved.m, self.ply, false);
            return;
        }
        // A `#` on the previous move was wrong: a legal move followed it.
        if let Some((previous, Some(Suffix::Checkmate), previous_line)) = self.last_move.take() {
            self.suffixes
                .note(|| format!("{} is marked # but is not mate", text(previous)), previous_line);
        }
        if self.laws {
            self.rules.before_move(&self.pos, resolved.m);
        }
        self.pos.play_unchecked(resolved.m);
        self.ply += 1;
        self.facts.plies = self.ply;
        if self.laws {
            self.rules.after_move(&self.pos, self.ply, resolved.m);
        }
        self.observer.after_move(&self.pos, &resolved.m, self.ply, true);
        match self.observer.rest() {
            Rest::Replay => {}
            Rest::Enough if !self.early_stop => {}
            rest => {
                self.facts.stopped = Some(rest);
                return;
            }
        }
        let gives_check = self.pos.is_check();
        self.in_check = Some(gives_check);
        // Asked only of a variant's move with a suffix: the rest cannot be
        // marked for a variant's win.
        let variant_win =
            self.variant && san_plus.suffix.is_some() && notation::variant_win(&self.pos);
        if !notation::check_suffix_ok(san_plus.suffix, gives_check, variant_win) {
            self.suffixes.note(
                || match gives_check {
                    true => format!("{} gives check but has no + or #", text(word)),
                    false => format!("{} is marked as check but does not check", text(word)),
                },
                line,
            );
        }
        self.last_move = Some((word, san_plus.suffix, line));
    }

    /// Records the first error of the game; an error ends the replay of the
    /// line it is in (the mainline, or the variation).
    fn error(&mut self, kind: ErrorKind, word: &[u8], line: u64) {
        let in_variation = match self.frames.last_mut() {
            Some(frame) => {
                frame.broken = true;
                true
            }
            None => {
                self.mainline_done = true;
                false
            }
        };
        if self.facts.error.is_some() {
            return;
        }
        let mut message = kind.describe().to_owned();
        if in_variation {
            message.push_str(" in a variation");
        }
        // Why, worked out here only, once per invalid game: a legal move
        // never comes this way.
        let reason = match (kind, notation::parse(word)) {
            (
                ErrorKind::IllegalMove | ErrorKind::AmbiguousMove | ErrorKind::MissingPromotion,
                Written::Move { san_plus, .. },
            ) => {
                let why = why::explain(&self.pos, san_plus.san, kind);
                message.push_str(": ");
                message.push_str(why.message.strip_prefix("ambiguous: ").unwrap_or(&why.message));
                Some(why.code)
            }
            _ => None,
        };
        let error = GameError {
            kind,
            san: text(word),
            fen: Fen::from_position(&self.pos, EnPassantMode::Legal).to_string(),
            line,
            message,
            reason,
            excerpt: Excerpt::of(self.source, word).map(Box::new),
        };
        self.facts.error = Some((error, self.ply + 1));
    }

    fn finish(mut self, final_fen: bool) -> MovetextFacts {
        if self.facts.stopped.is_some() {
            // Stopped by the observer: a partial record (the plies so far).
            return self.facts;
        }
        if !self.frames.is_empty() {
            let outermost = self.frames.swap_remove(0);
            self.frames.clear();
            // Back to the mainline, where the unclosed `(` stands.
            self.pos = outermost.pos;
            self.ply = outermost.ply;
            self.error(ErrorKind::UnterminatedVariation, b"(", outermost.line);
        } else if self.skipped_depth > 0 && self.facts.error.is_none() {
            self.error(ErrorKind::UnterminatedVariation, b"(", self.skipped_line);
        }
        let findings = match self.laws {
            true => self.rules.finish(&self.pos, self.facts.plies),
            false => RuleFindings::default(),
        };
        // Without the Laws, no mate is known: the last suffix is not judged.
        if let Some((written, suffix, line)) = self.last_move.take().filter(|_| self.laws) {
            let ended_by =
                |termination| findings.termination == Some((termination, self.facts.plies));
            let mated = ended_by(Termination::Checkmate);
            // A variant's win may be marked `#` (lichess writes it so) or
            // not: a mate that is also a third check ends as the variant's
            // win.
            let won = mated || ended_by(Termination::VariantWin);
            match suffix {
                Some(Suffix::Checkmate) if !won => self
                    .suffixes
                    .note(|| format!("{} is marked # but is not mate", text(written)), line),
                Some(Suffix::Check) | None if mated => self
                    .suffixes
                    .note(|| format!("{} mates but is not marked #", text(written)), line),
                _ => {}
            }
        }
        if let (Some((error, error_ply)), Some((termination, end_ply))) =
            (self.facts.error.as_mut(), findings.termination)
            && *error_ply > end_ply
            && error.kind != ErrorKind::UnterminatedComment
        {
            error.message.push_str(&format!(
                " (the game had already ended by {} after ply {end_ply})",
                termination.name().replace('_', " ")
            ));
        }
        // Reported where it was first seen, before the others (as one).
        self.unmatched.into_warning(WarningKind::UnmatchedVariationEnd, self.warnings);
        self.suffixes.into_warning(WarningKind::CheckSuffix, self.warnings);
        self.notation.into_warning(WarningKind::NonstandardNotation, self.warnings);
        self.numbers.into_warning(WarningKind::MoveNumber, self.warnings);
        self.stray.into_warning(WarningKind::StrayBytes, self.warnings);
        self.facts.findings = findings;
        if self.laws {
            self.facts.cannot_mate =
                ByColor::new_with(|side| self.pos.has_insufficient_material(side));
            self.facts.final_position = self.pos.as_chess().cloned();
        }
        if final_fen {
            // Appended as ASCII: through `Display`, a character at a time,
            // it cost about 2% of `db build`.
            let mut fen = String::with_capacity(96);
            Fen::from_position(&self.pos, EnPassantMode::Legal).append_to_string(&mut fen);
            self.facts.final_fen = fen;
        }
        self.facts
    }
}

/// A token as a finding quotes it (at most [`crate::record::QUOTED`] bytes).
fn text(word: &[u8]) -> String {
    crate::record::quoted(word)
}
