//! Between and around the rolls: ending a scene (Spin and stress), Generate Spin and Recover
//! 10acity at zero, and a day of a healer's care turning recovery into healed wounds.

use super::tell::expr;
use crate::action::Args;
use crate::dice::roll;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::Combatant;
use crate::state::StateView;

use super::{RECOVERY, SPIN, STRESS, TENACITY, WOUNDS, options, rules, sheet_of, tell};

/// The scene ends: positive Spin is lost, negative Spin stays, stress recovers.
pub fn end_scene(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if c.resource(SPIN) > 0 {
            ctx.set_resource(&id, SPIN, 0)?;
        }
        ctx.set_resource(&id, STRESS, 0)?;
    }
    Ok(())
}

/// One Spin for a character at exactly zero (neither positive nor negative).
pub fn generate_spin(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    let gain = rules::generate_spin(c.resource(SPIN)).ok_or_else(|| {
        Refusal::Rule(format!(
            "{} has {} Spin: Spin is generated only at exactly 0",
            c.id,
            c.resource(SPIN)
        ))
    })?;
    // The whole turn: the action, and the interaction and movement with it.
    super::spotlight::take_action(ctx, c)?;
    if ctx.state.encounter().active {
        for slot in [super::spotlight::INTERACTION, super::spotlight::MOVEMENT] {
            ctx.set_turn_counter(&c.id, slot, 1)?;
        }
    }
    ctx.set_resource(&c.id, SPIN, gain)?;
    ctx.note_about(
        &c.id,
        format!("{} spends the turn observing and gains 1 Spin", c.id),
    )
}

/// One 10acity point from a short rest, only at zero.
pub fn recover_tenacity(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    let gain = rules::recover_tenacity(c.resource(TENACITY)).ok_or_else(|| {
        Refusal::Rule(format!(
            "{} still has 10acity: a short rest recovers a point only at 0",
            c.id
        ))
    })?;
    ctx.set_resource(&c.id, TENACITY, gain)?;
    ctx.note_about(
        &c.id,
        format!("{} rests 10 minutes and recovers 1 10acity", c.id),
    )
}

/// A day of care: the healer's impact dice for `skill` go into the patient's recovery.
pub fn care(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let healer = ctx.combatant(&args.require_entity("healer")?)?;
    let patient = ctx.combatant(&args.require_entity("patient")?)?;
    let skill = args.require_text("skill")?.to_ascii_lowercase();
    let (_, _, rank) = sheet_of(&healer)?
        .skill(&skill)
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a skill of {}", healer.id),
            name: skill.clone(),
        })?;
    let dice = rules::impact_dice(rank);
    let added = if dice > 0 {
        let r = roll(&expr(&format!("{dice}d4"))?, ctx.dice)?;
        let total = r.total;
        tell::rolled(ctx, Some(&healer.id), format!("{skill} care"), r, false)?;
        total
    } else {
        0
    };
    let carry = options::carry_recovery(ctx.state.options());
    let (wounds, recovery) = rules::heal(
        patient.resource(WOUNDS),
        patient.resource(RECOVERY),
        added,
        carry,
    );
    ctx.set_resource(&patient.id, WOUNDS, wounds)?;
    ctx.set_resource(&patient.id, RECOVERY, recovery)?;
    ctx.note_about(
        &patient.id,
        format!(
            "{} gains {added} recovery: {wounds} wounds, {recovery} recovery",
            patient.id
        ),
    )
}

/// The narrator's bargain: `remove` negative Spin taken away for a complication, never past 0.
pub fn bargain(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let who = ctx.combatant(&args.require_entity("target")?)?;
    let remove = args.require_int("remove")?;
    let spin = who.resource(SPIN);
    if spin >= 0 {
        return Err(Refusal::Rule(format!("{} has no negative Spin to trade", who.id)).into());
    }
    let after = (spin + remove.max(0)).min(0);
    ctx.set_resource(&who.id, SPIN, after)?;
    ctx.note_about(
        &who.id,
        format!(
            "the narrator trades {} negative Spin of {} for a complication",
            after - spin,
            who.id
        ),
    )
}
