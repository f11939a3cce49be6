//! Ready: an action now sets an attack aside for a condition, said in words. If the condition
//! comes before the readier's next turn begins, the GM (who judges words) springs it, and the
//! attack is made at once as a reaction: not in the readier's turn, by a creature that can
//! react, with no Vigor cost since the text names none. At the readier's next turn it lapses.

use std::collections::BTreeMap;

use crate::action::Args;
use crate::decision::{PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::deciders;

use super::attack::{cannot_react, first_weapon, strike_once};
use super::round::spend;
use super::sheet_of;

pub const STEP_READY: &str = "vigor.ready";

pub fn ready(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let trigger = args
        .text("trigger")?
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| Refusal::bad_argument("trigger", "is required: when should it happen?"))?
        .to_owned();
    let target = ctx.combatant(&args.require_entity("target")?)?;
    let sheet = sheet_of(c)?;
    let weapon = match args.text("weapon")? {
        None => first_weapon(sheet),
        Some(id) => sheet.weapon(Some(id)),
    }
    .ok_or_else(|| Refusal::UnknownName {
        system: super::ID.into(),
        what: format!("a weapon on {}'s sheet", c.id),
        name: args.text("weapon").ok().flatten().unwrap_or("").to_owned(),
    })?;
    if readied(ctx, &c.id).is_some() {
        return Err(Refusal::Rule(format!("{} already has an action readied", c.id)).into());
    }
    spend(ctx, c, 1)?;
    let data = BTreeMap::from([
        ("target".to_owned(), StepValue::Entity(target.id.clone())),
        ("weapon".to_owned(), StepValue::Text(weapon.id.clone())),
    ]);
    ctx.defer(PendingStep {
        rule: STEP_READY.into(),
        actor: Some(c.id.clone()),
        seats: deciders(c),
        question: format!("{} readies an attack on {}: {trigger}", c.id, target.id),
        trigger: Some(trigger),
        data,
        ..PendingStep::default()
    })?;
    Ok(())
}

/// The readied step of `who`, if any.
fn readied(ctx: &Ctx<'_>, who: &EntityId) -> Option<PendingStep> {
    ctx.state
        .encounter()
        .deferred
        .iter()
        .find(|s| s.rule == STEP_READY && s.actor.as_ref() == Some(who))
        .cloned()
}

/// The GM says the condition has come: the readied attack is made now.
pub fn spring(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let who = args.require_entity("target")?;
    let c = ctx.combatant(&who)?;
    let step =
        readied(ctx, &who).ok_or_else(|| Refusal::Rule(format!("{who} has no action readied")))?;
    if let Some(why) = cannot_react(ctx, &c) {
        return Err(Refusal::Rule(format!("{who} cannot react now: {why}")).into());
    }
    let bad = |what: &str| DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("the step has no {what}"),
    };
    let target = step
        .entity("target")
        .cloned()
        .ok_or_else(|| bad("target"))?;
    let weapon = sheet_of(&c)?
        .weapon(step.text("weapon"))
        .ok_or_else(|| bad("weapon"))?;
    ctx.emit(Event::public(Fact::DeferredResumed {
        prompt_id: step.prompt_id,
    }))?;
    let t = ctx.combatant(&target)?;
    if t.has_status(super::DEAD) {
        return ctx.note_about(&who, format!("{who}'s readied attack has no one to strike"));
    }
    strike_once(ctx, &who, &target, weapon)
}

/// At the start of `who`'s turn its readied action, unused, lapses.
pub fn lapse(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    if let Some(step) = readied(ctx, who) {
        ctx.emit(Event::public(Fact::DeferredResumed {
            prompt_id: step.prompt_id,
        }))?;
        ctx.note_about(who, format!("{who}'s readied action lapses"))?;
    }
    Ok(())
}
