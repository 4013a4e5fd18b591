//! `arbiter.toml`: the optional configuration of `check` and `validate`.
//!
//! ```toml
//! [validate]
//! disable = ["W301"]                   # codes or names, as --disable
//!
//! [check]
//! disable = ["W122", "check-suffix"]   # codes or names
//! deny-warnings = true                 # as --deny warnings
//!
//! [event]
//! format = "round-robin"   # swiss, round-robin, double-round-robin, match
//! rounds = 9
//! ```
//!
//! Input: the file's text (the command reads it); output: [`Config`].
//! Unknown keys and unknown codes are errors, so a typo does not silently
//! turn a check off.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::EventFormat;
use crate::diagnostic::codes::Code;

/// The name looked up in the current directory when `--config` is not
/// given.
pub const FILE_NAME: &str = "arbiter.toml";

/// A parsed configuration file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The `[validate]` table.
    #[serde(default)]
    pub validate: ValidateTable,
    /// The `[check]` table.
    #[serde(default)]
    pub check: CheckTable,
    /// The `[event]` table.
    #[serde(default)]
    pub event: EventTable,
}

/// `[check]`: which findings count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CheckTable {
    /// Codes (`W122`) or names (`move-number`) not reported.
    #[serde(default)]
    pub disable: Vec<String>,
    /// Warnings make `check` fail too.
    #[serde(default)]
    pub deny_warnings: bool,
}

/// `[validate]`: which findings `validate` leaves out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ValidateTable {
    /// Codes (`W301`) or names (`missing-tag`) not reported, as
    /// `validate --disable`.
    #[serde(default)]
    pub disable: Vec<String>,
}

/// `[event]`: what the event is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventTable {
    /// The pairing system.
    pub format: Option<EventFormat>,
    /// The number of rounds.
    pub rounds: Option<u32>,
}

/// What is wrong with a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Not TOML, or not the expected tables and keys.
    #[error(transparent)]
    Syntax(#[from] toml::de::Error),
    /// A code or name in a `disable` list (of the table named first) that
    /// does not exist.
    #[error("unknown code \"{1}\" in {0}.disable (see arbiter check --list-codes)")]
    UnknownCode(&'static str, String),
}

impl Config {
    /// Parses the text of a configuration file.
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text)?;
        config.disabled()?;
        config.validate_disabled()?;
        Ok(config)
    }

    /// The codes `[check]`'s `disable` names.
    pub fn disabled(&self) -> Result<BTreeSet<Code>, ConfigError> {
        codes("check", &self.check.disable)
    }

    /// The codes `[validate]`'s `disable` names.
    pub fn validate_disabled(&self) -> Result<BTreeSet<Code>, ConfigError> {
        codes("validate", &self.validate.disable)
    }
}

/// The codes of the `disable` list of `table`.
fn codes(table: &'static str, list: &[String]) -> Result<BTreeSet<Code>, ConfigError> {
    list.iter()
        .map(|text| Code::parse(text).ok_or_else(|| ConfigError::UnknownCode(table, text.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_configuration() {
        let config = Config::parse(
            "[validate]\ndisable = [\"missing-tag\"]\n\
             [check]\ndisable = [\"W122\", \"check-suffix\"]\ndeny-warnings = true\n\
             [event]\nformat = \"double-round-robin\"\nrounds = 18\n",
        );
        let config = config.unwrap_or_else(|e| panic!("{e}"));
        assert!(config.check.deny_warnings);
        assert_eq!(config.event.format, Some(EventFormat::DoubleRoundRobin));
        assert_eq!(config.event.rounds, Some(18));
        let disabled = config.disabled().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(disabled, BTreeSet::from([Code::MoveNumber, Code::CheckSuffix]));
        let disabled = config.validate_disabled().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(disabled, BTreeSet::from([Code::MissingTag]));
    }

    #[test]
    fn typos_are_errors() {
        assert!(Config::parse("").is_ok());
        assert!(Config::parse("[check]\ndisabled = []\n").is_err());
        assert!(Config::parse("[event]\nformat = \"swiss-system\"\n").is_err());
        let error = Config::parse("[check]\ndisable = [\"W999\"]\n").err();
        assert!(matches!(error, Some(ConfigError::UnknownCode("check", code)) if code == "W999"));
        let error = Config::parse("[validate]\ndisable = [\"nope\"]\n").err();
        assert!(
            matches!(error, Some(ConfigError::UnknownCode("validate", code)) if code == "nope")
        );
    }
}
