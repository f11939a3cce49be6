//! Table options: the house rules a GM fixes when creating a table. Every point where a text is
//! silent or contradicts itself gets one, with a documented default, so the server never
//! guesses and the choice is recorded with the table.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::grid::Diagonal;

/// A value of a table option. Integers only: no floats in rule state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Choice(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Choice(s) => f.write_str(s),
        }
    }
}

/// What values an option accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    Bool,
    Int { min: i64, max: i64 },
    Choice { choices: Vec<&'static str> },
}

/// One documented option: its key, what it decides, its default and the values it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    pub key: &'static str,
    pub help: &'static str,
    pub kind: OptionKind,
    pub default: OptionValue,
}

/// Why a set of options was refused. The key is always named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown table option `{key}`; `tablehold rules options --system ID` lists them")]
    Unknown { key: String },
    #[error("table option `{key}` must be {expected}, got `{got}`")]
    BadValue {
        key: String,
        expected: String,
        got: String,
    },
}

/// Options shared by every system.
pub fn common_options() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            key: "grid.diagonal",
            help: "How a diagonal step on the grid counts: one cell, alternating 1-2-1, or two cells.",
            kind: OptionKind::Choice {
                choices: vec!["one", "alternating", "two"],
            },
            default: OptionValue::Choice("alternating".into()),
        },
        OptionSpec {
            key: "decision.timeout_ms",
            help: "How long a seat has to answer a mid-action prompt before its default applies.",
            kind: OptionKind::Int {
                min: 100,
                max: 3_600_000,
            },
            default: OptionValue::Int(60_000),
        },
    ]
}

/// A full, validated set of option values: every known key present.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableOptions(pub BTreeMap<String, OptionValue>);

impl TableOptions {
    /// Fills in defaults and checks every given value against `specs`.
    pub fn resolve(
        specs: &[OptionSpec],
        given: &BTreeMap<String, OptionValue>,
    ) -> Result<TableOptions, OptionError> {
        for key in given.keys() {
            if !specs.iter().any(|s| s.key == key) {
                return Err(OptionError::Unknown { key: key.clone() });
            }
        }
        let mut out = BTreeMap::new();
        for spec in specs {
            let value = match given.get(spec.key) {
                None => spec.default.clone(),
                Some(v) => check(spec, v)?,
            };
            out.insert(spec.key.to_owned(), value);
        }
        Ok(TableOptions(out))
    }

    pub fn int(&self, key: &str) -> Option<i64> {
        match self.0.get(key) {
            Some(OptionValue::Int(i)) => Some(*i),
            _ => None,
        }
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.0.get(key) {
            Some(OptionValue::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    pub fn choice(&self, key: &str) -> Option<&str> {
        match self.0.get(key) {
            Some(OptionValue::Choice(s)) => Some(s),
            _ => None,
        }
    }

    /// The diagonal rule, falling back to the documented default if the key is absent.
    pub fn diagonal(&self) -> Diagonal {
        self.choice("grid.diagonal")
            .and_then(Diagonal::parse)
            .unwrap_or(Diagonal::Alternating)
    }

    pub fn decision_timeout_ms(&self) -> u64 {
        self.int("decision.timeout_ms")
            .and_then(|v| u64::try_from(v).ok())
            .unwrap_or(60_000)
    }
}

fn check(spec: &OptionSpec, value: &OptionValue) -> Result<OptionValue, OptionError> {
    let bad = |expected: String| OptionError::BadValue {
        key: spec.key.to_owned(),
        expected,
        got: value.to_string(),
    };
    match (&spec.kind, value) {
        (OptionKind::Bool, OptionValue::Bool(_)) => Ok(value.clone()),
        (OptionKind::Int { min, max }, OptionValue::Int(i)) if (min..=max).contains(&i) => {
            Ok(value.clone())
        }
        (OptionKind::Choice { choices }, OptionValue::Choice(c))
            if choices.iter().any(|k| k == c) =>
        {
            Ok(value.clone())
        }
        (OptionKind::Bool, _) => Err(bad("true or false".into())),
        (OptionKind::Int { min, max }, _) => Err(bad(format!("an integer in {min}..={max}"))),
        (OptionKind::Choice { choices }, _) => Err(bad(format!("one of {}", choices.join(", ")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_in_and_bad_values_name_the_key() {
        let specs = common_options();
        let opts = TableOptions::resolve(&specs, &BTreeMap::new()).unwrap();
        assert_eq!(opts.diagonal(), Diagonal::Alternating);
        assert_eq!(opts.decision_timeout_ms(), 60_000);

        let mut given = BTreeMap::new();
        given.insert(
            "grid.diagonal".to_owned(),
            OptionValue::Choice("hex".into()),
        );
        let err = TableOptions::resolve(&specs, &given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "table option `grid.diagonal` must be one of one, alternating, two, got `hex`"
        );

        let mut given = BTreeMap::new();
        given.insert("grid.diagonals".to_owned(), OptionValue::Bool(true));
        assert!(matches!(
            TableOptions::resolve(&specs, &given),
            Err(OptionError::Unknown { key }) if key == "grid.diagonals"
        ));
    }
}
