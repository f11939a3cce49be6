//! The interface every rule system implements. The core names no system: the registry of
//! shipped systems is the `tablehold-systems` crate, above this one.

use crate::action::{ActionSpec, Args};
use crate::ctx::{Ctx, DecideError};
use crate::decision::{Closing, PendingStep};
use crate::grid::{Cell, GridSpec};
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, StateView, Status};

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

    /// Follows a GM ruling that set (`to` is some) or cleared a status of `target`, as
    /// [`RuleSystem::resource_ruled`] follows a resource: a status some rule ties a resource to
    /// (a level of burnout that goes when the status does) keeps the two together. Called after
    /// the ruling's status is in the scratch state, with what it replaced (`from`); an error
    /// refuses the whole ruling. The default ties nothing to any status.
    fn status_ruled(
        &self,
        _ctx: &mut Ctx<'_>,
        _target: &EntityId,
        _status: &str,
        _from: Option<Status>,
        _to: Option<Status>,
    ) -> Result<(), DecideError> {
        Ok(())
    }

    /// How the system measures the grid: its unit, the size of a cell, its covers.
    fn grid(&self) -> GridSpec {
        GridSpec::METRES
    }

    /// Whether a player may replace `old`, her own character at the table, by `new`. A
    /// player edits her sheet between encounters, but what the table earns in play (a level
    /// taken with its experience) is not hers to write: a system that counts it refuses such an
    /// edit here. The GM's edits are never asked. The default allows every edit.
    fn player_edit(&self, _old: &Combatant, _new: &Combatant) -> Result<(), Refusal> {
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

    /// Follows what a command made happen with what the system ties to it: opens windows (an
    /// opportunity attack when someone leaves reach, a readied action when its trigger comes)
    /// and fires deferred steps (when a side has acted), so that no action has to re-check by
    /// hand what its own effects set off. Called once per action, answer or timeout, after
    /// the system's own decision, with every [`Happening`] its events hold, in order (none,
    /// for a command that moved nothing and took no turn: the state may still call for
    /// something, such as a turn that is spent); events this emits are not fed back in. The
    /// default ties nothing to anything.
    fn after(&self, _ctx: &mut Ctx<'_>, _happened: &[Happening]) -> Result<(), DecideError> {
        Ok(())
    }

    /// Checks one seat's answer beyond its window's argument specs, before it is recorded: what
    /// only the system knows, such as an action given as the answer (its own arguments, its
    /// target, its weapon). A window each seat answers records an answer before the window
    /// closes, so an answer that does not fit must be refused here, not when the last seat
    /// answers. The default takes any answer the specs take.
    fn check_answer(
        &self,
        _ctx: &Ctx<'_>,
        _step: &PendingStep,
        _seat: &Seat,
        _choice: &str,
        _args: &Args,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// Resumes `step` as its window closed (the choice already checked to be one of its
    /// options, the arguments against its specs, and already logged as resolved). In a window
    /// each seat answers, `step.answers` holds every seat's answer.
    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError>;
}

/// Something a command made happen that a system may tie rules to (see [`RuleSystem::after`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Happening {
    /// A token moved (by an action, a ruling or a push).
    Moved {
        entity: EntityId,
        from: Option<Cell>,
        to: Option<Cell>,
    },
    /// A combatant took its action for its group's turn or with the spotlight.
    Acted { entity: EntityId },
    /// Everyone in `group` has acted: its turn is over.
    GroupDone { group: String },
    /// An individual turn began (`None`: nobody's).
    TurnStarted { entity: Option<EntityId> },
}

/// A resource a system keeps on combatants, and the values it can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceSpec {
    pub key: &'static str,
    pub min: i64,
    pub max: i64,
}
