//! Holding: a grab is an attack; on a hit (not dodged) captor and target roll an opposed
//! check, the captor's Athletics (with a device's Immobilizing bonus) against the target's
//! better of Athletics and Brawl. Caught, both are immobile (+3 to hit either); the contest is
//! rolled again as each round starts, until the captive wins it or the captor lets go.

use crate::account::Telling;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::attack::d10;
use super::options::{HOLD_ATTRIBUTE, is};
use super::tell::{self, Check};
use super::{IMMOBILE, cannot_act, sheet_of};

/// On the captive: held, the captor's id as the source. On the captor: holding, the captive's.
pub const HELD: &str = "held";
pub const HOLDING: &str = "holding";
/// The source the hold gives the immobile status, so that freeing clears only its own.
const SOURCE: &str = "hold";

fn roll_side(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    captor: bool,
    bonus: i64,
) -> Result<i64, DecideError> {
    let s = sheet_of(c)?;
    let mut modifiers = Vec::new();
    if is(ctx.state.options(), HOLD_ATTRIBUTE, "body") {
        modifiers.push(Modifier::new("Body", s.body));
    }
    if captor || s.skills.athletics >= s.skills.brawl {
        modifiers.push(Modifier::new("Athletics", s.skills.athletics));
    } else {
        modifiers.push(Modifier::new("Brawl", s.skills.brawl));
    }
    if bonus != 0 {
        modifiers.push(Modifier::new("Immobilizing", bonus));
    }
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: if captor { "holds on" } else { "struggles" }.into(),
        target: None,
        instrument: None,
    });
    let total = tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "hold contest".into(),
            roll,
            modifiers,
            against: None,
            success: None,
            words: ("", ""),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    ctx.telling = None;
    Ok(total)
}

/// The contest after a grab hits: the captor must beat the target (a tie does not catch).
pub fn catch(
    ctx: &mut Ctx<'_>,
    captor: &Combatant,
    target: &Combatant,
    bonus: i64,
) -> Result<(), DecideError> {
    let mine = roll_side(ctx, captor, true, bonus)?;
    let theirs = roll_side(ctx, target, false, 0)?;
    if mine <= theirs {
        return ctx.emit(Event::public(Fact::Noted {
            text: format!("{} slips {}'s grip", target.id, captor.id),
        }));
    }
    let st = |source: &str| {
        Some(Status {
            source: source.to_owned(),
            magnitude: 0,
            rounds_left: None,
        })
    };
    ctx.set_status(&target.id, HELD, st(&captor.id.0))?;
    ctx.set_status(&captor.id, HOLDING, st(&target.id.0))?;
    for id in [&target.id, &captor.id] {
        if !ctx.combatant(id)?.has_status(IMMOBILE) {
            ctx.set_status(id, IMMOBILE, st(SOURCE))?;
        }
    }
    ctx.emit(Event::public(Fact::Noted {
        text: format!(
            "{} is caught by {}: both are immobile",
            target.id, captor.id
        ),
    }))
}

/// Ends a hold: both lose the statuses it gave them.
pub fn free(ctx: &mut Ctx<'_>, captor: &EntityId, captive: &EntityId) -> Result<(), DecideError> {
    for (id, key) in [(captor, HOLDING), (captive, HELD)] {
        let Some(c) = ctx.state.combatant(id).cloned() else {
            continue;
        };
        ctx.set_status(id, key, None)?;
        if c.statuses.get(IMMOBILE).is_some_and(|s| s.source == SOURCE) {
            ctx.set_status(id, IMMOBILE, None)?;
        }
    }
    Ok(())
}

/// The captor lets go (no action: letting go takes no time).
pub fn release(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    super::able(c)?;
    let captive = c
        .statuses
        .get(HOLDING)
        .map(|s| EntityId::from(s.source.as_str()))
        .ok_or_else(|| Refusal::Rule(format!("{} holds nobody", c.id)))?;
    free(ctx, &c.id, &captive)?;
    ctx.emit(Event::public(Fact::Noted {
        text: format!("{} lets go of {captive}", c.id),
    }))
}

/// At the start of a round every hold is contested again: the captive breaks free by beating
/// the captor; a captor who can no longer act lets go.
pub fn each_round(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let Some(captor) = ctx.state.combatant(&id).cloned() else {
            continue;
        };
        let Some(captive_id) = captor
            .statuses
            .get(HOLDING)
            .map(|s| EntityId::from(s.source.as_str()))
        else {
            continue;
        };
        let captive = ctx.state.combatant(&captive_id).cloned();
        let Some(captive) =
            captive.filter(|c| cannot_act(c).is_none() && cannot_act(&captor).is_none())
        else {
            free(ctx, &captor.id, &captive_id)?;
            continue;
        };
        let holds = roll_side(ctx, &captor, true, 0)?;
        let breaks = roll_side(ctx, &captive, false, 0)?;
        if breaks > holds {
            free(ctx, &captor.id, &captive.id)?;
            ctx.emit(Event::public(Fact::Noted {
                text: format!("{} breaks free of {}", captive.id, captor.id),
            }))?;
        }
    }
    Ok(())
}
