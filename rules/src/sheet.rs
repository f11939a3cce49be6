//! Character sheets: the per-system sheet type carried by a combatant, and the error every
//! loader returns. Sheets arrive as TOML files (players, GMs) or as the same schema in JSON
//! (the calculator's requests); both go through serde into the system's typed sheet and then
//! through the system's validation, so an error always names the field and the rule.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::grimwire;

/// The typed sheet of one system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case")]
pub enum SystemSheet {
    /// Shared, because `decide` copies combatants often and the sheet never changes in play.
    Grimwire(Arc<grimwire::Sheet>),
    /// Named numbers only, for systems defined outside this crate (the interface tests).
    Generic { stats: BTreeMap<String, i64> },
}

impl SystemSheet {
    /// The sheet as TOML, in the schema it was loaded from (for showing it to those who may
    /// see it).
    pub fn to_toml(&self) -> Option<String> {
        match self {
            SystemSheet::Grimwire(s) => toml::to_string(&**s).ok(),
            SystemSheet::Generic { stats } => toml::to_string(stats).ok(),
        }
    }

    /// A number from a generic sheet; 0 when absent.
    pub fn generic_stat(&self, key: &str) -> i64 {
        match self {
            SystemSheet::Generic { stats } => stats.get(key).copied().unwrap_or(0),
            SystemSheet::Grimwire(_) => 0,
        }
    }
}

/// Why a sheet was refused: the field (a dotted path such as `attributes.COR` or
/// `weapons[1].damage`) and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// The text is not valid TOML/JSON or does not have the schema's shape (a missing field,
    /// a string where a number goes). The message comes from the parser and names the field.
    #[error("sheet does not match the schema: {0}")]
    Syntax(String),
    /// The shape is right but a value breaks a rule of the system.
    #[error("`{field}`: {rule}")]
    Invalid { field: String, rule: String },
}

impl SheetError {
    pub fn invalid(field: impl Into<String>, rule: impl Into<String>) -> Self {
        SheetError::Invalid {
            field: field.into(),
            rule: rule.into(),
        }
    }
}
