//! Guns that must be reloaded: a black-powder gun holds one shot. Firing it leaves it
//! `unloaded.<weapon>` with the rounds of reloading its sheet's tier asks for; `reload` works
//! them off, a round's action each. A reload time of 0 is an immediate action, folded into the
//! shot. Out of a fight there is time enough: the gun is loaded at once.
//!
//! The gun's state is a status on its holder; an NPC's (which names its weapon) is the GM's.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Audience;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::round::{How, spend};
use super::sheet::{Weapon, WeaponKind};
use super::{jam_key, sheet_of, unloaded_key};

/// Who may see a status on `who`'s gun: everyone, or the GM alone for an NPC.
pub fn gun_audience(ctx: &Ctx<'_>, who: &EntityId) -> Audience {
    let npc = ctx
        .state
        .combatant(who)
        .is_some_and(crate::redact::gm_only_numbers);
    if npc {
        Audience::GmOnly
    } else {
        Audience::Everyone
    }
}

/// The refusal for firing `w` while it is unloaded, if it is.
pub fn loaded(c: &Combatant, w: &Weapon) -> Result<(), Refusal> {
    match c.statuses.get(&unloaded_key(&w.id)) {
        Some(s) => Err(Refusal::Rule(format!(
            "{} is not loaded: reload it first (`reload --weapon {}`, {})",
            w.name,
            w.id,
            rounds(s.magnitude)
        ))),
        None => Ok(()),
    }
}

fn rounds(n: i64) -> String {
    match n {
        0 => "an immediate action".to_owned(),
        1 => "1 round".to_owned(),
        n => format!("{n} rounds"),
    }
}

/// A gun fired (whatever became of the shot): it holds no ball until reloaded. A reload time
/// of 0 is an immediate action, which the server folds into the shot (COVERAGE: immediate
/// actions are not counted apart), so such a gun is never left unloaded.
pub fn fired(ctx: &mut Ctx<'_>, shooter: &EntityId, w: &Weapon) -> Result<(), DecideError> {
    if w.kind != WeaponKind::Gun || w.reload_time() <= 0 {
        return Ok(());
    }
    let audience = gun_audience(ctx, shooter);
    ctx.set_status_for(
        audience,
        shooter,
        &unloaded_key(&w.id),
        Some(Status {
            source: "fired".into(),
            magnitude: w.reload_time(),
            rounds_left: None,
        }),
    )
}

/// `reload --weapon W`: a round of work on an unloaded gun, or all of it when the time is 0 or
/// there is no fight.
pub fn reload(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args, how: How) -> Result<(), DecideError> {
    let id = args.require_text("weapon")?;
    let w = sheet_of(c)?
        .weapon(Some(id))
        .filter(|w| w.kind == WeaponKind::Gun)
        .ok_or_else(|| Refusal::bad_argument("weapon", "is not a gun on this sheet"))?;
    if c.statuses.contains_key(&jam_key(&w.id)) {
        return Err(Refusal::Rule(format!(
            "{} is jammed: it must be cleared before it can be reloaded",
            w.name
        ))
        .into());
    }
    let Some(left) = c.statuses.get(&unloaded_key(&w.id)).map(|s| s.magnitude) else {
        return Err(Refusal::Rule(format!("{} is loaded already", w.name)).into());
    };
    let audience = gun_audience(ctx, &c.id);
    let key = unloaded_key(&w.id);
    let done = |ctx: &mut Ctx<'_>, how_long: &str| -> Result<(), DecideError> {
        ctx.set_status_for(audience.clone(), &c.id, &key, None)?;
        ctx.note_about(&c.id, format!("{} reloads the {}{how_long}", c.id, w.name))
    };
    if how == How::Free {
        return done(ctx, " (no fight: time enough)");
    }
    if left <= 0 {
        return done(ctx, " at once (an immediate action)");
    }
    spend(ctx, &c.id, how)?;
    if left == 1 {
        return done(ctx, ": loaded (reloading provokes opportunity attacks)");
    }
    ctx.set_status_for(
        audience.clone(),
        &c.id,
        &key,
        Some(Status {
            source: "fired".into(),
            magnitude: left - 1,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        &c.id,
        format!(
            "{} works at reloading the {}: {} more (reloading provokes opportunity attacks)",
            c.id,
            w.name,
            rounds(left - 1)
        ),
    )
}
