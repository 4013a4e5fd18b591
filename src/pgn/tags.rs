//! A game's tag section: collected as the splitter reads it, checked
//! against the Seven Tag Roster (PGN standard 8.1.1).
//!
//! `TagCollector` keeps every tag pair of a game, as written, in the bytes
//! of its chunk (the roster, `FEN` and `Variant` also in slots of their
//! own). Values are decoded when their text is asked for: as UTF-8, or as
//! Latin-1 (PGN's official charset) when they are not valid UTF-8. `check`
//! turns missing, malformed, duplicated and unreadable tags into warnings.

use std::{
    borrow::Cow,
    collections::{HashMap, hash_map::Entry},
};

use memchr::{memchr, memchr_iter, memchr3};
use pgn_reader::RawTag;

use super::values::{Date, GameResult, Round};
use crate::record::{Warning, WarningKind, quoted};

/// The Seven Tag Roster, in its required order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Where `Event` is in [`ROSTER`] (and in [`TagSet::roster`]).
pub const EVENT: usize = 0;
/// Where `Round` is in [`ROSTER`].
pub const ROUND: usize = 3;
/// Where `White` is in [`ROSTER`].
pub const WHITE: usize = 4;
/// Where `Black` is in [`ROSTER`].
pub const BLACK: usize = 5;
/// Where `Result` is in [`ROSTER`].
pub const RESULT: usize = 6;

/// The tags of one game, as written, in the bytes of their chunk: values
/// are decoded only when something asks for their text.
#[derive(Debug, Default, Clone)]
pub struct TagSet<'a> {
    /// Roster values as written, indexed like [`ROSTER`].
    pub roster: [Option<RawTag<'a>>; 7],
    /// `FEN` tag, as written.
    pub fen: Option<RawTag<'a>>,
    /// `Variant` tag, as written.
    pub variant: Option<RawTag<'a>>,
    /// Tags given more than once, each name once, at its second occurrence.
    pub duplicates: Vec<Duplicate<'a>>,
    /// How many tag lines the splitter could not read (cut short by the
    /// end of the input).
    pub unreadable: usize,
    /// Every tag pair, in file order, as written.
    pairs: Vec<(&'a [u8], RawTag<'a>)>,
}

impl<'a> TagSet<'a> {
    /// The text of roster tag `name`.
    pub fn get(&self, name: &str) -> Option<Cow<'a, str>> {
        self.raw(name).map(text)
    }

    /// The text of the roster tag at `index` in [`ROSTER`].
    pub fn roster_text(&self, index: usize) -> Option<Cow<'a, str>> {
        self.roster.get(index).copied().flatten().map(text)
    }

    /// The text of `value`: escapes resolved, UTF-8 if valid, else Latin-1.
    pub fn text(&self, value: RawTag<'a>) -> Cow<'a, str> {
        text(value)
    }

    /// How many tag pairs the splitter read.
    pub fn count(&self) -> usize {
        self.pairs.len()
    }

    /// Every tag pair in file order, as written (name, value).
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (&'a [u8], RawTag<'a>)> + '_ {
        self.pairs.iter().copied()
    }

    /// Every tag in file order, decoded: the name with Latin-1 bytes
    /// replaced, the value as [`TagSet::text`] gives it.
    pub fn iter(&self) -> impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)> + '_ {
        self.pairs().map(|(name, value)| (String::from_utf8_lossy(name), text(value)))
    }

    /// The text of the first tag called `name` (any tag, not only the
    /// roster's).
    pub fn first(&self, name: &str) -> Option<Cow<'a, str>> {
        self.pairs().find(|(n, _)| *n == name.as_bytes()).map(|(_, value)| text(value))
    }

    /// The tags decoded into an owned list.
    pub fn to_list(&self) -> TagList {
        let mut list = TagList::default();
        for (name, value) in self.iter() {
            list.push(&name, &value);
        }
        // Kept for the whole run, a game each: no room to grow.
        list.text.shrink_to_fit();
        list.ends.shrink_to_fit();
        list
    }

    /// The value of roster tag `name` as written.
    fn raw(&self, name: &str) -> Option<RawTag<'a>> {
        ROSTER.iter().position(|&n| n == name).and_then(|i| self.roster[i])
    }
}

/// Tags in file order, decoded and owned: what outlives the chunk (the
/// games `check` reads after the run). Names and values share one buffer,
/// so a game keeps any number of tags in two allocations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagList {
    text: String,
    /// Where each tag's name ends (and its value starts), and its value ends.
    ends: Vec<(usize, usize)>,
}

impl TagList {
    /// Appends a tag.
    pub fn push(&mut self, name: &str, value: &str) {
        self.text.push_str(name);
        let name = self.text.len();
        self.text.push_str(value);
        self.ends.push((name, self.text.len()));
    }

    /// The tags in order, as `(name, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|&(_, value)| value));
        starts
            .zip(&self.ends)
            .map(|(start, &(name, value))| (&self.text[start..name], &self.text[name..value]))
    }

    /// The value of the first tag called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|&(n, _)| n == name).map(|(_, value)| value)
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Decodes a tag value: escapes resolved, UTF-8 if valid, else Latin-1.
fn text(value: RawTag<'_>) -> Cow<'_, str> {
    // Most values have no escape: one byte search instead of pgn-reader's
    // decoding.
    if memchr(b'\\', value.0).is_some() {
        Cow::Owned(as_text(&value.decode()).into_owned())
    } else {
        as_text(value.0)
    }
}

/// Bytes as text: UTF-8 if valid, else Latin-1, which maps each byte to
/// the code point of the same value.
fn as_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// `[Name "value"]` → name and raw value (escapes kept).
#[cfg(test)]
fn split_tag_line(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let inner = text.strip_prefix(b"[")?;
    let open = memchr(b'"', inner)?;
    let close = memchr::memrchr(b'"', inner).filter(|&close| close > open)?;
    let name = inner[..open].trim_ascii();
    (!name.is_empty()).then_some((name, &inner[open + 1..close]))
}

/// Where the collector files a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// The roster tag of this index in [`ROSTER`].
    Roster(usize),
    Fen,
    Variant,
}

/// The slot of the tag called `name`, if the collector files it (one
/// comparison by length and bytes, where a search of the roster compared
/// every tag with seven names).
fn slot_of(name: &[u8]) -> Option<Slot> {
    Some(match name {
        b"Event" => Slot::Roster(0),
        b"Site" => Slot::Roster(1),
        b"Date" => Slot::Roster(2),
        b"Round" => Slot::Roster(3),
        b"White" => Slot::Roster(4),
        b"Black" => Slot::Roster(5),
        b"Result" => Slot::Roster(6),
        b"FEN" => Slot::Fen,
        b"Variant" => Slot::Variant,
        _ => return None,
    })
}

/// A first test of whether two tag names are the same: their lengths,
/// first and last bytes.
fn sketch(name: &[u8]) -> u32 {
    let (first, last) = (name.first().copied(), name.last().copied());
    (name.len() as u32) << 16 | u32::from(first.unwrap_or(0)) << 8 | u32::from(last.unwrap_or(0))
}

/// A tag name given more than once in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate<'a> {
    /// The name, as text.
    pub name: String,
    /// The name as written at its second occurrence, in the bytes of its
    /// chunk: where the warning points.
    written: &'a [u8],
}

/// How many tag names of a game are compared one by one; past that, they
/// go into a hash map, so that a hostile section of a hundred thousand tags
/// takes linear time.
const NAME_SCAN_LIMIT: usize = 64;

/// A tag name of the game being read.
#[derive(Debug, Clone, Copy)]
struct SeenName<'a> {
    /// See [`sketch`].
    sketch: u32,
    name: &'a [u8],
    /// Whether the name was given again.
    again: bool,
}

/// Collects the tags of one game, as the splitter reads them; one per
/// chunk, reset for each game.
#[derive(Debug, Default)]
pub struct TagCollector<'a> {
    /// The tags collected so far for the current game.
    pub tags: TagSet<'a>,
    /// The tag names seen in this game, up to [`NAME_SCAN_LIMIT`].
    seen: Vec<SeenName<'a>>,
    /// Past [`NAME_SCAN_LIMIT`]: every name seen, and whether it was given
    /// again.
    seen_many: HashMap<&'a [u8], bool>,
}

impl<'a> TagCollector<'a> {
    /// Forgets the previous game's tags (keeping allocations).
    pub fn reset(&mut self) {
        let tags = &mut self.tags;
        (tags.roster, tags.fen, tags.variant) = Default::default();
        tags.duplicates.clear();
        tags.unreadable = 0;
        tags.pairs.clear();
        self.seen.clear();
        self.seen_many.clear();
    }

    /// Notes a tag name, and a duplicate at its second occurrence.
    fn note_name(&mut self, name: &'a [u8]) {
        if self.seen.len() == NAME_SCAN_LIMIT {
            let seen = self.seen.drain(..).map(|seen| (seen.name, seen.again));
            self.seen_many.extend(seen);
        }
        // Whether the name had been given, and if so given again already.
        let earlier = if self.seen_many.is_empty() {
            let sketch = sketch(name);
            match self.seen.iter_mut().find(|seen| seen.sketch == sketch && seen.name == name) {
                Some(seen) => Some(std::mem::replace(&mut seen.again, true)),
                None => {
                    self.seen.push(SeenName { sketch, name, again: false });
                    None
                }
            }
        } else {
            match self.seen_many.entry(name) {
                Entry::Occupied(mut seen) => Some(std::mem::replace(seen.get_mut(), true)),
                Entry::Vacant(seen) => {
                    seen.insert(false);
                    None
                }
            }
        };
        if earlier == Some(false) {
            self.tags.duplicates.push(Duplicate { name: quoted(name), written: name });
        }
    }

    /// Takes one tag pair of the game being read.
    pub fn tag(&mut self, name: &'a [u8], value: RawTag<'a>) {
        self.note_name(name);
        self.tags.pairs.push((name, value));
        let slot = match slot_of(name) {
            Some(Slot::Roster(i)) => &mut self.tags.roster[i],
            Some(Slot::Fen) => &mut self.tags.fen,
            Some(Slot::Variant) => &mut self.tags.variant,
            None => return,
        };
        // The first value counts.
        slot.get_or_insert(value);
    }
}

/// Checks the tag section `bytes` (starting on line `line`) and its
/// collected `tags`, appending warnings.
pub fn check(tags: &TagSet<'_>, bytes: &[u8], line: u64, warnings: &mut Vec<Warning>) {
    for (n, problem, text) in unreadable_lines(tags, bytes, line) {
        let shown = String::from_utf8_lossy(&text[..text.len().min(60)]);
        warnings.push(Warning {
            kind: WarningKind::MalformedTag,
            message: format!("{problem}: {shown}").into(),
            line: n,
        });
    }
    for ((name, value), missing) in ROSTER.iter().zip(tags.roster).zip(MISSING) {
        match value {
            None => warnings.push(Warning {
                kind: WarningKind::MissingTag,
                message: Cow::Borrowed(missing),
                line,
            }),
            Some(value) => {
                if let Some(problem) = roster_problem(name, value) {
                    warnings.push(Warning {
                        kind: WarningKind::MalformedTag,
                        message: format!("{name} \"{}\": {problem}", quoted(value.0)).into(),
                        line: tag_line(bytes, name, line),
                    });
                }
            }
        }
    }
    let lines = lines_at(bytes, line, tags.duplicates.iter().map(|duplicate| duplicate.written));
    for (duplicate, line) in tags.duplicates.iter().zip(lines) {
        let name = &duplicate.name;
        warnings.push(Warning {
            kind: WarningKind::DuplicateTag,
            message: format!("tag {name} appears more than once; the first value is used").into(),
            line,
        });
    }
}

/// The line of each of `parts`, slices of the section `bytes` that starts
/// on `line` (`line` for a part from elsewhere), in one pass over `bytes`.
fn lines_at<'p>(bytes: &[u8], line: u64, parts: impl Iterator<Item = &'p [u8]>) -> Vec<u64> {
    let start = bytes.as_ptr() as usize;
    let (mut lines, mut by_place) = (Vec::new(), Vec::new());
    for (i, part) in parts.enumerate() {
        lines.push(line);
        let at = (part.as_ptr() as usize).checked_sub(start).filter(|&at| at <= bytes.len());
        by_place.extend(at.map(|at| (at, i)));
    }
    by_place.sort_unstable();
    let (mut counted, mut current) = (0, line);
    for (at, i) in by_place {
        current += memchr_iter(b'\n', &bytes[counted..at]).count() as u64;
        counted = at;
        lines[i] = current;
    }
    lines
}

/// The warning for each roster tag when it is missing, indexed like
/// [`ROSTER`]: lichess games have no `Round`, so this is the warning of
/// nearly every game there.
const MISSING: [&str; 7] = [
    "missing Seven Tag Roster tag Event",
    "missing Seven Tag Roster tag Site",
    "missing Seven Tag Roster tag Date",
    "missing Seven Tag Roster tag Round",
    "missing Seven Tag Roster tag White",
    "missing Seven Tag Roster tag Black",
    "missing Seven Tag Roster tag Result",
];

/// What is wrong with a roster tag's value, if anything. Dates, results
/// and rounds are read as written (`pgn::values`), without surrounding
/// blanks: a valid one has no backslash, so no escape, and reads as itself.
fn roster_problem(name: &str, value: RawTag<'_>) -> Option<&'static str> {
    let as_written = || std::str::from_utf8(value.0).ok().filter(|text| text.trim() == *text);
    match name {
        "Date" if !as_written().and_then(Date::parse).is_some_and(|date| date.standard) => {
            Some("not a date of the form YYYY.MM.DD (?? for unknown)")
        }
        "Result" if as_written().and_then(GameResult::parse).is_none() => {
            Some("not one of 1-0, 0-1, 1/2-1/2, *")
        }
        "Round" if as_written().and_then(Round::parse).is_none() => {
            Some("not a round such as 3, 3.1, ? or -")
        }
        _ if is_blank(value) => Some("empty (use ? for unknown)"),
        _ => None,
    }
}

/// Whether the value's text is empty once trimmed. A value that starts
/// with a printable ASCII character other than a backslash is not, and
/// needs no decoding to tell.
fn is_blank(value: RawTag<'_>) -> bool {
    match value.0.first() {
        Some(&first) if first.is_ascii_graphic() && first != b'\\' => false,
        _ => text(value).trim().is_empty(),
    }
}

/// Line of the first `[name ` tag in the section `bytes` that starts on
/// `line`; `line` itself when there is no such tag.
pub fn tag_line(bytes: &[u8], name: &str, line: u64) -> u64 {
    lines(bytes, line)
        .find(|(_, text)| {
            let text = text.trim_ascii_start();
            text.strip_prefix(b"[").is_some_and(|rest| {
                rest.starts_with(name.as_bytes())
                    && rest.get(name.len()).is_some_and(|b| b.is_ascii_whitespace() || *b == b'"')
            })
        })
        .map_or(line, |(n, _)| n)
}

/// The lines of the tag section `bytes` (from line `line`) that start
/// with `[` but are no readable tag, each with its line and what is wrong:
/// the splitter (like pgn-reader) skips them (`[Event]`). Looked for only
/// when fewer tags arrived than the section has `[`.
pub fn unreadable_lines<'b>(
    tags: &TagSet<'_>,
    bytes: &'b [u8],
    line: u64,
) -> impl Iterator<Item = (u64, &'static str, &'b [u8])> {
    let suspect = tags.unreadable > 0 || memchr_iter(b'[', bytes).count() > tags.count();
    // Nothing to scan in the common case: a section whose `[` are its tags.
    let scanned = if suspect { bytes } else { &[] };
    lines(scanned, line).filter_map(|(n, text)| {
        let text = text.trim_ascii();
        let rest = text.strip_prefix(b"[")?;
        let problem = match memchr3(b'"', b']', b'\n', rest).map(|i| rest[i]) {
            Some(b'"') => match memchr(b'"', &rest[memchr(b'"', rest).unwrap_or(0) + 1..]) {
                Some(_) => return None,
                None => "tag value without closing quote",
            },
            _ => "tag without a quoted value",
        };
        Some((n, problem, text))
    })
}

/// The lines of `bytes` with their numbers, the first being `line`.
fn lines(bytes: &[u8], line: u64) -> impl Iterator<Item = (u64, &[u8])> {
    bytes.split(|&b| b == b'\n').zip(line..).map(|(text, n)| (n, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_lists_keep_order_and_find_the_first_value() {
        let mut tags = TagList::default();
        tags.push("Event", "Open");
        tags.push("White", "Müller");
        tags.push("Event", "second");
        tags.push("Annotator", "");
        let all: Vec<_> = tags.iter().collect();
        assert_eq!(
            all,
            [("Event", "Open"), ("White", "Müller"), ("Event", "second"), ("Annotator", "")]
        );
        assert_eq!(
            (tags.get("Event"), tags.get("Annotator"), tags.get("Site")),
            (Some("Open"), Some(""), None)
        );
        assert_eq!(tags.len(), 4);
        assert!(!tags.is_empty() && TagList::default().is_empty());
    }

    #[test]
    fn latin1_values_are_decoded() {
        assert_eq!(text(RawTag(b"M\xfcller")), "Müller");
        assert_eq!(text(RawTag("Müller".as_bytes())), "Müller");
        assert_eq!(text(RawTag(br#"a \"quoted\" name"#)), r#"a "quoted" name"#);
    }

    /// Every tag is kept in order, each value the text of its own bytes.
    #[test]
    fn tags_are_listed_in_order_as_text() {
        let section: &[u8] =
            b"[Black \"M\xc3\xbcller\"]\n[ECO \"B01\"]\n[White \"M\xfcller\"]\n[X \"a \\\"b\\\"\"]\n";
        let mut collector = TagCollector::default();
        for line in section.split(|&b| b == b'\n').filter(|line| !line.is_empty()) {
            let (name, value) = split_tag_line(line).unwrap();
            collector.tag(name, RawTag(value));
        }
        let tags: Vec<_> = collector.tags.iter().collect();
        let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (&**n, &**v)).collect();
        assert_eq!(
            tags,
            [("Black", "Müller"), ("ECO", "B01"), ("White", "Müller"), ("X", "a \"b\"")]
        );
        assert_eq!(collector.tags.first("ECO").as_deref(), Some("B01"));
        assert_eq!(collector.tags.to_list().get("X"), Some("a \"b\""));
    }

    #[test]
    fn each_missing_tag_is_named() {
        for (name, missing) in ROSTER.iter().zip(MISSING) {
            assert_eq!(missing, format!("missing Seven Tag Roster tag {name}"));
        }
    }

    #[test]
    fn the_slots_are_the_roster_s() {
        for (i, name) in ROSTER.iter().enumerate() {
            assert_eq!(slot_of(name.as_bytes()), Some(Slot::Roster(i)), "{name}");
        }
        assert_eq!(slot_of(b"FEN"), Some(Slot::Fen));
        assert_eq!(slot_of(b"Variant"), Some(Slot::Variant));
        assert_eq!(slot_of(b"Events"), None);
    }

    /// Values checked as written are judged as their decoded text is.
    #[test]
    fn roster_values_are_judged_by_their_text() {
        let problem = |name: &str, written: &[u8]| roster_problem(name, RawTag(written));
        assert_eq!(problem("Date", b"2024.01.31"), None);
        // An escape is never part of a valid date, result or round.
        assert!(problem("Date", br"2024.01.3\1").is_some());
        assert!(problem("Result", br"1-\0").is_some());
        assert!(problem("Round", br"\\").is_some());
        // Blank as text: Rust's whitespace, Latin-1's no-break space.
        for blank in [&b""[..], b"  ", b"\x0b", b"\t\r", b"\xa0", "\u{3000}".as_bytes()] {
            assert_eq!(problem("Event", blank), Some("empty (use ? for unknown)"), "{blank:?}");
        }
        for given in [&b"Open"[..], br"\\", br#"\""#, b" x", b"\xe9t\xe9"] {
            assert_eq!(problem("Event", given), None, "{given:?}");
        }
    }

    #[test]
    fn the_collector_keeps_every_tag_and_sees_duplicates() {
        let mut collector = TagCollector::default();
        let pairs: [(&[u8], &[u8]); 10] = [
            (b"Event", b"Open"),
            // Same length, first and last bytes: told apart by the bytes.
            (b"EventDate", b"2024.??.??"),
            (b"EventType", b"swiss"),
            (b"TimeControl", b"300+2"),
            (b"TimeControls", b"no"),
            (b"AVeryLongTagNameIndeed", b"long"),
            (b"AVeryLongTagNameIndeeD", b"other"),
            (b"FEN", b"8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            (b"Event", b"again"),
            (b"Black", b"M\xfcller"),
        ];
        for (name, value) in pairs {
            collector.tag(name, RawTag(value));
        }
        assert_eq!(collector.tags.pairs().len(), pairs.len());
        let duplicates: Vec<_> = collector.tags.duplicates.iter().map(|d| &d.name).collect();
        assert_eq!(duplicates, ["Event"]);
        assert_eq!(collector.tags.count(), 10);
        assert_eq!(collector.tags.get("Event").as_deref(), Some("Open"), "the first value counts");
        assert_eq!(collector.tags.get("Black").as_deref(), Some("Müller"));
        assert!(collector.tags.fen.is_some());
        collector.reset();
        collector.tag(b"Event", RawTag(b"next game"));
        assert!(collector.tags.duplicates.is_empty());
        assert_eq!(collector.tags.get("Event").as_deref(), Some("next game"));
    }

    #[test]
    fn duplicates_past_the_scan_limit_are_found_once_on_their_second_line() {
        // Every name once, then every even one again, then every fourth a
        // third time: more names than are compared one by one.
        let count = 3 * NAME_SCAN_LIMIT;
        let names: Vec<String> = (0..count).map(|n| format!("T{n}")).collect();
        let mut section = String::new();
        for (pass, step) in [1, 2, 4].into_iter().enumerate() {
            for name in names.iter().step_by(step) {
                section.push_str(&format!("[{name} \"{pass}\"]\n"));
            }
        }
        let mut collector = TagCollector::default();
        for line in section.as_bytes().split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let (name, value) = split_tag_line(line).unwrap();
            collector.tag(name, RawTag(value));
        }
        let mut warnings = Vec::new();
        check(&collector.tags, section.as_bytes(), 10, &mut warnings);
        let found: Vec<(String, u64)> = warnings
            .iter()
            .filter(|w| w.kind == WarningKind::DuplicateTag)
            .map(|w| (w.message.split(' ').nth(1).unwrap().to_owned(), w.line))
            .collect();
        let expected: Vec<(String, u64)> = (0..count)
            .step_by(2)
            .map(|n| (names[n].clone(), (10 + count + n / 2) as u64))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn dates_results_and_rounds_are_read_as_written() {
        let problem = |name, value: &str| roster_problem(name, RawTag(value.as_bytes()));
        for good in ["2024.01.31", "????.??.??", "1999.??.??"] {
            assert_eq!(problem("Date", good), None, "{good}");
        }
        for bad in ["2024-01-31", "2024.1.31", "24.01.31", "", "2024.01.3?", " 2024.01.31"] {
            assert!(problem("Date", bad).is_some(), "{bad}");
        }
        for good in ["1", "6.2", "?", "-"] {
            assert_eq!(problem("Round", good), None, "{good}");
        }
        for bad in ["", "R1", "1.", "one", "1 "] {
            assert!(problem("Round", bad).is_some(), "{bad}");
        }
        assert_eq!(problem("Result", "1/2-1/2"), None);
        assert!(problem("Result", "1-0 ").is_some() && problem("Result", "1:0").is_some());
    }

    #[test]
    fn missing_malformed_and_unreadable_tags_are_warned() {
        let mut tags = TagSet::default();
        tags.roster[0] = Some(RawTag(b"Ev"));
        tags.roster[2] = Some(RawTag(b"2024-01-01"));
        tags.pairs = vec![(b"Event", RawTag(b"Ev")), (b"Date", RawTag(b"2024-01-01"))];
        let bytes = b"[Event \"Ev\"]\n[Date \"2024-01-01\"]\n[Site]\n";
        let mut warnings = Vec::new();
        check(&tags, bytes, 10, &mut warnings);
        let kinds: Vec<_> = warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert!(kinds.contains(&(WarningKind::MalformedTag, 12)), "{warnings:?}");
        assert!(kinds.contains(&(WarningKind::MalformedTag, 11)), "{warnings:?}");
        assert_eq!(kinds.iter().filter(|k| k.0 == WarningKind::MissingTag).count(), 5);
    }
}
