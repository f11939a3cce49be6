//! Turn structures as data: who may act now, as a set, whatever the system's shape of turns.
//!
//! - **Individual** turns (GRIMWIRE, Tiny d10): one combatant at a time, in an order the system
//!   keeps (`Encounter::order`, rewritten per round if it re-rolls). `TurnStarted` sets it.
//! - **Group** turns (mist's sides): the members of one group act in any order, each once,
//!   until all have; the system then opens the next group's turn.
//! - **Spotlight** (10acity): one combatant holds it; whoever acted hands it on, within the
//!   system's constraints.
//!
//! Held actions (a delayed or readied action) are kept beside the shape: who holds one, so that
//! the system can offer them a window when what they wait for happens.
//!
//! This is the data, below the state that holds it; moving turns on and checking them is
//! `toolkit::turns`.

use serde::{Deserialize, Serialize};

use crate::ids::EntityId;

/// How turns pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnShape {
    #[default]
    Individual,
    Group,
    Spotlight,
}

/// Who may act now and who has acted, as the encounter holds it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Turns {
    #[serde(default)]
    pub shape: TurnShape,
    /// The group whose turn it is, in the system's words (a side's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Who may act now, in the order the system gave.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub now: Vec<EntityId>,
    /// Who has acted since the round (or the group's turn) began.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<EntityId>,
    /// Who holds an action back to interrupt with later.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<EntityId>,
}
