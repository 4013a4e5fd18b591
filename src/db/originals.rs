//! A stored game's own bytes, read back from the source `db build` read
//! it from, when that source is still there as it was: an uncompressed
//! one at the game's offset, a compressed one (optionally) by
//! decompressing it from its start as its games come in order, since a
//! compressed file cannot be read at an offset. Otherwise the game is
//! written from its stored columns ([`scan::pgn`]).
//!
//! A source is looked up only when one of its games is first asked for,
//! so a query that hits one source never reads the others. A bulk read
//! checks the source's SHA-256 (it reads the whole file anyway); a lookup
//! trusts a file of the same size and modification time instead, and
//! checks each game it reads by replaying it: the same tags and moves as
//! stored, else the stored game is written.

use std::{
    borrow::Borrow,
    collections::{BTreeMap, HashMap},
    fs::{self, File},
    io::{self, Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    sync::Arc,
};

use super::{
    manifest::{self, Manifest, Source},
    row::RowMaker,
    scan,
    table::{Place, StoredGame},
};
use crate::{
    pgn::chunk::{Chunk, MAX_GAME},
    replay::{ReplayOptions, Replayer},
    sink::join::Joiner,
    source,
};

/// The longest span read back: a game's stored length is bounded by the
/// parser's limit (a game past it is cut where a game certainly begins),
/// so a longer one is a damaged database, which must not make memory grow.
const MAX_SPAN: u64 = 4 * MAX_GAME as u64;

/// The sources of a database, opened as their games are asked for.
pub struct Originals {
    dir: PathBuf,
    sources: HashMap<u32, Source>,
    /// What each source asked for so far turned out to be.
    opened: HashMap<u32, Opened>,
    /// Whether compressed sources are decompressed to serve their games.
    streams: bool,
    /// The one compressed source being read: a decoder holds a window of
    /// up to 128 MiB, so only one is kept.
    stream: Option<Stream>,
    /// Joins the games written.
    joiner: Joiner,
    /// The source and number of the last game written as its own bytes.
    last: Option<(u32, u64)>,
    /// Why each game not written was not ([`Originals::write_at`]).
    skipped: Vec<String>,
    /// Games written from the columns, by source, for want of their bytes.
    from_columns: BTreeMap<u32, u64>,
}

/// A source, once looked up.
enum Opened {
    /// Uncompressed and unchanged: read at offsets (its size bounds what
    /// is read); each game checked by a replay when the file was trusted
    /// by its size and time, not its digest.
    Plain { file: File, size: u64, check: bool },
    /// Compressed and unchanged, at this path.
    Compressed(PathBuf),
    /// Missing, changed or unreadable.
    Gone,
    /// Compressed, and streams are off.
    Unstreamed,
}

/// A compressed source's decoder, and how far it has read.
struct Stream {
    id: u32,
    reader: Box<dyn Read + Send>,
    at: u64,
}

impl Originals {
    /// The sources of `manifest`, none opened yet; `streams` says whether
    /// compressed ones serve their games (a pass over the whole file, in
    /// order: right for a bulk export, wrong for a lookup of a few games).
    pub fn new(dir: &Path, manifest: &Manifest, streams: bool) -> Originals {
        let sources = manifest.sources.iter().map(|s| (s.id, s.clone())).collect();
        Originals {
            dir: dir.to_path_buf(),
            sources,
            opened: HashMap::new(),
            streams,
            stream: None,
            joiner: Joiner::default(),
            last: None,
            skipped: Vec::new(),
            from_columns: BTreeMap::new(),
        }
    }

    /// A game's text as `dupes` reads it (`span`: the first game of a
    /// file with the bytes before it), from its source, else written from
    /// what is stored (`full`).
    pub fn own_or_stored<G: Borrow<StoredGame>>(
        &mut self,
        place: Place,
        full: impl FnOnce() -> anyhow::Result<G>,
    ) -> anyhow::Result<Vec<u8>> {
        match place.span().and_then(|(start, end)| self.bytes(place.source_id, start, end)) {
            Some(text) => Ok(text),
            None => {
                *self.from_columns.entry(place.source_id).or_default() += 1;
                scan::pgn(full()?.borrow())
            }
        }
    }

    /// Writes a game as `filter` writes it: its own bytes, joined to the
    /// game before as `filter` joins them (`sink::join`: as they are when
    /// they continue the last game's own bytes), or written from what is
    /// stored.
    pub fn write<W: Write + ?Sized>(
        &mut self,
        wtr: &mut W,
        game: &StoredGame,
    ) -> anyhow::Result<bool> {
        self.write_at(wtr, game.place(), || Ok(game))
    }

    /// [`write`](Self::write) for a game known by its place (`scan::places`):
    /// `full` reads the whole stored game, asked for only when its own
    /// bytes cannot be read or must be checked. Whether it was written: a
    /// game that neither its source nor the database holds whole
    /// ([`scan::cut_short`]) is not (a part of it could swallow the games
    /// after it), and is named in [`skipped`](Self::skipped).
    pub fn write_at<W: Write + ?Sized, G: Borrow<StoredGame>>(
        &mut self,
        wtr: &mut W,
        place: Place,
        full: impl FnOnce() -> anyhow::Result<G>,
    ) -> anyhow::Result<bool> {
        let Some((text, own)) = self.text(place, full)? else {
            return Ok(false);
        };
        let here = (place.source_id, place.index);
        let follows = own && self.last == Some((here.0, here.1.wrapping_sub(1)));
        self.joiner.write(wtr, &text, follows)?;
        self.last = own.then_some(here);
        Ok(true)
    }

    /// Why each game not written was not, in order.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// A line for each source some of whose games were written from the
    /// columns (in export format, not their own bytes): it was not found
    /// where it was read, or it changed since.
    pub fn from_columns(&self) -> Vec<String> {
        self.from_columns
            .iter()
            .map(|(id, games)| {
                let path = self.sources.get(id).map_or("?", |s| s.path.as_str());
                let games =
                    if *games == 1 { "1 game".to_owned() } else { format!("{games} games") };
                let why = match self.opened.get(id) {
                    Some(Opened::Unstreamed) => "a lookup does not decompress a whole source",
                    _ => "the source is not where db build read it, or it changed since",
                };
                format!("{path}: {games} written from the database, not as their own bytes ({why})")
            })
            .collect()
    }

    /// A stored game written from its columns, or `None` (and why, in
    /// `skipped`) when they do not hold it whole.
    fn stored(&mut self, game: &StoredGame) -> anyhow::Result<Option<(Vec<u8>, bool)>> {
        if let Some(why) = scan::cut_short(game) {
            self.skipped.push(why);
            return Ok(None);
        }
        *self.from_columns.entry(game.place().source_id).or_default() += 1;
        Ok(Some((scan::pgn(game)?, false)))
    }

    /// A game's text, and whether it is its own bytes (`false`: written
    /// from what is stored); `None` when neither holds it whole.
    fn text<G: Borrow<StoredGame>>(
        &mut self,
        place: Place,
        full: impl FnOnce() -> anyhow::Result<G>,
    ) -> anyhow::Result<Option<(Vec<u8>, bool)>> {
        // As `filter` writes it: a file's first game with the bytes before
        // it (a byte order mark, `%` lines).
        let Some(text) =
            place.span().and_then(|(start, end)| self.bytes(place.source_id, start, end))
        else {
            return self.stored(full()?.borrow());
        };
        if !self.checked(place.source_id) {
            return Ok(Some((text, true)));
        }
        let game = full()?;
        let game = game.borrow();
        if same_game(&text, game) { Ok(Some((text, true))) } else { self.stored(game) }
    }

    /// Whether a source's games are checked one by one.
    fn checked(&self, id: u32) -> bool {
        matches!(self.opened.get(&id), Some(Opened::Plain { check: true, .. }))
    }

    /// The bytes `start..end` of a source's uncompressed text.
    fn bytes(&mut self, id: u32, start: u64, end: u64) -> Option<Vec<u8>> {
        if end.checked_sub(start)? > MAX_SPAN {
            return None;
        }
        if !self.opened.contains_key(&id) {
            let opened = self.open(id);
            self.opened.insert(id, opened);
        }
        match self.opened.get(&id)? {
            Opened::Plain { file, size, .. } => {
                if end > *size {
                    return None;
                }
                let mut file = file;
                file.seek(SeekFrom::Start(start)).ok()?;
                // Read as it comes, not allocated from the stored length.
                let mut text = Vec::new();
                file.take(end - start).read_to_end(&mut text).ok()?;
                (text.len() as u64 == end - start).then_some(text)
            }
            Opened::Compressed(path) => {
                let path = path.clone();
                let text = self.stream_bytes(id, &path, start, end);
                if text.is_none() {
                    // Failed or cut short: its later games come from the
                    // columns, not from a stream that may be corrupt.
                    self.opened.insert(id, Opened::Gone);
                    self.stream = None;
                }
                text
            }
            Opened::Gone | Opened::Unstreamed => None,
        }
    }

    /// The bytes `start..end` of a compressed source, read on from where
    /// its stream is (restarted from the beginning when it has passed
    /// `start` or reads another source).
    fn stream_bytes(&mut self, id: u32, path: &Path, start: u64, end: u64) -> Option<Vec<u8>> {
        if self.stream.as_ref().is_none_or(|s| s.id != id || s.at > start) {
            self.stream = None;
            let source::Input::Stream(reader) = source::open(path, Arc::new(|_| {})).ok()? else {
                return None;
            };
            self.stream = Some(Stream { id, reader, at: 0 });
        }
        let stream = self.stream.as_mut()?;
        let gap = start - stream.at;
        let skipped = io::copy(&mut (&mut stream.reader).take(gap), &mut io::sink()).ok()?;
        let mut text = Vec::new();
        let read = (&mut stream.reader).take(end - start).read_to_end(&mut text).ok()?;
        stream.at = start + read as u64;
        (skipped == gap && read as u64 == end - start).then_some(text)
    }

    /// Looks a source up: by its path as given to `db build` (from the
    /// current directory), else by its absolute path then, else from the
    /// database's directory's parent. It
    /// must have the size the manifest has, and its digest; a lookup
    /// (no streams) takes an uncompressed file of the same modification
    /// time instead, checking its games one by one, and never digests a
    /// compressed one, which it would not read.
    fn open(&self, id: u32) -> Opened {
        let Some(source) = self.sources.get(&id) else { return Opened::Gone };
        let given = Path::new(&source.path);
        let absolute = source.absolute.as_deref().map(PathBuf::from);
        let paths = [Some(given.to_path_buf()), absolute, Some(self.dir.join("..").join(given))];
        for path in paths.into_iter().flatten() {
            if !fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == source.size) {
                continue;
            }
            let Ok(compressed) = source::is_compressed(&path) else { continue };
            if compressed && !self.streams {
                return Opened::Unstreamed;
            }
            let timed = !self.streams
                && source.modified.is_some_and(|time| manifest::modified(&path) == Some(time));
            if !timed && !manifest::digest(&path).is_ok_and(|(_, sha)| sha == source.sha256) {
                continue;
            }
            return match (compressed, File::open(&path)) {
                (true, _) => Opened::Compressed(path),
                (false, Ok(file)) => Opened::Plain { file, size: source.size, check: timed },
                (false, Err(_)) => Opened::Gone,
            };
        }
        Opened::Gone
    }
}

/// Whether `text` is the stored game: one game, with the same tags and
/// the same stored moves once replayed as `db build` replayed it.
fn same_game(text: &[u8], game: &StoredGame) -> bool {
    // A game too large, stored by its first bytes: replayed whole here,
    // as it never was at the build, its moves would differ.
    if scan::cut_short(game).is_some() {
        return game.text.as_ref().is_some_and(|stored| text.starts_with(stored));
    }
    let chunk = Chunk::from_bytes("", text.to_vec());
    let options = ReplayOptions { final_fen: true, ..ReplayOptions::default() };
    let mut rows = Vec::new();
    Replayer::new(options).replay(&chunk, &mut RowMaker::new(None), |_, row| rows.push(row));
    matches!(&rows[..], [row] if row.header == game.header && row.moves == game.moves)
}
