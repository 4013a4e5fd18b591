//! The sink of `dupes`: a fixed-size [`Entry`] per game in memory, the
//! prefix fingerprints spilled to a temporary file, the players' names
//! interned, and, for `--unique`, each game's text written to the output
//! file as it comes (removed from it at the end if it is a duplicate).
//!
//! Memory: 40 bytes a game (`Entry`), 4 more with `--unique` (the length
//! of its text), and about 100 bytes per distinct spelling of a name.
//! Disk: 4 bytes per ply of each game whose players are both named (the
//! prefixes, in the temporary directory), and with `--unique` the whole
//! input in the output file until the duplicates are taken out of it.

use std::{
    fs::File,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    sync::Arc,
};

use compact_str::CompactString;
use hashbrown::HashMap;

use super::{fingerprint::Seen, unique::Store};
use crate::{pgn::values::GameResult, record::GameRecord, sink::Sink, tournament::event};

/// A name id for a missing or unknown name (`?`, `-`, empty).
pub const NO_NAME: u32 = u32::MAX;

/// One game, as `dupes` keeps it until the end of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The mainline's hash (`Seen::moves`).
    pub moves: u64,
    /// The line where the game starts in its file.
    pub line: u64,
    /// When it was played, how it ended, and flags.
    pub stamp: Stamp,
    /// Mainline plies.
    pub plies: u32,
    /// White's name ([`Names`] id, or [`NO_NAME`]).
    pub white: u32,
    /// Black's name.
    pub black: u32,
    /// The game's number across all inputs, from 0, in input order.
    pub ordinal: u32,
}

/// When a game was played, its result and two flags, in 64 bits: second
/// (17 bits, [`When::second`](super::fingerprint::When)), day (5), month
/// (4), year (14), result (3), compared (1), prefixes spilled (1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp(u64);

const DAY: u32 = 17;
const MONTH: u32 = 22;
const YEAR: u32 = 26;
const RESULT: u32 = 40;
const COMPARED: u64 = 1 << 43;
const SPILLED: u64 = 1 << 44;

impl Stamp {
    fn new(seen: &Seen, result: Option<GameResult>, compared: bool, spilled: bool) -> Stamp {
        let when = seen.when;
        let result = match result {
            None => 0,
            Some(GameResult::Unfinished) => 1,
            Some(GameResult::WhiteWins) => 2,
            Some(GameResult::BlackWins) => 3,
            Some(GameResult::Draw) => 4,
        };
        Stamp(
            u64::from(when.second)
                | u64::from(when.day) << DAY
                | u64::from(when.month) << MONTH
                | u64::from(when.year) << YEAR
                | result << RESULT
                | if compared { COMPARED } else { 0 }
                | if spilled { SPILLED } else { 0 },
        )
    }

    /// When the game was played.
    pub fn when(self) -> super::fingerprint::When {
        let bits = |shift: u32, width: u32| (self.0 >> shift) & ((1 << width) - 1);
        super::fingerprint::When {
            year: bits(YEAR, 14) as u16,
            month: bits(MONTH, 4) as u8,
            day: bits(DAY, 5) as u8,
            second: bits(0, 17) as u32,
        }
    }

    /// The result: 0 unknown, 1 unfinished (`*`), 2 to 4 a finished game's.
    pub fn result(self) -> u64 {
        (self.0 >> RESULT) & 7
    }

    /// Whether the game is compared with the others (see [`Selection`]).
    pub fn compared(self) -> bool {
        self.0 & COMPARED != 0
    }

    /// Whether its prefixes are in the spill file.
    pub fn spilled(self) -> bool {
        self.0 & SPILLED != 0
    }
}

/// Which games are compared: those the predicates select whose mainline
/// was replayed to its end with at least `min_plies` plies. A game not
/// compared is kept as it is (and written by `--unique`).
#[derive(Debug, Clone, Copy)]
pub struct Selection {
    /// Games with fewer plies are not compared.
    pub min_plies: u32,
}

/// Why a game was not compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Left {
    /// Not selected by the predicates.
    NotSelected,
    /// Not replayed to the end: an error, an unsupported variant, a bad
    /// start position.
    Error,
    /// Fewer plies than `--min-plies`.
    Short,
}

impl Selection {
    fn left_out(&self, record: &GameRecord, seen: &Seen, selected: bool) -> Option<Left> {
        if !selected {
            Some(Left::NotSelected)
        } else if !seen.replayed || record.error.is_some() {
            Some(Left::Error)
        } else if record.plies < self.min_plies {
            Some(Left::Short)
        } else {
            None
        }
    }
}

/// Players' names as written, each spelling once.
#[derive(Debug, Default)]
pub struct Names {
    ids: HashMap<CompactString, u32>,
    /// Each spelling, by id.
    pub spellings: Vec<CompactString>,
}

impl Names {
    fn id(&mut self, name: Option<&CompactString>) -> u32 {
        let Some(name) = name.and_then(|n| event::player(Some(n))) else { return NO_NAME };
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.spellings.len()).unwrap_or(NO_NAME - 1).min(NO_NAME - 1);
        let name = CompactString::from(name);
        self.ids.insert(name.clone(), id);
        self.spellings.push(name);
        id
    }

    /// The name with id `id`, `?` when unknown.
    pub fn get(&self, id: u32) -> &str {
        self.spellings.get(id as usize).map_or("?", CompactString::as_str)
    }
}

/// The games' prefix fingerprints, in a temporary file: for each game,
/// its ordinal, the number of fingerprints, and the fingerprints (u32,
/// little-endian).
#[derive(Debug, Default)]
pub struct Spill {
    file: Option<BufWriter<File>>,
}

impl Spill {
    /// Writes the prefixes of game `ordinal` (`Seen::prefixes`).
    fn write(&mut self, ordinal: u32, prefixes: &[u8]) -> io::Result<()> {
        let mut spill = || -> io::Result<()> {
            let file = match &mut self.file {
                Some(file) => file,
                None => self.file.insert(BufWriter::with_capacity(1 << 20, tempfile::tempfile()?)),
            };
            file.write_all(&ordinal.to_le_bytes())?;
            file.write_all(&((prefixes.len() / 4) as u32).to_le_bytes())?;
            file.write_all(prefixes)
        };
        // A full disk here is the temporary directory's, not an output's.
        spill().map_err(|error| {
            let dir = std::env::temp_dir();
            io::Error::new(
                error.kind(),
                format!("writing a temporary file in {} (TMPDIR): {error}", dir.display()),
            )
        })
    }

    /// The file, written out; `None` when nothing was spilled.
    pub fn finish(self) -> io::Result<Option<File>> {
        self.file.map(|file| file.into_inner().map_err(io::IntoInnerError::into_error)).transpose()
    }
}

/// Counts of the games left out of the comparison.
#[derive(Debug, Default, Clone, Copy)]
pub struct LeftOut {
    /// Games the predicates did not select.
    pub not_selected: u64,
    /// Games whose replay an error stopped (or that could not be replayed).
    pub errors: u64,
    /// Games shorter than `--min-plies`.
    pub short: u64,
}

/// Entries in blocks of this many (40 MiB, of which only what is filled is
/// in memory): the table never doubles (a `Vec` growing by copying would
/// briefly hold twice the entries), and a block is large enough for the
/// allocator to map it apart and give it back whole when it is freed.
const BLOCK: usize = 1 << 20;

/// The sink: keeps an [`Entry`] per game.
#[derive(Debug)]
pub struct Index {
    selection: Selection,
    /// Every game, in input order, in blocks of [`BLOCK`].
    blocks: Vec<Vec<Entry>>,
    /// Games so far.
    count: u32,
    /// The players' names.
    pub names: Names,
    /// Each input's name and the ordinal of its first game.
    pub files: Vec<(Arc<str>, u32)>,
    /// The prefixes.
    pub spill: Spill,
    /// The games' texts, for `--unique`.
    pub store: Option<Store>,
    /// Games not compared.
    pub left_out: LeftOut,
    /// For `--unique`: the games whose text is not held whole (too large,
    /// read from a stream), and where the first of them is.
    pub cut: (u64, Option<String>),
}

impl Index {
    /// An empty index comparing the games of `selection`, writing every
    /// game's text to `store` when there is one.
    pub fn new(selection: Selection, store: Option<Store>) -> Self {
        Index {
            selection,
            blocks: Vec::new(),
            count: 0,
            names: Names::default(),
            files: Vec::new(),
            spill: Spill::default(),
            store,
            left_out: LeftOut::default(),
            cut: (0, None),
        }
    }

    /// Every game's entry, in input order, in one table (made block by
    /// block, each freed once copied: memory holds the entries once, and
    /// one block).
    pub fn take_entries(&mut self) -> Vec<Entry> {
        if self.blocks.len() == 1 {
            return self.blocks.pop().unwrap_or_default();
        }
        let mut entries = Vec::with_capacity(self.count as usize);
        for block in std::mem::take(&mut self.blocks) {
            entries.extend_from_slice(&block);
        }
        entries
    }

    /// The file and 1-based game number of the game `ordinal`.
    pub fn place(&self, ordinal: u32) -> (&str, u64) {
        let i = self.files.partition_point(|&(_, first)| first <= ordinal) - 1;
        let (file, first) = &self.files[i];
        (file, u64::from(ordinal - first) + 1)
    }
}

impl Sink<Seen> for Index {
    fn record(&mut self, record: &GameRecord, seen: Seen) -> io::Result<ControlFlow<()>> {
        self.add(record, seen, true)
    }
}

/// The games of a selection (`Partitioned`): those not selected are kept,
/// not compared.
impl Sink<(bool, Seen)> for Index {
    fn record(
        &mut self,
        record: &GameRecord,
        (selected, seen): (bool, Seen),
    ) -> io::Result<ControlFlow<()>> {
        self.add(record, seen, selected)
    }
}

impl Index {
    /// Keeps game `record`, compared with the others if `selected` and
    /// `Selection` says so.
    fn add(
        &mut self,
        record: &GameRecord,
        seen: Seen,
        selected: bool,
    ) -> io::Result<ControlFlow<()>> {
        let ordinal = self.count;
        let Some(count) = ordinal.checked_add(1) else {
            return Err(io::Error::other("more than 4,294,967,295 games"));
        };
        self.count = count;
        if record.index == 1 || self.files.is_empty() {
            self.files.push((record.file.clone(), ordinal));
        }
        let left = self.selection.left_out(record, &seen, selected);
        match left {
            Some(Left::NotSelected) => self.left_out.not_selected += 1,
            Some(Left::Error) => self.left_out.errors += 1,
            Some(Left::Short) => self.left_out.short += 1,
            None => {}
        }
        let compared = left.is_none();
        let spilled = compared && !seen.prefixes.is_empty();
        if spilled {
            self.spill.write(ordinal, &seen.prefixes)?;
        }
        let (white, black) =
            (self.names.id(record.white.as_ref()), self.names.id(record.black.as_ref()));
        if self.blocks.last().is_none_or(|block| block.len() == BLOCK) {
            self.blocks.push(Vec::with_capacity(BLOCK));
        }
        let block = self.blocks.last_mut().expect("a block with room");
        block.push(Entry {
            moves: seen.moves,
            line: record.line,
            stamp: Stamp::new(&seen, GameResult::of_record(record), compared, spilled),
            plies: record.plies,
            white,
            black,
            ordinal,
        });
        if let Some(store) = &mut self.store {
            // `Fingerprint`'s game too large from a stream: not held whole.
            if seen.text.is_empty() {
                self.cut.0 += 1;
                let r = record;
                self.cut
                    .1
                    .get_or_insert_with(|| format!("{}:{}: game {}", r.file, r.line, r.index));
            }
            store.add(&seen.text, record.index == 1)?;
        }
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dupes::fingerprint::When;

    #[test]
    fn an_entry_is_40_bytes() {
        assert_eq!(size_of::<Entry>(), 40);
    }

    #[test]
    fn a_stamp_keeps_its_parts() {
        let when = When { year: 2023, month: 5, day: 2, second: 6498 };
        let seen = Seen { when, ..Seen::default() };
        let stamp = Stamp::new(&seen, Some(GameResult::Draw), true, false);
        assert_eq!(stamp.when(), when);
        assert_eq!(stamp.result(), 4);
        assert!(stamp.compared() && !stamp.spilled());
        let max = When { year: 16383, month: 15, day: 31, second: (1 << 17) - 1 };
        let stamp = Stamp::new(&Seen { when: max, ..Seen::default() }, None, false, true);
        assert_eq!((stamp.when(), stamp.result(), stamp.spilled()), (max, 0, true));
    }
}
