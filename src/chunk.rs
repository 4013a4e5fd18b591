//! Splits an input's bytes into chunks of whole games.
//!
//! A chunk is a few MiB of consecutive games with its location: file, byte
//! offset and first line (game indices are counted in order by the
//! pipeline, because the replay may find more games than the splitter
//! sees: those an unterminated comment swallowed). Cuts are found by the
//! [`GameSplitter`] (pgn-reader's game-boundary logic: tags read, movetext
//! skipped with memchr), the same calls the replay makes, so a cut can
//! only fall where the replay would start a new game anyway: records never
//! depend on the chunk size.
//! Chunking never parses moves.

use std::{
    io::{self, Read},
    ops::Range,
    sync::Arc,
};

use memchr::memchr_iter;
use memmap2::Mmap;

use crate::{
    input::{Input, ReadObserver},
    split::GameSplitter,
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
    /// 1-based line of the chunk's first byte.
    pub first_line: u64,
    data: ChunkData,
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let ChunkData::Mapped { map, range } = &self.data {
            crate::input::mmap::release(map, range.clone());
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
        Chunk { file: file.into(), offset: 0, first_line: 1, data: ChunkData::Owned(bytes) }
    }
}

/// Where to cut `bytes`: the start of the first game that begins at or
/// after `target` (never at 0). At `eof` the whole rest is one chunk when
/// no such game exists; otherwise `None` means the bytes hold no complete
/// game boundary past `target` yet.
pub fn find_cut(bytes: &[u8], target: usize, eof: bool) -> Option<usize> {
    let mut games = GameSplitter::new(bytes);
    // The same sequence as `Replayer::replay`: a game starts where
    // `has_more` stops, and an unreadable tag line continues the same game.
    while games.has_more() {
        let start = games.position();
        if start > 0 && start >= target {
            return Some(start);
        }
        while games.read_tags(|_, _| {}).is_err() {}
    }
    eof.then_some(bytes.len())
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
    line: u64,
    observer: ReadObserver,
}

enum Source {
    Mapped(Arc<Mmap>),
    Stream { rdr: Box<dyn Read + Send>, buffer: Vec<u8>, eof: bool },
}

impl Chunker {
    /// Chunks `input` (named `file`) into chunks of about `target` bytes;
    /// the bytes of a mapped input are reported to `observer` chunk by
    /// chunk (a stream reports its own).
    pub fn new(file: Arc<str>, input: Input, target: usize, observer: ReadObserver) -> Self {
        let source = match input {
            Input::Mapped(map) => Source::Mapped(Arc::new(map)),
            Input::Stream(rdr) => Source::Stream { rdr, buffer: Vec::new(), eof: false },
        };
        Chunker { file, source, target: target.max(1), offset: 0, line: 1, observer }
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
            Source::Stream { rdr, buffer, eof } => {
                // Read a little past the target, so that the game crossing
                // it usually ends in the buffer and one scan finds the cut
                // (reading exactly the target scanned every chunk twice).
                let target = self.target.min(MAX_STREAMED_GAME / 2);
                let mut want = target + STREAM_SLACK;
                let len = loop {
                    fill(rdr, buffer, eof, want)?;
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
        let chunk =
            Chunk { file: self.file.clone(), offset: self.offset, first_line: self.line, data };
        let bytes = chunk.bytes();
        self.offset += bytes.len() as u64;
        self.line += memchr_iter(b'\n', bytes).count() as u64;
        Ok(Some(chunk))
    }
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

    const GAMES: &[u8] = b"[Event \"a\"]\n\n1. e4 { [x]\n\n[Event \"in a comment\"] } e5 1-0\n\n[Event \"b\"]\n[Site \"?\"]\n\n1. d4 0-1\n\n[Event \"c\"]\n\n1. c4 *\n";

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
    fn cuts_only_at_game_starts_outside_comments() {
        let text = std::str::from_utf8(GAMES).unwrap();
        let starts =
            vec![0, text.find("[Event \"b\"]").unwrap(), text.find("[Event \"c\"]").unwrap()];
        assert_eq!(cuts(1), starts);
        assert_eq!(cuts(1 << 20), vec![0]);
        assert_eq!(find_cut(GAMES, 1, false), Some(starts[1]));
        assert_eq!(find_cut(&GAMES[..starts[1] - 1], 1, false), None);
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
                assert_eq!(
                    chunk.first_line,
                    1 + joined.iter().filter(|&&b| b == b'\n').count() as u64
                );
                joined.extend_from_slice(chunk.bytes());
            }
            assert_eq!(joined, GAMES, "target {target}");
        }
    }
}
