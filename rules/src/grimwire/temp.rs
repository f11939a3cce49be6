//! Temporary Condition: a pool that drink (+3) and frenzy give on top of Condition. Damage
//! takes it first; it counts for nothing else (not the cap, not dying, not healing). When the
//! status that gave some ends, the pool loses what that status gave, or all it has left if
//! damage already took part of it.

use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;

use super::status::INEBRIATED;
use super::tell::{Change, resources};

pub const TEMP: &str = "temp_condition";
/// The pool's bound (the resource's declared maximum).
pub const MAX: i64 = 10_000;
/// What drink gives.
pub const DRINK: i64 = 3;

/// What the status `key` with `magnitude` gives: drink its 3; frenzy and amok their
/// magnitude (the text's undefined "critical level", which the GM gives).
pub fn given_by(key: &str, magnitude: i64) -> i64 {
    match key {
        INEBRIATED => DRINK,
        super::status::FRENZY | super::status::AMOK => magnitude.max(0),
        _ => 0,
    }
}

/// `who` gains `amount` of temporary Condition because of `why`.
pub fn gain(ctx: &mut Ctx<'_>, who: &EntityId, amount: i64, why: &str) -> Result<(), DecideError> {
    if amount <= 0 {
        return Ok(());
    }
    let to = ctx
        .combatant(who)?
        .resource(TEMP)
        .saturating_add(amount)
        .min(MAX);
    let change = Change {
        key: TEMP,
        word: "temporary Condition",
        to,
    };
    resources(
        ctx,
        who,
        format!("gains temporary Condition ({why})"),
        &[change],
    )
}

/// The status that gave `amount` ended: the pool loses it, or what is left of it.
pub fn lose(ctx: &mut Ctx<'_>, who: &EntityId, amount: i64, why: &str) -> Result<(), DecideError> {
    let has = ctx.combatant(who)?.resource(TEMP);
    let to = (has - amount.max(0)).max(0);
    if to == has {
        return Ok(());
    }
    let change = Change {
        key: TEMP,
        word: "temporary Condition",
        to,
    };
    resources(
        ctx,
        who,
        format!("loses temporary Condition ({why} is over)"),
        &[change],
    )
}

/// Of `amount` damage, what the pool takes (and loses).
pub fn absorb(ctx: &mut Ctx<'_>, who: &EntityId, amount: i64) -> Result<i64, DecideError> {
    let has = ctx.combatant(who)?.resource(TEMP);
    let taken = has.min(amount.max(0));
    if taken > 0 {
        ctx.set_resource(who, TEMP, has - taken)?;
    }
    Ok(taken)
}
