//! The interface every rule system implements, and the registry of shipped systems: the only
//! place outside a system's own module that names it.

use std::fmt;
use std::str::FromStr;

use crate::action::{ActionSpec, Args};
use crate::decision::PendingStep;
use crate::engine::{Ctx, DecideError};
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::sheet::SheetError;
use crate::state::{Combatant, StateView};

/// One rule system. Implementations hold no state: everything lives in the table state.
pub trait RuleSystem: Sync {
    /// The stable id used on the wire and in logs.
    fn id(&self) -> &'static str;

    /// Every table option, shared ones included, with its default.
    fn options(&self) -> Vec<OptionSpec>;

    /// The resources a GM ruling may set, with their bounds. Empty (the default) means any
    /// name and any value within the argument limits.
    fn resources(&self) -> Vec<ResourceSpec> {
        Vec::new()
    }

    /// Follows a GM ruling that set `resource` of `target` from `from` to `to` with what the
    /// system ties to that resource, as further events. Without this a ruling could leave a
    /// state the system's own rules never reach (burnout at its last level on a character who
    /// is not dying). Called after the new value is in the scratch state; an error refuses the
    /// whole ruling. The default ties nothing to any resource.
    fn resource_ruled(
        &self,
        _ctx: &mut Ctx<'_>,
        _target: &EntityId,
        _resource: &str,
        _from: i64,
        _to: i64,
    ) -> Result<(), DecideError> {
        Ok(())
    }

    /// Loads and validates a sheet written in TOML.
    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError>;

    /// Loads and validates a sheet in the same schema, given as JSON.
    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError>;

    /// What `seat` may do now (prompt answers and generic rulings are added by the engine).
    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec>;

    /// Decides one action. Called only when no prompt is open.
    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError>;

    /// Resumes `step` with `choice` (already checked to be one of its options, and already
    /// logged as resolved).
    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        choice: &str,
    ) -> Result<(), DecideError>;
}

/// A resource a system keeps on combatants, and the values it can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceSpec {
    pub key: &'static str,
    pub min: i64,
    pub max: i64,
}

/// The shipped systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SystemId {
    Grimwire,
}

impl SystemId {
    pub const ALL: [SystemId; 1] = [SystemId::Grimwire];

    pub fn system(self) -> &'static dyn RuleSystem {
        match self {
            SystemId::Grimwire => &crate::grimwire::Grimwire,
        }
    }

    pub fn as_str(self) -> &'static str {
        self.system().id()
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A system id that is not shipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule system `{given}`; shipped: {}{}",
    shipped(),
    planned(given)
)]
pub struct UnknownSystem {
    pub given: String,
}

fn shipped() -> String {
    SystemId::ALL
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Systems that have an id but no implementation yet, so the error can say "not yet".
const PLANNED: [&str; 4] = ["tenacity", "vigor", "mist", "tinyd10"];

fn planned(given: &str) -> &'static str {
    if PLANNED.contains(&given) {
        " (this one is planned but not implemented yet)"
    } else {
        ""
    }
}

impl FromStr for SystemId {
    type Err = UnknownSystem;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SystemId::ALL
            .into_iter()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| UnknownSystem {
                given: s.to_owned(),
            })
    }
}
