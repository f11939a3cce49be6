//! Shove and trip: the two ways to put a foe off its feet without a weapon's damage.
//!
//! A shove lands like an attack (COR by the attack procedure), then needs the shover's TOG
//! against `grimwire.shove_tog_tn`; made, the target goes back up to 3 m, straight away from
//! the shover, and rolls AGL (against the GM's TN for the shove's force and the ground, or
//! `grimwire.keep_feet_tn`) to stay standing. A trip is AGL against the target's AGL, both
//! rolled; the trip must beat the target's total, and a made trip knocks the target down.
//! Both are the turn's action and reach as far as a melee blow (3 m). A natural 1 on either
//! only fails: nothing goes astray without a weapon.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier, Outcome};
use crate::grid::{Cell, distance};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{StateView, Status};

use super::DEAD;
use super::attack::{MELEE_M, Swing, Verdict, land};
use super::check::{check_tn, gm_tn_hidden};
use super::contest::{Side, contest};
use super::economy::{require_reach, require_turn};
use super::grapple::spend_action_held;
use super::options::{self, KEEP_FEET_TN, SHOVE_TOG_TN};
use super::sheet::Attribute;
use super::status::{self, KNOCKED_DOWN};

/// The farthest a shove pushes.
pub const PUSH_M: i64 = 3;

/// Who is manoeuvred against: another character, alive, within melee reach.
pub(super) fn target_in_reach(
    ctx: &Ctx<'_>,
    who: &EntityId,
    args: &Args,
) -> Result<EntityId, DecideError> {
    let target = args.require_entity("target")?;
    if target == *who {
        return Err(Refusal::Rule(format!("{who} cannot do that to themselves")).into());
    }
    if ctx.combatant(&target)?.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{target} is already dead")).into());
    }
    require_reach(ctx, who, &target, MELEE_M)?;
    Ok(target)
}

pub fn shove(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let target = target_in_reach(ctx, who, args)?;
    let metres = args.int("metres")?.unwrap_or(PUSH_M);
    let situation = args.int("modifier")?.unwrap_or(0);
    let hidden = gm_tn_hidden(&ctx.state, args)?;
    if !spend_action_held(ctx, who, "shove")? {
        return Ok(());
    }
    let mut extra = vec![Modifier::new("situation", situation)];
    extra.extend(status::fighting(&ctx.combatant(who)?));
    let swing = Swing {
        who,
        target: &target,
        hit_attr: Attribute::COR,
        evade_attr: Attribute::AGL,
        what: "shove",
        extra,
        situation,
        range: 0,
        targeted: false,
        tn_override: args.int("tn")?,
        hidden,
        threshold: 1,
        cover: 0,
        surprise: 0,
        rolled: None,
    };
    if let Verdict::Miss { .. } = land(ctx, &swing)? {
        return say(ctx, format!("{who}'s shove does not reach {target}"));
    }
    let tn = options::int_of(ctx.state.options(), SHOVE_TOG_TN);
    let label = format!("TOG to push {target} back");
    if check_tn(ctx, who, Attribute::TOG, &[], &label, tn, false)? == Outcome::Failure {
        return say(ctx, format!("{target} holds their ground against {who}"));
    }
    push(ctx, who, &target, metres)?;
    // A hold does not reach past 3 m.
    super::grapple::tidy(ctx)?;
    if ctx.combatant(&target)?.has_status(KNOCKED_DOWN) {
        return Ok(());
    }
    let tn = args
        .int("agl_tn")?
        .unwrap_or_else(|| options::int_of(ctx.state.options(), KEEP_FEET_TN));
    let label = "AGL to stay standing after a shove";
    if check_tn(ctx, &target, Attribute::AGL, &[], label, tn, hidden)? == Outcome::Failure {
        knock_down(ctx, &target, &format!("shoved by {who}"))?;
    }
    Ok(())
}

/// Moves `target` up to `metres` straight away from `who`, cell by cell, stopping before a
/// wall or another character (what the collision does is the GM's).
fn push(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    metres: i64,
) -> Result<(), DecideError> {
    let (Some(from), Some(origin)) = (
        ctx.combatant(target)?.position,
        ctx.combatant(who)?.position,
    ) else {
        return say(ctx, format!("{who} shoves {target} back {metres} m"));
    };
    let step = Cell::new((from.x - origin.x).signum(), (from.y - origin.y).signum());
    let diagonal = ctx.state.options().diagonal();
    let mut to = from;
    let mut stopped_by = None;
    while let (Some(x), Some(y)) = (to.x.checked_add(step.x), to.y.checked_add(step.y)) {
        let next = Cell::new(x, y);
        let far = i64::try_from(distance(from, next, diagonal)).unwrap_or(i64::MAX);
        if step == Cell::new(0, 0) || far > metres {
            break;
        }
        if let Some(what) = obstacle(ctx, &|id: &EntityId| id == target, next) {
            stopped_by = Some(what);
            break;
        }
        to = next;
    }
    let gone = i64::try_from(distance(from, to, diagonal)).unwrap_or(i64::MAX);
    if to != from {
        ctx.emit(Event::public(Fact::Moved {
            entity: target.clone(),
            from: Some(from),
            to: Some(to),
        }))?;
    }
    let text = match stopped_by {
        Some(what) => format!(
            "{who} shoves {target} back {gone} m to ({}, {}), against {what}",
            to.x, to.y
        ),
        None => format!(
            "{who} shoves {target} back {gone} m to ({}, {})",
            to.x, to.y
        ),
    };
    say(ctx, text)
}

/// What stands in `cell` and stops a body moved into it, if anything: a wall, or a character
/// other than those `moving`.
pub(super) fn obstacle(
    ctx: &Ctx<'_>,
    moving: &dyn Fn(&EntityId) -> bool,
    cell: Cell,
) -> Option<String> {
    if ctx
        .state
        .encounter()
        .terrain
        .get(&cell)
        .is_some_and(|t| t.blocking)
    {
        return Some("a wall".into());
    }
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter(|id| !moving(id))
        .find(|id| {
            ctx.state
                .combatant(id)
                .is_some_and(|c| c.position == Some(cell))
        })
        .map(|id| id.to_string())
}

pub fn trip(ctx: &mut Ctx<'_>, who: &EntityId, args: &Args) -> Result<(), DecideError> {
    require_turn(ctx, who)?;
    let target = target_in_reach(ctx, who, args)?;
    if ctx.combatant(&target)?.has_status(KNOCKED_DOWN) {
        return Err(Refusal::Rule(format!("{target} is already down")).into());
    }
    let situation = [Modifier::new(
        "situation",
        args.int("modifier")?.unwrap_or(0),
    )];
    if !spend_action_held(ctx, who, "trip")? {
        return Ok(());
    }
    // One who cannot defend (asleep, out cold, paralysed) goes down without a roll.
    if let Some(why) = status::defenceless(&ctx.combatant(&target)?, Attribute::AGL) {
        return knock_down(ctx, &target, &format!("tripped by {who} while {why}"));
    }
    let mine = Side {
        attrs: &[Attribute::AGL],
        label: "trip",
        extra: &situation,
    };
    let theirs = Side {
        attrs: &[Attribute::AGL],
        label: "keep footing",
        extra: &[],
    };
    if contest(ctx, who, &mine, std::slice::from_ref(&target), &theirs)? {
        knock_down(ctx, &target, &format!("tripped by {who}"))
    } else {
        say(
            ctx,
            format!("{target} keeps their footing against {who}'s trip"),
        )
    }
}

/// A line every seat reads: what a shove or trip did says no number of anyone's.
fn say(ctx: &mut Ctx<'_>, text: String) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::Noted { text }))
}

fn knock_down(ctx: &mut Ctx<'_>, who: &EntityId, cause: &str) -> Result<(), DecideError> {
    let status = Status {
        source: cause.to_owned(),
        magnitude: 0,
        rounds_left: None,
    };
    ctx.set_status(who, KNOCKED_DOWN, Some(status))?;
    say(ctx, format!("{who} is knocked down ({cause})"))
}
