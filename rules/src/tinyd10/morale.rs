//! Monster morale and reactions, the GM's rolls: when an opponent's ally is slain for the
//! first time, and when more than half of its allies are, the GM rolls a d10 for the group
//! (falters on 2 or less; how they flee is the GM's to play); and the reaction table for a
//! wandering monster met. Both rolls are the GM's alone.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::Kind;
use crate::state::StateView;

use super::DEAD;
use super::checks::{self, MoraleEvent};
use super::content::content;
use super::options::{MORALE_COUNT, is};
use super::tell::{self, Check};

fn had_key(side: &str, event: MoraleEvent) -> String {
    match event {
        MoraleEvent::FirstSlain => format!("morale.first.{side}"),
        MoraleEvent::MoreThanHalf => format!("morale.half.{side}"),
    }
}

/// After `dead` died: the morale checks its side now calls, each rolled once per fight.
pub fn after_death(ctx: &mut Ctx<'_>, dead: &EntityId) -> Result<(), DecideError> {
    let d = ctx.combatant(dead)?;
    if d.kind == Kind::Pc || !ctx.state.encounter().active {
        return Ok(());
    }
    let side = d.side.clone();
    let members: Vec<bool> = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|c| c.side == side && c.kind != Kind::Object)
        .map(|c| c.has_status(DEAD))
        .collect();
    let size = i64::try_from(members.len()).unwrap_or(i64::MAX);
    let slain = i64::try_from(members.iter().filter(|d| **d).count()).unwrap_or(0);
    let had = |e| {
        ctx.state
            .encounter()
            .values
            .get(&had_key(&side, e))
            .copied()
            .unwrap_or(0)
            > 0
    };
    let events = checks::morale_events(
        slain,
        size,
        is(ctx.state.options(), MORALE_COUNT, "others"),
        had(MoraleEvent::FirstSlain),
        had(MoraleEvent::MoreThanHalf),
    );
    for e in events {
        ctx.set_encounter_value(&had_key(&side, e), 1)?;
        let why = match e {
            MoraleEvent::FirstSlain => "its first ally slain",
            MoraleEvent::MoreThanHalf => "more than half its allies slain",
        };
        roll(ctx, dead, &side, why)?;
    }
    Ok(())
}

fn roll(ctx: &mut Ctx<'_>, by: &EntityId, side: &str, why: &str) -> Result<bool, DecideError> {
    let r = super::dice::d10(ctx.dice)?;
    let face = u32::try_from(r.total).unwrap_or(0);
    let falters = checks::morale_falters(face);
    ctx.telling = None;
    tell::check(
        ctx,
        Check {
            who: by,
            label: format!("morale of {side} ({why}): falters on 2 or less"),
            roll: r,
            modifiers: Vec::new(),
            against: None,
            success: Some(!falters),
            words: ("holds", "falters: they may flee, as the GM plays it"),
            because: None,
            hidden: false,
            gm_only: true,
        },
    )?;
    Ok(falters)
}

/// The GM's `morale`: a morale roll for the side of `of`, for whatever reason the GM sees.
pub fn check_action(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let of = ctx.combatant(&args.require_entity("of")?)?;
    roll(ctx, &of.id, &of.side.clone(), "called by the GM")?;
    Ok(())
}

/// The GM's `reaction`: a d10 on the wandering monster reaction table.
pub fn reaction(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    reaction_die(ctx, true)
}

/// A d10 for the reaction table, read when `read` (a monster came) and otherwise drawn and set
/// aside: a wandering check asked with its reaction draws this die whatever the check says, so
/// the count of dice every seat sees does not tell that a monster came. Either way the die is
/// shown to the GM alone.
pub fn reaction_die(ctx: &mut Ctx<'_>, read: bool) -> Result<(), DecideError> {
    let table = content().map_err(|e| Refusal::Rule(e.to_string()))?;
    let r = super::dice::d10(ctx.dice)?;
    let face = u32::try_from(r.total).unwrap_or(0);
    let text = if read {
        let row = table
            .reaction_for(face)
            .ok_or_else(|| Refusal::Rule(format!("no reaction for a {face}")))?;
        format!("wandering monster reaction: {} ({face})", row.text)
    } else {
        format!("wandering monster reaction: not read, nothing comes ({face})")
    };
    ctx.emit(crate::event::Event {
        parts: vec![crate::event::Part {
            audience: crate::event::Audience::GmOnly,
            fact: crate::event::Fact::Rolled {
                by: None,
                purpose: text,
                roll: r,
            },
        }],
    })
}
