//! Healing by items and techniques: the GM gives the Condition an item or a technique restores
//! (the text gives no amounts). It never lifts Condition above what burnout allows, and a
//! dying character rises only to 0: still dying until stabilised.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;

use super::burnout_levels::condition_cap;
use super::{BURNOUT, CONDITION, DEAD, DYING, sheet_of};

pub fn heal(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let target = args.require_entity("target")?;
    let amount = args.require_int("amount")?;
    let by = args.text("by")?.unwrap_or("healing").to_owned();
    let c = ctx.combatant(&target)?;
    if c.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{target} is dead")).into());
    }
    let dying = c.has_status(DYING);
    let cap = if dying {
        0
    } else {
        condition_cap(sheet_of(&c)?.condition_max, c.resource(BURNOUT))
    };
    let before = c.resource(CONDITION);
    // Condition already above the cap (temporary Condition) is not taken away by healing.
    let after = before.saturating_add(amount).min(cap).max(before);
    let why = if dying && after == 0 && before + amount > 0 {
        ": dying, healing stops at 0 until stabilised"
    } else if after < before.saturating_add(amount) {
        ": no higher than burnout allows"
    } else {
        ""
    };
    ctx.rule_about(
        &target,
        format!(
            "{by} restores {} Condition to {target} ({before} to {after}){why}",
            after - before
        ),
    )?;
    if after != before {
        ctx.set_resource(&target, CONDITION, after)?;
    }
    Ok(())
}
