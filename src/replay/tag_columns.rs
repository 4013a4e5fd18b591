//! `games --tags`: the tags a user names (or all of them), picked from each
//! game for the sinks to write after the record's fields.
//!
//! The record (`GameRecord`, the published schema) does not grow: the
//! [`TagColumns`] observer reads the values from the game's tags at its end
//! and hands them to the sink beside the record, as [`TagValues`]. Each
//! tag becomes a field named [`key`]`(name)`, `tag_` and the name as
//! written: the prefix keeps `tag_Event` apart from the record's `event`
//! in tools whose column names ignore case (DuckDB, SQL in general).

use std::{borrow::Cow, collections::HashSet};

use super::observer::{GameEnd, Observer};

/// The prefix of a tag's field name.
pub const PREFIX: &str = "tag_";

/// The field name of tag `name`: [`PREFIX`] and the name as written.
pub fn key(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// Which tags `--tags` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TagSelection {
    /// These tags, in this order: the same fields for every game, null
    /// where a game has no such tag.
    Named(Vec<String>),
    /// Every tag each game has: fields that differ from game to game.
    All,
}

impl TagSelection {
    /// Reads `--tags`: `all`, or tag names separated by commas (spaces
    /// around a name are dropped, as a tag name has none).
    ///
    /// Names are matched as written, case included, as PGN tag names are.
    /// A name must be a PGN symbol (letters, digits and `_+#=:-`), so that
    /// the CSV header needs no quoting and a slip (`Site;ECO`, a quote) is
    /// told rather than matching nothing; `all` stands alone, and a name
    /// may not be given twice (two columns of one name).
    pub fn parse(text: &str) -> Result<TagSelection, String> {
        if text.trim() == "all" {
            return Ok(TagSelection::All);
        }
        let mut names: Vec<String> = Vec::new();
        for name in text.split(',').map(str::trim) {
            if name.is_empty() {
                return Err(format!("an empty tag name in {text:?}"));
            }
            if name == "all" {
                return Err("`all` asks for every tag: give it alone, or name the tags".into());
            }
            if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b)) {
                return Err(format!(
                    "{name:?} is not a tag name (letters, digits and _+#=:- only)"
                ));
            }
            if names.iter().any(|n| n == name) {
                return Err(format!("{name} is named twice"));
            }
            names.push(name.to_owned());
        }
        Ok(TagSelection::Named(names))
    }
}

/// Picks the selected tags' values from each game (`games --tags`).
#[derive(Debug, Clone)]
pub struct TagColumns {
    selection: TagSelection,
    /// The size of the previous game's values: the next game's are most
    /// likely the same size, so each is allocated once.
    last: (usize, usize),
}

impl TagColumns {
    /// An observer picking the tags of `selection`.
    pub fn new(selection: TagSelection) -> TagColumns {
        TagColumns { selection, last: (0, 0) }
    }
}

impl Observer for TagColumns {
    type Output = TagValues;

    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> TagValues {
        let tags = game.tags;
        let mut values = TagValues {
            text: String::with_capacity(self.last.0),
            ends: Vec::with_capacity(self.last.1),
        };
        match &self.selection {
            TagSelection::Named(names) => {
                for name in names {
                    // The first value counts, as it does for the record's tags.
                    values.push(name, tags.first(name).as_deref());
                }
            }
            TagSelection::All => {
                // One field per name, for its first value: a JSON object
                // has no duplicate keys. Names are compared once decoded,
                // as two names of invalid UTF-8 may decode alike; only
                // games where that or a repeated name can happen pay for
                // the set (which also keeps a game of a hundred thousand
                // tags linear).
                let plain = tags.duplicates.is_empty()
                    && tags.pairs().all(|(name, _)| std::str::from_utf8(name).is_ok());
                let mut seen: HashSet<Cow<'_, str>> = HashSet::new();
                for (name, value) in tags.iter() {
                    if plain || seen.insert(name.clone()) {
                        values.push(&name, Some(&value));
                    }
                }
            }
        }
        self.last = (values.text.len(), values.ends.len());
        values
    }
}

/// One game's values of the selected tags, in field order, each with its
/// tag's name: for `--tags LIST` every name of the list (a value of `None`
/// where the game has no such tag), for `--tags all` every tag of the game.
/// Names and values share one buffer: two allocations a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagValues {
    text: String,
    /// Each tag: where its name ends (and its value starts), and where its
    /// value ends (`None`: no value, the next name starts there).
    ends: Vec<(usize, Option<usize>)>,
}

impl TagValues {
    /// Appends a tag: its name and its value, if the game has one.
    pub fn push(&mut self, name: &str, value: Option<&str>) {
        self.text.push_str(name);
        let name_end = self.text.len();
        let value_end = value.map(|value| {
            self.text.push_str(value);
            self.text.len()
        });
        self.ends.push((name_end, value_end));
    }

    /// The tags in field order, as `(name, value)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, Option<&str>)> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let name = &self.text[start..name_end];
            let value = value_end.map(|end| &self.text[name_end..end]);
            start = value_end.unwrap_or(name_end);
            (name, value)
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{replay::ReplayOptions, testing::replay_with};

    /// What `selection` picks from each game of `pgn`.
    fn picked(pgn: &str, selection: &str) -> Vec<Vec<(String, Option<String>)>> {
        let selection = TagSelection::parse(selection).unwrap();
        let mut observer = TagColumns::new(selection);
        replay_with(pgn, ReplayOptions::default(), &mut observer)
            .into_iter()
            .map(|(_, values)| {
                values
                    .iter()
                    .map(|(name, value)| (name.to_owned(), value.map(str::to_owned)))
                    .collect()
            })
            .collect()
    }

    fn pairs(list: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
        list.iter().map(|&(n, v)| (n.to_owned(), v.map(str::to_owned))).collect()
    }

    const GAMES: &str = "[Event \"E\"]\n[Site \"https://lichess.org/abc\"]\n[WhiteElo \"1500\"]\n\
        [WhiteElo \"1600\"]\n[Opening \"\"]\n\n1. e4 e5 *\n\n\
        [Event \"F\"]\n[whiteelo \"1700\"]\n\n1. d4 *\n";

    #[test]
    fn named_tags_in_the_order_named_first_value_case_sensitive() {
        let games = picked(GAMES, "WhiteElo, Site,Opening,ECO");
        assert_eq!(
            games,
            [
                pairs(&[
                    ("WhiteElo", Some("1500")),
                    ("Site", Some("https://lichess.org/abc")),
                    ("Opening", Some("")),
                    ("ECO", None),
                ]),
                // `whiteelo` is another tag than `WhiteElo`.
                pairs(&[("WhiteElo", None), ("Site", None), ("Opening", None), ("ECO", None)]),
            ]
        );
    }

    #[test]
    fn all_tags_once_each_in_file_order() {
        let games = picked(GAMES, "all");
        assert_eq!(
            games,
            [
                pairs(&[
                    ("Event", Some("E")),
                    ("Site", Some("https://lichess.org/abc")),
                    ("WhiteElo", Some("1500")),
                    ("Opening", Some("")),
                ]),
                pairs(&[("Event", Some("F")), ("whiteelo", Some("1700"))]),
            ]
        );
    }

    #[test]
    fn all_tags_names_that_decode_alike_give_one_field() {
        // Two names of invalid UTF-8 that both decode to "A\u{fffd}".
        let pgn = b"[A\xff \"1\"]\n[A\xfe \"2\"]\n[B \"3\"]\n\n1. e4 *\n";
        let mut observer = TagColumns::new(TagSelection::All);
        let games = replay_with(pgn, ReplayOptions::default(), &mut observer);
        let names: Vec<&str> = games[0].1.iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["A\u{fffd}", "B"]);
        assert_eq!(games[0].1.iter().next().unwrap().1, Some("1"));
    }

    #[test]
    fn values_keep_names_and_missing_values_apart() {
        let mut values = TagValues::default();
        values.push("A", None);
        values.push("B", Some(""));
        values.push("C", Some("x,\"y\""));
        values.push("D", None);
        let list: Vec<_> = values.iter().collect();
        assert_eq!(list, [("A", None), ("B", Some("")), ("C", Some("x,\"y\"")), ("D", None)]);
        assert_eq!(values.len(), 4);
    }

    #[test]
    fn parse_names_all_and_mistakes() {
        assert_eq!(TagSelection::parse("all"), Ok(TagSelection::All));
        assert_eq!(
            TagSelection::parse("Site, WhiteElo"),
            Ok(TagSelection::Named(vec!["Site".into(), "WhiteElo".into()]))
        );
        // `All` is a tag name like any other.
        assert_eq!(TagSelection::parse("All"), Ok(TagSelection::Named(vec!["All".into()])));
        for bad in ["", "Site,", "Site,,ECO", "Site,all", "Site;ECO", "Sit\"e", "A B", "ECO,ECO"] {
            assert!(TagSelection::parse(bad).is_err(), "{bad:?} accepted");
        }
    }
}
