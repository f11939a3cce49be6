//! Burnout as it happens: a level taken and what it does at once; and dying and death, which
//! burnout's last level and a fall to 0 Condition both lead to (the two call each other, so
//! they live together). What each level does to the numbers is `burnout_levels`.

use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;

use crate::state::Status;

use super::burnout_levels::condition_cap;
use super::{BURNOUT, CONDITION, DEAD, DEAD_BELOW, DYING, OUT_COLD};

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
/// Condition at 0 at most and dying (out cold instead, Condition untouched, when any of the
/// levels is agony's). Levels going down give nothing back: Condition climbs only by rest or
/// ruling.
pub fn follow_level(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    level: i64,
    max_condition: i64,
) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    if level >= 4 && super::agony::levels(&c) > 0 {
        // Agony cannot kill: its last level leaves Condition alone and the character out cold.
        if !c.has_status(OUT_COLD) && !c.has_status(DEAD) {
            let status = Status {
                source: "pain".into(),
                magnitude: 0,
                rounds_left: None,
            };
            super::status::fall_senseless(ctx, who, OUT_COLD, status)?;
            ctx.note_about(
                who,
                format!("{who} passes out from the pain: out cold, not dying"),
            )?;
        }
        return Ok(());
    }
    let condition = c.resource(CONDITION);
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
    super::status::fall_senseless(ctx, who, OUT_COLD, status)?;
    if with_burnout {
        add_level(ctx, who, "Condition fell to 0 or below", max)?;
    }
    Ok(())
}

pub fn die(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    super::grapple::died(ctx, who)?;
    super::status::clear_mind(ctx, who)?;
    if ctx.combatant(who)?.resource(super::temp::TEMP) != 0 {
        ctx.set_resource(who, super::temp::TEMP, 0)?;
    }
    ctx.set_status(who, DYING, None)?;
    ctx.set_status(who, OUT_COLD, None)?;
    let status = Status {
        source: format!("Condition below {DEAD_BELOW}"),
        magnitude: 0,
        rounds_left: None,
    };
    ctx.set_status(who, DEAD, Some(status))
}
