//! The tree's partial file: an exact `Tree` on disk, for `arbiter merge`.
//!
//! One JSON document on one line: `{"format": "arbiter-tree-partial",
//! "version": 1, "root": {...}, "depth": N, "positions": [...], "moves":
//! [...]}`. Each position is `[fen, [games, white_wins, draws, black_wins,
//! unfinished], [rated, rating_sum], [white's games, points_x2,
//! opponent_rating_sum], [black's...], [first_year, last_year] | null]`,
//! sorted by FEN; each move `[from, to, san, games]`, by index into the
//! positions. Counts only, never a rounded figure. A stream may hold
//! several documents one after another; reading merges them, when they
//! are trees of one root and depth.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;

use super::{Counts, Edge, Node, Root, Spec, Tree, fen, parse_fen};
use crate::{
    pipeline::Merge,
    stats::{Rated, Tally},
};

/// The `format` field of every tree partial.
pub const FORMAT: &str = "arbiter-tree-partial";

/// The version of the format this arbiter writes and reads.
pub const VERSION: u64 = 1;

/// Why a tree partial could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PartialError {
    /// Not JSON.
    #[error("not a JSON document")]
    Json(#[source] serde_json::Error),
    /// JSON, but not a tree partial.
    #[error("not an arbiter tree partial (no \"format\": \"{FORMAT}\")")]
    Format,
    /// A partial of another format version.
    #[error("tree partial format version {0}, but this arbiter reads version {VERSION}")]
    Version(String),
    /// The right header, but the tree is malformed or inconsistent.
    #[error("corrupt tree partial: {0}")]
    Corrupt(String),
    /// Trees of different roots or depths, which do not add up.
    #[error("a tree of {0}, but the others are of {1}")]
    Mismatch(String, String),
    /// No document at all.
    #[error("empty: no partial in it")]
    Empty,
}

/// Just the header, to tell a partial's format before reading it whole
/// (the other fields are skipped, not built).
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<serde_json::Value>,
}

/// Whether the first document of `bytes` says it is a tree partial.
pub fn is_tree(bytes: &[u8]) -> bool {
    let mut documents = serde_json::Deserializer::from_slice(bytes).into_iter::<Header>();
    matches!(documents.next(), Some(Ok(Header { format: Some(format), .. })) if format == FORMAT)
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RootRecord {
    /// The root position (a FEN without move counters).
    fen: String,
    /// The moves to it in SAN, for a `--moves` root.
    moves: Vec<String>,
    /// Its fullmove number.
    fullmoves: u32,
}

#[derive(Serialize, Deserialize)]
struct PositionRecord(String, Tally, [u64; 2], Rated, Rated, Option<[u32; 2]>);

#[derive(Serialize, Deserialize)]
struct MoveRecord(u32, u32, String, u64);

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    format: String,
    version: u64,
    root: RootRecord,
    depth: u32,
    positions: Vec<PositionRecord>,
    moves: Vec<MoveRecord>,
}

/// Writes `tree` as one partial document and a newline.
pub fn write(wtr: &mut dyn Write, tree: &Tree) -> io::Result<()> {
    let root = &tree.spec().root;
    let nodes = tree.nodes();
    // Sorted by FEN, so that the file does not depend on the order of
    // counting.
    let fens: Vec<String> = nodes.iter().map(|node| fen(&node.position)).collect();
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|&a, &b| fens[a].cmp(&fens[b]));
    let mut rank = vec![0u32; nodes.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as u32;
    }
    let positions = order
        .iter()
        .map(|&i| {
            let c = &nodes[i].counts;
            let years = c.years.map(|(first, last)| [first, last]);
            PositionRecord(
                fens[i].clone(),
                c.results,
                [c.rated, c.rating_sum],
                c.white,
                c.black,
                years,
            )
        })
        .collect();
    let mut moves: Vec<MoveRecord> = tree
        .edges()
        .iter()
        .map(|(&(from, to), edge)| {
            MoveRecord(rank[from as usize], rank[to as usize], edge.san.to_string(), edge.games)
        })
        .collect();
    moves.sort_by_key(|m| (m.0, m.1));
    let mut pos = shakmaty::Chess::default();
    let sans = root.moves.iter().map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m));
    let document = Document {
        format: FORMAT.to_owned(),
        version: VERSION,
        root: RootRecord {
            fen: fen(&root.position),
            moves: sans.map(|san| san.to_string()).collect(),
            fullmoves: root.fullmoves,
        },
        depth: tree.spec().depth,
        positions,
        moves,
    };
    serde_json::to_writer(&mut *wtr, &document)?;
    writeln!(wtr)?;
    wtr.flush()
}

/// Reads every tree partial of `bytes` and returns their merge.
pub fn read(bytes: &[u8]) -> Result<Tree, PartialError> {
    let headers = serde_json::Deserializer::from_slice(bytes).into_iter::<Header>();
    let documents = serde_json::Deserializer::from_slice(bytes).into_iter::<Document>();
    let mut total = None::<Tree>;
    for (header, document) in headers.zip(documents) {
        let header = header.map_err(PartialError::Json)?;
        if header.format.as_deref() != Some(FORMAT) {
            return Err(PartialError::Format);
        }
        match header.version {
            Some(version) if version.as_u64() == Some(VERSION) => {}
            Some(version) => return Err(PartialError::Version(version.to_string())),
            None => return Err(PartialError::Version("missing".to_owned())),
        }
        let tree = parse(document.map_err(|e| PartialError::Corrupt(e.to_string()))?)?;
        total = Some(match total {
            Some(mut total) => {
                merge(&mut total, tree)?;
                total
            }
            None => tree,
        });
    }
    total.ok_or(PartialError::Empty)
}

/// Adds `tree` into `total`, if they are trees of one root and depth.
pub fn merge(total: &mut Tree, tree: Tree) -> Result<(), PartialError> {
    if total.spec() != tree.spec() {
        let name = |spec: &Spec| {
            format!("{} ({}), {} plies", spec.root.label(), fen(&spec.root.position), spec.depth)
        };
        return Err(PartialError::Mismatch(name(tree.spec()), name(total.spec())));
    }
    total.merge(tree);
    Ok(())
}

/// The tree of one document.
fn parse(document: Document) -> Result<Tree, PartialError> {
    let corrupt = PartialError::Corrupt;
    let RootRecord { fen: root_fen, moves, fullmoves } = document.root;
    let root = if moves.is_empty() {
        Root { position: parse_fen(&root_fen).map_err(corrupt)?, moves: Vec::new(), fullmoves }
    } else {
        Root::of_moves(&moves.join(" ")).map_err(corrupt)?
    };
    if fen(&root.position) != root_fen.trim() || root.fullmoves != fullmoves {
        return Err(corrupt(format!("the root {root_fen} is not where its moves lead")));
    }
    let spec = Spec { root, depth: document.depth };
    let mut nodes = Vec::with_capacity(document.positions.len());
    for PositionRecord(text, results, [rated, rating_sum], white, black, years) in
        document.positions
    {
        let position = parse_fen(&text).map_err(corrupt)?;
        let years = match years {
            Some([first, last]) if first > last => {
                return Err(corrupt(format!("years {first} to {last} at {text}")));
            }
            years => years.map(|[first, last]| (first, last)),
        };
        let counts = Counts { results, rated, rating_sum, white, black, years };
        nodes.push(Node { position, counts });
    }
    let mut edges = Vec::with_capacity(document.moves.len());
    for MoveRecord(from, to, san, games) in document.moves {
        let san: SanPlus = san.parse().map_err(|_| corrupt(format!("not a move in SAN: {san}")))?;
        edges.push(((from, to), Edge { san, games }));
    }
    Tree::from_parts(spec, nodes, edges).map_err(corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        pgn::chunk::Chunk,
        replay::{ReplayOptions, Replayer},
        tree::{Explorer, report::rows},
    };

    fn tree(pgn: &str, spec: &Spec) -> Tree {
        let chunk = Chunk::from_bytes("t", pgn.as_bytes().to_vec());
        let mut explorer = Explorer::new(spec.clone(), 1000);
        let options = ReplayOptions { early_stop: true, ..ReplayOptions::default() };
        Replayer::new(options).replay(&chunk, &mut explorer, |_, ()| {});
        explorer.into_tree()
    }

    fn bytes(tree: &Tree) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, tree).unwrap();
        out
    }

    const ONE: &str = "[WhiteElo \"2500\"]\n[Date \"2001.01.01\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 1-0\n\n\
        [BlackElo \"2400\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n";
    const TWO: &str =
        "[Date \"1999.??.??\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n1. e4 c5 2. c3 *\n";

    #[test]
    fn round_trips_and_concatenated_partials_merge() {
        let spec = Spec { root: Root::of_moves("e4").unwrap(), depth: 2 };
        let one = tree(ONE, &spec);
        let back = read(&bytes(&one)).unwrap();
        assert_eq!(rows(&back, 0), rows(&one, 0));
        assert_eq!(bytes(&back), bytes(&one), "written the same");
        let whole = tree(&format!("{ONE}\n{TWO}"), &spec);
        let mut both = bytes(&one);
        both.extend(bytes(&tree(TWO, &spec)));
        assert_eq!(rows(&read(&both).unwrap(), 0), rows(&whole, 0));
        assert!(is_tree(&both));
    }

    #[test]
    fn partials_of_other_trees_or_formats_are_refused() {
        let spec = Spec { root: Root::start(), depth: 2 };
        let mut mixed = bytes(&tree(ONE, &spec));
        mixed.extend(bytes(&tree(ONE, &Spec { depth: 3, ..spec.clone() })));
        assert!(matches!(read(&mixed), Err(PartialError::Mismatch(..))));
        let stats = br#"{"format":"arbiter-stats-partial","version":1,"stats":{}}"#;
        assert!(!is_tree(stats));
        assert!(matches!(read(stats), Err(PartialError::Format)));
        assert!(matches!(read(b""), Err(PartialError::Empty)));
        let written = String::from_utf8(bytes(&tree(ONE, &spec))).unwrap();
        let newer = written.replace("\"version\":1", "\"version\":2");
        assert!(matches!(read(newer.as_bytes()), Err(PartialError::Version(v)) if v == "2"));
        let bad_move = written.replace("\"e4\"", "\"e9\"");
        assert!(matches!(read(bad_move.as_bytes()), Err(PartialError::Corrupt(_))));
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let document = |tally: &str| {
            format!(
                r#"{{"format":"{FORMAT}","version":1,"root":{{"fen":"{start}","moves":[],"fullmoves":1}},"depth":1,"positions":[["{start}",{tally},[0,0],[0,0,0],[0,0,0],null]],"moves":[]}}"#
            )
        };
        assert_eq!(rows(&read(document("[1,1,0,0,0]").as_bytes()).unwrap(), 0)[0].games, 1);
        let too_many = document("[1,2,0,0,0]");
        assert!(matches!(read(too_many.as_bytes()), Err(PartialError::Corrupt(_))));
    }
}
