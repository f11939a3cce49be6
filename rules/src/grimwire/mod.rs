//! GRIMWIRE: d20 + attribute against a target number; Condition, Focus and Burnout.
//!
//! Read `docs/grimwire.md` for every default this module takes where the text is silent, and
//! the table option that changes it. Submodules own one rule area each; this file wires them to
//! the [`RuleSystem`] interface.

mod agony;
mod assist;
mod attack;
mod burnout;
mod burnout_levels;
mod check;
pub mod content;
mod contest;
mod damage;
mod economy;
mod encounter;
mod fall;
mod frenzy;
pub mod gear;
mod grapple;
mod guard;
mod heal;
mod options;
mod recover;
mod rest;
pub mod sheet;
mod shield;
mod shove;
mod status;
mod surprise;
mod technique;
mod tell;
mod temp;

#[cfg(test)]
mod tests;

pub use burnout_levels::{condition_cap, roll_penalty};
pub use damage::{DamageInput, damage_steps};
pub use sheet::{Attribute, DamageType, Sheet, Weapon, WeaponClass};

use crate::action::{ActionSpec, Args};
use crate::decision::{Closing, PendingStep};
use crate::engine::{Ctx, DecideError};
use crate::grid::GridSpec;
use crate::ids::{EntityId, Seat};
use crate::options::OptionSpec;
use crate::refusal::Refusal;
use crate::sheet::SheetError;
use crate::state::{Combatant, Kind, StateView, Status};
use crate::system::{ResourceSpec, RuleSystem};

pub const ID: &str = "grimwire";

/// GRIMWIRE measures in metres (one cell is one metre, as its 3 m melee reach and AGL-metre
/// movement want). The text names cover only as cover, of no stated kind or size.
pub const GRID: GridSpec = GridSpec {
    unit: "m",
    cell_size: 1,
    covers: &["cover"],
};

/// Resource keys.
pub const CONDITION: &str = "condition";
pub const FOCUS: &str = "focus";
pub const BURNOUT: &str = "burnout";
/// 1 when this round's action is spent (by acting, or by a reaction before the turn).
pub const ACTION_SPENT: &str = "action_spent";
/// 1 when a reaction after acting has spent next round's action.
pub const ACTION_OWED: &str = "action_owed";

/// Status keys.
pub const DYING: &str = "dying";
pub const OUT_COLD: &str = "out_cold";
pub const DEAD: &str = "dead";

/// Condition below this is death: at -10 a character still lives, at -11 they are dead.
pub const DEAD_BELOW: i64 = -10;

/// The GRIMWIRE rule system.
pub struct Grimwire;

impl RuleSystem for Grimwire {
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
        let spec = |key, min, max| ResourceSpec { key, min, max };
        vec![
            spec(CONDITION, DEAD_BELOW - 1, 10_000),
            spec(FOCUS, -10_000, 10_000),
            spec(BURNOUT, 0, 4),
            spec(ACTION_SPENT, 0, 1),
            spec(ACTION_OWED, 0, 1),
            spec(temp::TEMP, 0, temp::MAX),
            spec(rest::SHORT_RESTS, 0, rest::SHORT_PER_DAY),
            spec(rest::LONG_RESTS, 0, rest::LONG_PER_DAY),
            spec(rest::BURNOUT_EASED, 0, 1),
        ]
    }

    /// The consequences GRIMWIRE ties to its resources, by the same code that follows them in
    /// play. A Condition ruled above the burnout cap is left alone: with no resource for
    /// temporary Condition, that is how the GM gives some (inebriation's +3).
    fn resource_ruled(
        &self,
        ctx: &mut Ctx<'_>,
        target: &EntityId,
        resource: &str,
        from: i64,
        to: i64,
    ) -> Result<(), DecideError> {
        let c = ctx.combatant(target)?;
        let max = sheet_of(&c)?.condition_max;
        match resource {
            BURNOUT => {
                agony::follow_ruling(ctx, target, to)?;
                burnout::follow_level(ctx, target, to, max)
            }
            CONDITION => damage::follow_condition(ctx, target, max, c.has_status(DYING)),
            FOCUS if from >= 0 && to < 0 => {
                burnout::add_level(ctx, target, "Focus went below 0 by ruling", max)
            }
            _ => Ok(()),
        }
    }

    /// Agony is a level of burnout while it lasts: a ruling that sets it inflicts it (one
    /// level, whatever magnitude it names), one that clears it takes its levels away; a
    /// ruling that sets someone burning causes its agony.
    fn status_ruled(
        &self,
        ctx: &mut Ctx<'_>,
        target: &EntityId,
        status: &str,
        from: Option<Status>,
        to: Option<Status>,
    ) -> Result<(), DecideError> {
        match (status, to) {
            (agony::AGONY, to) => {
                ctx.set_status(target, agony::AGONY, from.clone())?;
                match (to, from) {
                    (Some(to), _) => agony::inflict(ctx, target, "GM ruling", to.rounds_left),
                    (None, Some(from)) => agony::pass(ctx, target, from.magnitude),
                    (None, None) => Ok(()),
                }
            }
            // Catching fire is a new pain; being set burning again is the same fire.
            (status::BURNING, Some(_)) if from.is_none() => {
                agony::inflict(ctx, target, "burning", None)
            }
            (status::BURNING, Some(_)) => agony::renew(ctx, target, "burning"),
            // The unconscious are immune to the mind's statuses: a ruling of one is set aside.
            (s, Some(_))
                if status::MENTAL.contains(&s) && status::senseless(&ctx.combatant(target)?) =>
            {
                ctx.set_status(target, s, from.clone())?;
                ctx.note_about(target, format!("{target} is unconscious and immune to {s}"))
            }
            // A frenzy ruled again is the old one ended and the new one begun.
            (status::FRENZY | status::AMOK, Some(to)) => {
                if let Some(old) = &from {
                    temp::lose(ctx, target, old.magnitude, status)?;
                }
                frenzy::began(ctx, target, status, to.magnitude)
            }
            (status::FRENZY | status::AMOK, None) => {
                let gave = from.as_ref().map_or(0, |s| s.magnitude);
                temp::lose(ctx, target, gave, status)
            }
            (status::TERROR, Some(_)) if frenzy::raging(&ctx.combatant(target)?) => {
                ctx.set_status(target, status::TERROR, None)?;
                ctx.note_about(target, format!("{target} rages and knows no fear"))
            }
            (status::INEBRIATED, Some(_)) if from.is_none() => {
                temp::gain(ctx, target, temp::DRINK, "drink")
            }
            (status::INEBRIATED, None) if from.is_some() => {
                temp::lose(ctx, target, temp::DRINK, "drink")
            }
            (s, Some(_)) if status::UNCONSCIOUS_KINDS.contains(&s) => {
                status::clear_mind(ctx, target)
            }
            _ => Ok(()),
        }
    }

    fn sheet_from_toml(&self, text: &str) -> Result<Combatant, SheetError> {
        sheet::from_toml(text)
    }

    fn sheet_from_json(&self, value: &serde_json::Value) -> Result<Combatant, SheetError> {
        sheet::from_json(value)
    }

    fn actions(&self, state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
        economy::catalogue(state, seat)
    }

    fn act(
        &self,
        ctx: &mut Ctx<'_>,
        seat: &Seat,
        actor: Option<&EntityId>,
        action: &str,
        args: &Args,
    ) -> Result<(), DecideError> {
        let spec = economy::spec(action).ok_or_else(|| Refusal::UnknownAction {
            system: ID.into(),
            action: action.to_owned(),
        })?;
        args.validate(&spec.args, seat)?;
        if spec.gm_only && !seat.is_gm() {
            return Err(Refusal::forbidden(format!("`{action}` is the GM's")).into());
        }
        let actor = if spec.needs_actor {
            let id = match actor {
                Some(id) => id.clone(),
                None => current_for(ctx, seat).ok_or_else(|| no_actor(ctx, seat))?,
            };
            let c = ctx.combatant(&id)?;
            may_control(seat, &c)?;
            // Whose turn it is comes before anything the arguments ask (a range, a cost), so an
            // out-of-turn attack on a distant target hears why it cannot act now.
            if economy::needs_turn(action) {
                economy::require_turn(ctx, &id)?;
            }
            // A failed terror roll bounds what the character does with its own turn; a check
            // the GM calls, or a reaction off-turn, is not part of it.
            let current = ctx.state.encounter().current.as_ref() == Some(&id);
            if current && (economy::needs_turn(action) || action == "technique") {
                status::may_take(&ctx.combatant(&id)?, action)?;
                frenzy::may_take(ctx, &ctx.combatant(&id)?, action)?;
            }
            Some(id)
        } else {
            None
        };
        match (action, actor) {
            ("start_encounter", _) => encounter::start(ctx, args),
            ("end_encounter", _) => encounter::end(ctx),
            ("check", Some(a)) => check::called_check(ctx, seat, &a, args),
            ("attack", Some(a)) => attack::attack(ctx, &a, args),
            ("move", Some(a)) => economy::movement(ctx, &a, args),
            ("dash", Some(a)) => economy::dash(ctx, &a),
            ("auxiliary", Some(a)) => economy::auxiliary(ctx, &a, args),
            ("free_action", Some(a)) => economy::free_action(ctx, &a, args),
            ("technique", Some(a)) => technique::use_technique(ctx, &a, args),
            ("stabilise", Some(a)) => check::stabilise(ctx, &a, args),
            ("damage", _) => damage::ruling(ctx, args),
            ("stand", Some(a)) => recover::stand(ctx, &a),
            ("help_up", Some(a)) => recover::help_up(ctx, &a, &args.require_entity("target")?),
            ("wake", Some(a)) => recover::wake(ctx, &a, &args.require_entity("target")?),
            ("extinguish", Some(a)) => recover::extinguish(ctx, &a),
            ("hold_pressure", Some(a)) => {
                recover::hold_pressure(ctx, &a, &args.require_entity("target")?)
            }
            ("end_turn", Some(a)) => encounter::end_turn(ctx, &a),
            ("pass", Some(a)) => encounter::pass(ctx, &a),
            ("rest", _) => rest::rest(ctx, args),
            ("new_day", _) => rest::new_day(ctx),
            ("fall", _) => fall::fall(ctx, args),
            ("shove", Some(a)) => shove::shove(ctx, &a, args),
            ("trip", Some(a)) => shove::trip(ctx, &a, args),
            ("grapple", Some(a)) => grapple::grapple(ctx, &a, args),
            ("break_free", Some(a)) => grapple::break_free(ctx, &a),
            ("release", Some(a)) => grapple::release(ctx, &a, args),
            ("takedown", Some(a)) => grapple::takedown(ctx, &a, args),
            ("choke", Some(a)) => grapple::choke(ctx, &a, args),
            ("heal", _) => heal::heal(ctx, args),
            _ => Err(Refusal::UnknownAction {
                system: ID.into(),
                action: action.to_owned(),
            }
            .into()),
        }
    }

    /// Triggers: the house rule that ends a spent turn by itself (see `encounter`).
    fn after(
        &self,
        ctx: &mut Ctx<'_>,
        _happened: &[crate::system::Happening],
    ) -> Result<(), DecideError> {
        encounter::end_if_spent(ctx)
    }

    fn resume(
        &self,
        ctx: &mut Ctx<'_>,
        step: &PendingStep,
        closing: &Closing<'_>,
    ) -> Result<(), DecideError> {
        // GRIMWIRE's windows are answered by a choice alone.
        let choice = closing.choice;
        match step.rule.as_str() {
            attack::STEP_COLLATERAL_RULING => attack::resume_collateral_ruling(ctx, step, choice),
            attack::STEP_COLLATERAL_SPARE => attack::resume_collateral_spare(ctx, step, choice),
            shield::STEP_SHIELD => attack::resume_shield(ctx, step, choice),
            guard::STEP_GUARD => guard::resume(ctx, step, closing),
            encounter::STEP_TIE => encounter::resume_tie(ctx, step, choice),
            other => Err(DecideError::BadStep {
                prompt_id: step.prompt_id,
                rule: other.to_owned(),
                problem: "GRIMWIRE has no such rule step".into(),
            }),
        }
    }
}

/// The character whose turn it is, when `seat` acts for them: whom an action with no actor
/// is for. Naming them lets the refusal say why they cannot act (out cold, dying) rather
/// than that nobody was named. A player's character is never the GM's by default: the GM who
/// leaves the actor out means one of the GM's own (see [`no_actor`]).
fn current_for(ctx: &Ctx<'_>, seat: &Seat) -> Option<EntityId> {
    let current = ctx.state.encounter().current.clone()?;
    let c = ctx.state.combatant(&current)?;
    if seat.is_gm() && c.owner.is_some() {
        return None;
    }
    may_control(seat, c).ok().map(|()| current)
}

/// Why an action with no actor has none, with what would work: in a player's turn, the GM
/// hears whose turn it is (an NPC acts on its own turn, the player's character only when named).
fn no_actor(ctx: &Ctx<'_>, seat: &Seat) -> Refusal {
    let current = ctx
        .state
        .encounter()
        .current
        .clone()
        .and_then(|id| ctx.state.combatant(&id).cloned());
    match current {
        Some(c) if seat.is_gm() && c.owner.is_some() => Refusal::bad_argument(
            "actor",
            &format!(
                "is required: it is {}'s turn, a player's character; an NPC acts on its own \
                 turn, and the GM acts for {} only by naming it (--actor {})",
                c.id, c.id, c.id
            ),
        ),
        _ => Refusal::bad_argument("actor", "is required: who acts?"),
    }
}

fn may_control(seat: &Seat, c: &Combatant) -> Result<(), Refusal> {
    crate::toolkit::controls(seat, c)
}

/// The GRIMWIRE sheet of a combatant, or a refusal naming it.
fn sheet_of(c: &Combatant) -> Result<&Sheet, Refusal> {
    c.sheet
        .typed::<Sheet>(ID)
        .map_err(|e| Refusal::Rule(format!("{} has no GRIMWIRE sheet: {e}", c.id)))
}

/// Whether the combatant is played by a player (decides the attack procedure).
fn is_pc(c: &Combatant) -> bool {
    c.kind == Kind::Pc
}

fn deciding_seats(c: &Combatant) -> Vec<Seat> {
    crate::toolkit::deciders(c)
}
