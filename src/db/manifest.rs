//! `manifest.json`: what a database directory holds. Its format version,
//! the position-key and move encodings, every source read (path, size,
//! SHA-256 digest, games) and every shard (its `games` file, its stats
//! partial, its rows). Readers trust the files the manifest lists, and
//! only those: a shard written by a run that died before its manifest is
//! not part of the database. Written last, whole or not at all.

use std::{
    fs,
    io::{self, Read},
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::sink::atomic;

/// The manifest's file name in a database directory.
pub const FILE: &str = "manifest.json";

/// The `format` field.
pub const FORMAT: &str = "arbiter-db";

/// The format version this arbiter writes and reads (4: a ply's byte
/// names the piece and its candidate; 3: an index among all the pieces'
/// candidates; 2: two bytes a ply; older ones are not read).
pub const VERSION: u64 = 4;

/// The position-key scheme, as the manifest names it.
pub const KEY_SCHEME: &str = "zobrist64-fide: shakmaty's Zobrist64 of pieces, side to move, \
                              castling rights and the en passant square only when a capture \
                              is legal (FIDE Art. 9.2.3), as a signed 64-bit integer";

/// The move encoding, as the manifest names it (docs/DATABASE.md).
pub const MOVES_SCHEME: &str = "arbiter-moves-3: a byte a ply, 16 times the place of the \
                                  moving piece among the side to move's pieces (by square) \
                                  plus the place of the move among that piece's candidates \
                                  (its attack and pawn-step targets, by target and \
                                  promotion); 255 and the two-byte code, little-endian, for \
                                  any other move";

/// A database's manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version ([`VERSION`]).
    pub version: u64,
    /// [`KEY_SCHEME`].
    pub key: String,
    /// [`MOVES_SCHEME`].
    pub moves: String,
    /// Every input read, in the order they were added.
    pub sources: Vec<Source>,
    /// Every shard, in the order they were written.
    pub shards: Vec<Shard>,
    /// Games in all shards.
    pub games: u64,
}

/// An input that was read into the database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Its number (`source_id` in `games`, the high bits of `game_id`).
    pub id: u32,
    /// Its path as given to `db build`.
    pub path: String,
    /// Its absolute path when `db build` read it, where that differs from
    /// `path`: a relative path is looked up from wherever a reader runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absolute: Option<String>,
    /// Its size in bytes, as stored (compressed, if it is).
    pub size: u64,
    /// The SHA-256 of its bytes as stored, in hexadecimal.
    pub sha256: String,
    /// Its modification time when it was read, in nanoseconds since the
    /// Unix epoch: a lookup (`db find`) reads games from a file of the
    /// same size and time without digesting it again, checking each by a
    /// replay. Absent where the file system gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<i64>,
    /// Games of it in the database.
    pub games: u64,
    /// Why its read stopped before its end (a compressed file cut short, a
    /// file that is not PGN), when it did: its games before that are
    /// stored, those after it are not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The predicates `db build` stored its games under, as arguments
    /// (`--player=carlsen`); none when it stored them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predicates: Vec<String>,
}

/// One `games` file and its statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// The Parquet file, relative to the directory.
    pub games: String,
    /// Its `stats --partial`, relative to the directory.
    pub stats: String,
    /// Rows in it.
    pub rows: u64,
    /// Its `positions` files (`--positions`), relative to the directory,
    /// sorted by key: one (a database written before the runs were merged
    /// may have several, each for a run of its games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// Its `tree` file (`--tree`), when it has one. Optional, so that a
    /// database without one is written as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<TreeFile>,
}

/// A shard's `tree` file and what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeFile {
    /// The Parquet file, relative to the directory.
    pub file: String,
    /// Rows in it.
    pub rows: u64,
    /// K: it holds the positions at least this many of the shard's games
    /// reached (1: all of them).
    pub min_games: u64,
    /// The last ply whose position it counts (0: the start).
    pub plies: u32,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            format: FORMAT.to_owned(),
            version: VERSION,
            key: KEY_SCHEME.to_owned(),
            moves: MOVES_SCHEME.to_owned(),
            sources: Vec::new(),
            shards: Vec::new(),
            games: 0,
        }
    }
}

impl Shard {
    /// Its files, relative to the directory: games, stats, positions, tree.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        [self.games.as_str(), self.stats.as_str()]
            .into_iter()
            .chain(self.positions.iter().map(String::as_str))
            .chain(self.tree.iter().map(|t| t.file.as_str()))
    }
}

impl Manifest {
    /// Reads the manifest of `dir`; `None` when there is none (a new
    /// database).
    pub fn read(dir: &Path) -> anyhow::Result<Option<Manifest>> {
        let path = dir.join(FILE);
        // A device or a FIFO in its place would be read without end.
        if fs::metadata(&path).is_ok_and(|meta| !meta.is_file()) {
            bail!("{}: not a regular file, so not a manifest", path.display());
        }
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        let value: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            bail!("{}: not an arbiter database manifest", path.display());
        }
        if value.get("version").and_then(serde_json::Value::as_u64) != Some(VERSION) {
            bail!(
                "{}: database format version {}, but this arbiter reads version {VERSION} only: \
                 build it again from its sources (`arbiter db build FILE... -o NEW_DIR`)",
                path.display(),
                value.get("version").map_or("missing".to_owned(), ToString::to_string)
            );
        }
        let manifest: Manifest = serde_json::from_value(value)
            .with_context(|| format!("{}: corrupt manifest", path.display()))?;
        let rows: u64 = manifest.shards.iter().map(|s| s.rows).sum();
        if rows != manifest.games {
            bail!(
                "{}: corrupt manifest: {} games in all, but its shards hold {rows}",
                path.display(),
                manifest.games
            );
        }
        for name in manifest.shards.iter().flat_map(Shard::files) {
            let plain =
                Path::new(name).components().all(|c| matches!(c, std::path::Component::Normal(_)));
            if !plain {
                bail!("{}: corrupt manifest: file {name} is outside the database", path.display());
            }
        }
        Ok(Some(manifest))
    }

    /// Reads the manifest of `dir`, which must be a database.
    pub fn open(dir: &Path) -> anyhow::Result<Manifest> {
        // Said plainly: "manifest.json: Not a directory (os error 20)" is not.
        match fs::metadata(dir) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                bail!("{}: no such database (no file or directory of that name)", dir.display())
            }
            Ok(meta) if !meta.is_dir() => bail!(
                "{}: a file, not a database: a database is the directory `arbiter db build \
                 -o DIR` writes",
                dir.display()
            ),
            _ => {}
        }
        Manifest::read(dir)?.with_context(|| {
            format!(
                "{}: not an arbiter database (no {FILE}; see `arbiter db build`)",
                dir.display()
            )
        })
    }

    /// Writes the manifest into `dir`, whole or not at all.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join(FILE);
        atomic::write(&path, |wtr| {
            serde_json::to_writer_pretty(&mut *wtr, self)?;
            writeln!(wtr)
        })
        .with_context(|| format!("writing {}", path.display()))
    }

    /// The source with this digest, if the database has read it.
    pub fn source_with(&self, sha256: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.sha256 == sha256)
    }

    /// The paths of the shards' files.
    pub fn shard_paths(&self, dir: &Path) -> Vec<PathBuf> {
        self.shards.iter().map(|s| dir.join(&s.games)).collect()
    }
}

/// The modification time of the file at `path`, in nanoseconds since the
/// Unix epoch, where the file system gives one.
pub fn modified(path: &Path) -> Option<i64> {
    let time = fs::metadata(path).ok()?.modified().ok()?;
    let since = time.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_nanos()).ok()
}

/// The size and SHA-256 (hexadecimal) of the file at `path`.
pub fn digest(path: &Path) -> io::Result<(u64, String)> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 20];
    let mut size = 0;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    let hex = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((size, hex))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_sha256sums() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pgn");
        fs::write(&path, "abc").unwrap();
        let (size, hex) = digest(&path).unwrap();
        assert_eq!(size, 3);
        assert_eq!(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn manifests_round_trip_and_refuse_other_versions() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), None);
        let mut manifest = Manifest::default();
        manifest.shards.push(Shard {
            games: "games/part-000001.parquet".into(),
            stats: "stats/part-000001.json".into(),
            rows: 3,
            positions: Vec::new(),
            tree: None,
        });
        manifest.games = 3;
        manifest.write(dir.path()).unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), Some(manifest.clone()));
        let text = fs::read_to_string(dir.path().join(FILE)).unwrap();
        fs::write(
            dir.path().join(FILE),
            text.replace(&format!("\"version\": {VERSION}"), "\"version\": 9"),
        )
        .unwrap();
        assert!(Manifest::read(dir.path()).unwrap_err().to_string().contains("version 9"));
        // A database of an older move encoding: refused, saying what to do.
        fs::write(
            dir.path().join(FILE),
            text.replace(&format!("\"version\": {VERSION}"), "\"version\": 3"),
        )
        .unwrap();
        let error = Manifest::read(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("version 3, but this arbiter reads version 4")
                && error.contains("db build"),
            "{error}"
        );
        manifest.shards[0].games = "../x.parquet".into();
        manifest.write(dir.path()).unwrap();
        assert!(Manifest::read(dir.path()).is_err());
        // A tree file is listed, and checked, as the others are.
        manifest.shards[0].games = "games/part-000001.parquet".into();
        let tree =
            TreeFile { file: "tree/part-000001.parquet".into(), rows: 7, min_games: 2, plies: 40 };
        manifest.shards[0].tree = Some(tree);
        manifest.write(dir.path()).unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), Some(manifest.clone()));
        manifest.shards[0].tree.as_mut().unwrap().file = "/tmp/x.parquet".into();
        manifest.write(dir.path()).unwrap();
        assert!(Manifest::read(dir.path()).is_err());
        // A link to a device that never ends is refused, not read.
        fs::remove_file(dir.path().join(FILE)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(FILE)).unwrap();
        let error = Manifest::read(dir.path()).unwrap_err().to_string();
        assert!(error.contains("not a regular file"), "{error}");
    }
}
