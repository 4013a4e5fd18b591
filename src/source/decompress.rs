//! Decompression of `.zst`, `.gz`, `.bz2` and `.xz` inputs as streams.

use std::{
    io::{self, BufRead, Read},
    path::Path,
};

/// The longest magic number (xz's): how many first bytes `Format::sniff`
/// needs to tell every format.
pub const MAGIC_LEN: usize = 6;

/// The first `MAGIC_LEN` bytes of `rdr` (fewer only at its end), read
/// through short reads, as a pipe gives them.
pub fn read_head(rdr: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(MAGIC_LEN);
    rdr.take(MAGIC_LEN as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// A compression format arbiter reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Zstandard (`.zst`), as the lichess database ships.
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
    /// xz (`.xz`).
    Xz,
}

impl Format {
    /// Detects the format from the first bytes, or from the extension when
    /// there are fewer than `MAGIC_LEN` of them and they start no known
    /// magic number.
    pub fn sniff(head: &[u8], path: &Path) -> Option<Format> {
        const MAGIC: [(&[u8], Format); 4] = [
            (&[0x28, 0xb5, 0x2f, 0xfd], Format::Zstd),
            (&[0x1f, 0x8b], Format::Gzip),
            (b"BZh", Format::Bzip2),
            (b"\xfd7zXZ\0", Format::Xz),
        ];
        if let Some(&(_, format)) = MAGIC.iter().find(|(magic, _)| head.starts_with(magic)) {
            return Some(format);
        }
        // A zstd skippable frame (0x184D2A50 to 0x184D2A5F, little-endian),
        // which `pzstd` writes first: the decoder skips it.
        if let [first, 0x2a, 0x4d, 0x18, ..] = head
            && first & 0xf0 == 0x50
        {
            return Some(Format::Zstd);
        }
        if head.len() >= MAGIC_LEN {
            return None;
        }
        match path.extension()?.to_str()? {
            "zst" => Some(Format::Zstd),
            "gz" => Some(Format::Gzip),
            "bz2" => Some(Format::Bzip2),
            "xz" => Some(Format::Xz),
            _ => None,
        }
    }

    /// A decoder for `rdr`.
    pub fn decoder(self, rdr: impl BufRead + Send + 'static) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Format::Zstd => Box::new(zstd::Decoder::with_buffer(rdr)?),
            Format::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(rdr)),
            Format::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(rdr)),
            // Concatenated streams too, as `xz -d` reads them.
            Format::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(rdr)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_win_over_the_extension() {
        assert_eq!(Format::sniff(b"\x28\xb5\x2f\xfdrest", Path::new("a.pgn")), Some(Format::Zstd));
        // pzstd's files begin with a skippable frame.
        assert_eq!(Format::sniff(b"\x50\x2a\x4d\x18\x04\0", Path::new("a")), Some(Format::Zstd));
        assert_eq!(Format::sniff(b"\x5f\x2a\x4d\x18\x04\0", Path::new("a")), Some(Format::Zstd));
        assert_eq!(Format::sniff(b"\x60\x2a\x4d\x18\x04\0", Path::new("a")), None);
        assert_eq!(Format::sniff(b"[Event \"x\"]", Path::new("a.pgn.gz")), None);
        assert_eq!(Format::sniff(b"", Path::new("a.pgn.bz2")), Some(Format::Bzip2));
        assert_eq!(Format::sniff(b"BZh91AY", Path::new("a")), Some(Format::Bzip2));
        assert_eq!(Format::sniff(b"\xfd7zXZ\0\0\x04", Path::new("a.pgn")), Some(Format::Xz));
        assert_eq!(Format::sniff(b"", Path::new("a.pgn.xz")), Some(Format::Xz));
        // Five bytes of a six-byte magic number tell nothing by themselves.
        assert_eq!(Format::sniff(b"\xfd7zXZ", Path::new("a.pgn")), None);
        assert_eq!(Format::sniff(b"[Event \"", Path::new("a.pgn.xz")), None);
    }

    /// A reader that hands out one byte a call, as a slow pipe may.
    struct OneByteAtATime<'a>(&'a [u8]);

    impl Read for OneByteAtATime<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_head_is_read_through_short_reads() {
        let head = read_head(&mut OneByteAtATime(b"\xfd7zXZ\0rest")).unwrap();
        assert_eq!(head, b"\xfd7zXZ\0");
        assert_eq!(read_head(&mut OneByteAtATime(b"abc")).unwrap(), b"abc");
    }

    #[test]
    fn concatenated_xz_streams_are_read_whole() {
        let mut both = Vec::new();
        for part in [&b"[Event \"1\"]\n*\n"[..], b"[Event \"2\"]\n*\n"] {
            let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
            std::io::Write::write_all(&mut encoder, part).unwrap();
            both.extend(encoder.finish().unwrap());
        }
        let mut text = String::new();
        Format::Xz.decoder(io::Cursor::new(both)).unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "[Event \"1\"]\n*\n[Event \"2\"]\n*\n");
    }
}
