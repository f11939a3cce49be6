//! Clearing a jammed gun. The jam table says what each result asks: a minor jam (6) clears
//! itself within the round, so the gun is free when the next round begins; a failure (5) or a
//! major jam (4) takes a Craft check at the gun's basic difficulty, the round's action (and a
//! major jam's gun, fired, still waits for its reload); a severe malfunction (3) is out for the
//! fight and fixed after it with a Craft (Gunsmith) check; a breakdown (2) needs a workshop,
//! a burst gun (1) nothing can mend. Every difficulty is the GM's (the equipment chapter that
//! gives the basic ones is not in the text), and so is the attribute that goes with Craft:
//! the GM runs the check with `clear_jam`.

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::refusal::Refusal;
use crate::state::StateView;

use super::attack::d10;
use super::care::attribute;
use super::checks;
use super::options::{CHECK_TIES, is};
use super::reload::gun_audience;
use super::round::{How, may_act, spend};
use super::sheet::WeaponKind;
use super::tell::{self, Check};
use super::{jam_key, sheet_of};

/// The jam table's minor jam: cleared within the round.
const MINOR: i64 = 6;

/// At a new round, minor jams are gone: the gun fires again.
pub fn minor_jams_clear(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.encounter().order.clone() {
        let c = ctx.combatant(&id)?;
        let jammed: Vec<String> = c
            .statuses
            .iter()
            .filter(|(key, s)| key.starts_with("jam.") && s.magnitude == MINOR)
            .map(|(key, _)| key.clone())
            .collect();
        for key in jammed {
            let audience = gun_audience(ctx, &id);
            ctx.set_status_for(audience, &id, &key, None)?;
        }
    }
    Ok(())
}

/// `clear_jam --target X --weapon W --difficulty N --attribute A` (the GM): X's Craft check
/// against N to clear W's jam; in a fight it takes X's action for the round.
pub fn clear_jam(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let c = ctx.combatant(&args.require_entity("target")?)?;
    let id = args.require_text("weapon")?;
    let w = sheet_of(&c)?
        .weapon(Some(id))
        .filter(|w| w.kind == WeaponKind::Gun)
        .ok_or_else(|| Refusal::bad_argument("weapon", "is not a gun on that sheet"))?;
    let Some(face) = c.statuses.get(&jam_key(&w.id)).map(|s| s.magnitude) else {
        return Err(Refusal::Rule(format!("{}'s {} is not jammed", c.id, w.name)).into());
    };
    let fighting = ctx.state.encounter().active;
    let refuse = |why: &str| Err(Refusal::Rule(format!("{}: {why}", w.name)).into());
    match face {
        1 => return refuse("it burst; nothing is left to clear"),
        2 => return refuse("only a workshop mends it (the GM clears it by ruling then)"),
        3 if fighting => return refuse("out for this fight; a gunsmith fixes it after"),
        MINOR => return refuse("a minor jam clears itself within the round"),
        _ => {}
    }
    let difficulty = args.require_int("difficulty")?;
    let name = args.require_text("attribute")?;
    let modifiers = vec![
        Modifier::new(name, attribute(&c, name)?),
        Modifier::new("Craft", sheet_of(&c)?.skills.craft),
    ];
    let how = if fighting {
        may_act(ctx, &c, "clear_jam")?
    } else {
        How::Free
    };
    spend(ctx, &c.id, how)?;
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let total = tell::total(&roll, &modifiers);
    let ok = checks::passes(
        total,
        difficulty,
        is(ctx.state.options(), CHECK_TIES, "succeeds"),
    );
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "works on".into(),
        target: None,
        instrument: Some(format!("the jammed {}", w.name)),
    });
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "Craft".into(),
            roll,
            modifiers,
            against: Some((difficulty, "repair difficulty")),
            success: Some(ok),
            words: ("clears the jam", "fails to clear the jam"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    if ok {
        let audience = gun_audience(ctx, &c.id);
        ctx.set_status_for(audience, &c.id, &jam_key(&w.id), None)?;
    }
    Ok(())
}
