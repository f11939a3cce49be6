//! Afflictions that change a creature's rolls, and the round's end that wears the timed ones
//! off. Dazed (Critical strike) takes its magnitude off every roll; blinded (Radiant strike)
//! takes its magnitude off attacks and off rolls made with reflex, once even for a ranged
//! attack that is both (the text lists the two penalties, not a double one). Only the rolls a
//! creature makes read them: a toughness is not a roll.

use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::EntityId;
use crate::state::Status;

use super::content::Attribute;
use super::{APPEAL, BLINDED, DAZED, MAGICAL_POWER, PARALYZED, PRIED, THUNDEROUS};

/// Statuses that count their rounds down at each round's end and go at none left.
pub const TIMED: [&str; 8] = [
    super::care::STRENGTH,
    DAZED,
    BLINDED,
    PARALYZED,
    MAGICAL_POWER,
    PRIED,
    APPEAL,
    THUNDEROUS,
];

/// What `who`'s afflictions take off a roll made with `attribute` (none for a bare d10, such
/// as Call to battle's; an attack when `attack`),
/// read from the state as this command has left it, so an affliction put on earlier in the
/// same command already counts.
pub fn penalties(
    ctx: &Ctx<'_>,
    who: &EntityId,
    attack: bool,
    attribute: Option<Attribute>,
) -> Result<Vec<Modifier>, DecideError> {
    let c = ctx.combatant(who)?;
    let mut out = Vec::new();
    if let Some(s) = c.statuses.get(DAZED) {
        out.push(Modifier::new("dazed", s.magnitude));
    }
    if let Some(s) = c.statuses.get(BLINDED)
        && (attack || attribute == Some(Attribute::Reflex))
    {
        out.push(Modifier::new("blinded", s.magnitude));
    }
    Ok(out)
}

/// The round ends: each timed status on `who` has a round fewer left, and goes at none.
pub fn wear_off(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for key in TIMED {
        let Some(s) = c.statuses.get(key).cloned() else {
            continue;
        };
        let left = s.rounds_left.unwrap_or(1).saturating_sub(1);
        let to = (left > 0).then_some(Status {
            rounds_left: Some(left),
            ..s
        });
        ctx.set_status(who, key, to)?;
    }
    Ok(())
}

/// Puts `status` of `magnitude` on `who` for `rounds` rounds, from `source`. A creature
/// already under it keeps whichever lasts longer (two dazes do not add up: the text gives
/// each its own duration, not a sum).
pub fn afflict(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    status: &str,
    magnitude: i64,
    rounds: i64,
    source: &str,
) -> Result<(), DecideError> {
    let rounds = u32::try_from(rounds.max(1)).unwrap_or(1);
    let now = ctx.combatant(who)?.statuses.get(status).cloned();
    if now
        .as_ref()
        .is_some_and(|s| s.rounds_left.unwrap_or(0) >= rounds)
    {
        return Ok(());
    }
    ctx.set_status(
        who,
        status,
        Some(Status {
            source: source.to_owned(),
            magnitude,
            rounds_left: Some(rounds),
        }),
    )
}
