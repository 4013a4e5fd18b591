//! Players' names as PGN writes them ("Surname, Firstname", initials,
//! accents or none), folded so that spellings of one name compare equal:
//! case, accents, punctuation and word order ignored; initials match the
//! names they abbreviate ("Carlsen,M" ~ "Magnus Carlsen"). `check` finds a
//! player's games with it, and `--player` selects them.

use unicode_normalization::UnicodeNormalization;

/// The words of a name, folded: lower case, accents removed, split at
/// anything that is not a letter or a digit. `"Carlsén, Magnus"` →
/// `["carlsen", "magnus"]`.
pub fn fold(name: &str) -> Vec<String> {
    if name.is_ascii() {
        // Nothing to decompose: letters and digits in lower case, the
        // rest separates words (the same words as below, faster).
        return name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
    }
    let mut folded = String::with_capacity(name.len());
    for c in name.nfd() {
        if is_combining_mark(c) {
            continue;
        }
        // Letters that do not decompose into a base letter and an accent.
        let plain = match c {
            'ø' | 'Ø' => "o",
            'ł' | 'Ł' => "l",
            'đ' | 'Đ' | 'ð' | 'Ð' => "d",
            'ß' => "ss",
            'æ' | 'Æ' => "ae",
            'œ' | 'Œ' => "oe",
            'þ' | 'Þ' => "th",
            'ı' => "i",
            c if c.is_alphanumeric() => {
                folded.extend(c.to_lowercase());
                continue;
            }
            _ => " ",
        };
        folded.push_str(plain);
    }
    folded.split_whitespace().map(str::to_owned).collect()
}

/// Unicode combining diacritical marks (the blocks NFD moves accents to).
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}' | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}' | '\u{20d0}'..='\u{20ff}' | '\u{fe20}'..='\u{fe2f}')
}

/// Names longer than this many words are only compared whole (matching
/// initials word by word is exponential in the number of words).
const MAX_WORDS: usize = 8;

/// Whether two folded names can be one person's: the shorter has at least
/// two words, each matching a distinct word of the longer either exactly
/// or as its initial, and at least one word of two letters or more matches
/// exactly. A whole word of the shorter may stand for an initial of the
/// longer only when every whole word of the longer is matched too
/// (`Kasparov, G. K.` ~ `Garry Kasparov`, but `Brooks, Michael A` is not
/// `Adams, Michael`). Equal names after sorting their words are one
/// person's too.
pub fn compatible(a: &[String], b: &[String]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // (Word lists of different lengths are never the same words.)
    if short.len() == long.len() && sorted(short) == sorted(long) {
        return !short.is_empty();
    }
    if short.len() < 2 || long.len() > MAX_WORDS {
        return false;
    }
    assign(short, long, &mut [false; MAX_WORDS], false, false)
}

/// Backtracking match of the words of `rest` to unused words of `long`;
/// `exact` once a whole word matched itself, `widened` once a whole word
/// matched an initial.
fn assign(
    rest: &[String],
    long: &[String],
    used: &mut [bool; MAX_WORDS],
    exact: bool,
    widened: bool,
) -> bool {
    let whole = |w: &str| w.chars().nth(1).is_some();
    let Some((word, rest)) = rest.split_first() else {
        // An initial of the longer name stood for a whole word: its whole
        // words must all be someone's.
        return exact && (!widened || long.iter().zip(used.iter()).all(|(w, &u)| u || !whole(w)));
    };
    for (j, other) in long.iter().enumerate() {
        if used[j] {
            continue;
        }
        let same = word == other;
        let initial = |i: &str, full: &str| {
            let mut chars = i.chars();
            chars.next().is_some_and(|c| chars.next().is_none() && full.starts_with(c))
        };
        if same || initial(word, other) || initial(other, word) {
            used[j] = true;
            let exact = exact || (same && whole(word));
            let widened = widened || (!same && whole(word) && initial(other, word));
            if assign(rest, long, used, exact, widened) {
                return true;
            }
            used[j] = false;
        }
    }
    false
}

/// The words of a folded name in order: equal for the same words in any order.
pub fn sorted(words: &[String]) -> Vec<&str> {
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
    words.sort_unstable();
    words
}

/// Whether two names as written can be one person's.
pub fn same_person(a: &str, b: &str) -> bool {
    compatible(&fold(a), &fold(b))
}
