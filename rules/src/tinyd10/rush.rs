//! Defensive rush: when an attack hits someone, a warrior of the same side who has the ability,
//! 2 PP and can act is asked first whether to step in. Stepping in is a challenge against the
//! attacker (power against a melee attack, reflex against a ranged one): a win cancels the
//! damage, a loss (a tie included: the attacker holds) puts the damage on the warrior. The
//! text's "within your movement range" is checked when both stand on the grid; off the grid it
//! is the GM's call.

use std::collections::BTreeMap;

use crate::decision::{Closing, PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::grid::distance;
use crate::state::{Combatant, Kind, StateView};
use crate::toolkit::deciders;

use super::attack::{react, steps_of, steps_secret};
use super::checks::Winner;
use super::content::Attribute;
use super::rolls::{self, Side, spend_pp};
use super::{DEAD, GRID, PP, cannot_act, harm, stats_of};

pub const STEP_RUSH: &str = "tinyd10.defensive_rush";
/// Defensive rush's cost.
const COST: i64 = 2;

/// The first ally (by id) who could rush in to protect `t`.
fn guard_for(ctx: &Ctx<'_>, a: &Combatant, t: &Combatant) -> Option<Combatant> {
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .find(|g| {
            g.id != t.id
                && g.id != a.id
                && g.side == t.side
                && g.kind != Kind::Object
                && !g.has_status(DEAD)
                && cannot_act(g).is_none()
                && g.resource(PP) >= COST
                && stats_of(g).is_ok_and(|s| s.has_ability("defensive_rush"))
                && in_reach(ctx, g, t)
        })
}

/// Whether `t` is within `g`'s movement range (unknown off the grid: allowed).
fn in_reach(ctx: &Ctx<'_>, g: &Combatant, t: &Combatant) -> bool {
    let (Some(from), Some(to)) = (g.position, t.position) else {
        return true;
    };
    let speed = stats_of(g).map_or(0, |s| s.speed_ft);
    let cells =
        i64::try_from(distance(from, to, ctx.state.options().diagonal())).unwrap_or(i64::MAX);
    cells.saturating_mul(i64::from(GRID.cell_size)) <= speed
}

/// Asks a guard whether to rush in; `false` when nobody can.
pub fn offer(
    ctx: &mut Ctx<'_>,
    a: &Combatant,
    t: &Combatant,
    amount: i64,
    steps: &[Modifier],
    nonlethal: bool,
    ranged: bool,
) -> Result<bool, DecideError> {
    let Some(g) = guard_for(ctx, a, t) else {
        return Ok(false);
    };
    let data = BTreeMap::from([
        ("attacker".to_owned(), StepValue::Entity(a.id.clone())),
        ("target".to_owned(), StepValue::Entity(t.id.clone())),
        ("amount".to_owned(), StepValue::Int(amount)),
        ("nonlethal".to_owned(), StepValue::Flag(nonlethal)),
        ("ranged".to_owned(), StepValue::Flag(ranged)),
    ]);
    let against = if ranged { "reflex" } else { "power" };
    ctx.ask(PendingStep {
        rule: STEP_RUSH.into(),
        actor: Some(g.id.clone()),
        seats: deciders(&g),
        question: format!(
            "{} hits {} for {amount} damage: rush in (2 PP, a {against} challenge with {}: win and the damage is cancelled, lose and you take it) or let it land?",
            a.id, t.id, a.id
        ),
        options: vec!["rush".into(), "let".into()],
        default: "let".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret: steps_secret(steps),
        ..PendingStep::default()
    })?;
    Ok(true)
}

/// The guard answered.
pub fn resume(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let g = ctx.step_actor(step)?;
    let a = ctx.step_entity(step, "attacker")?;
    let t = ctx.step_entity(step, "target")?;
    let amount = step
        .int("amount")
        .ok_or_else(|| DecideError::malformed(step, "amount"))?;
    let nonlethal = step.flag("nonlethal").unwrap_or(false);
    let ranged = step.flag("ranged").unwrap_or(false);
    let steps = steps_of(step);
    if closing.choice != "rush" {
        return react(ctx, &a, &t, amount, steps, nonlethal);
    }
    spend_pp(ctx, &g.id, COST, "defensive rush")?;
    let attribute = if ranged {
        Attribute::Reflex
    } else {
        Attribute::Power
    };
    let won = rolls::challenge(
        ctx,
        Side {
            who: &g,
            attribute,
            extra: Vec::new(),
        },
        Side {
            who: &a,
            attribute,
            extra: Vec::new(),
        },
        "defensive rush",
    )?;
    if won == Winner::Starter {
        return ctx.note_about(
            &t.id,
            format!("{} rushes in: the blow on {} is cancelled", g.id, t.id),
        );
    }
    ctx.note_about(
        &g.id,
        format!("{} rushes in and takes the blow meant for {}", g.id, t.id),
    )?;
    harm::damage(ctx, &g.id, amount, steps, Some(&a.id), nonlethal)
}
