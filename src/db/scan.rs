//! Reading a database back: its games in order ([`games`]), the
//! predicates of `filter` decided on them ([`Matcher`]), and a game
//! written back as PGN from what is stored ([`pgn`]). (`db find` reads
//! through `find`.)
//!
//! The predicates are `select`'s, through the same observer: on the tags
//! (rebuilt from the columns), on the positions (the compact moves
//! replayed, only when a predicate looks at them) and on the record
//! (rebuilt from the verdict's columns). So `db search` selects what
//! `filter` would have on the source.

use std::{cell::OnceCell, fs::File, ops::ControlFlow, ops::Range, path::Path};

use anyhow::{Context, anyhow, bail};
use arrow_array::RecordBatch;
use parquet::{
    arrow::{
        ProjectionMask,
        arrow_reader::{
            ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
            ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
        },
    },
    file::metadata::{ParquetMetaData, RowGroupMetaData},
};
use pgn_reader::RawTag;
use shakmaty::san::{San, SanPlus};

use super::{
    manifest::Manifest,
    moves,
    row::{Header, MATE},
    table::{Columns, PLACE_COLUMNS, Place, StoredGame, check_schema},
};
use crate::{
    chess::{notation, setup},
    pgn::{
        chunk::MAX_GAME,
        tags::{TagCollector, TagList},
        values::GameResult,
        writer::{MovetextWriter, write_tags},
    },
    record::printable,
    replay::observer::{Observer, Rest},
    select::{Selected, Selection},
};

/// Games read at a time from a shard.
const BATCH: usize = 4096;

/// About the most bytes of stored game text a batch of rows decodes
/// ([`batch_rows`]).
const BATCH_TEXT: u64 = 32 << 20;

/// Rows a batch of a shard's rows may take: 4,096, fewer where a row
/// group's games carry texts of megabytes (games too large, or broken and
/// stored whole: `db build` bounds a row group's texts, not its rows), so
/// that a batch's texts stay near 32 MiB.
pub fn batch_rows(meta: &ParquetMetaData) -> usize {
    let columns = meta.file_metadata().schema_descr().columns();
    let Some(text) = columns.iter().position(|c| c.path().string() == "text") else {
        return BATCH;
    };
    let rows = meta.row_groups().iter().map(|group| {
        let bytes = u64::try_from(group.column(text).uncompressed_size()).unwrap_or(0);
        let rows = u64::try_from(group.num_rows()).unwrap_or(0);
        match rows.saturating_mul(BATCH_TEXT).checked_div(bytes) {
            Some(fit) if bytes > BATCH_TEXT => usize::try_from(fit).unwrap_or(BATCH).max(1),
            _ => BATCH,
        }
    });
    rows.min().unwrap_or(BATCH).min(BATCH)
}

/// Hands every game of the database to `each`, shard by shard in the
/// manifest's order, until it says to stop.
pub fn games(
    dir: &Path,
    manifest: &Manifest,
    mut each: impl FnMut(StoredGame) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<()> {
    for path in manifest.shard_paths(dir) {
        if shard_games(&path, |_| true, &mut each)?.is_break() {
            break;
        }
    }
    Ok(())
}

/// Hands the games of the shard at `path` in the row groups `wanted`
/// chooses (by their metadata) to `each`, until it says to stop.
pub fn shard_games(
    path: &Path,
    wanted: impl Fn(&RowGroupMetaData) -> bool,
    each: &mut impl FnMut(StoredGame) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<ControlFlow<()>> {
    let what = || format!("reading {}", path.display());
    let file = File::open(path).with_context(what)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).with_context(what)?;
    let groups: Vec<usize> = (0..builder.metadata().num_row_groups())
        .filter(|&i| wanted(builder.metadata().row_group(i)))
        .collect();
    if groups.is_empty() {
        return Ok(ControlFlow::Continue(()));
    }
    let batch = batch_rows(builder.metadata());
    let reader =
        builder.with_row_groups(groups).with_batch_size(batch).build().with_context(what)?;
    for batch in reader {
        let batch = batch.with_context(what)?;
        let columns = Columns::of(&batch).with_context(what)?;
        for i in 0..columns.len() {
            if each(columns.game(i).with_context(what)?)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The batches of the shard at `path` with only the columns `names`,
/// the shard's footer read once and its schema checked.
pub fn projected(path: &Path, names: &[&str]) -> anyhow::Result<ParquetRecordBatchReader> {
    let what = || format!("reading {}", path.display());
    let file = File::open(path).with_context(what)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).with_context(what)?;
    check_schema(builder.schema()).with_context(what)?;
    let roots = names
        .iter()
        .map(|name| builder.schema().index_of(name))
        .collect::<Result<Vec<usize>, _>>()
        .with_context(what)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    // As many rows as a batch of whole rows (`places` reads those).
    let batch = batch_rows(builder.metadata());
    builder.with_projection(mask).with_batch_size(batch).build().with_context(what)
}

/// Hands every game of the database, in order, to `each` as its place,
/// with the means to read the whole stored game, until it says to stop. A
/// command that writes games' own bytes decodes four columns a game, not
/// fifty, while their sources are there; a batch's rows are read in full
/// only when one of its games is asked for.
pub fn places(
    dir: &Path,
    manifest: &Manifest,
    mut each: impl FnMut(
        Place,
        &dyn Fn() -> anyhow::Result<StoredGame>,
    ) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<()> {
    for path in manifest.shard_paths(dir) {
        let what = || format!("reading {}", path.display());
        let file = File::open(&path).with_context(what)?;
        let metadata =
            ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).with_context(what)?;
        let shard = Shard { file: &file, metadata: &metadata };
        let mut start = 0;
        for batch in projected(&path, &PLACE_COLUMNS)? {
            let batch = batch.with_context(what)?;
            let columns = Columns::projected(&batch);
            let rows = start..start + batch.num_rows();
            // The batch's rows with every column, read at the first ask;
            // the error kept as its text, to be given to each game asking.
            let full: OnceCell<Result<Vec<RecordBatch>, String>> = OnceCell::new();
            let full_columns: OnceCell<Vec<Columns<'_>>> = OnceCell::new();
            for i in 0..columns.len() {
                let game = || -> anyhow::Result<StoredGame> {
                    let batches = full
                        .get_or_init(|| {
                            shard
                                .rows(rows.clone())
                                .with_context(what)
                                .map_err(|e| format!("{e:#}"))
                        })
                        .as_ref()
                        .map_err(|e| anyhow!("{e}"))?;
                    let parts = full_columns
                        .get_or_init(|| batches.iter().map(Columns::projected).collect());
                    let mut at = i;
                    for part in parts {
                        if at < part.len() {
                            return part.game(at).with_context(what);
                        }
                        at -= part.len();
                    }
                    bail!("{}: changed while it was read", path.display())
                };
                let place = columns.place(i).with_context(what)?;
                if each(place, &game)?.is_break() {
                    return Ok(());
                }
            }
            start = rows.end;
        }
    }
    Ok(())
}

/// A shard whose footer is read, for reading some of its rows in full.
struct Shard<'a> {
    file: &'a File,
    metadata: &'a ArrowReaderMetadata,
}

impl Shard<'_> {
    /// The rows `rows` of the shard, every column: only the row groups
    /// that hold them are read.
    fn rows(&self, rows: Range<usize>) -> anyhow::Result<Vec<RecordBatch>> {
        check_schema(self.metadata.schema())?;
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(
            self.file.try_clone()?,
            self.metadata.clone(),
        );
        let (mut groups, mut selectors, mut at) = (Vec::new(), Vec::new(), 0);
        for (g, group) in self.metadata.metadata().row_groups().iter().enumerate() {
            let group_rows = usize::try_from(group.num_rows()).unwrap_or(0);
            let group_range = at..at + group_rows;
            at = group_range.end;
            let (from, to) = (rows.start.max(group_range.start), rows.end.min(group_range.end));
            if from >= to {
                continue;
            }
            groups.push(g);
            if from > group_range.start {
                selectors.push(RowSelector::skip(from - group_range.start));
            }
            selectors.push(RowSelector::select(to - from));
            if group_range.end > to {
                selectors.push(RowSelector::skip(group_range.end - to));
            }
        }
        let reader = builder
            .with_row_groups(groups)
            .with_row_selection(RowSelection::from(selectors))
            .with_batch_size(rows.len().max(1))
            .build()?;
        Ok(reader.collect::<Result<Vec<_>, _>>()?)
    }
}

/// Decides `filter`'s predicates on stored games.
#[derive(Debug)]
pub struct Matcher {
    selected: Selected<()>,
    /// Whether a predicate looks at positions or moves.
    board: bool,
}

impl Matcher {
    /// A matcher of `selection`.
    pub fn new(selection: Selection) -> Matcher {
        let board = selection.reads_board();
        Matcher { selected: Selected::new(selection, ()), board }
    }

    /// Whether `game` is selected; an error when its moves are corrupt.
    pub fn matches(&mut self, game: &StoredGame) -> anyhow::Result<bool> {
        let buffer = escaped_tags(&game.header);
        let mut collector = TagCollector::default();
        for &(name, value) in &buffer.1 {
            collector.tag(&buffer.0[name.0..name.1], RawTag(&buffer.0[value.0..value.1]));
        }
        if self.selected.tags(&collector.tags).is_break() {
            return Ok(false);
        }
        if self.board {
            let selected = &mut self.selected;
            let mut dropped = false;
            replay(game, |event| match event {
                Event::Start(standard, pos) => {
                    pos.start(selected, standard);
                    ControlFlow::Continue(())
                }
                Event::Move(pos, m, ply) => {
                    pos.after_move(selected, m, ply);
                    match selected.rest() {
                        Rest::Replay => ControlFlow::Continue(()),
                        Rest::Enough => ControlFlow::Break(()),
                        Rest::Drop => {
                            dropped = true;
                            ControlFlow::Break(())
                        }
                    }
                }
            })?;
            if dropped {
                return Ok(false);
            }
        }
        Ok(self.selected.keep(&game.record).is_continue())
    }
}

/// A game's tags as PGN writes them (escaped), in one buffer, with where
/// each name and value is.
type Spans = Vec<((usize, usize), (usize, usize))>;

fn escaped_tags(header: &Header) -> (Vec<u8>, Spans) {
    let mut buffer = Vec::new();
    let mut spans = Vec::new();
    for (name, value) in header.pairs() {
        let name_at = buffer.len();
        buffer.extend_from_slice(name.as_bytes());
        let value_at = buffer.len();
        for &b in value.as_bytes() {
            if b == b'\\' || b == b'"' {
                buffer.push(b'\\');
            }
            buffer.push(b);
        }
        spans.push(((name_at, value_at), (value_at, buffer.len())));
    }
    (buffer, spans)
}

/// A position of a stored game, of whichever rules it is played under.
pub enum Pos<'p> {
    /// Standard chess or Chess960.
    Chess(&'p shakmaty::Chess),
    /// A lichess variant.
    Variant(&'p shakmaty::variant::VariantPosition),
}

impl Pos<'_> {
    fn start<O: Observer>(&self, observer: &mut O, standard: bool) {
        match self {
            Pos::Chess(pos) => observer.start(*pos, standard),
            Pos::Variant(pos) => observer.start(*pos, standard),
        }
    }

    fn after_move<O: Observer>(&self, observer: &mut O, m: &shakmaty::Move, ply: u32) {
        match self {
            Pos::Chess(pos) => observer.after_move(*pos, m, ply, true),
            Pos::Variant(pos) => observer.after_move(*pos, m, ply, true),
        }
    }
}

/// What [`replay`] shows of a game.
pub enum Event<'p> {
    /// The start position, and whether it is standard chess's.
    Start(bool, Pos<'p>),
    /// The position after a move, the move and its ply.
    Move(Pos<'p>, &'p shakmaty::Move, u32),
}

/// Replays a stored game's moves from its start position, showing each
/// position to `each` until it says to stop. A game whose start is not
/// set up (a bad FEN, a variant not replayed) shows nothing; a move that
/// does not decode to a legal move is an error (a corrupt shard).
pub fn replay(
    game: &StoredGame,
    mut each: impl FnMut(Event<'_>) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let header = &game.header;
    let (variant, start) = start(header);
    let standard = header.text[super::row::FEN].is_none() && variant == "chess";
    match start {
        setup::Setup::Chess(mut pos) => {
            if each(Event::Start(standard, Pos::Chess(&pos))).is_break() {
                return Ok(());
            }
            play(&mut pos, game, |pos, m, ply| each(Event::Move(Pos::Chess(pos), m, ply)))
        }
        setup::Setup::Variant(mut pos) => {
            if each(Event::Start(false, Pos::Variant(&pos))).is_break() {
                return Ok(());
            }
            play(&mut pos, game, |pos, m, ply| each(Event::Move(Pos::Variant(pos), m, ply)))
        }
        setup::Setup::Unsupported | setup::Setup::BadFen(_) => Ok(()),
    }
}

/// The start position of a stored game, as the replay set it up.
fn start(header: &Header) -> (std::borrow::Cow<'static, str>, setup::Setup) {
    let variant = header.get("Variant");
    let fen = header.text[super::row::FEN].as_deref();
    setup::start_position(variant.as_deref(), fen, || 0, &mut Vec::new(), 0)
}

fn play<P: moves::Decode>(
    pos: &mut P,
    game: &StoredGame,
    mut each: impl FnMut(&P, &shakmaty::Move, u32) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let mut rest = game.moves.as_slice();
    for ply in 1.. {
        if rest.is_empty() {
            break;
        }
        let m = moves::next(pos, &mut rest).with_context(|| {
            format!("game {}: ply {ply} of its moves column does not decode", game.game_id)
        })?;
        pos.play_unchecked(m);
        if each(pos, &m, ply).is_break() {
            break;
        }
    }
    Ok(())
}

/// Shows a stored game to `observer` as the replay showed it when the
/// database was built: its tags (rebuilt from the columns), its start
/// position, each mainline move before and after it is played, and its
/// end with the stored record. `None` when the observer skips or drops
/// the game (`tags`, `rest`, `keep`); an error when its moves are corrupt.
/// So the observers of the commands that read PGN (`tree`'s `Explorer`,
/// `dupes`' `Fingerprint`) count a stored game as they count its source.
pub fn observe<O: Observer>(
    game: &StoredGame,
    observer: &mut O,
) -> anyhow::Result<Option<O::Output>> {
    observe_with(game, observer, None)
}

/// [`observe`] for an observer that needs of a move only something that
/// tells it from the other moves of its position, not the positions: the
/// start position is set up and shown, then each ply's stored bytes are
/// handed to `each` (with the observer) as a [`moves::Unit`], undecoded
/// (`db dupes`: the same start and the same units are the same moves).
pub fn observe_codes<O: Observer>(
    game: &StoredGame,
    observer: &mut O,
    each: &mut dyn FnMut(&mut O, moves::Unit),
) -> anyhow::Result<Option<O::Output>> {
    observe_with(game, observer, Some(each))
}

/// What [`observe_codes`] hands each ply's unit to.
type Codes<'c, O> = Option<&'c mut dyn FnMut(&mut O, moves::Unit)>;

fn observe_with<O: Observer>(
    game: &StoredGame,
    observer: &mut O,
    codes: Codes<'_, O>,
) -> anyhow::Result<Option<O::Output>> {
    let buffer = escaped_tags(&game.header);
    let mut collector = TagCollector::default();
    for &(name, value) in &buffer.1 {
        collector.tag(&buffer.0[name.0..name.1], RawTag(&buffer.0[value.0..value.1]));
    }
    let tags = &collector.tags;
    if observer.tags(tags).is_break() || observer.rest() == Rest::Drop {
        return Ok(None);
    }
    let (variant, start) = start(&game.header);
    let standard = game.header.text[super::row::FEN].is_none() && variant == "chess";
    let (replayed, rest) = match start {
        setup::Setup::Chess(mut pos) => {
            (true, observe_moves(&mut pos, game, standard, observer, codes)?)
        }
        setup::Setup::Variant(mut pos) => {
            (true, observe_moves(&mut pos, game, false, observer, codes)?)
        }
        setup::Setup::Unsupported | setup::Setup::BadFen(_) => (false, Rest::Replay),
    };
    if rest == Rest::Drop || observer.keep(&game.record).is_break() {
        return Ok(None);
    }
    let end = crate::replay::observer::GameEnd {
        record: &game.record,
        tags,
        text: game.text.as_deref().unwrap_or_default(),
        tag_section: &[],
        address: crate::replay::observer::Address { offset: game.offset, length: game.length },
        replayed,
        // The stored game's readers (tree, dupes) do not need it; one that
        // did would read `final_fen` (the record's) instead.
        final_position: None,
        whole: true,
    };
    Ok(Some(observer.end_game(&end)))
}

/// [`observe`]'s moves: each shown before and after it is played, until
/// the observer has enough; what it said last.
fn observe_moves<P: moves::Decode, O: Observer, F: FnMut(&mut O, moves::Unit) + ?Sized>(
    pos: &mut P,
    game: &StoredGame,
    standard: bool,
    observer: &mut O,
    codes: Option<&mut F>,
) -> anyhow::Result<Rest> {
    observer.start(pos, standard);
    let mut rest = observer.rest();
    let mut bytes = game.moves.as_slice();
    if let Some(each) = codes {
        for ply in 1.. {
            if rest != Rest::Replay || bytes.is_empty() {
                break;
            }
            let unit = moves::unit(&mut bytes).with_context(|| {
                format!("game {}: ply {ply} of its moves column does not decode", game.game_id)
            })?;
            each(observer, unit);
            rest = observer.rest();
        }
        return Ok(rest);
    }
    for ply in 1.. {
        if rest != Rest::Replay || bytes.is_empty() {
            break;
        }
        let m = moves::next(pos, &mut bytes).with_context(|| {
            format!("game {}: ply {ply} of its moves column does not decode", game.game_id)
        })?;
        observer.before_move(pos, &m);
        pos.play_unchecked(m);
        observer.after_move(pos, &m, ply, true);
        rest = observer.rest();
    }
    Ok(rest)
}

/// Why a stored game cannot be written back from what is stored: a game
/// too large, of which only the first [`MAX_GAME`] bytes are stored
/// (`Row::text`); `None` for every other game.
pub fn cut_short(game: &StoredGame) -> Option<String> {
    let stored = game.text.as_ref()?.len();
    // The text is the game's span: a file's first game with the bytes
    // before it.
    let whole = game.place().span().map_or(game.length, |(start, end)| end - start);
    (stored >= MAX_GAME && (stored as u64) < whole).then(|| {
        let record = &game.record;
        format!(
            "{}: game {} (line {}): only the first {} MiB of its {} bytes are stored (a game \
             too large), and its source cannot serve it whole",
            printable(&record.file),
            record.index,
            record.line,
            MAX_GAME >> 20,
            whole
        )
    })
}

/// A game written back as PGN (export format, `fmt`'s writer) from what
/// is stored: its tags, its moves with the clocks and evaluations as
/// lichess writes them, and its result. A game whose moves are not all
/// stored (an error, a variant not replayed) is its own bytes.
pub fn pgn(game: &StoredGame) -> anyhow::Result<Vec<u8>> {
    if let Some(why) = cut_short(game) {
        anyhow::bail!("{why}");
    }
    if let Some(text) = &game.text {
        let mut text = text.clone();
        // Kept as it was, up to the next game: make sure one follows.
        if !text.ends_with(b"\n\n") {
            text.extend_from_slice(if text.ends_with(b"\n") { b"\n" } else { b"\n\n" });
        }
        return Ok(text);
    }
    let record = &game.record;
    let result = record
        .result_marker
        .or_else(|| record.result.as_deref().and_then(GameResult::parse).map(GameResult::as_str))
        .unwrap_or("*");
    let mut tags = TagList::default();
    for (name, value) in game.header.pairs() {
        tags.push(name, &value);
    }
    let mut text = Vec::with_capacity(game.moves.len() * 4 + 256);
    write_tags(&tags, result, &mut text);
    text.extend_from_slice(&movetext_of(game)?.finish(result));
    text.push(b'\n');
    Ok(text)
}

/// The movetext of a stored game: each move in SAN with the suffix its
/// position calls for, and its clock and evaluation as a comment.
fn movetext_of(game: &StoredGame) -> anyhow::Result<MovetextWriter> {
    let mut writer = MovetextWriter::new();
    let header = &game.header;
    let (_, start) = start(header);
    match start {
        setup::Setup::Chess(mut pos) => write_moves(&mut pos, game, &mut writer)?,
        setup::Setup::Variant(mut pos) => write_moves(&mut pos, game, &mut writer)?,
        setup::Setup::Unsupported | setup::Setup::BadFen(_) => {}
    }
    Ok(writer)
}

fn write_moves<P: moves::Decode>(
    pos: &mut P,
    game: &StoredGame,
    writer: &mut MovetextWriter,
) -> anyhow::Result<()> {
    let mut rest = game.moves.as_slice();
    for at in 0.. {
        if rest.is_empty() {
            break;
        }
        let m = moves::next(pos, &mut rest).with_context(|| {
            format!("game {}: ply {} of its moves column does not decode", game.game_id, at + 1)
        })?;
        let (number, turn, san) = (pos.fullmoves().get(), pos.turn(), San::from_move(pos, m));
        pos.play_unchecked(m);
        writer.san(number, turn, SanPlus { san, suffix: notation::suffix_of(pos) });
        let mut comment = Vec::new();
        if let Some(Some(eval)) = game.evals.as_ref().and_then(|e| e.get(at)) {
            comment.push(format!("[%eval {}]", eval_text(*eval)));
        }
        if let Some(Some(clock)) = game.clocks.as_ref().and_then(|c| c.get(at)) {
            comment.push(format!("[%clk {}]", clock_text(*clock)));
        }
        if !comment.is_empty() {
            writer.comment(comment.join(" ").as_bytes());
        }
    }
    Ok(())
}

/// An evaluation as lichess writes it: pawns with two decimals, `#N`.
fn eval_text(eval: i32) -> String {
    if eval.abs() > MATE - 1000 {
        let n = MATE - eval.abs();
        return if eval < 0 { format!("#-{n}") } else { format!("#{n}") };
    }
    let sign = if eval < 0 { "-" } else { "" };
    let cp = eval.unsigned_abs();
    format!("{sign}{}.{:02}", cp / 100, cp % 100)
}

/// A clock as lichess writes it, `H:MM:SS` (tenths when there are some).
fn clock_text(ms: i32) -> String {
    let ms = ms.max(0) as u32;
    let (s, frac) = (ms / 1000, ms % 1000);
    let base = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if frac == 0 { base } else { format!("{base}.{}", format!("{frac:03}").trim_end_matches('0')) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_evals_are_written_as_lichess_does() {
        assert_eq!(clock_text(180_000), "0:03:00");
        assert_eq!(clock_text(3_605_300), "1:00:05.3");
        assert_eq!(eval_text(17), "0.17");
        assert_eq!(eval_text(-150), "-1.50");
        assert_eq!(eval_text(MATE - 3), "#3");
        assert_eq!(eval_text(-(MATE - 2)), "#-2");
    }
}
