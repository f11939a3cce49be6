//! Agony: intense pain taken as a level of burnout that goes again after a minute (10 of the
//! sufferer's turns in a fight), and that cannot kill. The `agony` status counts the burnout
//! levels it holds (its magnitude) and the turns left; the levels count like any other (the
//! roll penalty, the Condition cap, the crawl) until the status goes, and then they go with it.
//! A fourth level of burnout with agony among the levels leaves the character out cold instead
//! of dying (`burnout::follow_level`).
//!
//! Burning causes agony once, a level when it starts: while it burns, the agony's minute starts
//! again at each turn's flames. Every other infliction (a GM ruling, a technique) adds a level.

use crate::engine::{Ctx, DecideError};
use crate::event::Audience;
use crate::ids::EntityId;
use crate::state::Status;

use super::burnout::follow_level;
use super::tell::{Change, resources};
use super::{BURNOUT, sheet_of};

pub const AGONY: &str = "agony";
/// One minute of conflict.
pub const AGONY_ROUNDS: u32 = 10;

/// `who` is in agony because of `cause`: one more level of burnout (none past the fourth),
/// held for `rounds` of their turns (a minute when none is given).
pub fn inflict(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    cause: &str,
    rounds: Option<u32>,
) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    if super::frenzy::raging(&c) {
        return ctx.note_about(who, format!("{who} rages and feels no pain ({cause})"));
    }
    let held = c.statuses.get(AGONY).map_or(0, |s| s.magnitude);
    let from = c.resource(BURNOUT);
    let max = sheet_of(&c)?.condition_max;
    let added = from < 4;
    set(ctx, who, cause, held + i64::from(added), rounds)?;
    if !added {
        return ctx.note_about(
            who,
            format!("{who} is in agony ({cause}), already at the last level of burnout"),
        );
    }
    let level = Change {
        key: BURNOUT,
        word: "burnout",
        to: from + 1,
    };
    resources(
        ctx,
        who,
        format!("takes a level of burnout from agony ({cause}), for a minute"),
        &[level],
    )?;
    follow_level(ctx, who, from + 1, max)
}

/// Pain that goes on (a burning body): the agony lasts another minute from now, and adds no
/// level. Pain with no agony yet is a new infliction. All the levels of agony pass together,
/// a minute after the last pain.
pub fn renew(ctx: &mut Ctx<'_>, who: &EntityId, cause: &str) -> Result<(), DecideError> {
    match ctx.combatant(who)?.statuses.get(AGONY).cloned() {
        Some(s) => set(ctx, who, &s.source, s.magnitude, None),
        None => inflict(ctx, who, cause, None),
    }
}

/// The agony status holds its levels, which are burnout levels: of a combatant whose numbers
/// are the GM's, it is the GM's too (the table learns of the pain from the GM).
fn set(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    cause: &str,
    levels: i64,
    rounds: Option<u32>,
) -> Result<(), DecideError> {
    let status = Status {
        source: cause.to_owned(),
        magnitude: levels,
        rounds_left: Some(rounds.unwrap_or(AGONY_ROUNDS)),
    };
    ctx.set_status_for(audience(ctx, who)?, who, AGONY, Some(status))
}

fn audience(ctx: &Ctx<'_>, who: &EntityId) -> Result<Audience, DecideError> {
    Ok(if crate::redact::gm_only_numbers(&ctx.combatant(who)?) {
        Audience::GmOnly
    } else {
        Audience::Everyone
    })
}

/// The levels of burnout agony holds on `c`: none when it holds none.
pub fn levels(c: &crate::state::Combatant) -> i64 {
    c.statuses.get(AGONY).map_or(0, |s| s.magnitude.max(0))
}

/// Burnout ruled down to `level`: agony holds no more levels than there are.
pub fn follow_ruling(ctx: &mut Ctx<'_>, who: &EntityId, level: i64) -> Result<(), DecideError> {
    let Some(s) = ctx.combatant(who)?.statuses.get(AGONY).cloned() else {
        return Ok(());
    };
    if s.magnitude <= level {
        return Ok(());
    }
    let to = (level > 0).then_some(Status {
        magnitude: level,
        ..s
    });
    ctx.set_status_for(audience(ctx, who)?, who, AGONY, to)
}

/// The agony passes: its levels of burnout go with it. What the lowered cap took from
/// Condition does not come back, and out cold stays out cold (it wakes as out cold does).
pub fn pass(ctx: &mut Ctx<'_>, who: &EntityId, levels: i64) -> Result<(), DecideError> {
    if ctx.combatant(who)?.has_status(AGONY) {
        ctx.set_status_for(audience(ctx, who)?, who, AGONY, None)?;
    }
    let from = ctx.combatant(who)?.resource(BURNOUT);
    let to = (from - levels).max(0);
    if to == from {
        return ctx.note_about(who, format!("{who} is no longer in agony"));
    }
    let level = Change {
        key: BURNOUT,
        word: "burnout",
        to,
    };
    resources(ctx, who, "is no longer in agony".to_owned(), &[level])
}

/// The start of `who`'s turn: a minute of agony counts down, and at its end the agony passes.
pub fn count_down(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let Some(s) = ctx.combatant(who)?.statuses.get(AGONY).cloned() else {
        return Ok(());
    };
    match s.rounds_left {
        Some(0) | None => pass(ctx, who, s.magnitude),
        Some(n) => {
            let counted = Status {
                rounds_left: Some(n - 1),
                ..s
            };
            ctx.set_status_for(audience(ctx, who)?, who, AGONY, Some(counted))
        }
    }
}
