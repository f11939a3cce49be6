//! What a success does, by the kind of action: pass/fail ends there; the others roll impact
//! (half the rank in d4s, any critical d4, plus the item's bonus) and spend it as stress on a
//! target, Spin for an ally, a hinder's penalty, or a number the narrator reads. Stress over
//! the maximum asks its bearer for a wound or unconsciousness (hardcore: a wound or death).

use super::tell::expr;
use crate::decision::{Closing, PendingStep, StepValue};
use crate::dice::roll;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::state::StateView;
use crate::state::Status;
use crate::toolkit::deciders;

use super::check::Pending;
use super::rules::{self, Overflow};
use super::{DAMAGE, DEAD, HINDER, SPIN, STRESS, UNCONSCIOUS, WOUNDS, options, sheet_of, tell};

pub const STEP_OVERFLOW: &str = "tenacity.overflow";

fn status(source: &EntityId, magnitude: i64) -> Option<Status> {
    Some(Status {
        source: source.0.clone(),
        magnitude,
        rounds_left: None,
    })
}

/// Rolls impact: half the rank in d4s plus the critical's d4s, plus `bonus`.
pub fn impact(ctx: &mut Ctx<'_>, p: &Pending) -> Result<i64, DecideError> {
    let dice = rules::impact_dice(p.rank) + p.extra_d4;
    let rolled = if dice > 0 {
        let r = roll(&expr(&format!("{dice}d4"))?, ctx.dice)?;
        let total = r.total;
        tell::rolled(ctx, Some(&p.actor), format!("{} impact", p.skill), r, false)?;
        total
    } else {
        0
    };
    Ok(rolled + p.bonus)
}

pub fn succeed(ctx: &mut Ctx<'_>, p: &Pending) -> Result<(), DecideError> {
    // Flanking: the first attacker's success hands the flanking ally a Spin.
    if let Some(ally) = &p.flank {
        let spin = ctx.combatant(ally)?.resource(SPIN);
        ctx.set_resource(ally, SPIN, rules::add_spin(spin, 1))?;
        ctx.note_about(
            ally,
            format!("{} flanks with {ally}: {ally} gains 1 Spin", p.actor),
        )?;
    }
    if p.kind == "pass_fail" {
        return Ok(());
    }
    if p.kind == "find" {
        if let Some(t) = &p.target {
            ctx.set_status(t, super::HIDDEN, None)?;
            return ctx.note_about(t, format!("{} finds {t}", p.actor));
        }
        return Ok(());
    }
    let amount = impact(ctx, p)?;
    let target = p.target.clone().unwrap_or_else(|| p.actor.clone());
    match p.kind.as_str() {
        "damage" => {
            // Size first (halved or doubled per step), then the resistance is ignored.
            let rounding = options::size_rounding(ctx.state.options());
            let sized = rules::size_damage(amount, p.size_steps, rounding);
            let taken = rules::after_resistance(sized, p.resistance);
            if taken != amount {
                ctx.note_about(
                    &target,
                    format!("{amount} impact becomes {taken} stress (size, resistance)"),
                )?;
            }
            stress(ctx, &target, taken)
        }
        "advantage" => {
            let gained = rules::advantage_spin(amount);
            let spin = ctx.combatant(&target)?.resource(SPIN);
            ctx.set_resource(&target, SPIN, rules::add_spin(spin, gained))?;
            ctx.note_about(
                &target,
                format!("{target} gains {gained} Spin from {}'s advantage", p.actor),
            )
        }
        "pool" => super::pools::add(ctx, p, amount),
        "social" => social(ctx, &p.actor, &target, amount),
        "undermine" => social(ctx, &target, &p.actor, -amount),
        "grapple" => {
            // Instead of damage, the impact is the grapple's hinder on the limbs it holds;
            // more than one limb held and it counts on every physical action.
            ctx.set_status(&target, super::GRAPPLED, status(&p.actor, amount))?;
            let held = ctx.combatant(&target)?.has_status(super::GRAPPLED_LIMBS);
            if p.limbs > 1 {
                ctx.set_status(&target, super::GRAPPLED_LIMBS, status(&p.actor, p.limbs))?;
            } else if held {
                ctx.set_status(&target, super::GRAPPLED_LIMBS, None)?;
            }
            let limbs = if p.limbs > 1 {
                format!(", {} limbs: every physical action", p.limbs)
            } else {
                String::new()
            };
            ctx.note_about(
                &target,
                format!("{} grapples {target} (hinder {amount}{limbs})", p.actor),
            )
        }
        "condition" if p.area => {
            // From an area: the condition holds until its bearer moves out of it. One put on
            // it otherwise is never turned into an area's (moving would shed it): it stays.
            let t = ctx.combatant(&target)?;
            let area = super::conditions::area_key(&p.condition);
            if t.has_status(&p.condition) && !t.has_status(&area) {
                return ctx.note_about(
                    &target,
                    format!(
                        "{target} already suffers a {} condition: it stays",
                        p.condition
                    ),
                );
            }
            let magnitude = if p.condition == HINDER || p.condition == DAMAGE {
                let now = t.statuses.get(&p.condition).map_or(0, |s| s.magnitude);
                rules::hinder(now, amount)
            } else {
                0
            };
            ctx.set_status(&target, &p.condition, status(&p.actor, magnitude))?;
            ctx.set_status(&target, &area, status(&p.actor, 0))?;
            ctx.note_about(
                &target,
                format!("{target} suffers a {} condition from the area", p.condition),
            )
        }
        "condition" if p.condition != HINDER => {
            // A stop has no number; a damaging condition deals its impact each turn (A9). Put
            // on directly, it no longer ends by leaving an area.
            clear_area(ctx, &target, &p.condition)?;
            let magnitude = if p.condition == DAMAGE { amount } else { 0 };
            ctx.set_status(&target, &p.condition, status(&p.actor, magnitude))?;
            ctx.note_about(
                &target,
                format!("{target} suffers a {} condition", p.condition),
            )
        }
        "condition" => {
            clear_area(ctx, &target, HINDER)?;
            let current = ctx
                .combatant(&target)?
                .statuses
                .get(HINDER)
                .map_or(0, |s| s.magnitude);
            let kept = rules::hinder(current, amount);
            ctx.set_status(&target, HINDER, status(&p.actor, kept))?;
            ctx.note_about(&target, format!("{target} is hindered by {kept}"))
        }
        _ => ctx.note_about(&p.actor, format!("{} makes {amount} impact", p.actor)),
    }
}

/// A condition put on directly is not an area's any more.
fn clear_area(ctx: &mut Ctx<'_>, target: &EntityId, condition: &str) -> Result<(), DecideError> {
    let area = super::conditions::area_key(condition);
    if ctx.combatant(target)?.has_status(&area) {
        ctx.set_status(target, &area, None)?;
    }
    Ok(())
}

/// Adds stress and resolves going over the maximum.
pub fn stress(ctx: &mut Ctx<'_>, target: &EntityId, amount: i64) -> Result<(), DecideError> {
    let c = ctx.combatant(target)?;
    let sheet = sheet_of(&c)?;
    let now = c.resource(STRESS) + amount.max(0);
    let wounds = c.resource(WOUNDS);
    let hardcore = options::hardcore(ctx.state.options());
    match rules::overflow(
        now,
        sheet.max_stress,
        wounds,
        sheet.wound_capacity,
        hardcore,
    ) {
        Overflow::Holds => ctx.set_resource(target, STRESS, now),
        Overflow::Wound => {
            ctx.set_resource(target, STRESS, 0)?;
            ctx.set_resource(target, WOUNDS, wounds + 1)?;
            ctx.note_about(
                target,
                format!("{target} goes over its maximum stress and marks a wound"),
            )
        }
        Overflow::Perish => {
            ctx.set_resource(target, STRESS, 0)?;
            ctx.set_status(target, DEAD, status(target, 0))?;
            ctx.note_about(
                target,
                format!("{target} has no wound left to take and perishes"),
            )
        }
        Overflow::Choose { wound_left: false } => {
            ctx.set_resource(target, STRESS, 0)?;
            ctx.set_status(target, UNCONSCIOUS, status(target, 0))?;
            ctx.note_about(
                target,
                format!("{target} goes over its maximum stress and falls unconscious"),
            )
        }
        Overflow::Choose { wound_left: true } => {
            ctx.set_resource(target, STRESS, 0)?;
            ctx.ask(PendingStep {
                rule: STEP_OVERFLOW.into(),
                actor: Some(target.clone()),
                seats: deciders(&c),
                question: format!(
                    "{target} is over its maximum stress: mark a wound, or fall unconscious?"
                ),
                options: vec!["wound".into(), "unconscious".into()],
                default: "wound".into(),
                timeout_ms: ctx.state.options().decision_timeout_ms(),
                data: [("wounds".to_owned(), StepValue::Int(wounds))].into(),
                ..PendingStep::default()
            })?;
            Ok(())
        }
    }
}

pub fn resume_overflow(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let bad = || DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: "no actor".into(),
    };
    let target = step.actor.clone().ok_or_else(bad)?;
    if closing.choice == "wound" {
        let wounds = ctx.combatant(&target)?.resource(WOUNDS);
        ctx.set_resource(&target, WOUNDS, wounds + 1)?;
        ctx.note_about(
            &target,
            format!("{target} stays conscious and marks a wound"),
        )
    } else {
        ctx.set_status(&target, UNCONSCIOUS, status(&target, 0))?;
        ctx.note_about(&target, format!("{target} falls unconscious"))
    }
}

/// Moves `who`'s social standing with `with` by `change` on the 0..=10 scale (5 to start,
/// neutral, unless the GM set it): 10 sways them, 0 loses all credibility.
pub fn social(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    with: &EntityId,
    change: i64,
) -> Result<(), DecideError> {
    let key = format!("{STANDING}{with}");
    let c = ctx.combatant(who)?;
    let now = c.statuses.get(&key).map_or(START_STANDING, |s| s.magnitude);
    let after = rules::standing(now, change, TOP_STANDING);
    ctx.set_status(who, &key, status(with, after))?;
    let words = match after {
        TOP_STANDING => " and sways them",
        0 => " and has lost all credibility",
        _ => "",
    };
    ctx.note_about(
        who,
        format!("{who}'s standing with {with}: {now} to {after}{words}"),
    )
}

/// Status key prefix of a standing (its magnitude), per the character it is with.
pub const STANDING: &str = "standing.";
pub const START_STANDING: i64 = 5;
pub const TOP_STANDING: i64 = 10;
