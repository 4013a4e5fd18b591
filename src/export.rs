//! The export observer: each game replayed without error, written in PGN
//! export format (`arbiter fmt`), or its original bytes when it cannot be.
//! The format itself is `pgn::writer`'s.
//!
//! A formatted game must read back as the same game: it is replayed again
//! and compared (one game, the same tags, the same moves, the same
//! verdict), and formatted again, which must change nothing. A game that
//! fails either, or whose tag section cannot be written back faithfully
//! (tag lines the reader skips, a tag given twice, a control character in
//! a tag), is copied through byte for byte, with the reason.

use std::{io, ops::Range};

use shakmaty::{
    Color, Move, Position,
    san::{San, SanPlus},
};

use crate::{
    chess::notation,
    pgn::{
        chunk::Chunk,
        tags::{self, ROSTER, TagList},
        values::GameResult,
        writer::{MovetextWriter, write_tags},
    },
    record::GameRecord,
    replay::ReplayOptions,
    replay::{
        Replayer,
        observer::{GameEnd, KeepTags, MovesHash, Observer},
    },
};

/// A game as `arbiter fmt` writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    /// The formatted game, or its original bytes exactly.
    pub text: Vec<u8>,
    /// Why the game is copied as it is, when it is not formatted.
    pub unformatted: Option<&'static str>,
    /// Whether `text` differs from the original bytes.
    pub changed: bool,
    /// Whether the game is left out (`text` is empty): a game too large
    /// read from a stream, whose bytes were not held.
    pub left_out: bool,
    /// For `fmt --check`, a changed game's diff from its original text to
    /// `text`, made on the worker that formatted it.
    pub diff: Option<GameDiff>,
}

/// Writes a game in export format as it is replayed; `None` for a game
/// that cannot be (not replayed, an error, a tag section that would not be
/// written back faithfully), with the reason.
#[derive(Debug, Default)]
pub struct Formatter {
    writer: MovetextWriter,
    /// The move about to be played: its number, side and SAN.
    next: Option<(u32, Color, San)>,
}

impl Observer for Formatter {
    type Output = Result<Vec<u8>, &'static str>;

    fn start<P: Position>(&mut self, _pos: &P, _standard: bool) {
        self.writer = MovetextWriter::new();
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        self.next = Some((pos.fullmoves().get(), pos.turn(), San::from_move(pos, *m)));
    }

    /// The move in canonical SAN, with the suffix the new position calls for.
    fn after_move<P: Position>(&mut self, pos: &P, _m: &Move, _ply: u32, _mainline: bool) {
        if let Some((number, turn, san)) = self.next.take() {
            let suffix = notation::suffix_of(pos);
            self.writer.san(number, turn, SanPlus { san, suffix });
        }
    }

    fn nag(&mut self, nag: u8) {
        self.writer.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        self.writer.comment(text);
    }

    fn begin_variation(&mut self) {
        self.writer.open_variation();
    }

    fn end_variation(&mut self) {
        self.writer.close_variation();
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
        let writer = std::mem::replace(&mut self.writer, MovetextWriter::new());
        let record = game.record;
        if !game.replayed {
            return Err("not replayable");
        }
        if record.error.is_some() {
            return Err("it has an error");
        }
        let tags = faithful_tags(game)?;
        // The marker is one of the four results: the movetext's, else the
        // Result tag's if it is one of them (the tag is kept as written).
        let result = record
            .result_marker
            .or_else(|| {
                record.result.as_deref().and_then(GameResult::parse).map(GameResult::as_str)
            })
            .unwrap_or("*");
        let mut text = Vec::with_capacity(game.text.len() + 64);
        write_tags(&tags, result, &mut text);
        text.extend_from_slice(&writer.finish(result));
        text.push(b'\n');
        Ok(text)
    }
}

/// The game's tags, when its tag section can be written back as it reads:
/// no tag line the reader skips, no tag given twice, no control character
/// in a name or value, and names of letters, digits and `_`.
fn faithful_tags(game: &GameEnd<'_, '_>) -> Result<TagList, &'static str> {
    let set = game.tags;
    if set.unreadable > 0
        || tags::unreadable_lines(set, game.tag_section, game.record.line).next().is_some()
    {
        return Err("a tag line cannot be read");
    }
    if !set.duplicates.is_empty() {
        return Err("a tag is given more than once");
    }
    let list = set.to_list();
    for (name, value) in list.iter() {
        let name_ok =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !name_ok {
            return Err("a tag name is not of letters, digits and _");
        }
        if value.chars().any(char::is_control) {
            return Err("a tag value holds a control character");
        }
    }
    Ok(list)
}

/// The observer `fmt` writes with: formats each game and checks that the
/// formatted text reads back as the same game and is formatted already.
#[derive(Debug)]
pub struct Exporter {
    format: Formatter,
    /// The original game's mainline, hashed.
    moves: MovesHash,
    /// Replays the formatted text.
    again: Replayer,
    /// Whether a changed game's [`Export::diff`] is made (`fmt --check`).
    diff: bool,
}

impl Exporter {
    /// An exporter for games replayed with `options` (which must replay
    /// variations, to write their moves).
    pub fn new(options: ReplayOptions) -> Exporter {
        Exporter {
            format: Formatter::default(),
            moves: MovesHash::default(),
            again: Replayer::new(options),
            diff: false,
        }
    }

    /// The same exporter, which also gives each changed game's diff.
    pub fn with_diff(self) -> Exporter {
        Exporter { diff: true, ..self }
    }
}

/// What formatting changes in one game, as the hunks of a unified diff
/// (`fmt --check`). Made on the worker, which does not know on which line
/// of its file the game stands: [`GameDiff::write`] numbers the lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDiff {
    /// Lines of the original text before the game's first line (the bytes
    /// before a file's first game).
    skipped: usize,
    /// Each hunk: its line ranges in the original and formatted texts
    /// (0-based), and its lines, each with its `-`, `+` or ` `.
    hunks: Vec<(Range<usize>, Range<usize>, String)>,
}

impl GameDiff {
    /// The diff from `old`, whose first `skipped` bytes come before the
    /// game, to `new`, with 3 lines of context as `diff -u` gives.
    pub fn new(old: &[u8], new: &[u8], skipped: usize) -> GameDiff {
        let skipped = memchr::memchr_iter(b'\n', &old[..skipped.min(old.len())]).count();
        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
        let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
        let mut hunks = Vec::new();
        for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
            let ops = hunk.ops();
            let (Some(first), Some(last)) = (ops.first(), ops.last()) else { continue };
            let mut lines = String::new();
            for change in hunk.iter_changes() {
                lines.push(match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                });
                lines.push_str(change.value());
                if !change.value().ends_with('\n') {
                    lines.push_str("\n\\ No newline at end of file\n");
                }
            }
            hunks.push((
                first.old_range().start..last.old_range().end,
                first.new_range().start..last.new_range().end,
                lines,
            ));
        }
        GameDiff { skipped, hunks }
    }

    /// Writes the diff of the game that starts on line `line` of `file`:
    /// hunks numbered by the file's lines (the formatted side as if this
    /// game alone were formatted), as `rustfmt --check` shows them.
    pub fn write(&self, wtr: &mut dyn io::Write, file: &str, line: u64) -> io::Result<()> {
        writeln!(wtr, "--- {file}:{line}")?;
        writeln!(wtr, "+++ {file}:{line} (formatted)")?;
        // Line `skipped` (0-based) of the text is the file's line `line`.
        let at = |i: usize| (line + i as u64).saturating_sub(self.skipped as u64);
        for (old, new, lines) in &self.hunks {
            writeln!(
                wtr,
                "@@ -{},{} +{},{} @@",
                at(old.start),
                old.len(),
                at(new.start),
                new.len()
            )?;
            wtr.write_all(lines.as_bytes())?;
        }
        Ok(())
    }
}

impl Observer for Exporter {
    type Output = Export;

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        self.format.start(pos, standard);
        self.moves.start(pos, standard);
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        self.format.before_move(pos, m);
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        self.format.after_move(pos, m, ply, mainline);
        self.moves.after_move(pos, m, ply, mainline);
    }

    fn nag(&mut self, nag: u8) {
        self.format.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        self.format.comment(text);
    }

    fn begin_variation(&mut self) {
        self.format.begin_variation();
    }

    fn end_variation(&mut self) {
        self.format.end_variation();
    }

    /// The formatted game if it reads back as the same game and formatting
    /// it again changes nothing; else the original bytes, with the reason.
    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Export {
        let moves = self.moves.end_game(game);
        let formatted = self.format.end_game(game).and_then(|text| {
            self.reads_back(game, moves, &text)?;
            Ok(text)
        });
        match formatted {
            Ok(text) => {
                let changed = text != game.text;
                let skipped = game.text.len().saturating_sub(game.address.length as usize);
                let diff = (changed && self.diff).then(|| GameDiff::new(game.text, &text, skipped));
                Export { text, unformatted: None, changed, left_out: false, diff }
            }
            // Only its first bytes are held: copying them would cut it.
            Err(why) if !game.whole => Export {
                text: Vec::new(),
                unformatted: Some(why),
                changed: true,
                left_out: true,
                diff: None,
            },
            Err(why) => Export {
                text: game.text.to_vec(),
                unformatted: Some(why),
                changed: false,
                left_out: false,
                diff: None,
            },
        }
    }
}

impl Exporter {
    /// Whether `text`, the formatting of `game` (whose mainline hashes to
    /// `moves`), reads back as the same game and is formatted already.
    fn reads_back(
        &mut self,
        game: &GameEnd<'_, '_>,
        moves: u64,
        text: &[u8],
    ) -> Result<(), &'static str> {
        let chunk = Chunk::from_bytes(&game.record.file, text.to_vec());
        let mut games = Vec::new();
        let mut observer = (Formatter::default(), (KeepTags, MovesHash::default()));
        self.again.replay(&chunk, &mut observer, |record, output| games.push((record, output)));
        let [(record, (again, (tags, moves_again)))] = games.as_slice() else {
            return Err("formatted, it would not read back as one game");
        };
        let same = *moves_again == moves
            && same_verdict(record, game.record)
            && same_tags(&game.tags.to_list(), tags);
        if !same {
            return Err("formatted, it would not read back as the same game");
        }
        if again.as_deref() != Ok(text) {
            return Err("formatting it twice would not give the same text");
        }
        Ok(())
    }
}

/// Whether two records of one game say the same about its moves and its
/// end (its tags are compared apart).
fn same_verdict(a: &GameRecord, b: &GameRecord) -> bool {
    (a.valid, a.error_ply, a.plies, a.termination, a.termination_ply)
        == (b.valid, b.error_ply, b.plies, b.termination, b.termination_ply)
        && (a.threefold_ply, a.fifty_ply, a.moves_after_end, a.result_consistent)
            == (b.threefold_ply, b.fifty_ply, b.moves_after_end, b.result_consistent)
        && a.variant == b.variant
}

/// Whether `formatted` holds every tag of `original` with its value, and
/// besides only the roster tags `original` lacks (with their placeholder).
fn same_tags(original: &TagList, formatted: &TagList) -> bool {
    let added = ROSTER.iter().filter(|name| original.get(name).is_none()).count();
    if formatted.len() != original.len() + added {
        return false;
    }
    // A lookup a tag: linear in a game's few tags; a hostile game of
    // thousands is looked up through a map (its first value a name, as
    // `get` gives), or the check is quadratic.
    if formatted.len() <= 32 {
        return original.iter().all(|(name, value)| formatted.get(name) == Some(value));
    }
    let mut first = std::collections::HashMap::with_capacity(formatted.len());
    for (name, value) in formatted.iter() {
        first.entry(name).or_insert(value);
    }
    original.iter().all(|(name, value)| first.get(name) == Some(&value))
}
