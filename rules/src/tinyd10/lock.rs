//! Battle lock (warrior): an opponent that leaves the warrior's immediate area in a fight (it
//! stood in a cell next to the warrior and moves to one that is not) gives the warrior an
//! attack on it, outside the warrior's turn and spending nothing. The warrior's seat is asked,
//! strike or let it go; the blow is the first melee attack on the warrior's sheet. Only a move
//! on the grid leaves an area; a token the GM moves by ruling sets nothing off.

use std::collections::BTreeMap;

use crate::decision::{Closing, PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::grid::{Cell, distance};
use crate::ids::EntityId;
use crate::state::{Combatant, Kind, StateView};
use crate::system::Happening;
use crate::toolkit::deciders;

use super::attack::{Declared, ready_melee, strike_one};
use super::{DEAD, cannot_act, stats_of};

pub const STEP_LOCK: &str = "tinyd10.battle_lock";

/// Offers Battle lock's attack for every move of this command that left a warrior's area.
pub fn after_moves(ctx: &mut Ctx<'_>, happened: &[Happening]) -> Result<(), DecideError> {
    if !ctx.state.encounter().active {
        return Ok(());
    }
    for h in happened {
        if let Happening::Moved {
            entity,
            from: Some(from),
            to: Some(to),
        } = h
        {
            offer(ctx, entity, *from, *to)?;
        }
    }
    Ok(())
}

/// Whether `a` and `b` are in each other's immediate area: the same or a neighbouring cell.
fn next_to(ctx: &Ctx<'_>, a: Cell, b: Cell) -> bool {
    distance(a, b, ctx.state.options().diagonal()) <= 1
}

fn offer(ctx: &mut Ctx<'_>, mover: &EntityId, from: Cell, to: Cell) -> Result<(), DecideError> {
    let m = ctx.combatant(mover)?;
    if m.has_status(DEAD) {
        return Ok(());
    }
    let wardens: Vec<Combatant> = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|g| {
            g.id != m.id
                && g.side != m.side
                && g.kind != Kind::Object
                && cannot_act(g).is_none()
                && g.position
                    .is_some_and(|p| next_to(ctx, p, from) && !next_to(ctx, p, to))
                && stats_of(g).is_ok_and(|s| {
                    s.has_ability("battle_lock") && s.attacks.iter().any(|a| a.kind.is_melee())
                })
        })
        .collect();
    for g in wardens {
        ctx.ask(PendingStep {
            rule: STEP_LOCK.into(),
            actor: Some(g.id.clone()),
            seats: deciders(&g),
            question: format!(
                "{} leaves {}'s reach: strike at it (battle lock) or let it go?",
                m.id, g.id
            ),
            options: vec!["strike".into(), "let".into()],
            default: "let".into(),
            timeout_ms: ctx.state.options().decision_timeout_ms(),
            data: BTreeMap::from([("target".to_owned(), StepValue::Entity(m.id.clone()))]),
            ..PendingStep::default()
        })?;
    }
    Ok(())
}

/// The warrior answered: on `strike`, its first melee attack on the one leaving.
pub fn resume(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    if closing.choice != "strike" {
        return Ok(());
    }
    let g = ctx.step_actor(step)?;
    let t = ctx.step_entity(step, "target")?;
    // Whatever else was answered first may have left one of them unable to strike or be struck.
    if cannot_act(&g).is_some() || t.has_status(DEAD) {
        return Ok(());
    }
    let Some(w) = ready_melee(&g, &stats_of(&g)?) else {
        return Ok(());
    };
    ctx.note_about(
        &g.id,
        format!("{} strikes at {} as it leaves (battle lock)", g.id, t.id),
    )?;
    strike_one(ctx, &g, &w, &Declared::plain(), None, &t, true)
}
