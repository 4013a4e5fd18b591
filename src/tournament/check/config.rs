//! `arbiter.toml`: the optional configuration of `check`.
//!
//! ```toml
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
    #[error("{0}")]
    Syntax(#[from] toml::de::Error),
    /// A code or name in `disable` that does not exist.
    #[error("unknown code \"{0}\" in check.disable (see arbiter check --list-codes)")]
    UnknownCode(String),
}

impl Config {
    /// Parses the text of a configuration file.
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text)?;
        config.disabled()?;
        Ok(config)
    }

    /// The codes `disable` names.
    pub fn disabled(&self) -> Result<BTreeSet<Code>, ConfigError> {
        self.check
            .disable
            .iter()
            .map(|text| Code::parse(text).ok_or_else(|| ConfigError::UnknownCode(text.clone())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_configuration() {
        let config = Config::parse(
            "[check]\ndisable = [\"W122\", \"check-suffix\"]\ndeny-warnings = true\n\
             [event]\nformat = \"double-round-robin\"\nrounds = 18\n",
        );
        let config = config.unwrap_or_else(|e| panic!("{e}"));
        assert!(config.check.deny_warnings);
        assert_eq!(config.event.format, Some(EventFormat::DoubleRoundRobin));
        assert_eq!(config.event.rounds, Some(18));
        let disabled = config.disabled().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(disabled, BTreeSet::from([Code::MoveNumber, Code::CheckSuffix]));
    }

    #[test]
    fn typos_are_errors() {
        assert!(Config::parse("").is_ok());
        assert!(Config::parse("[check]\ndisabled = []\n").is_err());
        assert!(Config::parse("[event]\nformat = \"swiss-system\"\n").is_err());
        let error = Config::parse("[check]\ndisable = [\"W999\"]\n").err();
        assert!(matches!(error, Some(ConfigError::UnknownCode(code)) if code == "W999"));
    }
}
