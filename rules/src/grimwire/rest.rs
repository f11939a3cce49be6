//! Resting, as far as the core needs it: what a short or long rest restores. Rests add to the
//! current values (a long rest at -5 Focus of 15 gives 10, not 15), capped at the maximum the
//! current burnout allows; a long rest also lowers burnout by one. The per-day limits (two
//! short, one long) and shelter requirements belong to the full GRIMWIRE issue.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::StateView;

use super::burnout_levels::condition_cap;
use super::{BURNOUT, CONDITION, DEAD, DYING, FOCUS, sheet_of};

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
    let sheet = sheet_of(&c)?;
    let (dc, df) = gains(long, sheet.condition_max, sheet.focus_max);
    let burnout = if long {
        (c.resource(BURNOUT) - 1).max(0)
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
    if changes.iter().all(|ch| ch.to == c.resource(ch.key)) {
        return ctx.note_about(&who, format!("{who} takes a {kind} rest and gains nothing"));
    }
    super::tell::resources(ctx, &who, format!("takes a {kind} rest"), &changes)
}
