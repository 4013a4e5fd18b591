//! Splits an input's bytes into chunks of whole games.
//!
//! A chunk is a few MiB of consecutive games with its location: file and
//! byte offset. Game indices and lines are counted in order by the
//! pipeline (the replay may find more games than the splitter sees: those
//! an unterminated comment swallowed; and the replay reads every byte
//! anyway, so it counts a chunk's lines, not the chunker). A cut falls
//! only where the replay starts a new game whatever came before (a blank
//! line, then a tag pair, after a line no tag section holds), found by
//! looking at the bytes around the cut: records never depend on the chunk
//! size, and the chunker reads next to nothing of a chunk. Chunking never
//! parses moves.

use std::{
    io::{self, Read},
    ops::Range,
    sync::Arc,
};

use memchr::{memmem, memrchr};
use memmap2::Mmap;

use crate::{
    pgn::{cursor::GameCursor, split::opens_tag_pair},
    source::{Input, ReadObserver},
};

/// The bytes of a chunk: a window of a mapped file, or owned bytes read
/// from a stream.
#[derive(Debug)]
enum ChunkData {
    Mapped { map: Arc<Mmap>, range: Range<usize> },
    Owned(Vec<u8>),
}

/// Consecutive whole games of one input, with where they are.
#[derive(Debug)]
pub struct Chunk {
    /// The input's name as given on the command line.
    pub file: Arc<str>,
    /// Byte offset of the chunk in the (uncompressed) input.
    pub offset: u64,
    data: ChunkData,
    /// A game too large, the chunk's only one, of which the chunk may hold
    /// only the first bytes.
    pub too_large: Option<TooLarge>,
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let ChunkData::Mapped { map, range } = &self.data {
            crate::source::mmap::release(map, range.clone());
        }
    }
}

impl Chunk {
    /// The chunk's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            ChunkData::Mapped { map, range } => &map[range.clone()],
            ChunkData::Owned(bytes) => bytes,
        }
    }

    /// A chunk of owned bytes (for tests and benchmarks).
    pub fn from_bytes(file: &str, bytes: Vec<u8>) -> Chunk {
        Chunk { file: file.into(), offset: 0, data: ChunkData::Owned(bytes), too_large: None }
    }
}

/// Where to cut `bytes`: the first place at or after `target` (never at 0)
/// where a game provably begins (see `game_starts_at`). At `eof` the
/// whole rest is one chunk when there is none; otherwise `None` means the
/// bytes hold no such place past `target` yet.
///
/// Only the bytes around each `\n[` past the target are looked at: the
/// chunker reads a few hundred bytes of a chunk, not all of them: the
/// replay reads every byte anyway (see `benches/HISTORY.md`).
pub fn find_cut(bytes: &[u8], target: usize, eof: bool) -> Option<usize> {
    cut_at_or_after(bytes, target, eof, Window::LineStart)
}

/// [`find_cut`] in a window of a game too large, which begins anywhere in
/// it, mid-line most likely: a line whose start is before the window is
/// judged by its end (see `may_hold_tags`).
pub fn find_resync_cut(bytes: &[u8], target: usize) -> Option<usize> {
    cut_at_or_after(bytes, target, false, Window::MidLine)
}

/// Where the bytes looked at begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Window {
    /// Where a chunk or an input begins: at a line's start.
    LineStart,
    /// Anywhere (a window of a game too large).
    MidLine,
}

fn cut_at_or_after(bytes: &[u8], target: usize, eof: bool, window: Window) -> Option<usize> {
    // The `\n` before the `[` of a game starting at the target is just
    // before it.
    let from = target.max(1) - 1;
    let found = bytes.get(from..).and_then(|rest| {
        memmem::find_iter(rest, b"\n[")
            .map(|at| from + at + 1)
            .find(|&start| game_starts_at(bytes, start, window))
    });
    found.or(eof.then_some(bytes.len()))
}

/// Whether a game begins at `start` for the replay, whatever came before:
/// a blank line, a line that begins like a tag pair (`[Name "`), and before
/// the blank line, a line that no tag section can hold.
///
/// Before a blank line the replay is in one of these places:
/// - in movetext outside comments, which the blank line ends;
/// - in a `{` comment, which the lexer ends at the first blank line that
///   is followed by a tag pair, as never closed (if an earlier one ended
///   it, the replay restarted there, and the same reasoning applies from
///   there on);
/// - in a tag section, which may go on after a blank line (unless the tag
///   pair after it gives a tag of the section again): this is what the
///   line before rules out. A tag section holds tag pairs (a line that
///   begins with `[`, after spaces or a byte order mark, or goes on from one
///   after a `\` that escapes the line break), `%` lines and `;` comments;
/// - between games.
///
/// `;` comments and `%` lines end at their line break. The replay and the
/// chunk size agree because the lexer reads comments and `%` lines as
/// pgn-reader's splitter does; a place that fails the test is merely not
/// cut at.
fn game_starts_at(bytes: &[u8], start: usize, window: Window) -> bool {
    let before = &bytes[..start];
    let blank_line = before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n");
    blank_line && opens_tag_pair(&bytes[start..]) && !may_hold_tags(before, window)
}

/// Whether the last line of `before` that is not blank could belong to a
/// tag section, or there is no such line with a line break before it.
/// In a window that begins mid-line, a line that began before it is known
/// by its end only: it could be a tag pair when it ends with `]`. A line
/// of the movetext of a game too large, a comment of megabytes, ends with
/// anything else, and the game after it is found (taken for a tag line,
/// the game after it was swallowed into the game too large).
fn may_hold_tags(before: &[u8], window: Window) -> bool {
    let Some(last) = before.iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')) else {
        return true;
    };
    let Some(line_start) = memrchr(b'\n', &before[..last]).map(|at| at + 1) else {
        return window == Window::LineStart || before[last] == b']';
    };
    let escaped_line_break = line_start >= 2 && before[line_start - 2] == b'\\';
    let first = before[line_start..=last]
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | 0xef | 0xbb | 0xbf));
    escaped_line_break || matches!(first, Some(b'[' | b'%' | b';'))
}

/// The most bytes a game may take. A game is too large when no other game
/// begins within this many bytes of its first (as the replay walks them):
/// it is reported as one game with an error, not replayed, and skipped to
/// where a game certainly begins (see [`TooLarge`]). The same on every path:
/// a stream holds no more than this of one game, and a mapped file, which
/// could, is read alike so that its records are the same.
pub const MAX_GAME: usize = 16 << 20;

/// How far past the target chunk size a stream is read before looking
/// for the cut: more than nearly every game is long.
const STREAM_SLACK: usize = 256 << 10;

/// The bytes each window of a game too large shares with the window before,
/// where a cut is looked for (after half of them) again: a place where a
/// game begins that the end of the last window cut short is found in the
/// next (unless its tag name is longer than half of them).
const RESYNC_OVERLAP: usize = 64 << 10;

/// A game too large (see [`MAX_GAME`]), which is its chunk's only game: its
/// moves are not read. The chunk holds its first bytes (at most
/// `MAX_GAME`, enough for the tags) from a stream, and all of them from a
/// mapped file. It ends where a game certainly begins (a cut `find_cut`
/// finds) looked for in windows of `MAX_GAME` bytes past its first
/// `MAX_GAME`, each overlapping the window before, or at the end of the
/// input: a stream and a mapped file look at the same windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// The chunk's length in bytes (the game's and what precedes it).
    pub length: u64,
    /// The line breaks in it.
    pub lines: u64,
    /// How many of its first bytes are read (for its tags): those a
    /// stream holds, whatever the chunk holds.
    pub held: usize,
}

/// How a chunk ends, from the bytes at its start.
enum Decision {
    /// At this cut.
    Cut(usize),
    /// More bytes are needed to tell.
    More,
    /// The chunk's first game is too large.
    TooLarge,
}

/// How the chunk that `window` begins ends: at the first cut past
/// `target`, else, once `window` holds `max_game` bytes, before the last
/// game that begins in them (there are whole games before it), else its
/// first game is too large. `eof` when `window` is the rest of the input.
fn decide(window: &[u8], target: usize, eof: bool, max_game: usize) -> Decision {
    if let Some(cut) = find_cut(window, target, eof) {
        return Decision::Cut(cut);
    }
    if window.len() < max_game {
        return Decision::More;
    }
    match last_game_start(&window[..max_game]) {
        Some(start) => Decision::Cut(start),
        None => Decision::TooLarge,
    }
}

/// Where the last game that begins in `bytes` after their first game
/// begins, as the replay walks them. Bytes cut short make the replay miss
/// a game at their very end, never find one that is not there: it is a
/// place where the replay of the whole input begins a game too. Walked
/// only when no cut was found in `MAX_GAME` bytes (a game that long, or
/// games without blank lines between them).
pub(crate) fn last_game_start(bytes: &[u8]) -> Option<usize> {
    let mut cursor = GameCursor::new(bytes, 1);
    let (mut games, mut last) = (0, None);
    while let Some(span) = cursor.next_game(|_, _| {}) {
        games += 1;
        if games > 1 {
            last = Some(span.start);
        }
        cursor.finish_game(&span, cursor.lexer(&span));
    }
    last
}

/// The overlap of the windows of a game too large, for `max_game`.
pub(crate) fn resync_overlap(max_game: usize) -> usize {
    RESYNC_OVERLAP.min(max_game / 4)
}

/// Where a game too large that begins `bytes` ends: see [`TooLarge`].
/// `read` is told of each window read without finding the end.
fn resync_mapped(bytes: &[u8], max_game: usize, mut read: impl FnMut(Range<usize>)) -> usize {
    let overlap = resync_overlap(max_game);
    let mut start = max_game - overlap;
    loop {
        let range = start.min(bytes.len())..bytes.len().min(start + max_game);
        if let Some(cut) = find_resync_cut(&bytes[range.clone()], overlap / 2) {
            return start + cut;
        }
        read(range);
        if start + max_game >= bytes.len() {
            return bytes.len();
        }
        start += max_game - overlap;
    }
}

/// Produces the chunks of one input in order.
pub struct Chunker {
    file: Arc<str>,
    source: Source,
    target: usize,
    offset: u64,
    observer: ReadObserver,
    /// [`MAX_GAME`], smaller in tests.
    max_game: usize,
}

enum Source {
    Mapped(Arc<Mmap>),
    Stream {
        rdr: Box<dyn Read + Send>,
        buffer: Vec<u8>,
        eof: bool,
        /// A read error, held back while the complete games read before
        /// it are handed out.
        failed: Option<io::Error>,
    },
}

impl Chunker {
    /// Chunks `input` (named `file`) into chunks of about `target` bytes;
    /// the bytes of a mapped input are reported to `observer` chunk by
    /// chunk (a stream reports its own).
    pub fn new(file: Arc<str>, input: Input, target: usize, observer: ReadObserver) -> Self {
        let source = match input {
            Input::Mapped(map) => Source::Mapped(Arc::new(map)),
            Input::Stream(rdr) => {
                Source::Stream { rdr, buffer: Vec::new(), eof: false, failed: None }
            }
        };
        Chunker { file, source, target: target.max(1), offset: 0, observer, max_game: MAX_GAME }
    }

    /// The next chunk, `None` at the end of the input, or a read error.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let max_game = self.max_game;
        // Cuts are looked for within `max_game` bytes of a chunk's start.
        let target = self.target.min(max_game / 2);
        let (data, too_large) = match &mut self.source {
            Source::Mapped(map) => {
                let start = self.offset as usize;
                if start >= map.len() {
                    return Ok(None);
                }
                // The bytes a stream would hold to decide.
                let rest = &map[start..];
                let window = &rest[..rest.len().min(max_game)];
                let (len, too_large) = match decide(window, target, rest.len() < max_game, max_game)
                {
                    Decision::Cut(len) => (len, None),
                    Decision::More => unreachable!("a window of a mapped file is whole"),
                    Decision::TooLarge => {
                        // The game's pages are dropped once read, window by
                        // window, as a stream drops its bytes: they would
                        // stay resident until the chunk is replayed.
                        let drop_pages = |range: Range<usize>| {
                            crate::source::mmap::release(
                                map,
                                start + range.start..start + range.end,
                            );
                        };
                        let len = resync_mapped(rest, max_game, drop_pages);
                        let mut lines = 0;
                        for at in (0..len).step_by(max_game) {
                            let block = at..len.min(at + max_game);
                            lines += count_lines(&rest[block.clone()]);
                            drop_pages(block);
                        }
                        let held = len.min(max_game);
                        (len, Some(TooLarge { length: len as u64, lines, held }))
                    }
                };
                (self.observer)(len as u64);
                (ChunkData::Mapped { map: map.clone(), range: start..start + len }, too_large)
            }
            Source::Stream { rdr, buffer, eof, failed } => {
                // Read a little past the target, so that the game crossing
                // it usually ends in the buffer and one scan finds the cut
                // (reading exactly the target scanned every chunk twice).
                let mut want = (target + STREAM_SLACK).min(max_game);
                // The cut, or `None` for a game too large.
                let cut = loop {
                    if failed.is_none()
                        && let Err(error) = fill(rdr, buffer, eof, want)
                    {
                        *failed = Some(error);
                    }
                    if let Some(error) = failed.take() {
                        // A truncated download: the complete games before
                        // the error are replayed, then the error reported.
                        match last_cut(buffer) {
                            Some(cut) => {
                                *failed = Some(error);
                                break Some(cut);
                            }
                            None => {
                                let at = self.offset;
                                let kept = buffer.len();
                                buffer.clear();
                                return Err(io::Error::new(
                                    error.kind(),
                                    format!(
                                        "{error}, after {} bytes; the games before were read, \
                                         the last one ({kept} bytes from byte {at}) is incomplete",
                                        at + kept as u64
                                    ),
                                ));
                            }
                        }
                    }
                    // As for a mapped file: the input ends within the
                    // window, or it does not.
                    debug_assert!(buffer.len() <= max_game, "a stream holds one window");
                    match decide(buffer, target, *eof && buffer.len() < max_game, max_game) {
                        Decision::Cut(cut) => break Some(cut),
                        // One game longer than the buffer: read more of it.
                        Decision::More => {
                            want = buffer.len().saturating_mul(2).clamp(target, max_game);
                        }
                        Decision::TooLarge => break None,
                    }
                };
                match cut {
                    Some(0) => return Ok(None),
                    Some(len) => {
                        let rest = buffer.split_off(len);
                        (ChunkData::Owned(std::mem::replace(buffer, rest)), None)
                    }
                    None => {
                        let (head, large) = skip_too_large(rdr, buffer, eof, failed, max_game);
                        (ChunkData::Owned(head), Some(large))
                    }
                }
            }
        };
        let chunk = Chunk { file: self.file.clone(), offset: self.offset, data, too_large };
        self.offset += too_large.map_or(chunk.bytes().len() as u64, |large| large.length);
        Ok(Some(chunk))
    }
}

/// Reads past a game too large that `buffer` begins with (its first
/// `max_game` bytes) without holding it, as `resync_mapped` does on a
/// mapped file, and leaves in `buffer` what follows it. Returns the bytes
/// of the game that are kept (its first, at most `max_game`) and its size.
/// A read error ends the game where the read got; it is reported next.
fn skip_too_large(
    rdr: &mut Box<dyn Read + Send>,
    buffer: &mut Vec<u8>,
    eof: &mut bool,
    failed: &mut Option<io::Error>,
    max_game: usize,
) -> (Vec<u8>, TooLarge) {
    let overlap = resync_overlap(max_game);
    let mut head = std::mem::take(buffer);
    let mut window = head[max_game - overlap..].to_vec();
    // Line breaks before the window, and bytes before it.
    let (mut lines, mut before) =
        (count_lines(&head[..max_game - overlap]), (max_game - overlap) as u64);
    loop {
        if failed.is_none()
            && let Err(error) = fill(rdr, &mut window, eof, max_game)
        {
            *failed = Some(error);
        }
        let found = find_resync_cut(&window, overlap / 2);
        let end = found.unwrap_or(window.len());
        if found.is_some() || *eof || failed.is_some() {
            lines += count_lines(&window[..end]);
            let length = before + end as u64;
            head.truncate(length.min(head.len() as u64) as usize);
            *buffer = window.split_off(end);
            let held = head.len();
            return (head, TooLarge { length, lines, held });
        }
        let kept = window.len() - overlap;
        lines += count_lines(&window[..kept]);
        before += kept as u64;
        window.drain(..kept);
    }
}

fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Where the last game that begins in `bytes` (after their first) starts:
/// the bytes before it are whole games.
fn last_cut(bytes: &[u8]) -> Option<usize> {
    let (mut last, mut at) = (None, 0);
    while let Some(cut) = find_cut(&bytes[at..], 1, false) {
        at += cut;
        last = Some(at);
    }
    last
}

/// Reads until `buffer` holds `want` bytes or the stream ends.
pub(crate) fn fill(
    rdr: &mut dyn Read,
    buffer: &mut Vec<u8>,
    eof: &mut bool,
    want: usize,
) -> io::Result<()> {
    // Room for all of it at once: growing by doubling copied each chunk
    // several times over.
    buffer.reserve(want.saturating_sub(buffer.len()));
    while !*eof && buffer.len() < want {
        let missing = (want - buffer.len()) as u64;
        let read = rdr.take(missing).read_to_end(buffer)?;
        if read == 0 {
            *eof = true;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::{
        record::GameRecord,
        replay::{ReplayOptions, Replayer},
        testing::Rng,
    };

    /// Games `a` to `f`: `a` swallows `in a comment` with a comment never
    /// closed, `d` has a blank line in its tags, `e` a tag value that goes
    /// on after an escaped line break, `f` a `%` line before a blank line.
    const GAMES: &[u8] = b"[Event \"a\"]\n\n1. e4 { [x]\n\n[Event \"in a comment\"] } e5 1-0\n\n[Event \"b\"]\n[Site \"?\"]\n\n1. d4 0-1\n\n[Event \"c\"]\n\n1. c4 *\n\n[Event \"d\"]\n\n[Site \"d\"]\n\n*\n\n[Event \"e\\\nx\"]\n\n[Site \"e\"]\n\n*\n\n[Event \"f\"]\n%\n\n[Site \"f\"]\n\n*\n";

    fn cuts(target: usize) -> Vec<usize> {
        let mut at = 0;
        let mut out = Vec::new();
        while at < GAMES.len() {
            out.push(at);
            at += find_cut(&GAMES[at..], target, true).unwrap();
        }
        out
    }

    #[test]
    fn cuts_only_where_the_replay_starts_a_game() {
        let text = std::str::from_utf8(GAMES).unwrap();
        let starts: Vec<usize> = ["a", "in a comment", "b", "c", "d", "e", "f"]
            .iter()
            .map(|event| text.find(&format!("[Event \"{event}")).unwrap())
            .collect();
        // Not before `b`, whose blank line follows a line that begins
        // with `[` (a tag line, for all the chunker knows).
        let mut cut_at = starts.clone();
        cut_at.remove(2);
        assert_eq!(cuts(1), cut_at);
        assert_eq!(cuts(1 << 20), vec![0]);
        assert_eq!(find_cut(GAMES, 1, false), Some(starts[1]));
        assert_eq!(find_cut(&GAMES[..starts[1] + 7], 1, false), None, "a tag pair cut short");
        // And these are the games the replay finds, whole or cut anywhere.
        let lines: Vec<u64> = crate::testing::replay(GAMES).iter().map(|r| r.line).collect();
        let line_of = |at: usize| 1 + text[..at].matches('\n').count() as u64;
        assert_eq!(lines, starts.iter().map(|&at| line_of(at)).collect::<Vec<_>>());
    }

    /// The records of `bytes` replayed in the chunks of `target` bytes that
    /// `find_cut` makes.
    fn replay_in_chunks(bytes: &[u8], target: usize) -> Vec<GameRecord> {
        let mut replayer = Replayer::new(ReplayOptions::default());
        let mut records = Vec::new();
        let (mut at, mut games_before) = (0, 0);
        while at < bytes.len() {
            let len = find_cut(&bytes[at..], target, true).unwrap();
            let mut chunk = Chunk::from_bytes("t", bytes[at..at + len].to_vec());
            chunk.offset = at as u64;
            let lines_before = bytes[..at].iter().filter(|&&b| b == b'\n').count() as u64;
            let count = replayer.replay(&chunk, &mut (), |mut record, ()| {
                record.shift_lines(lines_before);
                record.index += games_before;
                records.push(record);
            });
            assert_eq!(count.lines, chunk.bytes().iter().filter(|&&b| b == b'\n').count() as u64);
            games_before += count.games;
            at += len;
        }
        records
    }

    #[test]
    fn records_do_not_depend_on_where_the_chunker_cuts() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut cut = 0;
        for case in 0..1500 {
            let bytes = rng.pgn_soup(150, false);
            let whole = replay_in_chunks(&bytes, usize::MAX);
            let target = 1 + rng.below(60);
            let chunked = replay_in_chunks(&bytes, target);
            cut += usize::from(find_cut(&bytes, target, false).is_some());
            assert_eq!(
                whole,
                chunked,
                "soup {case}, chunks of {target}: {:?}",
                bytes.escape_ascii().to_string()
            );
        }
        assert!(cut > 300, "the soups were hardly ever cut: {cut}");
    }

    #[test]
    fn a_stream_without_game_boundaries_is_one_game_too_large() {
        let length = MAX_GAME as u64 * 2 + 10;
        let endless = std::io::repeat(b'x').take(length);
        let mut chunker =
            Chunker::new("t".into(), Input::Stream(Box::new(endless)), 1 << 20, Arc::new(drop));
        let chunk = chunker.next_chunk().unwrap().expect("a chunk");
        assert_eq!(chunk.too_large, Some(TooLarge { length, lines: 0, held: MAX_GAME }));
        assert_eq!(chunk.bytes().len(), MAX_GAME, "only the game's first bytes are held");
        assert!(chunker.next_chunk().unwrap().is_none());
    }

    /// The chunks of `bytes` at `target` with games of at most `max_game`
    /// bytes, from a mapped file or a stream: offset, bytes, and how large
    /// a game too large is.
    fn chunks_of(
        bytes: &[u8],
        target: usize,
        max_game: usize,
        mapped: bool,
    ) -> Vec<(u64, Vec<u8>, Option<TooLarge>)> {
        let input = if mapped {
            let mut file = tempfile::tempfile().unwrap();
            std::io::Write::write_all(&mut file, bytes).unwrap();
            Input::Mapped(crate::source::mmap::map(&file).expect("a map"))
        } else {
            Input::Stream(Box::new(Cursor::new(bytes.to_vec())))
        };
        let mut chunker = Chunker::new("t".into(), input, target, Arc::new(drop));
        chunker.max_game = max_game;
        let mut chunks = Vec::new();
        while let Some(chunk) = chunker.next_chunk().unwrap() {
            chunks.push((chunk.offset, chunk.bytes().to_vec(), chunk.too_large));
        }
        chunks
    }

    /// The records of chunks, numbered and lined as the pipeline does.
    fn records_of(chunks: &[(u64, Vec<u8>, Option<TooLarge>)]) -> Vec<GameRecord> {
        let mut replayer = Replayer::new(ReplayOptions::default());
        let (mut records, mut games_before, mut lines_before) = (Vec::new(), 0, 0);
        for (offset, bytes, too_large) in chunks {
            let mut chunk = Chunk::from_bytes("t", bytes.clone());
            (chunk.offset, chunk.too_large) = (*offset, *too_large);
            let count = replayer.replay(&chunk, &mut (), |mut record, ()| {
                record.shift_lines(lines_before);
                record.index += games_before;
                records.push(record);
            });
            (games_before, lines_before) = (games_before + count.games, lines_before + count.lines);
        }
        records
    }

    /// A game too large is found, and skipped, alike in a mapped file and a
    /// stream and at any target chunk size: the same chunks, but for the
    /// bytes of a game too large past its first `max_game`, which a stream
    /// does not hold, and the same records whatever the target. Without a
    /// game too large, the records are those of the whole input in one
    /// chunk.
    #[test]
    fn games_too_large_are_the_same_mapped_or_streamed_at_any_target() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut large, mut cut_by_walk) = (0, 0);
        for case in 0..600 {
            let bytes = rng.pgn_soup(150, false);
            if bytes.is_empty() {
                continue;
            }
            let max_game = 40 + rng.below(400);
            let what =
                format!("soup {case}, max {max_game}: {:?}", bytes.escape_ascii().to_string());
            let mut records = None;
            for target in [1, 1 + rng.below(60), max_game] {
                let mapped = chunks_of(&bytes, target, max_game, true);
                let streamed = chunks_of(&bytes, target, max_game, false);
                assert_eq!(mapped.len(), streamed.len(), "{what}");
                for ((at, whole, large_m), (at_s, head, large_s)) in mapped.iter().zip(&streamed) {
                    assert_eq!((at, large_m), (at_s, large_s), "{what}");
                    let held = large_m.map_or(whole.len(), |_| whole.len().min(max_game));
                    assert_eq!(&whole[..held], &head[..], "{what}");
                    large += usize::from(large_m.is_some());
                    // Cut where the walk found a game, no cut being near.
                    let rest = &bytes[*at as usize..];
                    let walked = rest.len() >= max_game
                        && find_cut(&rest[..max_game], target.min(max_game / 2), false).is_none();
                    cut_by_walk += usize::from(large_m.is_none() && walked);
                }
                let joined: u64 =
                    mapped.iter().map(|(_, b, l)| l.map_or(b.len() as u64, |l| l.length)).sum();
                assert_eq!(joined, bytes.len() as u64, "{what}");
                let these = records_of(&streamed);
                assert_eq!(records_of(&mapped), these, "{what}");
                if mapped.iter().all(|(_, _, l)| l.is_none()) {
                    assert_eq!(these, crate::testing::replay(&bytes), "{what}");
                }
                assert_eq!(records.get_or_insert_with(|| these.clone()), &these, "{what}");
            }
        }
        assert!(large > 200 && cut_by_walk > 50, "{large} too large, {cut_by_walk} cut by walking");
    }

    #[test]
    fn streamed_chunks_match_mapped_cuts_at_any_target() {
        for target in [1, 7, 40, 1000] {
            let mut chunker = Chunker::new(
                "t".into(),
                Input::Stream(Box::new(Cursor::new(GAMES.to_vec()))),
                target,
                Arc::new(drop),
            );
            let mut joined = Vec::new();
            while let Some(chunk) = chunker.next_chunk().unwrap() {
                assert_eq!(chunk.offset, joined.len() as u64);
                joined.extend_from_slice(chunk.bytes());
            }
            assert_eq!(joined, GAMES, "target {target}");
        }
    }
}
