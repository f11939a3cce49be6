//! Hold: on its turn a character sets its action or its movement aside with a trigger it
//! names; when the trigger comes (the player says so, out of turn) it is used at once. An
//! unused hold lapses when the holder's next turn begins.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};
use crate::toolkit::turns;

use super::{sheet_of, spotlight};

pub const HELD_ACTION: &str = "held_action";
pub const HELD_MOVEMENT: &str = "held_movement";

fn key(what: &str) -> Result<&'static str, Refusal> {
    match what {
        "action" => Ok(HELD_ACTION),
        "movement" => Ok(HELD_MOVEMENT),
        _ => Err(Refusal::bad_argument("what", "is action or movement")),
    }
}

/// `hold --what action|movement --trigger WORDS`, on the holder's turn.
pub fn hold(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let what = args.require_text("what")?;
    let status = key(what)?;
    let trigger = args.require_text("trigger")?.to_owned();
    if what == "action" {
        spotlight::take_action(ctx, c)?;
    } else {
        turns::check_turn(&ctx.state, &c.id)?;
        if c.turn_counter(spotlight::MOVEMENT) > 0 {
            return Err(Refusal::NoneLeft {
                actor: c.id.clone(),
                slot: "movement".into(),
            }
            .into());
        }
        ctx.set_turn_counter(&c.id, spotlight::MOVEMENT, 1)?;
    }
    ctx.set_status(
        &c.id,
        status,
        Some(Status {
            source: c.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    turns::hold(ctx, &c.id, true)?;
    ctx.note_about(&c.id, format!("{} holds its {what} until: {trigger}", c.id))
}

/// `release --what action|movement [--spaces N]`: the trigger has come. A held action gives
/// one action now (the next `check`); a held movement moves now.
pub fn release(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let what = args.require_text("what")?;
    let status = key(what)?;
    if !c.has_status(status) {
        return Err(Refusal::Rule(format!("{} holds no {what}", c.id)).into());
    }
    ctx.set_status(&c.id, status, None)?;
    if what == "action" {
        ctx.set_turn_counter(&c.id, spotlight::RESPONSE, 1)?;
    } else {
        let spaces = args.require_int("spaces")?;
        let most = sheet_of(c)?.movement;
        if !(0..=most).contains(&spaces) {
            return Err(Refusal::bad_argument("spaces", &format!("must be 0 to {most}")).into());
        }
        ctx.note_about(&c.id, format!("{} moves {spaces} spaces", c.id))?;
    }
    let still = [HELD_ACTION, HELD_MOVEMENT]
        .iter()
        .any(|k| *k != status && c.has_status(k));
    turns::hold(ctx, &c.id, still)?;
    ctx.note_about(&c.id, format!("{}'s held {what} is triggered", c.id))
}

/// A hold not used by the start of the holder's next turn lapses.
pub fn lapse(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    for k in [HELD_ACTION, HELD_MOVEMENT] {
        if c.has_status(k) {
            ctx.set_status(&c.id, k, None)?;
        }
    }
    turns::hold(ctx, &c.id, false)
}
