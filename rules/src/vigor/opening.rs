//! Openings: a creature that flees or stands up from prone lets the foes within reach of it
//! strike once each, as a reaction, for 5 Vigor. Each foe is asked in turn (its own window, in
//! id order); the one who created the opening is in its own turn, so it cannot react to them.

use std::collections::BTreeMap;

use crate::decision::{PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};
use crate::toolkit::deciders;

use super::attack::{cannot_react, first_weapon, strike_once};
use super::reach::reaches;
use super::round::spend;
use super::{VIGOR, settle, sheet_of};

pub const STEP_OPENING: &str = "vigor.opening";
/// Vigor a Take Opening costs.
pub const OPENING_COST: i64 = 5;

/// Foes of `c` whose weapon reaches it and who could react now, in id order.
pub fn takers(ctx: &Ctx<'_>, c: &Combatant) -> Vec<EntityId> {
    if c.position.is_none() {
        return Vec::new();
    }
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| o.side != c.side && cannot_react(ctx, o).is_none())
        .filter(|o| {
            let reach = sheet_of(o)
                .ok()
                .and_then(first_weapon)
                .map_or(6, |w| w.reach_ft);
            o.position.is_some() && reaches(ctx, o, c, reach)
        })
        .map(|o| o.id)
        .collect()
}

/// Offers the opening `c` created (`how`: "flees", "stands up") to the first taker; the rest
/// wait in the step's data.
pub fn offer(ctx: &mut Ctx<'_>, c: &Combatant, how: &str) -> Result<(), DecideError> {
    let queue = takers(ctx, c);
    ask_next(ctx, &c.id, how, queue)
}

fn ask_next(
    ctx: &mut Ctx<'_>,
    opener: &EntityId,
    how: &str,
    mut queue: Vec<EntityId>,
) -> Result<(), DecideError> {
    if queue.is_empty() {
        return Ok(());
    }
    let taker = queue.remove(0);
    let t = ctx.combatant(&taker)?;
    let data = BTreeMap::from([
        ("opener".to_owned(), StepValue::Entity(opener.clone())),
        ("how".to_owned(), StepValue::Text(how.to_owned())),
        ("queue".to_owned(), StepValue::Entities(queue)),
    ]);
    ctx.ask(PendingStep {
        rule: STEP_OPENING.into(),
        actor: Some(taker.clone()),
        seats: deciders(&t),
        question: format!(
            "{opener} {how} within {taker}'s reach: take the opening (an attack for {OPENING_COST} Vigor)?"
        ),
        options: vec!["take_opening".into(), "let_go".into()],
        default: "let_go".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        ..PendingStep::default()
    })?;
    Ok(())
}

pub fn resume(ctx: &mut Ctx<'_>, step: &PendingStep, choice: &str) -> Result<(), DecideError> {
    let bad = |what: &str| DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("the step has no {what}"),
    };
    let taker = step.actor.clone().ok_or_else(|| bad("actor"))?;
    let opener = step
        .entity("opener")
        .cloned()
        .ok_or_else(|| bad("opener"))?;
    let how = step.text("how").unwrap_or("moves").to_owned();
    let queue = step
        .entities("queue")
        .map(<[_]>::to_vec)
        .unwrap_or_default();
    if choice == "take_opening" {
        let t = ctx.combatant(&taker)?;
        let vigor = t.resource(VIGOR);
        if vigor < OPENING_COST {
            return Err(Refusal::InsufficientResource {
                resource: "Vigor".into(),
                needed: OPENING_COST,
                available: vigor,
            }
            .into());
        }
        ctx.set_resource(&taker, VIGOR, vigor - OPENING_COST)?;
        settle(ctx, &taker, "take opening")?;
        let weapon = first_weapon(sheet_of(&t)?).ok_or_else(|| bad("weapon"))?;
        strike_once(ctx, &taker, &opener, weapon)?;
    }
    let still = ctx.combatant(&opener)?;
    if still.has_status(super::DEAD) {
        return Ok(());
    }
    ask_next(ctx, &opener, &how, queue)
}

/// Escape: the text gives the flight no roll and no result, so the server spends the action,
/// offers the openings and leaves where the creature ends up to the GM.
pub fn escape(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    spend(ctx, c, 1)?;
    ctx.note_about(
        &c.id,
        format!("{} tries to escape; the GM rules where it gets to", c.id),
    )?;
    offer(ctx, c, "flees")
}
