//! `arbiter winnable`: the unwinnability analysis (`laws::dead`) of
//! positions given as FEN, one line per position in the labels of the
//! published test data (`WB`, `W-`, `-B`, `--`, `?` for undecided), and
//! for a labelled file the agreement of the verdicts with the labels.

use std::{
    fs,
    io::{self, Write},
    path::Path,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use shakmaty::{CastlingMode, Chess, Color, fen::Fen};

use crate::{
    chess::identity::parse_fen,
    cli::WinnableArgs,
    exit::ExitStatus,
    laws::dead::{self, Mate},
};

/// Runs `winnable`.
pub(super) fn run(args: WinnableArgs) -> anyhow::Result<ExitStatus> {
    if args.fens.is_empty() && args.file.is_none() {
        bail!("no position: give FENs or --file FILE");
    }
    let mut out = io::stdout().lock();
    // A bad position is reported and the others analysed: exit status 2.
    let mut bad = 0;
    for words in arguments(&args.fens) {
        let analysed = match words {
            [fen] if !lone_field(fen) => {
                position(fen).map_err(|error| format!("position {fen:?}: {error:#}"))
            }
            _ => Err(split(words)),
        };
        match analysed {
            Ok(pos) => {
                let (white, black) = verdicts(&pos, args.budget);
                writeln!(out, "{}{} {}", letter(white, 'W'), letter(black, 'B'), words[0])?;
            }
            Err(message) => {
                bad += 1;
                out.flush()?;
                // Prefixed as every command's errors are, fatal or not (an
                // unreadable input is one line too, and the run goes on).
                writeln!(io::stderr().lock(), "arbiter: error: {message}")?;
            }
        }
    }
    let unsound = match &args.file {
        Some(file) => {
            let tally = check_file(file, args.budget, args.quiet, &mut out)?;
            tally.write(&mut out)?;
            bad += tally.bad;
            tally.unsound
        }
        None => 0,
    };
    Ok(if bad > 0 {
        ExitStatus::Error
    } else if unsound > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}

/// The FEN arguments, each with the lone FEN fields that follow it. A FEN
/// left unquoted reaches us as its placement and up to five words more
/// (`winnable 8/8/8/8/8/8/8/8 w - - 0 1`): one mistake, said once, not six
/// positions refused one by one. Only a one-word argument takes the fields
/// after it, so a whole FEN followed by a stray word is still analysed.
fn arguments(fens: &[String]) -> Vec<&[String]> {
    let mut groups = Vec::new();
    let mut start = 0;
    while start < fens.len() {
        let mut end = start + 1;
        if fens[start].split_ascii_whitespace().count() == 1 {
            while end < fens.len() && lone_field(&fens[end]) {
                end += 1;
            }
        }
        groups.push(&fens[start..end]);
        start = end;
    }
    groups
}

/// Whether `word` is a FEN field that is never a placement: a side to
/// move, castling rights (Chess960's files with an uppercase one, so that
/// a word such as `bad` is not taken for them), an en passant square, a
/// move counter or `-`.
fn lone_field(word: &str) -> bool {
    let bytes = word.as_bytes();
    let castling = |b: &u8| b"KQkq".contains(b);
    let files = |b: &u8| matches!(b, b'A'..=b'H' | b'a'..=b'h');
    matches!(word, "w" | "b" | "-")
        || (!bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit))
        || (!bytes.is_empty() && bytes.len() <= 4 && bytes.iter().all(castling))
        || (bytes.len() <= 4 && bytes.iter().all(files) && bytes.iter().any(u8::is_ascii_uppercase))
        || matches!(bytes, [b'a'..=b'h', b'3' | b'6'])
}

/// Why `words` (more than one argument, or a lone FEN field) are no
/// position: the shell split a FEN at its spaces.
fn split(words: &[String]) -> String {
    let joined = words.join(" ");
    if lone_field(&words[0]) {
        let fields = if words.len() == 1 { "a FEN field" } else { "FEN fields" };
        format!(
            "position {joined:?}: {fields} without the rest of the FEN: \
             the shell splits an unquoted FEN at its spaces; quote each FEN whole"
        )
    } else {
        format!(
            "position {joined:?}: a FEN split into {} arguments: the shell splits an \
             unquoted FEN at its spaces; quote it whole, '{joined}'",
            words.len()
        )
    }
}

/// A FEN as a standard position, or a Chess960 one when its castling
/// rights need it. More pieces than promotions allow are accepted: composed
/// positions have them, and the analysis does not care.
fn position(fen: &str) -> anyhow::Result<Chess> {
    let parsed = parse_fen(fen).map_err(|error| anyhow::anyhow!("not a FEN: {error}"))?;
    legal(&parsed, CastlingMode::Standard)
        .or_else(|| legal(&parsed, CastlingMode::Chess960))
        .context("not a legal position")
}

/// `fen` as a position in `mode`, too much material allowed.
fn legal(fen: &Fen, mode: CastlingMode) -> Option<Chess> {
    match fen.clone().into_position::<Chess>(mode) {
        Ok(pos) => Some(pos),
        Err(error) => error.ignore_too_much_material().ok(),
    }
}

/// The verdicts for White and Black.
fn verdicts(pos: &Chess, budget: u32) -> (Mate, Mate) {
    (dead::can_mate(pos, Color::White, budget), dead::can_mate(pos, Color::Black, budget))
}

/// A side's letter in a label: the side's initial, `-` or `?`.
fn letter(mate: Mate, side: char) -> char {
    match mate {
        Mate::Possible => side,
        Mate::Impossible => '-',
        Mate::Undetermined => '?',
    }
}

/// The agreement of verdicts with labels, per side of each position.
#[derive(Debug, Default)]
struct Tally {
    positions: u64,
    /// Lines of the file that are no labelled position (reported).
    bad: u64,
    /// Verdicts that do not contradict the label (undetermined included).
    sound: u64,
    /// `Impossible` where the label says the side can mate, or `Possible`
    /// where it says it cannot.
    unsound: u64,
    /// Sides the label says cannot mate, proved so.
    found: u64,
    /// Sides the label says cannot mate, not proved so.
    missed: u64,
    /// Sides left undecided.
    undetermined: u64,
    /// Sides the label says can mate, shown so by a mate.
    mates: u64,
    /// Positions `may_be_dead` lets through.
    prefiltered: u64,
    /// Dead positions (`--`) that `may_be_dead` does not let through.
    prefilter_missed: u64,
    /// Positions `either_can_mate` proves dead.
    dead: u64,
    elapsed: Duration,
    worst: Duration,
    worst_fen: String,
    /// The time of `may_be_dead` over every position, measured apart.
    prefilter_time: Duration,
}

impl Tally {
    fn add(&mut self, expected: bool, mate: Mate) {
        match (expected, mate) {
            (true, Mate::Impossible) | (false, Mate::Possible) => self.unsound += 1,
            (true, Mate::Possible) => {
                self.sound += 1;
                self.mates += 1;
            }
            (false, Mate::Impossible) => {
                self.sound += 1;
                self.found += 1;
            }
            (_, Mate::Undetermined) => {
                self.sound += 1;
                self.undetermined += 1;
                if !expected {
                    self.missed += 1;
                }
            }
        }
    }

    /// The counts, as `#` comments so that the output stays a labelled
    /// file.
    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let seconds = self.elapsed.as_secs_f64();
        let rate = if seconds > 0.0 { self.positions as f64 / seconds } else { 0.0 };
        writeln!(out, "# positions: {}", self.positions)?;
        if self.bad > 0 {
            writeln!(out, "# lines that are no labelled position: {}", self.bad)?;
        }
        writeln!(out, "# sides sound: {}", self.sound)?;
        writeln!(out, "# sides unsound: {}", self.unsound)?;
        writeln!(out, "# sides proved unable to mate: {} (missed: {})", self.found, self.missed)?;
        writeln!(out, "# sides shown to mate: {}", self.mates)?;
        writeln!(out, "# sides undetermined: {}", self.undetermined)?;
        writeln!(out, "# dead positions proved: {}", self.dead)?;
        writeln!(out, "# positions the pre-filter lets through: {}", self.prefiltered)?;
        writeln!(out, "# dead positions the pre-filter missed: {}", self.prefilter_missed)?;
        writeln!(
            out,
            "# time: {seconds:.3} s, {rate:.0} positions/s, worst {:.3} ms ({})",
            self.worst.as_secs_f64() * 1000.0,
            self.worst_fen
        )?;
        let per = self.prefilter_time.as_nanos() / u128::from(self.positions.max(1));
        writeln!(out, "# pre-filter time: {per} ns per position")
    }
}

/// Analyses every labelled line of `file`, printing a line per position
/// unless `quiet`.
fn check_file(
    file: &Path,
    budget: u32,
    quiet: bool,
    out: &mut impl Write,
) -> anyhow::Result<Tally> {
    let text = fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let mut tally = Tally::default();
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let where_ = || format!("{}:{}", file.display(), number + 1);
        let read = || -> anyhow::Result<_> {
            let (label, fen) = line.split_once(' ').context("no FEN")?;
            let sides = match label {
                "WB" => (true, true),
                "W-" => (true, false),
                "-B" => (false, true),
                "--" => (false, false),
                _ => bail!("label {label:?} is none of WB, W-, -B, --"),
            };
            Ok((sides, fen, position(fen)?))
        };
        let ((white, black), fen, pos) = match read() {
            Ok(read) => read,
            // Reported, and the file's other lines analysed.
            Err(error) => {
                tally.bad += 1;
                out.flush()?;
                writeln!(io::stderr().lock(), "arbiter: error: {}: {error:#}", where_())?;
                continue;
            }
        };
        let start = Instant::now();
        let (w, b) = verdicts(&pos, budget);
        let took = start.elapsed();
        tally.elapsed += took;
        if took > tally.worst {
            tally.worst = took;
            tally.worst_fen = fen.trim().to_owned();
        }
        tally.positions += 1;
        tally.add(white, w);
        tally.add(black, b);
        let candidate = dead::may_be_dead(&pos);
        tally.prefiltered += u64::from(candidate);
        tally.prefilter_missed += u64::from(!white && !black && !candidate);
        tally.dead += u64::from(w == Mate::Impossible && b == Mate::Impossible);
        let wrong = matches!((white, w), (true, Mate::Impossible) | (false, Mate::Possible))
            || matches!((black, b), (true, Mate::Impossible) | (false, Mate::Possible));
        let skipped = !white && !black && !candidate;
        if !quiet || wrong || skipped {
            let mark = if wrong {
                " # contradicts the label"
            } else if skipped {
                " # dead, but skipped by the pre-filter"
            } else {
                ""
            };
            writeln!(out, "{}{} {}{mark}", letter(w, 'W'), letter(b, 'B'), fen.trim())?;
        }
        positions.push(pos);
    }
    // Timed in one loop of its own: a call costs about what a clock
    // reading does.
    let start = Instant::now();
    let passed =
        positions.iter().filter(|pos| std::hint::black_box(dead::may_be_dead(pos))).count();
    tally.prefilter_time = start.elapsed();
    debug_assert_eq!(passed as u64, tally.prefiltered);
    Ok(tally)
}
