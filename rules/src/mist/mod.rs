//! mist d10: checks of a d10 plus an attribute and a skill against a difficulty; group
//! initiative (one Speed check for the whole players' group); one action a round, which may
//! be held as a delayed action; attacks against Evade; weapon dice read in the division table;
//! criticals; the consciousness check below 0 Life; guns that jam on doubles.
//!
//! `docs/mist.md` lists what the server automates and every table option where the text is
//! silent. Submodules own one rule area each; this file wires them to [`RuleSystem`].

mod actions;
mod attack;
mod care;
pub mod checks;
mod hold;
mod interrupt;
pub mod jam;
mod jam_fix;
mod options;
pub mod reload;
mod round;
pub mod sheet;
mod stealth;
mod stun;
mod tell;

#[cfg(test)]
mod tests;

pub use sheet::Sheet;

use crate::action::{ActionSpec, Args};
use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::grid::GridSpec;
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, StateView};
use crate::system::{Happening, ResourceSpec, RuleSystem};

pub const ID: &str = "mist";

/// mist measures in feet; its examples are street brawls, so 5 ft cells.
pub const GRID: GridSpec = GridSpec {
    unit: "ft",
    cell_size: 5,
    covers: &["half"],
};

/// Resource keys.
pub const LIFE: &str = "life";
pub const FATIGUE: &str = "fatigue";
/// The round's actions still to be taken (in the group's turn, the one held as a delayed
/// action, or kept for a dodge): the sheet's `actions` (1 unless developments give more) as
/// each round starts, 0 once all are spent.
pub const ACTION: &str = "action";
/// The initiative of the combatant's group.
pub const INITIATIVE: &str = "initiative";

/// Status keys: those the rules set, and those the GM sets by ruling for the rules to read.
/// Unconscious carries the revive difficulty (the failed consciousness difficulty).
pub const UNCONSCIOUS: &str = "unconscious";
pub const DEAD: &str = "dead";
/// Holding the round's action as a delayed action.
pub const DELAYED: &str = "delayed";
/// Held, trapped or restrained: +3 to hit it.
pub const IMMOBILE: &str = "immobile";
/// Hidden and unspotted (by a Stealth check, its total the magnitude, or by the GM's mark):
/// the ambushers' free turn with +3, and a stun attack out of combat.
pub const AMBUSHER: &str = "ambusher";
/// Out of range or sight: an aimed attack at it is wasted.
pub const OUT_OF_SIGHT: &str = "out_of_sight";
/// Wearing armour (from the sheet, or set by ruling).
pub const ARMOURED: &str = "armoured";
/// Encounter value: 1 while the fight is in the mist.
pub const IN_MIST: &str = "in_mist";

/// The status a gun carries once fired until reloaded: `unloaded.<weapon id>`, magnitude the
/// rounds of reloading still to do (0: an immediate action).
pub fn unloaded_key(weapon: &str) -> String {
    format!("unloaded.{weapon}")
}

/// The status a gun carries while it cannot fire: `jam.<weapon id>`, magnitude the jam face.
pub fn jam_key(weapon: &str) -> String {
    format!("jam.{weapon}")
}

/// The mist d10 rule system.
pub struct Mist;

impl RuleSystem for Mist {
    fn id(&self) -> &'static str {
        ID
    }

    fn options(&self) -> Vec<OptionSpec> {
        options::specs()
    }

    fn grid(&self) -> GridSpec {
        GRID
    }

    fn resources(&self) -> Vec<ResourceSpec> {
        vec![
            ResourceSpec {
                key: LIFE,
                min: -10_000,
                max: 10_000,
            },
            ResourceSpec {
                key: FATIGUE,
                min: 0,
                max: 10_000,
            },
            ResourceSpec {
                key: ACTION,
                min: 0,
                max: 10,
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
        let spec = actions::spec(action, actor).ok_or_else(|| Refusal::UnknownAction {
            system: ID.into(),
            action: action.to_owned(),
        })?;
        args.validate(&spec.args, seat)?;
        if actions::GM_ACTIONS.contains(&action) {
            if !seat.is_gm() {
                return Err(Refusal::forbidden(format!("`{action}` is the GM's")).into());
            }
            return match action {
                "start_encounter" => round::start(ctx),
                "end_encounter" => round::end(ctx),
                "end_group_turn" => round::end_group_turn(ctx),
                "set_mist" => round::set_mist(ctx, args),
                "ambush" => round::ambush(ctx),
                "opportunity_attack" => attack::opportunity(ctx, args),
                "clear_jam" => jam_fix::clear_jam(ctx, args),
                "stealth" => stealth::stealth(ctx, args),
                "perception" => stealth::perception(ctx, args),
                _ => care::rest(ctx, args),
            };
        }
        let who = actor.ok_or_else(|| Refusal::bad_argument("actor", "is required: who acts?"))?;
        let c = ctx.combatant(who)?;
        crate::toolkit::controls(seat, &c)?;
        match action {
            "medicine_heal" => care::medicine_heal(ctx, &c, args),
            "release" => hold::release(ctx, &c),
            "stun" => stun::stun(ctx, &c, args),
            _ => {
                let how = round::may_act(ctx, &c, action)?;
                if interrupt::offer(ctx, &c, action, args, how)? {
                    return Ok(());
                }
                match action {
                    "attack" => attack::attack(ctx, &c, args, how, false),
                    "grab" => attack::attack(ctx, &c, args, how, true),
                    "aim" => attack::aim(ctx, &c, args, how),
                    "delay" => round::delay(ctx, &c),
                    "revive" => care::revive(ctx, &c, args, how),
                    "reload" => reload::reload(ctx, &c, args, how),
                    _ => round::other_action(ctx, &c, args, how),
                }
            }
        }
    }

    fn after(&self, ctx: &mut Ctx<'_>, _happened: &[Happening]) -> Result<(), DecideError> {
        round::follow(ctx)
    }

    fn check_answer(
        &self,
        ctx: &Ctx<'_>,
        step: &PendingStep,
        seat: &Seat,
        choice: &str,
        args: &Args,
    ) -> Result<(), Refusal> {
        interrupt::check_answer(ctx, step, seat, choice, args)
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        match step.rule.as_str() {
            attack::STEP_DODGE => attack::resume_dodge(ctx, step, closing.choice),
            interrupt::STEP_INTERRUPT => interrupt::resume(ctx, step),
            other => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: other.to_owned(),
                problem: "mist has no such rule step".into(),
            }),
        }
    }
}

/// The mist sheet of a combatant, or a refusal naming it.
pub fn sheet_of(c: &Combatant) -> Result<&Sheet, Refusal> {
    c.sheet
        .typed::<Sheet>(ID)
        .map_err(|e| Refusal::Rule(format!("{} has no mist sheet: {e}", c.id)))
}

/// Refuses `c` if it cannot act now (dead, unconscious), in a fight or out of one.
pub fn able(c: &Combatant) -> Result<(), Refusal> {
    match cannot_act(c) {
        Some(why) => Err(Refusal::CannotAct {
            actor: c.id.clone(),
            reason: why.to_owned(),
        }),
        None => Ok(()),
    }
}

/// Why a creature cannot act now, if it cannot.
pub fn cannot_act(c: &Combatant) -> Option<&'static str> {
    [(DEAD, "dead"), (UNCONSCIOUS, "unconscious")]
        .into_iter()
        .find(|(s, _)| c.has_status(s))
        .map(|(_, why)| why)
}
