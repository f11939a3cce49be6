//! Which side of a number succeeds, and the margin towards success: the one idea the records,
//! the accounts and the judging in `compare` share, kept below all three.

use serde::{Deserialize, Serialize};

/// Which side of a number succeeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// At least the number (a tie succeeds): the common target number.
    #[default]
    Reach,
    /// More than the number (a tie fails): vigor's Guard, 10acity's challenge rating.
    Exceed,
    /// At most the number (a tie succeeds): a roll-under check such as Tiny d10's morale.
    AtMost,
    /// Less than the number (a tie fails).
    Below,
}

impl Direction {
    /// How far `total` lands on the good side of `line`: 0 is exactly on it.
    pub fn margin(self, total: i64, line: i64) -> i64 {
        match self {
            Direction::Reach | Direction::Exceed => total.saturating_sub(line),
            Direction::AtMost | Direction::Below => line.saturating_sub(total),
        }
    }

    /// Whether a roll `margin` away from the line succeeds.
    pub fn succeeds(self, margin: i64) -> bool {
        match self {
            Direction::Reach | Direction::AtMost => margin >= 0,
            Direction::Exceed | Direction::Below => margin > 0,
        }
    }

    /// Whether a tie with the line succeeds.
    pub fn tie_succeeds(self) -> bool {
        self.succeeds(0)
    }
}
