//! 10acity Tactics: pools of d10 hero dice (keep the highest, add the skill rank) that must
//! beat a challenge rating; d4 impact; criticals, doubles and fumbles moving Spin; pushes paid
//! in 10acity, Spin or negative Spin; stress, wounds and unconsciousness.
//!
//! `docs/tenacity.md` lists what the server automates, what it does not yet, and every table
//! option where the text is silent or says two things. Submodules own one rule area each;
//! this file wires them to [`RuleSystem`].

mod actions;
mod care;
mod check;
mod conditions;
mod death;
mod defence;
mod effects;
mod groups;
mod help;
mod hold;
pub mod options;
mod pools;
pub mod rules;
pub mod sheet;
mod spotlight;
mod tell;

#[cfg(test)]
mod tests;

pub use sheet::Sheet;

use crate::action::{ActionSpec, Args};
use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, StateView};
use crate::system::{ResourceSpec, RuleSystem};

pub const ID: &str = "tenacity";

/// Resource keys.
pub const TENACITY: &str = "tenacity";
pub const SPIN: &str = "spin";
pub const STRESS: &str = "stress";
pub const WOUNDS: &str = "wounds";
pub const RECOVERY: &str = "recovery";

/// Status keys.
pub const UNCONSCIOUS: &str = "unconscious";
pub const DEAD: &str = "dead";
/// Magnitude: the penalty (the larger of the impacts applied; hinders do not stack).
pub const HINDER: &str = "hinder";
/// Stops the actions it names (the narrative says which).
pub const STOP: &str = "stop";
/// Magnitude: the stress it deals at the start of each of the sufferer's turns.
pub const DAMAGE: &str = "damage";
/// Magnitude: the stealth total a seeker must beat.
pub const HIDDEN: &str = "hidden";
/// Withdrawing this turn: no parting actions against it.
pub const WITHDRAWING: &str = "withdrawing";
/// Magnitude: the grapple's hinder (its impact); source: the grappler.
pub const GRAPPLED: &str = "grappled";
/// Magnitude: how many limbs the grapple holds, when more than one (then its hinder counts
/// on every physical action but the escape).
pub const GRAPPLED_LIMBS: &str = "grappled_limbs";
/// A grapple turned into a lock: no movement; the grappler deals damage without a check.
pub const LOCKED: &str = "locked";
/// Full defence: an advantage die on every defence roll until the next own turn.
pub const FULL_DEFENCE: &str = "full_defence";
/// Set by the GM: lying down (magnitude 0).
pub const PRONE: &str = "prone";
/// Set by the GM: magnitude 1 partial hard cover (one step smaller), 2 full (no direct attack).
pub const COVER: &str = "cover";

/// The 10acity Tactics rule system.
pub struct Tenacity;

impl RuleSystem for Tenacity {
    fn id(&self) -> &'static str {
        ID
    }

    fn options(&self) -> Vec<OptionSpec> {
        options::specs()
    }

    fn resources(&self) -> Vec<ResourceSpec> {
        vec![
            ResourceSpec {
                key: TENACITY,
                min: 0,
                max: 10_000,
            },
            ResourceSpec {
                key: SPIN,
                min: sheet::SPIN_FLOOR,
                max: 10_000,
            },
            ResourceSpec {
                key: STRESS,
                min: 0,
                max: 10_000,
            },
            ResourceSpec {
                key: WOUNDS,
                min: 0,
                max: 100,
            },
            ResourceSpec {
                key: RECOVERY,
                min: 0,
                max: 10_000,
            },
        ]
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        sheet::from_toml(text)
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        sheet::from_json(value)
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        actions::catalogue(state, seat)
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        let unknown = || Refusal::UnknownAction {
            system: ID.into(),
            action: action.to_owned(),
        };
        let spec = actions::spec(action, actor).ok_or_else(unknown)?;
        args.validate(&spec.args, seat)?;
        if actions::GM_ACTIONS.contains(&action) {
            if !seat.is_gm() {
                return Err(Refusal::forbidden(format!("`{action}` is the GM's")).into());
            }
            return match action {
                "start_encounter" => spotlight::start(ctx, args),
                "end_encounter" => {
                    care::end_scene(ctx)?;
                    ctx.emit(crate::event::Event::public(
                        crate::event::Fact::EncounterEnded,
                    ))
                }
                "end_scene" => care::end_scene(ctx),
                "bargain" => care::bargain(ctx, args),
                "spend_pool" => pools::spend(ctx, args),
                "task" => pools::task(ctx, args),
                _ => care::care(ctx, args),
            };
        }
        let c = crate::toolkit::acting(ctx, seat, actor)?;
        if action == "come_round" {
            return conditions::come_round(ctx, &c, args);
        }
        if let Some(why) = cannot_act(&c) {
            return Err(Refusal::CannotAct {
                actor: c.id.clone(),
                reason: why.into(),
            }
            .into());
        }
        death::interrupted(ctx, &c, action)?;
        let c = ctx.combatant(&c.id)?;
        match action {
            "coup_de_grace" => death::coup(ctx, &c, args),
            "check" => check::check(ctx, seat, &c, args),
            "help" => help::help(ctx, &c, args),
            "hold" => hold::hold(ctx, &c, args),
            "release" => hold::release(ctx, &c, args),
            "generate_spin" => care::generate_spin(ctx, &c),
            "recover_tenacity" => care::recover_tenacity(ctx, &c),
            "end_turn" => spotlight::end_turn(ctx, &c, args),
            "pass_first" => spotlight::pass_first(ctx, &c, args),
            "interact" => spotlight::interact(ctx, &c, args),
            "move" => spotlight::movement(ctx, &c, args),
            "sprint" => spotlight::sprint(ctx, &c),
            "respond" => spotlight::respond(ctx, &c, args),
            "full_defence" => spotlight::full_defence(ctx, &c),
            "withdraw" => spotlight::withdraw(ctx, &c),
            "overcome" => conditions::overcome(ctx, &c, args),
            "lock" => conditions::lock(ctx, &c, args),
            _ => Err(unknown().into()),
        }
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        match step.rule.as_str() {
            check::STEP_CRITICAL => check::resume_critical(ctx, step, closing),
            check::STEP_PUSH => check::resume_push(ctx, step, closing),
            effects::STEP_OVERFLOW => effects::resume_overflow(ctx, step, closing),
            spotlight::STEP_NEXT => spotlight::resume_next(ctx, step, closing),
            groups::STEP_FIRST => groups::resume_first(ctx, step, closing),
            other => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: other.to_owned(),
                problem: "tenacity has no such rule step".into(),
            }),
        }
    }
}

/// The 10acity sheet of a combatant, or a refusal naming it.
pub fn sheet_of(c: &Combatant) -> Result<&Sheet, Refusal> {
    c.sheet
        .typed::<Sheet>(ID)
        .map_err(|e| Refusal::Rule(format!("{} has no tenacity sheet: {e}", c.id)))
}

/// Why a character cannot act now, if it cannot.
pub fn cannot_act(c: &Combatant) -> Option<&'static str> {
    [(DEAD, "dead"), (UNCONSCIOUS, "unconscious")]
        .into_iter()
        .find(|(s, _)| c.has_status(s))
        .map(|(_, why)| why)
}
