//! The start position a game's tags ask for: standard chess, Chess960 or
//! one of lichess's variants (`Variant`), from the initial position or a
//! `FEN` tag, accepted as python-chess accepts it. Takes tag values as
//! text and gives a position, or the warning or error the values call for.

use std::borrow::Cow;

use shakmaty::{
    CastlingMode, Chess, FromSetup, PositionError, PositionErrorKinds,
    fen::Fen,
    variant::{Variant, VariantPosition},
};

use crate::record::{ErrorKind, GameError, Warning, WarningKind, quoted};

/// The position a game starts from.
pub enum Setup {
    /// Standard chess or Chess960.
    Chess(Chess),
    /// One of lichess's variants.
    Variant(VariantPosition),
    /// A variant arbiter does not know: its moves are not replayed.
    Unsupported,
    /// A `FEN` tag that is no legal start position.
    BadFen(GameError),
}

/// What the `Variant` tag asks for.
enum Rules {
    Standard,
    Chess960,
    Lichess(Variant),
    Unknown(String),
}

fn rules_of(tag: Option<&str>) -> Rules {
    let Some(tag) = tag else { return Rules::Standard };
    let key: String =
        tag.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Rules::Standard,
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Rules::Chess960,
        "atomic" => Rules::Lichess(Variant::Atomic),
        "antichess" | "giveaway" | "suicide" => Rules::Lichess(Variant::Antichess),
        "kingofthehill" | "koth" => Rules::Lichess(Variant::KingOfTheHill),
        "threecheck" | "3check" => Rules::Lichess(Variant::ThreeCheck),
        "crazyhouse" => Rules::Lichess(Variant::Crazyhouse),
        "racingkings" => Rules::Lichess(Variant::RacingKings),
        "horde" => Rules::Lichess(Variant::Horde),
        _ => Rules::Unknown(tag.to_owned()),
    }
}

/// Whether a game of `Variant` tag `tag` is chess or Chess960: whose
/// positions are chess positions (`--fen`, `tree`, `db find`).
pub fn is_chess(tag: Option<&str>) -> bool {
    matches!(rules_of(tag), Rules::Standard | Rules::Chess960)
}

/// The variant a `Variant` tag stands for, by the name records give it
/// (`chess`, `chess960`, `atomic`, `3check`...); a variant arbiter does not
/// know by its own name, in lower case.
pub fn variant_name(tag: Option<&str>) -> Cow<'static, str> {
    match rules_of(tag) {
        Rules::Standard => "chess".into(),
        Rules::Chess960 => "chess960".into(),
        Rules::Lichess(variant) => variant.uci().into(),
        Rules::Unknown(name) => name.trim().to_lowercase().into(),
    }
}

/// Sets up the start position from the `Variant` and `FEN` tags; returns
/// the variant's name too.
pub fn start_position(
    variant: Option<&str>,
    fen_tag: Option<&str>,
    line_of_fen: impl Fn() -> u64,
    warnings: &mut Vec<Warning>,
    line: u64,
) -> (Cow<'static, str>, Setup) {
    let rules = rules_of(variant);
    let bad_fen = |error: &dyn std::fmt::Display| bad_fen(fen_tag, error, line_of_fen());
    let fen = match fen_tag.map(|fen| Fen::from_ascii(fen.trim().as_bytes())) {
        None => None,
        Some(Ok(fen)) => Some(fen),
        Some(Err(error)) => return ("chess".into(), bad_fen(&error)),
    };
    match rules {
        Rules::Unknown(name) => {
            warnings.push(Warning {
                kind: WarningKind::UnsupportedVariant,
                message: format!(
                    "variant \"{}\" is not supported: its moves were not checked",
                    quoted(name.as_bytes())
                )
                .into(),
                line,
            });
            (quoted(name.as_bytes()).into(), Setup::Unsupported)
        }
        Rules::Lichess(variant) => {
            let pos = match fen {
                None => Ok(VariantPosition::new(variant)),
                Some(fen) => {
                    let mode = CastlingMode::detect(&fen.as_setup().clone());
                    lenient(
                        VariantPosition::from_setup(variant, fen.into_setup(), mode),
                        warnings,
                        line,
                    )
                }
            };
            let name = variant.uci().into();
            match pos {
                Ok(pos) => (name, Setup::Variant(pos)),
                Err(error) => (name, bad_fen(&error)),
            }
        }
        Rules::Standard | Rules::Chess960 => {
            let chess960 = matches!(rules, Rules::Chess960);
            let pos = match fen {
                None => Ok(Chess::default()),
                Some(fen) => {
                    let setup = fen.into_setup();
                    let mode = if chess960 {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::detect(&setup)
                    };
                    lenient(Chess::from_setup(setup, mode), warnings, line)
                }
            };
            let name = if chess960 { "chess960" } else { "chess" }.into();
            match pos {
                Ok(pos) => (name, Setup::Chess(pos)),
                Err(error) => (name, bad_fen(&error)),
            }
        }
    }
}

/// Accepts a FEN position whose castling rights or en passant square cannot
/// be right, or that has more material than a game could reach (lichess
/// "From Position" games may start anywhere), as python-chess does, with a
/// warning; rejects anything else (no king, a pawn on the back rank, the
/// side not to move in check, ...).
fn lenient<P>(
    pos: Result<P, PositionError<P>>,
    warnings: &mut Vec<Warning>,
    line: u64,
) -> Result<P, PositionError<P>> {
    let fixable = PositionErrorKinds::INVALID_CASTLING_RIGHTS
        | PositionErrorKinds::INVALID_EP_SQUARE
        | PositionErrorKinds::TOO_MUCH_MATERIAL;
    match pos {
        Err(error) if fixable.contains(error.kinds()) => {
            warnings.push(Warning {
                kind: WarningKind::MalformedTag,
                message: format!("FEN: {error}; accepted as set up").into(),
                line,
            });
            error
                .ignore_invalid_castling_rights()
                .or_else(PositionError::ignore_invalid_ep_square)
                .or_else(PositionError::ignore_too_much_material)
        }
        other => other,
    }
}

fn bad_fen(fen: Option<&str>, error: &dyn std::fmt::Display, line: u64) -> Setup {
    Setup::BadFen(GameError {
        kind: ErrorKind::BadFen,
        san: quoted(fen.unwrap_or_default().as_bytes()),
        fen: String::new(),
        line,
        message: format!("bad FEN: {error}"),
        reason: None,
        excerpt: None,
    })
}
