//! What `db build` keeps of a game beside its record: the `Row` observer.
//!
//! It sees each game as it is replayed, on the worker threads, and makes
//! an owned [`Row`]: the game's address, its tags split into the typed
//! header columns and the rest, the mainline in the compact encoding
//! (`db::moves`), lichess's `%clk` and `%eval` per ply, the final
//! position's key and material, the mainline's hash, and what `stats`
//! counts (its tags and book opening), so that the sink can write the
//! table and each shard's statistics without reading the game again. No
//! I/O and no Parquet here.

use std::borrow::Cow;

use compact_str::CompactString;
use shakmaty::{ByColor, ByRole, Color, Move, Position, Role};

use super::moves;
use crate::{
    chess::{identity, setup},
    openings::{Classifier, OpeningId},
    pgn::{
        chunk::MAX_GAME,
        tags::TagSet,
        values::{Date, TimeControl, rating},
    },
    replay::observer::{Address, GameEnd, MovesHash, Observer},
    stats::game::StatsTags,
};

/// A game's tags: those with typed columns, and every other in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    /// `Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`,
    /// `ECO`, `Opening`, `TimeControl`, `Termination`, `FEN`, as written
    /// (the first of each; indexed like [`TEXT_TAGS`]). Inline up to 24
    /// bytes: most values are shorter, and a game's dozen allocations
    /// were a tenth of `db build`'s extra work (benches/HISTORY.md).
    pub text: [Option<CompactString>; TEXT_TAGS.len()],
    /// `WhiteElo` and `BlackElo`, when written as a plain number.
    pub elo: [Option<i32>; 2],
    /// Every other tag in order: a rating that is not a plain number, and
    /// every tag without a column; each name once, with its first value
    /// (a name whose column holds its first value is not among them).
    pub other: Vec<(CompactString, CompactString)>,
    /// Whether a name came more than once (a column's tag, or a tag without
    /// a column): its later values are not kept, so such a game is stored
    /// with its own bytes.
    pub repeated: bool,
}

/// Keeps the first value of each name of `tags`, in order; whether a name
/// was repeated. A Parquet map holds each key once: DuckDB refuses to read
/// a file whose map repeats one.
fn keep_first(tags: &mut Vec<(CompactString, CompactString)>) -> bool {
    // Sorted past a few, not compared pair by pair: a hostile game repeats
    // a tag a hundred thousand times.
    let repeated = if tags.len() <= 16 {
        (1..tags.len()).any(|i| tags[..i].iter().any(|(earlier, _)| *earlier == tags[i].0))
    } else {
        let mut names: Vec<&str> = tags.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names.windows(2).any(|pair| pair[0] == pair[1])
    };
    if repeated {
        let mut seen = std::collections::HashSet::new();
        tags.retain(|(name, _)| seen.insert(name.clone()));
    }
    repeated
}

/// The tags with a text column of their own, in column order.
pub const TEXT_TAGS: [&str; 12] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
    "FEN",
];

/// Where `Date`, `TimeControl` and `FEN` are in [`TEXT_TAGS`].
pub const DATE: usize = 2;
/// See [`DATE`].
pub const TIME_CONTROL: usize = 9;
/// See [`DATE`].
pub const FEN: usize = 11;

/// The rating tags, in the order of [`Header::elo`].
pub const ELO_TAGS: [&str; 2] = ["WhiteElo", "BlackElo"];

impl Header {
    /// Splits a game's tags.
    pub fn of(tags: &TagSet<'_>) -> Header {
        let mut header = Header::default();
        // A name met again after its column took its first value: the
        // first is the game's (`Header::get`), the game keeps its bytes.
        let mut again = false;
        for (name, value) in tags.iter() {
            if let Some(i) = TEXT_TAGS.iter().position(|&n| n == name) {
                if header.text[i].is_none() {
                    header.text[i] = Some(CompactString::from(value));
                } else {
                    again = true;
                }
                continue;
            } else if let Some(i) = ELO_TAGS.iter().position(|&n| n == name) {
                if header.elo[i].is_some() {
                    again = true;
                    continue;
                }
                // Only a rating that its number writes back as it was:
                // `?`, `-` or ` 2700` stay text, among the others.
                let plain = rating(&value)
                    .and_then(|n| i32::try_from(n).ok())
                    .filter(|n| n.to_string() == value);
                if plain.is_some() && !header.other.iter().any(|(n, _)| n == name.as_ref()) {
                    header.elo[i] = plain;
                    continue;
                }
            }
            header.other.push((CompactString::from(name), CompactString::from(value)));
        }
        header.repeated = keep_first(&mut header.other) || again;
        header
    }

    /// The value of tag `name`: its column's, else the first among the
    /// others.
    pub fn get(&self, name: &str) -> Option<Cow<'_, str>> {
        if let Some(i) = TEXT_TAGS.iter().position(|&n| n == name)
            && let Some(value) = &self.text[i]
        {
            return Some(Cow::Borrowed(value));
        }
        if let Some(i) = ELO_TAGS.iter().position(|&n| n == name)
            && let Some(elo) = self.elo[i]
        {
            return Some(Cow::Owned(elo.to_string()));
        }
        self.other.iter().find(|(n, _)| n == name).map(|(_, v)| Cow::Borrowed(v.as_str()))
    }

    /// What `stats` reads of the tags: the same values as
    /// [`StatsTags::of`] on the tags the header was made of (a rating
    /// column is only the number its text writes back as), borrowed.
    pub fn stats_tags(&self) -> StatsTags<'_> {
        StatsTags::from_fn(|name| self.get(name))
    }

    /// Every tag as `(name, value)`: the columns' in column order, then
    /// the others in theirs.
    pub fn pairs(&self) -> Vec<(&str, Cow<'_, str>)> {
        let mut pairs = Vec::with_capacity(TEXT_TAGS.len() + self.other.len());
        for (name, value) in TEXT_TAGS.iter().zip(&self.text) {
            if let Some(value) = value {
                pairs.push((*name, Cow::Borrowed(value.as_str())));
            }
        }
        for (name, elo) in ELO_TAGS.iter().zip(self.elo) {
            if let Some(elo) = elo {
                pairs.push((*name, Cow::Owned(elo.to_string())));
            }
        }
        pairs.extend(self.other.iter().map(|(n, v)| (n.as_str(), Cow::Borrowed(v.as_str()))));
        pairs
    }

    /// The `Date` tag as days since 1970-01-01, when it names a whole day
    /// of the calendar.
    pub fn date_days(&self) -> Option<i32> {
        let date = Date::parse(self.text[DATE].as_deref()?)?;
        date.calendar_problem().is_none().then_some(())?;
        days_from_civil(date.year?, date.month?, date.day?)
    }

    /// The first period of `TimeControl`: base time and increment in
    /// seconds.
    pub fn time_control(&self) -> Option<(i64, i64)> {
        match TimeControl::parse(self.text[TIME_CONTROL].as_deref()?)? {
            TimeControl::Timed { base, increment } => {
                Some((i64::try_from(base).ok()?, i64::try_from(increment).ok()?))
            }
            TimeControl::Unknown | TimeControl::Untimed => None,
        }
    }

    /// `UTCDate` and `UTCTime` as seconds since 1970-01-01 00:00 UTC, when
    /// both are complete.
    pub fn utc_seconds(&self) -> Option<i64> {
        let date = Date::parse(&self.get("UTCDate")?)?;
        date.calendar_problem().is_none().then_some(())?;
        let days = days_from_civil(date.year?, date.month?, date.day?)?;
        let time = self.get("UTCTime")?;
        let mut parts = time.trim().split(':').map(|p| p.parse::<u32>().ok());
        let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
        if parts.next().is_some() || h > 23 || m > 59 || s > 60 {
            return None;
        }
        Some(i64::from(days) * 86_400 + i64::from(h * 3600 + m * 60 + s))
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`); `None` for year 0, which Python's
/// dates (pyarrow's, pandas') cannot hold, and out of `i32`'s range.
pub fn days_from_civil(year: u32, month: u32, day: u32) -> Option<i32> {
    if year == 0 {
        return None;
    }
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i32::try_from(era * 146_097 + doe - 719_468).ok()
}

/// A game as the database keeps it beside its record.
#[derive(Debug)]
pub struct Row {
    /// Where the game is in its input.
    pub address: Address,
    /// Its tags.
    pub header: Header,
    /// The mainline, about a byte a ply (`db::moves`).
    pub moves: Vec<u8>,
    /// `%clk` after each ply, in milliseconds (none for a ply without),
    /// when the game has any.
    pub clocks: Option<Vec<Option<i32>>>,
    /// `%eval` after each ply, in centipawns from White's side, a mate in
    /// N as ±(100000 − N), when the game has any.
    pub evals: Option<Vec<Option<i32>>>,
    /// The final position's key (FIDE identity, signed), when replayed.
    pub final_key: Option<i64>,
    /// The final position's material, `KQRvKR`, when replayed.
    pub final_material: Option<String>,
    /// The final position's pawns on their start squares ([`home_pawns`]),
    /// when replayed.
    pub home_pawns: Option<i32>,
    /// The mainline's hash (equal moves, equal hashes), signed.
    pub mainline_hash: i64,
    /// The game's own bytes, kept only for a game whose moves cannot be
    /// written back from the stored ones (an error, a variant not
    /// replayed), so that `db export` loses no game; the first
    /// [`MAX_GAME`] of a game too large.
    pub text: Option<Vec<u8>>,
    /// The book opening, as `stats` counts it.
    pub opening: Option<OpeningId>,
    /// The codes of the game's findings (`diagnostic::of_game`), found on
    /// the worker that replayed it.
    pub codes: Vec<&'static str>,
    /// With `--positions`: the key of each position of the mainline up to
    /// the ply asked for, with the ply it first occurred at.
    pub positions: Vec<(i64, u32)>,
}

/// The observer of `db build`: makes each game's [`Row`].
#[derive(Debug, Default)]
pub struct RowMaker {
    /// The last ply whose position goes into `positions` (`--positions`).
    positions_to: Option<u32>,
    positions: Vec<(i64, u32)>,
    classifier: Classifier,
    hash: MovesHash,
    moves: Vec<u8>,
    clocks: Vec<Option<i32>>,
    evals: Vec<Option<i32>>,
    /// Mainline plies played so far.
    ply: usize,
    /// Depth of the variations being replayed (`--variations`).
    depth: usize,
}

impl RowMaker {
    /// A row maker that keeps the keys of the positions up to ply
    /// `positions_to`, if given.
    pub fn new(positions_to: Option<u32>) -> RowMaker {
        RowMaker { positions_to, ..RowMaker::default() }
    }

    /// Notes the position reached at `ply`, the first time in the game.
    fn position<P: Position>(&mut self, pos: &P, ply: u32) {
        if self.positions_to.is_some_and(|last| ply <= last) {
            let key = identity::position_hash(pos) as i64;
            if !self.positions.iter().any(|&(k, _)| k == key) {
                self.positions.push((key, ply));
            }
        }
    }
}

impl Observer for RowMaker {
    type Output = Row;

    fn tags(&mut self, tags: &TagSet<'_>) -> std::ops::ControlFlow<()> {
        // Every game, replayed or not (an unsupported variant, a game too
        // large): the buffers are copied into its row, never the last's.
        self.moves.clear();
        self.clocks.clear();
        self.evals.clear();
        self.positions.clear();
        (self.ply, self.depth) = (0, 0);
        self.classifier.tags(tags)
    }

    fn start<P: Position>(&mut self, pos: &P, standard: bool) {
        self.classifier.start(pos, standard);
        self.hash.start(pos, standard);
        self.position(pos, 0);
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        // The encoding indexes the legal moves of the position before.
        if self.depth == 0 {
            moves::push(&mut self.moves, pos, *m);
        }
    }

    fn after_move<P: Position>(&mut self, pos: &P, m: &Move, ply: u32, mainline: bool) {
        self.classifier.after_move(pos, m, ply, mainline);
        self.hash.after_move(pos, m, ply, mainline);
        if mainline {
            self.ply += 1;
            self.position(pos, ply);
        }
    }

    fn comment(&mut self, text: &[u8]) {
        // A comment before the first move belongs to no ply.
        if self.depth > 0 || self.ply == 0 {
            return;
        }
        let at = self.ply - 1;
        // One pass for the `%` of both commands: lichess writes both on
        // nearly every ply of its annotated games.
        for start in memchr::memchr_iter(b'%', text) {
            let rest = &text[start + 1..];
            if let Some(arg) = rest.strip_prefix(b"clk").and_then(argument) {
                if let Some(clock) = clock_ms(arg) {
                    put(&mut self.clocks, at, clock);
                }
            } else if let Some(arg) = rest.strip_prefix(b"eval").and_then(argument)
                && let Some(eval) = eval(arg)
            {
                put(&mut self.evals, at, eval);
            }
        }
    }

    fn begin_variation(&mut self) {
        self.depth += 1;
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Row {
        let record = game.record;
        let opening = self.classifier.end_game(game);
        let mainline_hash = self.hash.end_game(game) as i64;
        let header = Header::of(game.tags);
        let end = if game.replayed && !record.final_fen.is_empty() {
            match game.final_position {
                Some(pos) => Some(End::of(identity::position_hash(pos), pos.board())),
                // A variant's: from its FEN, set up as its start was.
                None => final_position(&header, &record.final_fen),
            }
        } else {
            None
        };
        let plies = self.ply;
        // Copies of the right size, one allocation each; the buffers keep
        // their capacity for the next game.
        let list = |values: &[Option<i32>]| {
            (!values.is_empty()).then(|| {
                let mut list = Vec::with_capacity(plies);
                list.extend_from_slice(&values[..values.len().min(plies)]);
                list.resize(plies, None);
                list
            })
        };
        // A game whose stored moves or tags are not the whole game: its
        // bytes, at most the first `MAX_GAME` of them (a game too large,
        // which a stream holds no more of either; `db export` reads the
        // rest from its source).
        let partial = !game.replayed || record.error.is_some() || header.repeated;
        let text = partial.then(|| game.text[..game.text.len().min(MAX_GAME)].to_vec());
        Row {
            address: game.address,
            header,
            moves: self.moves.clone(),
            clocks: list(&self.clocks),
            evals: list(&self.evals),
            final_key: end.as_ref().map(|e| e.key),
            home_pawns: end.as_ref().map(|e| e.home_pawns),
            final_material: end.map(|e| e.material),
            mainline_hash,
            text,
            opening,
            positions: self.positions.clone(),
            codes: codes(record),
        }
    }
}

/// The codes of a record's findings, in `validate`'s order.
fn codes(record: &crate::record::GameRecord) -> Vec<&'static str> {
    let mut findings = Vec::new();
    crate::diagnostic::of_game(0, record, &mut findings);
    findings.iter().map(|finding| finding.code.code()).collect()
}

/// Sets `values[at]`, growing the list with nones.
fn put(values: &mut Vec<Option<i32>>, at: usize, value: i32) {
    if values.len() <= at {
        values.resize(at + 1, None);
    }
    values[at] = Some(value);
}

/// The argument after a command's name (`%clk 0:03:00]`): from the
/// whitespace that must follow the name to the closing bracket, trimmed.
fn argument(rest: &[u8]) -> Option<&[u8]> {
    if !rest.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let end = memchr::memchr(b']', rest)?;
    Some(rest[..end].trim_ascii())
}

/// Digits as a number (at most 9 of them), `None` for anything else.
fn number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')))
}

/// `H:MM:SS` or `H:MM:SS.f` in milliseconds.
fn clock_ms(text: &[u8]) -> Option<i32> {
    let mut parts = text.split(|&b| b == b':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (whole, fraction) = match s.iter().position(|&b| b == b'.') {
        Some(dot) => (&s[..dot], &s[dot + 1..]),
        None => (s, &b""[..]),
    };
    let mut ms = 0;
    for (i, &d) in fraction.iter().take(3).enumerate() {
        if !d.is_ascii_digit() {
            return None;
        }
        ms += u32::from(d - b'0') * [100, 10, 1][i];
    }
    let (h, m, s) = (number(h)?, number(m)?, number(whole)?);
    let total = (u64::from(h) * 3600 + u64::from(m) * 60 + u64::from(s)) * 1000 + u64::from(ms);
    i32::try_from(total).ok()
}

/// What stands for a mate in [`Row::evals`]: ±(`MATE` − N).
pub const MATE: i32 = 100_000;

/// `0.17`, `-1.5` (pawns) or `#3`, `#-2` (mates) in the units of
/// [`Row::evals`].
fn eval(text: &[u8]) -> Option<i32> {
    // `%eval 0.17,23` (with a depth) is written by some tools.
    let text = text.split(|&b| b == b',').next()?.trim_ascii();
    let (mate, text) = match text.strip_prefix(b"#") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { -1 } else { 1 };
    if mate {
        let n = i32::try_from(number(digits)?).ok()?.min(MATE - 1);
        return Some(sign * (MATE - n));
    }
    let (whole, fraction) = match digits.iter().position(|&b| b == b'.') {
        Some(dot) => (&digits[..dot], &digits[dot + 1..]),
        None => (digits, &b""[..]),
    };
    if !fraction.iter().all(u8::is_ascii_digit) || whole.len() > 6 {
        return None;
    }
    // Centipawns, rounded half away from zero on the third decimal.
    let mut cp = i64::from(number(whole)?) * 100;
    let decimal = |i: usize| fraction.get(i).map_or(0, |&d| i64::from(d - b'0'));
    cp += decimal(0) * 10 + decimal(1) + i64::from(decimal(2) >= 5);
    (cp < i64::from(MATE - 1000)).then(|| sign * cp as i32)
}

/// What the filter columns keep of a game's last position.
#[derive(Debug, PartialEq, Eq)]
struct End {
    key: i64,
    material: String,
    home_pawns: i32,
}

impl End {
    /// The filters of a position whose key is `key`.
    fn of(key: u64, board: &shakmaty::Board) -> End {
        End {
            key: key as i64,
            material: signature(board.material()),
            home_pawns: home_pawns(board),
        }
    }
}

/// The final position's key, material and home pawns, from its FEN, set
/// up as the game's start was (its `Variant` tag decides the rules).
fn final_position(header: &Header, fen: &str) -> Option<End> {
    let mut warnings = Vec::new();
    let variant = header.get("Variant");
    let (_, start) = setup::start_position(variant.as_deref(), Some(fen), || 0, &mut warnings, 0);
    match start {
        setup::Setup::Chess(pos) => Some(End::of(identity::position_hash(&pos), pos.board())),
        setup::Setup::Variant(pos) => Some(End::of(identity::position_hash(&pos), pos.board())),
        setup::Setup::Unsupported | setup::Setup::BadFen(_) => None,
    }
}

/// The pawn-structure signature of `board` (the `home_pawns` column): bit
/// `f` (0 for the a-file … 7 for the h-file) when a White pawn stands on
/// its start square of file `f` (a2 … h2), bit `8 + f` when a Black pawn
/// stands on its (a7 … h7). A pawn never comes back to its start square,
/// so a game that reached a position has, at its end, at most the home
/// pawns of that position (SCID's home-pawn pruning; not in Crazyhouse,
/// whose drops put pawns back, nor in Horde, whose first-rank pawns step
/// onto the second).
pub fn home_pawns(board: &shakmaty::Board) -> i32 {
    let white = (board.pawns() & board.white()).0 >> 8 & 0xff;
    let black = (board.pawns() & board.black()).0 >> 48 & 0xff;
    (white | black << 8) as i32
}

/// A material signature, `KQRPvKRP`: White's pieces, `v`, Black's, each
/// side king first, then queens, rooks, bishops, knights, pawns (the form
/// `--material` and `--final-material` read).
pub fn signature(material: ByColor<ByRole<u8>>) -> String {
    let mut out = String::with_capacity(34);
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            out.push('v');
        }
        let side = material.get(color);
        for role in [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
            for _ in 0..*side.get(role) {
                out.push(role.upper_char());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_repeated_among_the_other_tags_is_found_however_many_there_are() {
        for count in [2, 3, 16, 17, 40] {
            let mut tags: Vec<(CompactString, CompactString)> =
                (0..count).map(|i| (format!("Tag{i}").into(), "v".into())).collect();
            assert!(!keep_first(&mut tags), "{count} distinct names");
            // The first name again, last: the pair furthest apart.
            tags.push(("Tag0".into(), "w".into()));
            assert!(keep_first(&mut tags), "{count} names and a repeat");
            // Its first value is kept, in its place, the repeat dropped.
            assert_eq!(tags.len(), count);
            assert_eq!(tags[0], ("Tag0".into(), "v".into()));
        }
        assert!(!keep_first(&mut Vec::new()));
    }

    #[test]
    fn a_name_repeated_past_its_column_is_found_and_kept_once() {
        let header = |pgn: &[u8]| {
            let options = crate::replay::ReplayOptions::default();
            let mut games = crate::testing::replay_with(pgn, options, &mut RowMaker::new(None));
            games.remove(0).1.header
        };
        let twice = header(
            b"[White \"A\"]\n[WhiteElo \"2700\"]\n[White \"B\"]\n[WhiteElo \"2600\"]\n\n*\n",
        );
        assert!(twice.repeated);
        assert_eq!((twice.get("White").as_deref(), twice.elo[0]), (Some("A"), Some(2700)));
        assert!(twice.other.is_empty(), "{:?}", twice.other);
        for once in [&b"[White \"A\"]\n[WhiteElo \"2700\"]\n\n*\n"[..], b"[WhiteElo \"?\"]\n\n*\n"]
        {
            assert!(!header(once).repeated);
        }
        let text_first = header(b"[WhiteElo \"?\"]\n[WhiteElo \"2700\"]\n\n*\n");
        assert!(text_first.repeated);
        assert_eq!((text_first.get("WhiteElo").as_deref(), text_first.elo[0]), (Some("?"), None));
    }

    #[test]
    fn the_headers_stats_tags_are_those_stats_reads_off_the_tags() {
        // Both ways, for each game: from the tags as `stats` reads them,
        // and from the header the database stores.
        struct Both;
        impl Observer for Both {
            type Output = (String, String);
            fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Self::Output {
                let header = Header::of(game.tags);
                (format!("{:?}", StatsTags::of(game.tags)), format!("{:?}", header.stats_tags()))
            }
        }
        let mut pgn = b"[WhiteElo \"2700\"]\n[BlackElo \"?\"]\n[Date \"2020.01.02\"]\n\
            [UTCDate \"2020.01.02\"]\n[TimeControl \"180+2\"]\n[ECO \"B90\"]\n\
            [Opening \"Sicilian\"]\n[Termination \"Normal\"]\n\n1. e4 *\n\n\
            [WhiteElo \" 2700\"]\n[WhiteElo \"2600\"]\n[BlackElo \"02650\"]\n\
            [BlackElo \"2650\"]\n[Date \"2021.??.??\"]\n[Date \"2020.01.01\"]\n\n1. d4 *\n\n\
            [Event \"no stats tags\"]\n\n*\n\n"
            .to_vec();
        // A Latin-1 opening name, decoded the same both ways.
        pgn.extend_from_slice(b"[Opening \"R\xe9ti\"]\n[ECO \"A04\"]\n\n1. Nf3 *\n");
        let games = crate::testing::replay_with(pgn, Default::default(), &mut Both);
        assert_eq!(games.len(), 4);
        for (_, (read, stored)) in &games {
            assert_eq!(read, stored);
        }
        assert!(games[0].1.0.contains("\"2700\"") && games[1].1.0.contains("\" 2700\""));
        assert!(games[3].1.0.contains("Réti"), "{}", games[3].1.0);
    }

    #[test]
    fn the_final_position_handed_over_has_the_filters_of_the_final_fen() {
        // Every fixture: the key, material and home pawns of the
        // position the replay ended on equal those of its FEN set up again.
        struct Check(usize);
        impl Observer for Check {
            type Output = ();
            fn end_game(&mut self, game: &GameEnd<'_, '_>) {
                let fen = &game.record.final_fen;
                if let Some(pos) = game.final_position.filter(|_| !fen.is_empty()) {
                    let direct = End::of(identity::position_hash(pos), pos.board());
                    assert_eq!(Some(direct), final_position(&Header::of(game.tags), fen), "{fen}");
                    self.0 += 1;
                }
            }
        }
        let options = crate::replay::ReplayOptions { final_fen: true, ..Default::default() };
        let mut check = Check(0);
        let mut dirs =
            vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures"))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let small = path.metadata().is_ok_and(|m| m.len() < 3_000_000);
                if path.is_dir() {
                    dirs.push(path);
                } else if small && path.extension().is_some_and(|e| e == "pgn") {
                    crate::testing::replay_with(std::fs::read(&path).unwrap(), options, &mut check);
                }
            }
        }
        assert!(check.0 > 1000, "{} games compared", check.0);
    }

    #[test]
    fn a_game_not_replayed_has_no_moves_or_positions_of_the_game_before() {
        // A replayed game with clocks, then games the replay does not set
        // up (an unsupported variant, a bad FEN): their rows are empty, not
        // copies of the first one's buffers.
        let pgn = "[Event \"a\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } *\n\n\
                   [Variant \"Bughouse\"]\n\n1. e4 e5 *\n\n\
                   [FEN \"not a fen\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n";
        let mut maker = RowMaker::new(Some(40));
        let rows = crate::testing::replay_with(pgn, Default::default(), &mut maker);
        assert_eq!(rows.len(), 3);
        let first = &rows[0].1;
        assert_eq!((first.moves.len(), first.positions.len()), (2, 3));
        assert!(first.clocks.is_some());
        for (_, row) in &rows[1..] {
            assert!(row.moves.is_empty() && row.positions.is_empty(), "{:?}", row.moves);
            assert!(row.clocks.is_none() && row.evals.is_none());
        }
    }

    #[test]
    fn clocks_and_evals_are_read_as_lichess_writes_them() {
        let clk = |text: &str| clock_ms(text.as_bytes());
        assert_eq!(clk("0:03:00"), Some(180_000));
        assert_eq!(clk("1:00:05.3"), Some(3_605_300));
        assert_eq!(eval(b"0.175"), Some(18));
        assert_eq!(eval(b"12"), Some(1200));
        assert_eq!(eval(b"-0.3,21"), Some(-30));
        assert_eq!(eval(b"1.x"), None);
        assert_eq!(argument(b" 0:03:00] rest"), Some(&b"0:03:00"[..]));
        assert_eq!(argument(b"x 0:03:00]"), None);
        assert_eq!(clock_ms(b"0:03:00"), Some(180_000));
        assert_eq!(clock_ms(b"1:00:05.3"), Some(3_605_300));
        assert_eq!(clock_ms(b"0:00"), None);
        assert_eq!(clock_ms(b"x:00:00"), None);
        assert_eq!(eval(b"0.17"), Some(17));
        assert_eq!(eval(b"-1.5"), Some(-150));
        assert_eq!(eval(b"#3"), Some(MATE - 3));
        assert_eq!(eval(b"#-2"), Some(-(MATE - 2)));
        assert_eq!(eval(b"nan"), None);
    }

    #[test]
    fn dates_count_days_from_1970() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(days_from_civil(1969, 12, 31), Some(-1));
        assert_eq!(days_from_civil(1, 1, 1), Some(-719_162));
        assert_eq!(days_from_civil(0, 1, 1), None, "year 0: no reader's date");
    }

    #[test]
    fn signatures_name_white_first_king_first() {
        let pos = shakmaty::Chess::default();
        assert_eq!(signature(pos.board().material()), "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
    }

    #[test]
    fn home_pawns_are_the_pawns_on_their_start_squares() {
        let pos = shakmaty::Chess::default();
        assert_eq!(home_pawns(pos.board()), 0xffff);
        let board = crate::select::board::placement("8/p6p/8/8/4P3/8/3P2Pp/8").unwrap();
        // d2 and g2 for White (bits 3 and 6); a7 and h7 for Black (bits 8
        // and 15); e4 is not home, nor is Black's h2.
        assert_eq!(home_pawns(&board), 1 << 3 | 1 << 6 | 1 << 8 | 1 << 15);
    }
}
