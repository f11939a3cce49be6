//! Overcoming conditions and coming round. A sufferer may try once a turn for free (the
//! end-of-turn reaction) and again by spending its action; it rolls a skill against the
//! narrator's rating, or against a fresh roll of the applier's skill. A damaging condition
//! bites at the start of each of the sufferer's turns. An unconscious character can only try
//! to come round: Strength or Concentration against 2d6 plus 1d6 per wound.

use crate::action::Args;
use crate::dice::roll;
use crate::engine::{Ctx, DecideError};
use crate::event::Outcome;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};

use super::tell::{self, expr};
use super::{
    DAMAGE, HINDER, SPIN, STOP, UNCONSCIOUS, WOUNDS, effects, options, rules, sheet_of, spotlight,
};

/// The conditions a check can put on a creature.
pub const CONDITIONS: [&str; 5] = [HINDER, STOP, DAMAGE, super::GRAPPLED, super::LOCKED];
/// The turn counter of the free end-of-turn attempt.
const FREE_TRY: &str = "overcome";

/// Rolls `c`'s `skill` as a reaction (no Spin earned; a fumble still costs one) and returns
/// the total.
pub fn reaction_roll(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    skill: &str,
) -> Result<(i64, crate::dice::Roll), DecideError> {
    let (_, dice, rank) = sheet_of(c)?
        .skill(skill)
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a skill of {}", c.id),
            name: skill.to_owned(),
        })?;
    let r = roll(&expr(&format!("{dice}d10kh1"))?, ctx.dice)?;
    let faces: Vec<i64> = r.dice.iter().map(|d| i64::from(d.face)).collect();
    let reading = rules::read_pool(&faces);
    if reading.fumble {
        ctx.set_resource(&c.id, SPIN, rules::add_spin(c.resource(SPIN), -1))?;
    }
    Ok((reading.highest + rank, r))
}

/// `overcome --condition K --skill S (--cr N | --against SKILL) [--with_action] [--on OBJECT]`.
/// A condition on an object (or an environment the GM keeps as one) stays until a character
/// spends its action to remove it: `--on` names it, and the action is taken.
pub fn overcome(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let kind = args.require_text("condition")?.to_ascii_lowercase();
    let on = match args.entity("on")? {
        Some(id) if id != c.id => {
            let thing = ctx.combatant(&id)?;
            if thing.kind != crate::state::Kind::Object {
                return Err(Refusal::bad_argument(
                    "on",
                    "names an object: a creature throws off its own conditions",
                )
                .into());
            }
            thing
        }
        _ => c.clone(),
    };
    let held =
        on.statuses.get(&kind).cloned().ok_or_else(|| {
            Refusal::Rule(format!("{} has no `{kind}` condition to overcome", on.id))
        })?;
    if !CONDITIONS.contains(&kind.as_str()) {
        return Err(Refusal::bad_argument("condition", "is not a condition").into());
    }
    let skill = args.require_text("skill")?.to_ascii_lowercase();
    if args.flag("with_action")? || on.id != c.id {
        spotlight::take_action(ctx, c)?;
    } else if ctx.state.encounter().active {
        crate::toolkit::turns::check_turn(&ctx.state, &c.id)?;
        if c.turn_counter(FREE_TRY) > 0 {
            return Err(Refusal::NoneLeft {
                actor: c.id.clone(),
                slot: "free attempt to overcome a condition".into(),
            }
            .into());
        }
        ctx.set_turn_counter(&c.id, FREE_TRY, 1)?;
    }
    let (against, compared, hidden) = match args.int("cr")? {
        Some(cr) => (cr, "the condition's challenge".to_owned(), false),
        None => {
            let applier = ctx.combatant(&EntityId(held.source.clone())).map_err(|_| {
                Refusal::bad_argument("cr", "is required: no creature applied this condition")
            })?;
            let their = args.text("against")?.ok_or_else(|| {
                Refusal::bad_argument(
                    "against",
                    "is required: which skill of the applier resists?",
                )
            })?;
            let (total, r) = reaction_roll(ctx, &applier, &their.to_ascii_lowercase())?;
            let gm = crate::redact::gm_only_numbers(&applier);
            tell::rolled(
                ctx,
                Some(&applier.id),
                format!("{their} holding the {kind}"),
                r,
                gm,
            )?;
            (total, format!("{}'s {their}", applier.id), gm)
        }
    };
    let c = ctx.combatant(&c.id)?;
    let (total, r) = reaction_roll(ctx, &c, &skill)?;
    let rank = total - r.total;
    let outcome = tell::check(
        ctx,
        tell::Check {
            who: &c.id,
            verb: format!("tries to overcome the {kind}"),
            target: None,
            label: skill.clone(),
            roll: r,
            modifiers: vec![crate::event::Modifier::new(&skill, rank)],
            total,
            against,
            compared,
            hidden,
            because: None,
        },
    )?;
    if outcome == Outcome::Success && on.id != c.id {
        return ctx.set_status(&on.id, &kind, None);
    }
    if outcome == Outcome::Success {
        ctx.set_status(&c.id, &kind, None)?;
        let area = area_key(&kind);
        if c.has_status(&area) {
            ctx.set_status(&c.id, &area, None)?;
        }
        // Breaking a lock leaves the grapple it came from; escaping the grapple frees every
        // limb it held.
        if kind == super::LOCKED {
            ctx.set_status(&c.id, super::GRAPPLED, Some(held.clone()))?;
        } else if kind == super::GRAPPLED && c.has_status(super::GRAPPLED_LIMBS) {
            ctx.set_status(&c.id, super::GRAPPLED_LIMBS, None)?;
        }
    }
    Ok(())
}

/// The marker of a condition that comes from an area: moving out of it ends the condition.
pub fn area_key(condition: &str) -> String {
    format!("area.{condition}")
}

/// `c` moved: the conditions its area gave it end.
pub fn left_area(ctx: &mut Ctx<'_>, c: &EntityId) -> Result<(), DecideError> {
    let who = ctx.combatant(c)?;
    for condition in CONDITIONS {
        let area = area_key(condition);
        if who.has_status(&area) {
            ctx.set_status(c, &area, None)?;
            if who.has_status(condition) {
                ctx.set_status(c, condition, None)?;
            }
            ctx.note_about(c, format!("{c} leaves the area: its {condition} ends"))?;
        }
    }
    Ok(())
}

/// A damaging condition's bite at the start of the sufferer's turn.
pub fn turn_starts(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    if let Some(d) = c.statuses.get(DAMAGE) {
        let amount = d.magnitude;
        ctx.note_about(who, format!("{who}'s damaging condition deals {amount}"))?;
        effects::stress(ctx, who, amount)?;
    }
    Ok(())
}

/// Coming round: Strength (any skill under it) or Concentration against (2 + wounds) d6.
pub fn come_round(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    if !c.has_status(UNCONSCIOUS) {
        return Err(Refusal::Rule(format!("{} is not unconscious", c.id)).into());
    }
    let skill = args.require_text("skill")?.to_ascii_lowercase();
    let (attribute, _, _) = sheet_of(c)?
        .skill(&skill)
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a skill of {}", c.id),
            name: skill.clone(),
        })?;
    if skill != "concentration" && attribute != "strength" {
        return Err(Refusal::bad_argument(
            "skill",
            "must be concentration or a skill under strength",
        )
        .into());
    }
    spotlight::take_action(ctx, c)?;
    let dice = rules::unconscious_dice(c.resource(WOUNDS));
    let cr_roll = roll(&expr(&format!("{dice}d6"))?, ctx.dice)?;
    let faces: Vec<i64> = cr_roll.dice.iter().map(|d| i64::from(d.face)).collect();
    let cr = rules::challenge_total(&faces, 0, options::combine(ctx.state.options()));
    tell::rolled(ctx, None, "challenge to come round".into(), cr_roll, false)?;
    let (total, r) = reaction_roll(ctx, c, &skill)?;
    let rank = total - r.total;
    let outcome = tell::check(
        ctx,
        tell::Check {
            who: &c.id,
            verb: "tries to come round".into(),
            target: None,
            label: skill.clone(),
            roll: r,
            modifiers: vec![crate::event::Modifier::new(&skill, rank)],
            total,
            against: cr,
            compared: "challenge rating".into(),
            hidden: false,
            because: None,
        },
    )?;
    if outcome == Outcome::Success {
        ctx.set_status(&c.id, UNCONSCIOUS, None)?;
    }
    Ok(())
}

/// Lock: the grappler's action turns its grapple into a lock; the locked one cannot move, and
/// the grappler deals its unarmed impact (or a locking item's) with no check, now and with
/// each later action spent on it.
pub fn lock(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let target = ctx.combatant(&args.require_entity("target")?)?;
    let held = target
        .statuses
        .get(super::GRAPPLED)
        .or_else(|| target.statuses.get(super::LOCKED))
        .filter(|s| s.source == c.id.0)
        .cloned()
        .ok_or_else(|| Refusal::Rule(format!("{} does not hold {}", c.id, target.id)))?;
    let sheet = sheet_of(c)?;
    let bonus = match args.text("item")? {
        Some(id) => sheet
            .equipment
            .iter()
            .find(|i| i.id == id && i.properties.iter().any(|p| p == "locking"))
            .map(|i| i.impact_bonus)
            .ok_or_else(|| Refusal::Rule(format!("{id} has no locking property")))?,
        None => 0,
    };
    let rank = sheet.skill("unarmed").map_or(0, |(_, _, r)| r);
    spotlight::take_action(ctx, c)?;
    if target.has_status(super::GRAPPLED) {
        ctx.set_status(&target.id, super::GRAPPLED, None)?;
        ctx.set_status(&target.id, super::LOCKED, Some(held))?;
    }
    let dice = rules::impact_dice(rank);
    let rolled = if dice > 0 {
        let r = roll(&expr(&format!("{dice}d4"))?, ctx.dice)?;
        let total = r.total;
        tell::rolled(ctx, Some(&c.id), "lock damage".into(), r, false)?;
        total
    } else {
        0
    };
    effects::stress(ctx, &target.id, rolled + bonus)
}
