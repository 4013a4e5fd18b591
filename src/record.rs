//! The per-game record: what replaying one game under the rules found.
//!
//! `GameRecord` is plain data handed from `replay` to the sinks. Its serde
//! form *is* the JSON Lines schema of `arbiter games --format jsonl`: field
//! names and meanings are a public contract (see docs/GUIDE.md, "Record schema",
//! and its JSON Schema, docs/record.schema.json, which tests hold to it).
//! Nothing here does I/O or knows chess rules. Its finding types
//! (`Warning`, `GameError` and their kinds) are the vocabulary every layer
//! reports in: the tag checks, the start position and the Laws fill them in.

use std::{borrow::Cow, sync::Arc};

use compact_str::CompactString;
use serde::{Serialize, Serializer};

/// Everything arbiter determined about one game.
///
/// Serialized field by field as one JSON object per line; the order of the
/// fields below is the order of the CSV columns too.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameRecord {
    /// The input path as given on the command line (`-` for standard input).
    pub file: Arc<str>,
    /// 1-based game number within its file.
    pub index: u64,
    /// 1-based line where the game starts (its first tag, or its first
    /// movetext token for a game without tags).
    pub line: u64,
    /// `White` tag, decoded as UTF-8 (Latin-1 when not valid UTF-8).
    pub white: Option<CompactString>,
    /// `Black` tag.
    pub black: Option<CompactString>,
    /// `Event` tag.
    pub event: Option<CompactString>,
    /// `Round` tag.
    pub round: Option<CompactString>,
    /// The `Result` tag exactly as written; `None` when the game has none.
    pub result: Option<CompactString>,
    /// The result marker ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result_marker: Option<&'static str>,
    /// The variant the game was replayed under (`chess`, `chess960`,
    /// `atomic`, ...), or the unsupported `Variant` tag value (the only
    /// one not known in advance, hence borrowed or owned).
    pub variant: Cow<'static, str>,
    /// True when every mainline move (and with `--variations` every move) is
    /// well-formed and legal and the start position is valid.
    pub valid: bool,
    /// 1-based ply of the first bad move; 0 when the start position itself
    /// is bad (`bad_fen`) or the game too large to read (`game_too_large`);
    /// `None` for a valid game.
    pub error_ply: Option<u32>,
    /// The first error, if any.
    pub error: Option<GameError>,
    /// Number of mainline plies legally replayed.
    pub plies: u32,
    /// The first automatic end of the game reached while replaying.
    pub termination: Option<Termination>,
    /// Ply after which `termination` holds (0 = the start position).
    pub termination_ply: Option<u32>,
    /// First ply after which the position reached has occurred for the third
    /// time (a draw could be claimed from then on).
    pub threefold_ply: Option<u32>,
    /// First ply at which the 50-move rule could be claimed (halfmove clock
    /// of at least 100 in a position where the game goes on).
    pub fifty_ply: Option<u32>,
    /// Plies legally played after `termination_ply`.
    pub moves_after_end: u32,
    /// False when the recorded result contradicts an automatic end:
    /// a checkmate not won by the mating side, an automatic draw not scored
    /// ½-½, or a variant end scored otherwise.
    pub result_consistent: bool,
    /// Whether the `Termination` tag says the game was decided on time
    /// (`Time forfeit`, `… won on time`).
    pub on_time: bool,
    /// A win on time for a side that cannot mate by any series of legal
    /// moves from the final position: Art. 6.9 scores it ½-½.
    pub timeout_draw: bool,
    /// First ply whose position the dead-position analysis (Art. 5.2.2)
    /// could not decide within its budget; `None` when every position it
    /// looked at was decided.
    pub undetermined_ply: Option<u32>,
    /// Findings that do not make the game invalid.
    pub warnings: Vec<Warning>,
    /// FEN of the last position legally reached (empty when not requested).
    pub final_fen: String,
}

/// The first well-formedness or legality problem in a game.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameError {
    /// What is wrong.
    pub kind: ErrorKind,
    /// The offending token exactly as written (the FEN tag for `bad_fen`).
    pub san: String,
    /// The position before the offending move, as FEN (empty for `bad_fen`).
    pub fen: String,
    /// 1-based line of the offending token.
    pub line: u64,
    /// A one-line explanation (for a move that is not legal, with why).
    pub message: String,
    /// Why a move is not legal, as a short stable code
    /// (`no_piece_reaches`, `leaves_king_in_check`, ...; see the GUIDE):
    /// for `illegal_move`, `ambiguous_move` and `missing_promotion`.
    pub reason: Option<&'static str>,
    /// The source line of the offending token, for the text output's
    /// excerpt; not part of the record's serialized form. Boxed: only
    /// invalid games have one, and `check` holds every game's record.
    #[serde(skip)]
    pub excerpt: Option<Box<Excerpt>>,
}

/// A token in its source line, to show with a caret under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The line (or, on a long line, the part around the token, cut with
    /// `…`), without its line break.
    pub text: String,
    /// Display columns before the token in `text`.
    pub column: usize,
    /// Display columns the token takes (at least 1).
    pub width: usize,
}

impl Excerpt {
    /// Columns of context kept on each side of the token: lichess writes a
    /// game's movetext on one line thousands of bytes long.
    const CONTEXT: usize = 40;

    /// The excerpt of `token`, a slice of `source` (the bytes it was read
    /// from; `None` when it is not one).
    pub fn of(source: &[u8], token: &[u8]) -> Option<Excerpt> {
        use unicode_width::UnicodeWidthStr;
        // Addresses only, compared, never dereferenced: where `token` lies.
        let start = (token.as_ptr() as usize).checked_sub(source.as_ptr() as usize)?;
        let end = start.checked_add(token.len())?;
        if end > source.len() {
            return None;
        }
        let line_start = memchr::memrchr(b'\n', &source[..start]).map_or(0, |at| at + 1);
        let line_end = memchr::memchr(b'\n', &source[end..]).map_or(source.len(), |at| end + at);
        let text = |bytes: &[u8]| {
            printable(&String::from_utf8_lossy(bytes).replace(['\r', '\t'], " ")).into_owned()
        };
        let word = printable(&quoted(token)).into_owned();
        let (before, after) = (text(&source[line_start..start]), text(&source[end..line_end]));
        let mut before_kept: Vec<char> = Vec::new();
        let mut columns = 0;
        for c in before.chars().rev() {
            columns += UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
            if columns > Excerpt::CONTEXT {
                before_kept.push('…');
                break;
            }
            before_kept.push(c);
        }
        let before: String = before_kept.into_iter().rev().collect();
        let mut after_kept = String::new();
        let mut columns = 0;
        for c in after.chars() {
            columns += UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
            if columns > Excerpt::CONTEXT {
                after_kept.push('…');
                break;
            }
            after_kept.push(c);
        }
        Some(Excerpt {
            column: before.width(),
            width: word.width().max(1),
            text: format!("{before}{word}{}", after_kept.trim_end()),
        })
    }
}

/// Declares a kind enum from one table: each variant with its snake_case
/// name (its serialized form) and its description for people.
macro_rules! kinds {
    ($(#[$meta:meta])* pub enum $enum:ident {
        $($(#[$doc:meta])* $variant:ident => ($name:literal, $text:literal),)*
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $enum {
            $($(#[$doc])* $variant,)*
        }

        impl $enum {
            /// Every kind, in declaration order.
            pub const ALL: &[$enum] = &[$($enum::$variant),*];

            /// The snake_case name used in every output format.
            pub fn name(self) -> &'static str {
                match self { $($enum::$variant => $name,)* }
            }

            /// A description for people.
            pub fn describe(self) -> &'static str {
                match self { $($enum::$variant => $text,)* }
            }
        }

        impl Serialize for $enum {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }
    };
}

/// The most bytes of a token or a tag value a finding quotes: a 500 MB
/// token costs no more to report than a short one.
pub const QUOTED: usize = 80;

/// `bytes` as text to quote in a finding: decoded (invalid UTF-8
/// replaced), and cut after [`QUOTED`] bytes with `…`.
pub fn quoted(bytes: &[u8]) -> String {
    if bytes.len() <= QUOTED {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut cut = String::from_utf8_lossy(&bytes[..QUOTED]).into_owned();
    // A character cut in two decodes to U+FFFD: drop it.
    while cut.ends_with('\u{fffd}') {
        cut.pop();
    }
    cut.push('…');
    cut
}

/// `text` as a terminal may show it: each control character (an escape
/// sequence's ESC, a carriage return that would overwrite the line, C1
/// codes) becomes a visible one a column wide (ESC `␛`, NUL `␀`, DEL `␡`,
/// a C1 code `�`). A PGN is data from anywhere: what is printed for
/// people must not drive their terminal. Data outputs (CSV, JSON, PGN)
/// keep the bytes.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\0'..='\x1f' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
                '\x7f' => '\u{2421}',
                c if c.is_control() => '\u{fffd}',
                c => c,
            })
            .collect(),
    )
}

/// How deep variations are followed when they are replayed: each level
/// holds two positions, so a file of nothing but `(` cannot take the
/// memory of the machine. No real game comes near.
pub const MAX_VARIATION_DEPTH: usize = 64;

kinds! {
    /// The kinds of error that make a game invalid.
    pub enum ErrorKind {
        /// A well-formed move that is not legal in the position.
        IllegalMove => ("illegal_move", "illegal move"),
        /// A move that more than one legal move matches.
        AmbiguousMove => ("ambiguous_move", "ambiguous move"),
        /// A pawn reaching the last rank without saying what it promotes to.
        MissingPromotion => ("missing_promotion", "missing promotion piece"),
        /// A null move (`--`, `Z0`): not a legal chess move.
        NullMove => ("null_move", "null move"),
        /// A movetext token that is neither a move, a move number, an
        /// annotation, a comment, a variation nor a result.
        UnparseableToken => ("unparseable_token", "unparseable token"),
        /// A `FEN` tag that does not describe a legal start position.
        BadFen => ("bad_fen", "bad FEN"),
        /// A `{` comment that is not closed before the game ends.
        UnterminatedComment => ("unterminated_comment", "unterminated comment"),
        /// A `(` variation that is not closed before the game ends.
        UnterminatedVariation => ("unterminated_variation", "unterminated variation"),
        /// A move after the result marker that ended the movetext.
        MoveAfterResult => ("move_after_result", "move after the result"),
        /// Variations nested deeper than [`MAX_VARIATION_DEPTH`] (with
        /// `--variations`, and in `fmt`): the game's cost stays bounded.
        VariationsTooDeep => ("variations_too_deep", "variations nested too deeply"),
        /// A game longer than [`crate::pgn::chunk::MAX_GAME`] before the
        /// next: its moves are not read.
        GameTooLarge => ("game_too_large", "game too large"),
    }
}

kinds! {
    /// How a game ended automatically under the Laws (or its variant's rules).
    pub enum Termination {
        /// Art. 5.1.1: the side to move is checkmated.
        Checkmate => ("checkmate", "checkmate"),
        /// Art. 5.2.1: the side to move has no legal move and is not in check.
        Stalemate => ("stalemate", "stalemate"),
        /// Art. 5.2.2 (dead position by material): neither side can mate.
        InsufficientMaterial => ("insufficient_material", "insufficient material"),
        /// Art. 5.2.2 beyond material: neither side can mate by any series
        /// of legal moves (locked pawns, a forced capture into bare kings...).
        DeadPosition => ("dead_position", "dead position"),
        /// Art. 9.6.1: the same position for the fifth time.
        FivefoldRepetition => ("fivefold_repetition", "fivefold repetition"),
        /// Art. 9.6.2: 75 moves by each side without capture or pawn move.
        SeventyfiveMoves => ("seventyfive_moves", "75-move rule"),
        /// A variant's own win (king of the hill, three checks, atomic...).
        VariantWin => ("variant_win", "variant win"),
        /// A variant's own draw (racing kings: both kings reach the goal).
        VariantDraw => ("variant_draw", "variant draw"),
    }
}

impl Termination {
    /// Whether this end is a draw.
    pub fn is_draw(self) -> bool {
        !matches!(self, Termination::Checkmate | Termination::VariantWin)
    }
}

/// A finding that does not make the game invalid.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Warning {
    /// What kind of finding.
    pub kind: WarningKind,
    /// A one-line explanation naming the tag, token or ply concerned.
    pub message: Cow<'static, str>,
    /// 1-based line the finding is about.
    pub line: u64,
}

kinds! {
    /// The kinds of warning.
    pub enum WarningKind {
        /// A tag of the Seven Tag Roster is missing.
        MissingTag => ("missing_tag", "missing tag"),
        /// A roster tag is malformed, a tag line cannot be read, or a FEN
        /// needed its castling rights or en passant square ignored.
        MalformedTag => ("malformed_tag", "malformed tag"),
        /// The same tag appears more than once (the first value is used).
        DuplicateTag => ("duplicate_tag", "duplicate tag"),
        /// The `Result` tag and the movetext's result marker disagree, or
        /// one of them is missing.
        ResultMismatch => ("result_mismatch", "result mismatch"),
        /// A decisive result for a side that cannot mate by any series of
        /// legal moves (a resignation may stand).
        ImpossibleWin => ("impossible_win", "impossible win"),
        /// A `+`/`#` suffix that is wrong, or missing where the move checks
        /// or mates.
        CheckSuffix => ("check_suffix", "check suffix"),
        /// A move number that does not match the ply it stands before.
        MoveNumber => ("move_number", "move number"),
        /// Not standard SAN, but exactly one legal move (`0-0`, `e2e4`,
        /// `e2-e4`, `Ng1f3`, `e8Q`): accepted as that move.
        NonstandardNotation => ("nonstandard_notation", "non-standard notation"),
        /// A `)` without a matching `(`.
        UnmatchedVariationEnd => ("unmatched_variation_end", "unmatched variation end"),
        /// Control bytes (NUL and the like) in the movetext, ignored.
        StrayBytes => ("stray_bytes", "stray bytes"),
        /// A game without any move.
        EmptyGame => ("empty_game", "empty game"),
        /// A `Variant` arbiter does not know: the moves were not checked.
        UnsupportedVariant => ("unsupported_variant", "unsupported variant"),
    }
}

impl GameRecord {
    /// Moves every line the record names `lines` further down (from lines
    /// of its chunk to lines of its input).
    pub fn shift_lines(&mut self, lines: u64) {
        self.line += lines;
        if let Some(error) = &mut self.error {
            error.line += lines;
        }
        for warning in &mut self.warnings {
            warning.line += lines;
        }
    }

    /// Whether the game has an error finding: an invalid move or setup, a
    /// result that contradicts the final position, or moves played after
    /// the game had ended.
    pub fn has_error(&self) -> bool {
        !self.valid || !self.result_consistent || self.moves_after_end > 0 || self.timeout_draw
    }
}
