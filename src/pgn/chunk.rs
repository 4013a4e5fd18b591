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
    pgn::split::opens_tag_pair,
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
        Chunk { file: file.into(), offset: 0, data: ChunkData::Owned(bytes) }
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
    // The `\n` before the `[` of a game starting at the target is just
    // before it.
    let from = target.max(1) - 1;
    let found = bytes.get(from..).and_then(|rest| {
        memmem::find_iter(rest, b"\n[")
            .map(|at| from + at + 1)
            .find(|&start| game_starts_at(bytes, start))
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
fn game_starts_at(bytes: &[u8], start: usize) -> bool {
    let before = &bytes[..start];
    let blank_line = before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n");
    blank_line && opens_tag_pair(&bytes[start..]) && !may_hold_tags(before)
}

/// Whether the last line of `before` that is not blank could belong to a
/// tag section, or there is no such line with a line break before it.
fn may_hold_tags(before: &[u8]) -> bool {
    let Some(last) = before.iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')) else {
        return true;
    };
    let Some(line_start) = memrchr(b'\n', &before[..last]).map(|at| at + 1) else {
        return true;
    };
    let escaped_line_break = line_start >= 2 && before[line_start - 2] == b'\\';
    let first = before[line_start..=last]
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | 0xef | 0xbb | 0xbf));
    escaped_line_break || matches!(first, Some(b'[' | b'%' | b';'))
}

/// The most bytes of one game a streamed input holds in memory (a mapped
/// file needs no such limit: its pages are the file's).
pub const MAX_STREAMED_GAME: usize = 16 << 20;

/// How far past the target chunk size a stream is read before looking
/// for the cut: more than nearly every game is long.
const STREAM_SLACK: usize = 256 << 10;

/// Produces the chunks of one input in order.
pub struct Chunker {
    file: Arc<str>,
    source: Source,
    target: usize,
    offset: u64,
    observer: ReadObserver,
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
        Chunker { file, source, target: target.max(1), offset: 0, observer }
    }

    /// The next chunk, `None` at the end of the input, or a read error.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let data = match &mut self.source {
            Source::Mapped(map) => {
                let start = self.offset as usize;
                if start >= map.len() {
                    return Ok(None);
                }
                let len = find_cut(&map[start..], self.target, true).unwrap_or_default();
                (self.observer)(len as u64);
                ChunkData::Mapped { map: map.clone(), range: start..start + len }
            }
            Source::Stream { rdr, buffer, eof, failed } => {
                // Read a little past the target, so that the game crossing
                // it usually ends in the buffer and one scan finds the cut
                // (reading exactly the target scanned every chunk twice).
                let target = self.target.min(MAX_STREAMED_GAME / 2);
                let mut want = target + STREAM_SLACK;
                let len = loop {
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
                                break cut;
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
                    if let Some(cut) = find_cut(buffer, target, *eof) {
                        break cut;
                    }
                    if buffer.len() >= MAX_STREAMED_GAME {
                        // A "game" this long is broken input (a comment
                        // never closed, no line breaks): cut it rather
                        // than hold it all; its pieces get reported.
                        break buffer.len();
                    }
                    // One game longer than the buffer: read more of it.
                    want = buffer.len().saturating_mul(2).clamp(target, MAX_STREAMED_GAME);
                };
                if len == 0 {
                    return Ok(None);
                }
                let rest = buffer.split_off(len);
                ChunkData::Owned(std::mem::replace(buffer, rest))
            }
        };
        let chunk = Chunk { file: self.file.clone(), offset: self.offset, data };
        self.offset += chunk.bytes().len() as u64;
        Ok(Some(chunk))
    }
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
fn fill(rdr: &mut dyn Read, buffer: &mut Vec<u8>, eof: &mut bool, want: usize) -> io::Result<()> {
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
    fn a_stream_without_game_boundaries_is_cut_at_the_limit() {
        let endless = std::io::repeat(b'x').take(MAX_STREAMED_GAME as u64 * 2 + 10);
        let mut chunker =
            Chunker::new("t".into(), Input::Stream(Box::new(endless)), 1 << 20, Arc::new(drop));
        let mut sizes = Vec::new();
        while let Some(chunk) = chunker.next_chunk().unwrap() {
            sizes.push(chunk.bytes().len());
        }
        assert_eq!(sizes, vec![MAX_STREAMED_GAME, MAX_STREAMED_GAME, 10]);
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
