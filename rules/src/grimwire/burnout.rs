//! Burnout: four levels of long-term harm, each with a roll penalty and a cap on Condition; and
//! dying and death, which burnout's last level and a fall to 0 Condition both lead to (the two
//! call each other, so they live together).

use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;

use crate::state::Status;

use super::{BURNOUT, CONDITION, DEAD, DEAD_BELOW, DYING, OUT_COLD};

/// Penalty to every roll at a burnout level. The levels' penalties are absolute (-1, -3, -5),
/// not cumulative: the likelier reading (docs/grimwire.md).
pub fn roll_penalty(level: i64) -> i64 {
    match level {
        i64::MIN..=0 => 0,
        1 => -1,
        2 => -3,
        _ => -5,
    }
}

/// Maximum Condition at a burnout level: x0.8 at level 2 and x0.5 at level 3, rounded down.
pub fn condition_cap(max: i64, level: i64) -> i64 {
    match level {
        2 => max.saturating_mul(4) / 5,
        l if l >= 3 => max / 2,
        _ => max,
    }
}

/// Whether specialty techniques are blocked by burnout (level 3 and up).
pub fn blocks_techniques(level: i64) -> bool {
    level >= 3
}

/// Raises burnout by one level (to at most 4) because of `cause`, with what the new level
/// does at once (see [`follow_level`]).
pub fn add_level(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    cause: &str,
    max_condition: i64,
) -> Result<(), DecideError> {
    let from = ctx.combatant(who)?.resource(BURNOUT);
    let to = (from + 1).min(4);
    if to == from {
        return Ok(());
    }
    let level = super::tell::Change {
        key: BURNOUT,
        word: "burnout",
        to,
    };
    super::tell::resources(
        ctx,
        who,
        format!("takes a level of burnout ({cause})"),
        &[level],
    )?;
    follow_level(ctx, who, to, max_condition)
}

/// What being at burnout `level` does to a character at once, however the level came about
/// (a cause in play or a GM ruling): Condition no higher than the level's cap, and at level 4
/// Condition at 0 at most and dying. Levels going down give nothing back: Condition climbs
/// only by rest or ruling.
pub fn follow_level(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    level: i64,
    max_condition: i64,
) -> Result<(), DecideError> {
    let condition = ctx.combatant(who)?.resource(CONDITION);
    let capped = if level >= 4 {
        condition.min(0)
    } else {
        condition.min(condition_cap(max_condition, level))
    };
    ctx.set_resource(who, CONDITION, capped)?;
    if level >= 4 {
        begin_dying(ctx, who, max_condition, false)?;
    }
    Ok(())
}

/// Marks a character dying and out cold; `with_burnout` adds the burnout level that falling
/// to 0 or below causes (not added when burnout level 4 itself caused the fall).
pub fn begin_dying(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    max: i64,
    with_burnout: bool,
) -> Result<(), DecideError> {
    if ctx.combatant(who)?.has_status(DEAD) {
        return Ok(());
    }
    let status = Status {
        source: "Condition at 0 or below".into(),
        magnitude: 0,
        rounds_left: None,
    };
    ctx.set_status(who, DYING, Some(status.clone()))?;
    ctx.set_status(who, OUT_COLD, Some(status))?;
    if with_burnout {
        add_level(ctx, who, "Condition fell to 0 or below", max)?;
    }
    Ok(())
}

pub fn die(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    ctx.set_status(who, DYING, None)?;
    ctx.set_status(who, OUT_COLD, None)?;
    let status = Status {
        source: format!("Condition below {DEAD_BELOW}"),
        magnitude: 0,
        rounds_left: None,
    };
    ctx.set_status(who, DEAD, Some(status))
}
