//! Decompression of `.zst`, `.gz`, `.bz2` and `.xz` inputs as streams.

use std::{
    io::{self, BufRead, Read},
    path::Path,
};

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
    /// the bytes have no known magic number (e.g. too few of them).
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
        if head.len() >= 4 {
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
        assert_eq!(Format::sniff(b"[Event \"x\"]", Path::new("a.pgn.gz")), None);
        assert_eq!(Format::sniff(b"", Path::new("a.pgn.bz2")), Some(Format::Bzip2));
        assert_eq!(Format::sniff(b"BZh91AY", Path::new("a")), Some(Format::Bzip2));
        assert_eq!(Format::sniff(b"\xfd7zXZ\0\0\x04", Path::new("a.pgn")), Some(Format::Xz));
        assert_eq!(Format::sniff(b"", Path::new("a.pgn.xz")), Some(Format::Xz));
    }
}
