//! The actions that end a status: standing up (the turn's movement) or being helped up (the
//! helper's auxiliary action), waking a sleeper or someone knocked out (an auxiliary action),
//! putting out one's flames (an action) and holding pressure on a wound (the holder's turn).

use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{StateView, Status};

use super::economy::{
    AUX_USED, FREE_USED, MOVE_CLOSED, MOVED_M, require_reach, require_turn, spend_auxiliary,
};
use super::grapple::spend_action_held;
use super::status::{ASLEEP, BLEEDING, BURNING, KNOCKED_DOWN, KNOCKED_OUT, PRESSED, REACH_M};
use super::{DYING, OUT_COLD};

fn lacks(who: &EntityId, what: &str) -> DecideError {
    Refusal::Rule(format!("{who} is not {what}")).into()
}

/// Stands up: in a fight it takes the turn's movement, all of it, so none may have been made.
pub fn stand(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let c = ctx.combatant(who)?;
    if !c.has_status(KNOCKED_DOWN) {
        return Err(lacks(who, "knocked down"));
    }
    if ctx.state.encounter().active {
        if c.turn_counter(MOVED_M) != 0 || c.turn_counter(MOVE_CLOSED) != 0 {
            return Err(Refusal::NoneLeft {
                actor: who.clone(),
                slot: "movement (standing up takes all of it)".into(),
            }
            .into());
        }
        ctx.set_turn_counter(who, MOVE_CLOSED, 1)?;
    }
    ctx.set_status(who, KNOCKED_DOWN, None)?;
    ctx.note_about(
        who,
        format!("{who} gets up, giving up this turn's movement"),
    )
}

/// Helps `target` up: the helper's auxiliary action, and the helped keeps their movement.
pub fn help_up(ctx: &mut Ctx<'_>, who: &EntityId, target: &EntityId) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    if ctx.combatant(who)?.has_status(KNOCKED_DOWN) {
        return Err(Refusal::Rule(format!("{who} is down too: stand up first")).into());
    }
    if !ctx.combatant(target)?.has_status(KNOCKED_DOWN) {
        return Err(lacks(target, "knocked down"));
    }
    require_reach(ctx, who, target, REACH_M)?;
    spend_auxiliary(ctx, who)?;
    ctx.set_status(target, KNOCKED_DOWN, None)?;
    ctx.note_about(target, format!("{who} helps {target} up"))
}

/// Wakes a sleeper or someone knocked out at once: an auxiliary action. Out cold takes ten
/// minutes of a conscious character's care, so only outside a fight, and never while dying
/// (stabilising comes first); other unconsciousness ends with its cause.
pub fn wake(ctx: &mut Ctx<'_>, who: &EntityId, target: &EntityId) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let t = ctx.combatant(target)?;
    if t.has_status(OUT_COLD) && !t.has_status(ASLEEP) && !t.has_status(KNOCKED_OUT) {
        if t.has_status(DYING) {
            return Err(Refusal::Rule(format!(
                "{target} is dying: stabilise them first, then they can be tended"
            ))
            .into());
        }
        if ctx.state.encounter().active {
            return Err(Refusal::Rule(format!(
                "{target} is out cold: ten minutes of care, which a fight does not leave (or the GM rules it)"
            ))
            .into());
        }
        require_reach(ctx, who, target, REACH_M)?;
        ctx.set_status(target, OUT_COLD, None)?;
        return ctx.note_about(
            target,
            format!("{who} tends {target} for ten minutes, and {target} comes round"),
        );
    }
    let key = [ASLEEP, KNOCKED_OUT]
        .into_iter()
        .find(|k| t.has_status(k))
        .ok_or_else(|| lacks(target, "asleep, knocked out or out cold"))?;
    require_reach(ctx, who, target, REACH_M)?;
    spend_auxiliary(ctx, who)?;
    ctx.set_status(target, key, None)?;
    ctx.note_about(target, format!("{who} wakes {target}"))
}

/// Puts out the flames on one's body: an action. Whether the character is still in the fire
/// (and so burns again) is the GM's to say, by setting `burning` again.
pub fn extinguish(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    if !ctx.combatant(who)?.has_status(BURNING) {
        return Err(lacks(who, "burning"));
    }
    if !spend_action_held(ctx, who, "putting out the flames")? {
        return Ok(());
    }
    ctx.set_status(who, BURNING, None)?;
    ctx.note_about(who, format!("{who} puts out the flames"))
}

/// Holds pressure on `target`'s wound (one's own or another's within reach): the wound does
/// not bleed until the holder's next turn begins, and holding it is all the holder does this
/// turn (the action, and no auxiliary, free action or movement after it).
pub fn hold_pressure(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    if !ctx.combatant(target)?.has_status(BLEEDING) {
        return Err(lacks(target, "bleeding"));
    }
    require_reach(ctx, who, target, REACH_M)?;
    if !spend_action_held(ctx, who, "holding pressure")? {
        return Ok(());
    }
    if ctx.state.encounter().active {
        for counter in [AUX_USED, FREE_USED, MOVE_CLOSED] {
            ctx.set_turn_counter(who, counter, 1)?;
        }
    }
    ctx.set_status(
        target,
        PRESSED,
        Some(Status {
            source: who.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        target,
        format!("{who} holds pressure on {target}'s wound: it does not bleed while held"),
    )
}
