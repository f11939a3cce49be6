//! Moving in a fight: the turn's movement sequence, up to the speed (half of it when standing
//! up from prone), and the two rogue abilities that stretch it. Haste gives up the turn's
//! attack for one sequence of up to double the speed. Tactical retreat (1 PP), open after a
//! successful melee attack this turn even when the rogue has moved already, steps to just
//! outside the opponent's movement range: the first cells past it. The text sets where the
//! retreat ends, not how far the rogue may run, so its length is not the rogue's speed, and it
//! leaves the turn's own movement sequence as it was.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::grid::{Cell, distance};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::rolls::spend_pp;
use super::round::{require_turn, spend};
use super::sheet::Stats;
use super::{ACTION, GRID, MOVE, PP, PRONE, RETREAT, stats_of};

/// Tactical retreat's cost.
pub const RETREAT_COST: i64 = 1;
/// How many times its speed Haste lets a creature move.
pub const HASTE_TIMES: i64 = 2;

/// Feet a movement sequence covers: the speed, half of it when standing up from prone.
pub fn move_feet(speed: i64, prone: bool) -> i64 {
    if prone { speed / 2 } else { speed }
}

/// Feet between two cells, as the table counts diagonals.
pub fn feet_between(ctx: &Ctx<'_>, a: Cell, b: Cell) -> i64 {
    let cells = distance(a, b, ctx.state.options().diagonal());
    i64::try_from(cells)
        .unwrap_or(i64::MAX)
        .saturating_mul(i64::from(GRID.cell_size))
}

pub fn movement(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let to = args
        .cell("to")?
        .ok_or_else(|| Refusal::bad_argument("to", "is required"))?;
    let from = c
        .position
        .ok_or_else(|| Refusal::Rule(format!("{} is not on the grid", c.id)))?;
    let haste = args.flag("haste")?;
    if args.flag("retreat")? {
        if haste {
            return Err(Refusal::bad_argument("retreat", "is not taken with haste").into());
        }
        return retreat(ctx, c, from, to);
    }
    let stats = stats_of(c)?;
    if haste && !stats.has_ability("haste") {
        return Err(Refusal::Rule(format!("{} does not have haste", c.id)).into());
    }
    let prone = c.has_status(PRONE);
    let speed = if haste {
        stats.speed_ft * HASTE_TIMES
    } else {
        stats.speed_ft
    };
    let limit = move_feet(speed, prone);
    let feet = feet_between(ctx, from, to);
    if feet > limit {
        return Err(Refusal::OutOfRange {
            what: format!("cell ({}, {})", to.x, to.y),
            distance: feet,
            limit,
            unit: GRID.unit.into(),
        }
        .into());
    }
    if haste {
        require_turn(ctx, c)?;
        if ctx.combatant(&c.id)?.resource(ACTION) < 1 {
            return Err(Refusal::NoneLeft {
                actor: c.id.clone(),
                slot: "attack to give up for haste".into(),
            }
            .into());
        }
    }
    spend(ctx, c, MOVE)?;
    if haste {
        spend(ctx, c, ACTION)?;
        ctx.note_about(
            &c.id,
            format!(
                "{} gives up its attack to move up to {limit} ft (haste)",
                c.id
            ),
        )?;
    }
    stand_up(ctx, c)?;
    ctx.emit(Event::public(Fact::Moved {
        entity: c.id.clone(),
        from: Some(from),
        to: Some(to),
    }))
}

fn stand_up(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    if c.has_status(PRONE) {
        ctx.set_status(&c.id, PRONE, None)?;
        ctx.note_about(&c.id, format!("{} stands up: half movement", c.id))?;
    }
    Ok(())
}

/// After `c`'s successful melee attack on `t`: a rogue with Tactical retreat may now retreat
/// from `t` (until the turn ends).
pub fn may_retreat(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    t: &Combatant,
) -> Result<(), DecideError> {
    if !stats.has_ability("tactical_retreat") {
        return Ok(());
    }
    ctx.set_status(
        &c.id,
        RETREAT,
        Some(Status {
            source: t.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

/// Tactical retreat to `to`: just outside the movement range of the opponent last struck.
fn retreat(ctx: &mut Ctx<'_>, c: &Combatant, from: Cell, to: Cell) -> Result<(), DecideError> {
    require_turn(ctx, c)?;
    let Some(open) = c.statuses.get(RETREAT).cloned() else {
        return Err(Refusal::Rule(format!(
            "{} has no tactical retreat to take: it follows a successful melee attack this turn",
            c.id
        ))
        .into());
    };
    let foe = ctx.combatant(&EntityId::from(open.source.as_str()))?;
    let have = c.resource(PP);
    if have < RETREAT_COST {
        return Err(Refusal::InsufficientResource {
            resource: "power points for tactical retreat".into(),
            needed: RETREAT_COST,
            available: have,
        }
        .into());
    }
    let Some(at) = foe.position else {
        return Err(Refusal::Rule(format!(
            "{} is not on the grid: the GM places a retreat from it",
            foe.id
        ))
        .into());
    };
    let range = move_feet(stats_of(&foe)?.speed_ft, foe.has_status(PRONE));
    let away = feet_between(ctx, at, to);
    let just_outside = range + i64::from(GRID.cell_size);
    if away != just_outside {
        // The foe's speed is the GM's for the GM's creature: the refusal keeps it out.
        let message = if crate::redact::gm_only_numbers(&foe) {
            format!(
                "a tactical retreat ends just outside {}'s movement range, and {away} ft from it is not there; the GM knows its speed",
                foe.id
            )
        } else {
            format!(
                "a tactical retreat ends just outside {}'s movement range of {range} ft: {just_outside} ft from it, not {away}",
                foe.id
            )
        };
        return Err(Refusal::Rule(message).into());
    }
    spend_pp(ctx, &c.id, RETREAT_COST, "tactical retreat")?;
    ctx.set_status(&c.id, RETREAT, None)?;
    stand_up(ctx, c)?;
    ctx.note_about(
        &c.id,
        format!(
            "{} retreats from {} to just outside its reach (tactical retreat)",
            c.id, foe.id
        ),
    )?;
    ctx.emit(Event::public(Fact::Moved {
        entity: c.id.clone(),
        from: Some(from),
        to: Some(to),
    }))
}
