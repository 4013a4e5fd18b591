//! A game's tag section: collected as the splitter reads it, checked
//! against the Seven Tag Roster (PGN standard 8.1.1).
//!
//! `TagCollector` keeps the tags arbiter reports or needs to set up the
//! game (the lexer reads the movetext). Values are decoded as UTF-8, or as
//! Latin-1 (PGN's official charset) when they are not valid UTF-8. `check`
//! turns missing, malformed, duplicated and unreadable tags into warnings.

use std::borrow::Cow;

use memchr::{memchr, memchr_iter, memchr3};
use pgn_reader::RawTag;

use crate::{
    options::KeepTags,
    record::{TagList, Warning, WarningKind},
};

/// The Seven Tag Roster, in its required order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tags of one game that arbiter keeps.
#[derive(Debug, Default, Clone)]
pub struct TagSet {
    /// Roster values, indexed like [`ROSTER`].
    pub roster: [Option<String>; 7],
    /// `FEN` tag.
    pub fen: Option<String>,
    /// `Variant` tag.
    pub variant: Option<String>,
    /// Names of tags given more than once.
    pub duplicates: Vec<String>,
    /// How many tag pairs the splitter read.
    pub count: usize,
    /// How many tag lines the splitter could not read (no closing quote).
    pub unreadable: usize,
    /// The tags the collector keeps, in order.
    pub all: TagList,
}

impl TagSet {
    /// The value of roster tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        ROSTER.iter().position(|&n| n == name).and_then(|i| self.roster[i].as_deref())
    }

    /// Takes the value of roster tag `name` out of the set (the record owns
    /// it from then on; the set is reset for the next game anyway).
    pub fn take(&mut self, name: &str) -> Option<String> {
        ROSTER.iter().position(|&n| n == name).and_then(|i| self.roster[i].take())
    }
}

/// A tag value that gives one: trimmed, neither empty nor `?`.
pub fn given(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty() && *v != "?")
}

/// Decodes a tag value: escapes resolved, UTF-8 if valid, else Latin-1.
pub fn decode(value: RawTag<'_>) -> String {
    // Sized up front: growing from empty went through the allocator's
    // reallocation path, 1.6% of `validate`'s instructions.
    let mut text = String::with_capacity(value.0.len());
    decode_into(value, &mut text);
    text
}

/// Appends the decoded tag value to `out` (see [`decode`]).
fn decode_into(value: RawTag<'_>, out: &mut String) {
    // Most values have no escape: one byte search instead of pgn-reader's
    // decoding, which runs for every kept tag of every game.
    if value.0.contains(&b'\\') {
        out.push_str(&as_text(&value.decode()));
    } else {
        out.push_str(&as_text(value.0));
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

/// Tag lines at least this long may exceed pgn-reader's buffer.
const LONG_TAG_LINE: usize = 8 << 10;

/// `[Name "value"]` → name and raw value (escapes kept).
fn split_tag_line(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let inner = text.strip_prefix(b"[")?;
    let open = memchr(b'"', inner)?;
    let close = memchr::memrchr(b'"', inner).filter(|&close| close > open)?;
    let name = inner[..open].trim_ascii();
    (!name.is_empty()).then_some((name, &inner[open + 1..close]))
}

/// Collects the tags of one game, as the splitter reads them.
#[derive(Debug, Default)]
pub struct TagCollector {
    /// The tags collected so far for the current game.
    pub tags: TagSet,
    /// Which tags to keep in `TagSet::all`.
    pub keep: KeepTags,
    /// Fingerprints of the tag names seen in this game (no allocation per
    /// tag; a 64-bit collision would only add a false duplicate warning).
    seen: Vec<u64>,
    /// Emptied buffers of values that earlier games' records did not take
    /// (`Site`, `Date`), for the next game's values; at most
    /// `SPARE_BUFFERS`, whatever the lengths of the values.
    spare: Vec<String>,
}

/// How many emptied buffers the collector keeps: one for each value it
/// holds (the roster, `FEN`, `Variant`).
const SPARE_BUFFERS: usize = ROSTER.len() + 2;

impl TagCollector {
    /// Forgets the previous game's tags (keeping allocations).
    pub fn reset(&mut self) {
        let TagSet { roster, fen, variant, .. } = &mut self.tags;
        for mut value in roster.iter_mut().chain([fen, variant]).filter_map(Option::take) {
            if self.spare.len() < SPARE_BUFFERS {
                value.clear();
                self.spare.push(value);
            }
        }
        self.tags.duplicates.clear();
        self.tags.count = 0;
        self.tags.unreadable = 0;
        self.tags.all.clear();
        self.seen.clear();
    }

    /// Reads the tag lines the splitter gave up on because they are longer
    /// than pgn-reader's buffer (16 KiB): a long but well-formed value is
    /// still data.
    pub fn recover_long_tags(&mut self, bytes: &[u8]) {
        for text in bytes.split(|&b| b == b'\n') {
            let text = text.trim_ascii();
            if text.len() < LONG_TAG_LINE {
                continue;
            }
            if let Some((name, value)) = split_tag_line(text) {
                self.tag(name, RawTag(value));
            }
        }
    }

    fn note_name(&mut self, name: &[u8]) {
        // FNV-1a.
        let fingerprint = name.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        if self.seen.contains(&fingerprint) {
            let name = String::from_utf8_lossy(name).into_owned();
            if !self.tags.duplicates.contains(&name) {
                self.tags.duplicates.push(name);
            }
        } else {
            self.seen.push(fingerprint);
        }
    }

    /// Takes one tag pair of the game being read.
    pub fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        self.tags.count += 1;
        self.note_name(name);
        if let Some(kept) = self.keep.kept_name(name) {
            self.tags.all.push_with(&kept, |text| decode_into(value, text));
        }
        let slot = match name {
            b"FEN" => &mut self.tags.fen,
            b"Variant" => &mut self.tags.variant,
            _ => match ROSTER.iter().position(|r| r.as_bytes() == name) {
                Some(i) => &mut self.tags.roster[i],
                None => return,
            },
        };
        if slot.is_none() {
            // A spare buffer only where it fits (growing one reallocates).
            let fits = self.spare.iter().position(|text| text.capacity() >= value.0.len());
            *slot = Some(match fits.map(|i| self.spare.swap_remove(i)) {
                Some(mut text) => {
                    decode_into(value, &mut text);
                    text
                }
                None => decode(value),
            });
        }
    }
}

/// Checks the tag section `bytes` (starting on line `line`) and its
/// collected `tags`, appending warnings.
pub fn check(tags: &TagSet, bytes: &[u8], line: u64, warnings: &mut Vec<Warning>) {
    // The splitter (like pgn-reader) silently drops tag lines it cannot
    // read (`[Event]`); find them when fewer tags arrived than lines that
    // look like tags.
    let brackets = memchr_iter(b'[', bytes).count();
    if tags.unreadable > 0 || brackets > tags.count {
        unreadable_tag_lines(bytes, line, warnings);
    }
    for (name, value) in ROSTER.iter().zip(&tags.roster) {
        match value {
            None => warnings.push(Warning {
                kind: WarningKind::MissingTag,
                message: format!("missing Seven Tag Roster tag {name}"),
                line,
            }),
            Some(value) => {
                if let Some(problem) = roster_problem(name, value) {
                    warnings.push(Warning {
                        kind: WarningKind::MalformedTag,
                        message: format!("{name} \"{value}\": {problem}"),
                        line: tag_line(bytes, name, 0, line),
                    });
                }
            }
        }
    }
    for name in &tags.duplicates {
        warnings.push(Warning {
            kind: WarningKind::DuplicateTag,
            message: format!("tag {name} appears more than once; the first value is used"),
            line: tag_line(bytes, name, 1, line),
        });
    }
}

/// What is wrong with a roster tag's value, if anything.
fn roster_problem(name: &str, value: &str) -> Option<&'static str> {
    match name {
        "Date" if !is_pgn_date(value) => Some("not a date of the form YYYY.MM.DD (?? for unknown)"),
        "Result" if !matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*") => {
            Some("not one of 1-0, 0-1, 1/2-1/2, *")
        }
        "Round" if !is_round(value) => Some("not a round such as 3, 3.1, ? or -"),
        _ if value.trim().is_empty() => Some("empty (use ? for unknown)"),
        _ => None,
    }
}

/// `YYYY.MM.DD`, each part digits or question marks.
fn is_pgn_date(value: &str) -> bool {
    let part_ok = |part: Option<&str>, len: usize| {
        part.is_some_and(|part| {
            part.len() == len
                && (part.bytes().all(|b| b.is_ascii_digit()) || part.bytes().all(|b| b == b'?'))
        })
    };
    let mut parts = value.split('.');
    part_ok(parts.next(), 4)
        && part_ok(parts.next(), 2)
        && part_ok(parts.next(), 2)
        && parts.next().is_none()
}

/// `?`, `-`, or dot-separated numbers.
fn is_round(value: &str) -> bool {
    value == "?"
        || value == "-"
        || value.split('.').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// Line of the `nth` (0-based) `[name ` tag in the section `bytes` that
/// starts on `line`; `line` itself when there is no such tag.
pub fn tag_line(bytes: &[u8], name: &str, nth: usize, line: u64) -> u64 {
    lines(bytes, line)
        .filter(|(_, text)| {
            let text = text.trim_ascii_start();
            text.strip_prefix(b"[").is_some_and(|rest| {
                rest.starts_with(name.as_bytes())
                    && rest.get(name.len()).is_some_and(|b| b.is_ascii_whitespace() || *b == b'"')
            })
        })
        .nth(nth)
        .map_or(line, |(n, _)| n)
}

/// Warns about every line starting with `[` that is not a readable tag.
fn unreadable_tag_lines(bytes: &[u8], line: u64, warnings: &mut Vec<Warning>) {
    for (n, text) in lines(bytes, line) {
        let text = text.trim_ascii();
        let Some(rest) = text.strip_prefix(b"[") else { continue };
        let problem = match memchr3(b'"', b']', b'\n', rest).map(|i| rest[i]) {
            Some(b'"') => match memchr(b'"', &rest[memchr(b'"', rest).unwrap_or(0) + 1..]) {
                Some(_) => continue,
                None => "tag value without closing quote",
            },
            _ => "tag without a quoted value",
        };
        let shown = String::from_utf8_lossy(&text[..text.len().min(60)]);
        warnings.push(Warning {
            kind: WarningKind::MalformedTag,
            message: format!("{problem}: {shown}"),
            line: n,
        });
    }
}

/// The lines of `bytes` with their numbers, the first being `line`.
fn lines(bytes: &[u8], line: u64) -> impl Iterator<Item = (u64, &[u8])> {
    bytes.split(|&b| b == b'\n').zip(line..).map(|(text, n)| (n, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_values_are_decoded() {
        assert_eq!(decode(RawTag(b"M\xfcller")), "Müller");
        assert_eq!(decode(RawTag("Müller".as_bytes())), "Müller");
        assert_eq!(decode(RawTag(br#"a \"quoted\" name"#)), r#"a "quoted" name"#);
    }

    /// Values decoded into the buffers of earlier games' values are those
    /// values, and the buffers kept stay few however the lengths go.
    #[test]
    fn spare_buffers_are_reused_and_bounded() {
        let mut collector = TagCollector::default();
        for game in 0..200 {
            collector.reset();
            // Longer every game, so that no spare buffer fits the next Site.
            let site = "s".repeat(game + 1);
            let date = if game % 2 == 0 { "2024.01.02" } else { "1999.??.??" };
            for (name, value) in [("Site", site.as_str()), ("Date", date)] {
                collector.tag(name.as_bytes(), RawTag(value.as_bytes()));
            }
            assert_eq!(collector.tags.get("Site"), Some(site.as_str()));
            assert_eq!(collector.tags.get("Date"), Some(date));
            assert!(collector.spare.len() <= SPARE_BUFFERS, "{}", collector.spare.len());
        }
    }

    #[test]
    fn the_collector_keeps_listed_tags_and_sees_duplicates() {
        const LISTED: &[&str] = &["TimeControl", "Event", "AVeryLongTagNameIndeed"];
        let mut collector =
            TagCollector { keep: KeepTags::Only(LISTED), ..TagCollector::default() };
        let pairs: [(&[u8], &[u8]); 8] = [
            (b"Event", b"Open"),
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
        let kept: Vec<_> = collector.tags.all.iter().collect();
        assert_eq!(
            kept,
            [
                ("Event", "Open"),
                ("TimeControl", "300+2"),
                ("AVeryLongTagNameIndeed", "long"),
                ("Event", "again"),
            ]
        );
        assert_eq!(collector.tags.duplicates, ["Event"]);
        assert_eq!(collector.tags.count, 8);
        assert_eq!(collector.tags.get("Event"), Some("Open"), "the first value counts");
        assert_eq!(collector.tags.get("Black"), Some("Müller"));
        assert!(collector.tags.fen.is_some());
        collector.reset();
        collector.tag(b"Event", RawTag(b"next game"));
        assert!(collector.tags.duplicates.is_empty());
        assert_eq!(collector.tags.get("Event"), Some("next game"));
    }

    #[test]
    fn dates_and_rounds() {
        for good in ["2024.01.31", "????.??.??", "1999.??.??"] {
            assert!(is_pgn_date(good), "{good}");
        }
        for bad in ["2024-01-31", "2024.1.31", "24.01.31", "", "2024.01.3?"] {
            assert!(!is_pgn_date(bad), "{bad}");
        }
        for good in ["1", "6.2", "?", "-"] {
            assert!(is_round(good), "{good}");
        }
        for bad in ["", "R1", "1.", "one"] {
            assert!(!is_round(bad), "{bad}");
        }
    }

    #[test]
    fn missing_malformed_and_unreadable_tags_are_warned() {
        let mut tags = TagSet::default();
        tags.roster[0] = Some("Ev".into());
        tags.roster[2] = Some("2024-01-01".into());
        tags.count = 2;
        let bytes = b"[Event \"Ev\"]\n[Date \"2024-01-01\"]\n[Site]\n";
        let mut warnings = Vec::new();
        check(&tags, bytes, 10, &mut warnings);
        let kinds: Vec<_> = warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert!(kinds.contains(&(WarningKind::MalformedTag, 12)), "{warnings:?}");
        assert!(kinds.contains(&(WarningKind::MalformedTag, 11)), "{warnings:?}");
        assert_eq!(kinds.iter().filter(|k| k.0 == WarningKind::MissingTag).count(), 5);
    }
}
