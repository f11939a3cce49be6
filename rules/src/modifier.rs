//! A labelled number: one term of a total (`COR +3`, `burnout -1`), one step of a damage figure
//! (`armour -1`), one thing left of a turn (`action 1`). Shared by events and accounts.

use serde::{Deserialize, Serialize};

/// A labelled number that went into a total: `COR +3`, `burnout -1`, `range -5`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub label: String,
    pub value: i64,
}

impl Modifier {
    pub fn new(label: impl Into<String>, value: i64) -> Self {
        Modifier {
            label: label.into(),
            value,
        }
    }
}
