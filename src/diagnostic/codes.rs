//! The finding codes of `arbiter check`: one table, the only place a code,
//! its name, its severity, what it means and how to fix it are written.
//!
//! Text, JSON Lines and SARIF output, `--list-codes`, the configuration
//! file's `disable` list and the user guide all render from [`Code`] (as ruff's
//! `codes.rs`). Codes are stable: a code is never reused for another
//! meaning. Numbers are grouped: 1xx one game's moves and result, 2xx
//! players, 3xx headers, 4xx pairings; `E` codes are errors, `W` warnings.

use serde::{Serialize, Serializer};

use crate::record::{ErrorKind, WarningKind};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Must be fixed before publishing: `check` exits 1.
    Error,
    /// To review: `check` exits 1 only with `--deny warnings`.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed in every format.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl Serialize for Severity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Declares [`Code`] from one table: variant, code, name, severity, what
/// it means, and a one-line fix hint.
macro_rules! codes {
    ($($variant:ident => ($code:literal, $name:literal, $severity:ident, $what:literal, $hint:literal),)*) => {
        /// A kind of finding of `arbiter check`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $what] $variant,)*
        }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &[Code] = &[$(Code::$variant),*];

            /// The stable code, `E101`.
            pub fn code(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The stable kebab-case name, `illegal-move`.
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// Error or warning.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// What the finding means, in one line.
            pub fn what(self) -> &'static str {
                match self { $(Code::$variant => $what,)* }
            }

            /// How to fix it, in one line.
            pub fn hint(self) -> &'static str {
                match self { $(Code::$variant => $hint,)* }
            }
        }
    };
}

codes! {
    // 1xx: one game's moves and result (what `validate` finds, and more).
    IllegalMove => ("E101", "illegal-move", Error,
        "A well-formed move that is not legal in the position.",
        "Correct the move from the scoresheet; the FEN shows the position before it."),
    AmbiguousMove => ("E102", "ambiguous-move", Error,
        "A move that more than one legal move matches.",
        "Add the file or rank of the moving piece (Nbd2, R1e2)."),
    MissingPromotion => ("E103", "missing-promotion", Error,
        "A pawn reaches the last rank without saying what it promotes to.",
        "Add the piece the pawn promotes to (e8=Q)."),
    NullMove => ("E104", "null-move", Error,
        "A null move (`--`, `Z0`), which is not a chess move.",
        "Replace the null move with the move actually played."),
    UnparseableToken => ("E105", "unparseable-token", Error,
        "A movetext token that is neither a move, a move number, a NAG, a comment, a variation nor a result.",
        "Fix or remove the token; put comments in { }."),
    BadFen => ("E106", "bad-fen", Error,
        "A FEN tag that does not describe a legal start position.",
        "Correct the FEN tag, or remove it when the game starts from the standard position."),
    UnterminatedComment => ("E107", "unterminated-comment", Error,
        "A { comment that is not closed before the game ends.",
        "Close the comment with }."),
    UnterminatedVariation => ("E108", "unterminated-variation", Error,
        "A ( variation that is not closed before the game ends.",
        "Close the variation with )."),
    MoveAfterResult => ("E109", "move-after-result", Error,
        "A move after the result marker that ended the movetext.",
        "Remove the moves after the result, or move the result to the end."),
    ResultContradictsPosition => ("E110", "result-contradicts-position", Error,
        "The result contradicts the final position: a checkmate not won by the mating side, or an automatic draw not scored 1/2-1/2.",
        "Score the game as the final position requires (Art. 5.1.1, 5.2, 9.6)."),
    MovesAfterEnd => ("E111", "moves-after-end", Error,
        "Moves were played after the game had ended by checkmate, stalemate or an automatic draw.",
        "Remove the moves after the end of the game, or correct the move that ended it."),
    ResultMismatch => ("E112", "result-mismatch", Error,
        "The Result tag and the result marker ending the movetext differ, or one of them is missing.",
        "Make the Result tag and the result at the end of the moves equal."),
    VariationsTooDeep => ("E113", "variations-too-deep", Error,
        "Variations nested more than 64 levels deep: arbiter follows them no deeper.",
        "Flatten the variations; no annotation needs that many levels."),
    GameTooLarge => ("E114", "game-too-large", Error,
        "A game of more than 16 MiB before the next game: its moves were not read, and the input was skipped to where a game certainly begins.",
        "Look for a comment never closed or bytes that are not PGN; split a game that is really this long."),
    TimeoutDraw => ("E115", "timeout-draw", Error,
        "A game won on time (Termination tag) by a side that cannot checkmate by any series of legal moves: Art. 6.9 scores it 1/2-1/2.",
        "Score the game 1/2-1/2 (Art. 6.9), or correct the Termination tag if the game did not end on time."),
    CheckSuffix => ("W121", "check-suffix", Warning,
        "A + or # suffix that is wrong, or missing where the move checks or mates.",
        "Write + after a checking move and # after a mating one, and nowhere else."),
    MoveNumber => ("W122", "move-number", Warning,
        "A move number that does not match the move it stands before.",
        "Renumber the moves."),
    NonstandardNotation => ("W123", "nonstandard-notation", Warning,
        "A move not in SAN (0-0, e2e4, Ng1f3, e8Q) read as the one legal move it denotes.",
        "Write the move in SAN (O-O, e4, Nf3, e8=Q)."),
    UnmatchedVariationEnd => ("W124", "unmatched-variation-end", Warning,
        "A ) without a matching (.",
        "Remove the stray ) or add the missing (."),
    StrayBytes => ("W125", "stray-bytes", Warning,
        "Control bytes (NUL and the like) in the movetext, ignored.",
        "Remove the control characters (save the file as plain UTF-8 text)."),
    UnsupportedVariant => ("W126", "unsupported-variant", Warning,
        "A Variant tag arbiter does not know: the moves were not checked.",
        "Check the Variant tag; remove it for standard chess."),
    ImpossibleWin => ("W127", "impossible-win", Warning,
        "A decisive result for a side that cannot mate: no mating material, or pawns frozen for good (a win on time beyond material is E115).",
        "If the game was lost on time, score it 1/2-1/2 (Art. 6.9); a resignation may stand."),
    EmptyGame => ("W128", "empty-game", Warning,
        "A game without moves and without a decisive result.",
        "Add the moves, or remove the game."),
    UnfinishedGame => ("W129", "unfinished-game", Warning,
        "A game scored * (unfinished or unknown result), listed for review.",
        "Enter the final result before publishing."),
    Forfeit => ("W130", "forfeit", Warning,
        "A game without moves but with a decisive result (a forfeit), listed for review.",
        "Confirm the game was not played; otherwise add its moves."),
    // 2xx: players.
    RatingChanged => ("W201", "rating-changed", Warning,
        "A player's rating (WhiteElo/BlackElo) differs between games of the event.",
        "Use the player's rating from the event's rating list in every game."),
    TitleChanged => ("W202", "title-changed", Warning,
        "A player's title (WhiteTitle/BlackTitle) differs between games of the event.",
        "Use the same title for the player in every game."),
    NameVariant => ("W203", "name-variant", Warning,
        "Two spellings of what looks like one player's name (case, comma, accents, initials, order).",
        "Spell each player's name the same way in every game, as on the FIDE list (Surname, Firstname)."),
    FideIdChanged => ("W204", "fide-id-changed", Warning,
        "A player's FIDE ID (WhiteFideId/BlackFideId) differs between games of the event.",
        "Use the player's FIDE ID in every game; different IDs mean different players."),
    // 3xx: headers.
    MissingTag => ("W301", "missing-tag", Warning,
        "A tag of the Seven Tag Roster is missing.",
        "Add Event, Site, Date, Round, White, Black and Result, with ? for what is unknown."),
    MalformedTag => ("W302", "malformed-tag", Warning,
        "A tag that is not in its standard form (Date, EventDate, Round, Result), empty, or unreadable.",
        "Write Date as YYYY.MM.DD (?? for unknown parts), Round as 3, 3.1, ? or -, Result as 1-0, 0-1, 1/2-1/2 or *."),
    DuplicateTag => ("W303", "duplicate-tag", Warning,
        "The same tag appears more than once in a game (the first value is used).",
        "Keep one copy of the tag."),
    RosterOrder => ("W304", "roster-order", Warning,
        "The Seven Tag Roster is not first, or not in its order.",
        "Put Event, Site, Date, Round, White, Black, Result first, in that order."),
    InvalidDate => ("W305", "invalid-date", Warning,
        "A Date or EventDate of the right form that is not a calendar date (2024.02.30, month 13).",
        "Correct the date."),
    MalformedRating => ("W306", "malformed-rating", Warning,
        "A WhiteElo or BlackElo that is not a number.",
        "Write the rating as digits (WhiteElo \"2750\"), or - for unrated."),
    MalformedFideId => ("W307", "malformed-fide-id", Warning,
        "A WhiteFideId or BlackFideId that is not a number.",
        "Write the FIDE ID as digits only, or leave the tag out."),
    MalformedTimeControl => ("W308", "malformed-time-control", Warning,
        "A TimeControl not in the PGN standard's form.",
        "Write TimeControl as 40/7200:3600, 5400+30, 300, *60, ? or -."),
    DateBeforeEvent => ("W309", "date-before-event", Warning,
        "A game's Date is before its EventDate (the first day of the event).",
        "Correct the Date or the EventDate."),
    SeveralEvents => ("W310", "several-events", Warning,
        "The input holds games of several events (Event tags differ); the list is in the message.",
        "Make the Event tags of one event equal, or check the events in separate runs."),
    SiteMismatch => ("W311", "site-mismatch", Warning,
        "A game's Site differs from the Site of most games of its event.",
        "Use the same Site for every game of the event."),
    // 4xx: pairings.
    PlayerTwiceInRound => ("E401", "player-twice-in-round", Error,
        "A player has two games in one round.",
        "Fix the Round tag or the player's name: a player plays once per round (in a match, give --event-format match)."),
    DuplicateGame => ("E402", "duplicate-game", Error,
        "The same game twice: equal moves, with the same players (either colour, or a spelling variant), or a long game copied under other names.",
        "Remove the copy, or restore the moves of the game it replaced."),
    DuplicateBoard => ("E403", "duplicate-board", Error,
        "Two games with the same round and board number.",
        "Fix the Round or Board tag: each board of a round holds one game."),
    TooManyMeetings => ("E404", "too-many-meetings", Error,
        "Two players meet more often than the event's format allows.",
        "Fix the Round tag or a player's name, or correct the event format."),
    RoundOutOfRange => ("E405", "round-out-of-range", Error,
        "A round number above the event's number of rounds.",
        "Fix the Round tag, or the number of rounds (--rounds, arbiter.toml)."),
    SelfPairing => ("E406", "self-pairing", Error,
        "A game whose White and Black are one player: the same name, or the same but for case, accents or punctuation.",
        "Correct the White or Black tag: a player cannot play themselves."),
    RepeatPairing => ("W411", "repeat-pairing", Warning,
        "Two players meet more than once (the event's format is not given), listed for review.",
        "Check the pairing; give the format (--event-format, --rounds, arbiter.toml) to have it checked."),
}

impl Code {
    /// The code for one of `validate`'s error kinds.
    pub fn of_error(kind: ErrorKind) -> Code {
        match kind {
            ErrorKind::IllegalMove => Code::IllegalMove,
            ErrorKind::AmbiguousMove => Code::AmbiguousMove,
            ErrorKind::MissingPromotion => Code::MissingPromotion,
            ErrorKind::NullMove => Code::NullMove,
            ErrorKind::UnparseableToken => Code::UnparseableToken,
            ErrorKind::BadFen => Code::BadFen,
            ErrorKind::UnterminatedComment => Code::UnterminatedComment,
            ErrorKind::UnterminatedVariation => Code::UnterminatedVariation,
            ErrorKind::MoveAfterResult => Code::MoveAfterResult,
            ErrorKind::VariationsTooDeep => Code::VariationsTooDeep,
            ErrorKind::GameTooLarge => Code::GameTooLarge,
        }
    }

    /// The code for one of `validate`'s warning kinds. `check` refines
    /// `empty_game` into [`Code::Forfeit`] when the result is decisive.
    pub fn of_warning(kind: WarningKind) -> Code {
        match kind {
            WarningKind::MissingTag => Code::MissingTag,
            WarningKind::MalformedTag => Code::MalformedTag,
            WarningKind::DuplicateTag => Code::DuplicateTag,
            WarningKind::ResultMismatch => Code::ResultMismatch,
            WarningKind::ImpossibleWin => Code::ImpossibleWin,
            WarningKind::CheckSuffix => Code::CheckSuffix,
            WarningKind::MoveNumber => Code::MoveNumber,
            WarningKind::NonstandardNotation => Code::NonstandardNotation,
            WarningKind::UnmatchedVariationEnd => Code::UnmatchedVariationEnd,
            WarningKind::StrayBytes => Code::StrayBytes,
            WarningKind::EmptyGame => Code::EmptyGame,
            WarningKind::UnsupportedVariant => Code::UnsupportedVariant,
        }
    }

    /// The code written as its code (`W203`, any case) or its name
    /// (`name-variant`).
    pub fn parse(text: &str) -> Option<Code> {
        let text = text.trim();
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.code().eq_ignore_ascii_case(text) || code.name() == text)
    }
}

/// Writes the code table as Markdown (`check --list-codes`; the user
/// guide's table).
pub fn write_table(wtr: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(wtr, "| code | name | severity | meaning | fix |")?;
    writeln!(wtr, "|---|---|---|---|---|")?;
    for code in Code::ALL {
        writeln!(
            wtr,
            "| {} | `{}` | {} | {} | {} |",
            code.code(),
            code.name(),
            code.severity().name(),
            code.what(),
            code.hint()
        )?;
    }
    wtr.flush()
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for &code in Code::ALL {
            assert!(codes.insert(code.code()), "{} twice", code.code());
            assert!(names.insert(code.name()), "{} twice", code.name());
            let (letter, number) = code.code().split_at(1);
            let expected = match code.severity() {
                Severity::Error => "E",
                Severity::Warning => "W",
            };
            assert_eq!(letter, expected, "{}", code.code());
            assert!(number.len() == 3 && number.bytes().all(|b| b.is_ascii_digit()));
            assert!(code.name().bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
            assert!(!code.hint().is_empty() && !code.what().is_empty());
        }
        // The number alone identifies a code, whatever its letter.
        let numbers: HashSet<&str> = Code::ALL.iter().map(|c| &c.code()[1..]).collect();
        assert_eq!(numbers.len(), Code::ALL.len());
    }

    #[test]
    fn every_validate_kind_has_its_code() {
        for &kind in ErrorKind::ALL {
            assert_eq!(Code::of_error(kind).name(), kind.name().replace('_', "-"));
        }
        for &kind in WarningKind::ALL {
            assert_eq!(Code::of_warning(kind).name(), kind.name().replace('_', "-"));
        }
    }

    #[test]
    fn codes_parse_from_code_or_name() {
        assert_eq!(Code::parse("W203"), Some(Code::NameVariant));
        assert_eq!(Code::parse("w203"), Some(Code::NameVariant));
        assert_eq!(Code::parse("name-variant"), Some(Code::NameVariant));
        assert_eq!(Code::parse("W999"), None);
    }

    /// The user guide (docs/GUIDE.md) lists every code with its name.
    #[test]
    fn readme_lists_every_code() {
        let readme = include_str!("../../docs/GUIDE.md");
        for &code in Code::ALL {
            let row = format!("| {} | `{}` |", code.code(), code.name());
            assert!(readme.contains(&row), "docs/GUIDE.md has no row `{row}`");
        }
    }
}
