//! Resting: what a short or long rest restores, and how many a day gives. Rests add to the
//! current values (a long rest at -5 Focus of 15 gives 10, not 15), capped at the maximum the
//! current burnout allows; a long rest also lowers burnout by one, once a day, unless the
//! character spent its spare hour on downtime. A day gives two short rests and one long one;
//! the days are the game's, counted by the GM's `new_day`, never the wall clock's. Whether the
//! place is sheltered, and fed and watered for a long rest, is the GM's to judge before
//! calling the rest.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::StateView;

use super::burnout_levels::condition_cap;
use super::{BURNOUT, CONDITION, DEAD, DYING, FOCUS, sheet_of};

/// Rests taken today, and whether today's burnout level has been recovered.
pub const SHORT_RESTS: &str = "short_rests";
pub const LONG_RESTS: &str = "long_rests";
pub const BURNOUT_EASED: &str = "burnout_eased";
pub const SHORT_PER_DAY: i64 = 2;
pub const LONG_PER_DAY: i64 = 1;

/// A new day in the game: every character's rests are counted afresh.
pub fn new_day(ctx: &mut Ctx<'_>) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule("a day does not pass in the middle of a conflict".into()).into());
    }
    for id in ctx.state.combatant_ids() {
        for key in [SHORT_RESTS, LONG_RESTS, BURNOUT_EASED] {
            if ctx.combatant(&id)?.resource(key) != 0 {
                ctx.set_resource(&id, key, 0)?;
            }
        }
    }
    ctx.emit(crate::event::Event::public(crate::event::Fact::Noted {
        text: "a new day begins: two short rests and a long one for everyone".into(),
    }))
}

/// Condition and Focus gained: short rest 20% of max Condition and half max Focus, long rest
/// half max Condition and all of max Focus, rounded down.
pub fn gains(long: bool, condition_max: i64, focus_max: i64) -> (i64, i64) {
    if long {
        (condition_max / 2, focus_max)
    } else {
        (condition_max / 5, focus_max / 2)
    }
}

pub fn rest(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule("nobody rests in the middle of a conflict".into()).into());
    }
    let who = args.require_entity("target")?;
    let long = match args.require_text("kind")? {
        "short" => false,
        "long" => true,
        other => {
            return Err(
                Refusal::bad_argument("kind", &format!("`{other}` must be short or long")).into(),
            );
        }
    };
    let c = ctx.combatant(&who)?;
    if c.has_status(DYING) || c.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{who} cannot rest while dying or dead")).into());
    }
    // Any rest outlasts agony's minute: its levels go before the rest counts burnout.
    if let Some(s) = c.statuses.get(super::agony::AGONY) {
        super::agony::pass(ctx, &who, s.magnitude)?;
    }
    let c = ctx.combatant(&who)?;
    let (count, per_day) = if long {
        (LONG_RESTS, LONG_PER_DAY)
    } else {
        (SHORT_RESTS, SHORT_PER_DAY)
    };
    let taken = c.resource(count);
    if taken >= per_day {
        return Err(Refusal::Rule(format!(
            "{who} has had {} today: a day gives two short rests and one long one (the GM's new_day starts the next)",
            super::super::account::plural(taken, if long { "long rest" } else { "short rest" })
        ))
        .into());
    }
    let downtime = args.flag("downtime")?;
    let sheet = sheet_of(&c)?;
    let (dc, df) = gains(long, sheet.condition_max, sheet.focus_max);
    // Burnout eases by one at the end of a long rest, once a day, and not for one who spent
    // the rest's spare hour on downtime.
    let eases = long && !downtime && c.resource(BURNOUT) > 0 && c.resource(BURNOUT_EASED) == 0;
    let burnout = if eases {
        c.resource(BURNOUT) - 1
    } else {
        c.resource(BURNOUT)
    };
    let cap = condition_cap(sheet.condition_max, burnout);
    let kind = if long { "long" } else { "short" };
    let changes = [
        super::tell::Change {
            key: BURNOUT,
            word: "burnout",
            to: burnout,
        },
        super::tell::Change {
            key: CONDITION,
            word: "Condition",
            to: (c.resource(CONDITION) + dc).min(cap),
        },
        super::tell::Change {
            key: FOCUS,
            word: "Focus",
            to: (c.resource(FOCUS) + df).min(sheet.focus_max),
        },
    ];
    ctx.set_resource(&who, count, taken + 1)?;
    if eases {
        ctx.set_resource(&who, BURNOUT_EASED, 1)?;
    }
    if changes.iter().all(|ch| ch.to == c.resource(ch.key)) {
        return ctx.note_about(&who, format!("{who} takes a {kind} rest and gains nothing"));
    }
    super::tell::resources(ctx, &who, format!("takes a {kind} rest"), &changes)
}
