//! Mid-action decisions as data. A half-resolved action is a [`PendingStep`]: which rule step
//! it stopped at, what it has already drawn, who may decide, the choices and the default. It is
//! serializable so it lives in the state (and the log) rather than in a suspended function, and
//! a server restart or a replay resumes it exactly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::grid::Cell;
use crate::ids::{EntityId, Seat};

/// A value carried by a pending step. A closed set of exact types (no floats, no free JSON) so
/// steps compare and digest exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepValue {
    Int(i64),
    Flag(bool),
    Text(String),
    Entity(EntityId),
    Entities(Vec<EntityId>),
    Cell(Cell),
    Roll(Box<Roll>),
}

/// A half-resolved action waiting for a choice (or, when deferred, for a trigger).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingStep {
    pub prompt_id: u64,
    /// The rule step to resume, namespaced by system, e.g. `grimwire.collateral.spare`.
    pub rule: String,
    /// The character whose action this is, if any.
    pub actor: Option<EntityId>,
    /// Seats that may answer. The GM may always answer in their place (an override).
    pub seats: Vec<Seat>,
    /// What to ask, in words, for the deciding seat's screen.
    pub question: String,
    pub options: Vec<String>,
    /// Applied when nobody answers in time. Always one of `options`.
    pub default: String,
    pub timeout_ms: u64,
    /// For deferred steps: the trigger that resumes them (e.g. `after_side:enemies`).
    pub trigger: Option<String>,
    pub data: BTreeMap<String, StepValue>,
}

impl PendingStep {
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.data.get(key) {
            Some(StepValue::Int(i)) => Some(*i),
            _ => None,
        }
    }
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.data.get(key) {
            Some(StepValue::Flag(b)) => Some(*b),
            _ => None,
        }
    }
    pub fn text(&self, key: &str) -> Option<&str> {
        match self.data.get(key) {
            Some(StepValue::Text(s)) => Some(s),
            _ => None,
        }
    }
    pub fn entity(&self, key: &str) -> Option<&EntityId> {
        match self.data.get(key) {
            Some(StepValue::Entity(e)) => Some(e),
            _ => None,
        }
    }
    pub fn entities(&self, key: &str) -> Option<&[EntityId]> {
        match self.data.get(key) {
            Some(StepValue::Entities(e)) => Some(e),
            _ => None,
        }
    }
    pub fn roll(&self, key: &str) -> Option<&Roll> {
        match self.data.get(key) {
            Some(StepValue::Roll(r)) => Some(r),
            _ => None,
        }
    }

    /// Whether `seat` may answer this prompt. The GM always may: a GM override.
    pub fn may_answer(&self, seat: &Seat) -> bool {
        seat.is_gm() || self.seats.contains(seat)
    }
}

/// How a prompt was closed; logged with the choice so a replay knows who decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolver {
    /// One of the eligible seats answered.
    Seat(Seat),
    /// The GM answered in an eligible seat's place.
    GmOverride,
    /// Nobody answered within the timeout; the default was applied.
    TimedOut,
}
