//! Opposed rolls outside an attack's procedure (a grapple's holds, blocks and escapes): one
//! character rolls against one or more, each with the better of the attributes the rule
//! names for their side; the one who tries must beat the highest of the others' totals. A tie
//! goes to the side that resists (the book settles ties only for PCs' attacks). A natural 1,
//! or a roll the roller's state fails (paralysed), loses: the trier's first.

use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Modifier, Outcome};
use crate::ids::EntityId;

use super::attack::{emit_opposed, opposed_record};
use super::check::{Rolled, roll_d20};
use super::sheet::Attribute;
use super::sheet_of;

/// One side of a contest: who, and the attributes the rule lets them roll (the better is
/// taken), under the roll's name.
pub struct Side<'a> {
    pub attrs: &'a [Attribute],
    pub label: &'a str,
    /// The GM's situational modifiers to this side's rolls.
    pub extra: &'a [Modifier],
}

/// The better of `attrs` on `who`'s sheet (the first on a tie).
pub fn best(ctx: &Ctx<'_>, who: &EntityId, attrs: &[Attribute]) -> Result<Attribute, DecideError> {
    let c = ctx.combatant(who)?;
    let sheet = sheet_of(&c)?;
    let mut pick = attrs.first().copied().unwrap_or(Attribute::TOG);
    for a in attrs {
        if sheet.attribute(*a) > sheet.attribute(pick) {
            pick = *a;
        }
    }
    Ok(pick)
}

fn lost(r: &Rolled) -> Option<String> {
    r.fails
        .map(str::to_owned)
        .or_else(|| (r.natural == 1).then(|| "natural 1".to_owned()))
}

/// Rolls `who` against every one of `others` and writes it: whether `who` won.
pub fn contest(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    mine: &Side<'_>,
    others: &[EntityId],
    theirs: &Side<'_>,
) -> Result<bool, DecideError> {
    let attr = best(ctx, who, mine.attrs)?;
    let a = roll_d20(ctx, who, attr, mine.extra)?;
    let mut rolls = Vec::new();
    for o in others {
        let attr = best(ctx, o, theirs.attrs)?;
        let label = format!("{attr} {}", theirs.label);
        rolls.push((o.clone(), roll_d20(ctx, o, attr, theirs.extra)?, label));
    }
    // The other whose roll counts: the highest total among those whose roll did not lose.
    let strongest = rolls
        .iter()
        .enumerate()
        .filter(|(_, (_, r, _))| lost(r).is_none())
        .max_by_key(|(i, (_, r, _))| (r.total, std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    let (outcome, why) = match (lost(&a), strongest) {
        (Some(why), _) => (Outcome::Failure, Some(why)),
        (None, None) => (
            Outcome::Success,
            rolls
                .first()
                .and_then(|(o, r, _)| lost(r).map(|w| format!("{o}: {w}"))),
        ),
        (None, Some(i)) if a.total > rolls[i].1.total => (Outcome::Success, None),
        (None, Some(_)) => (Outcome::Failure, None),
    };
    let shown = strongest.unwrap_or(0);
    for (i, (o, r, label)) in rolls.iter().enumerate() {
        if i == shown {
            continue;
        }
        also_rolled(ctx, o, label, r, who, a.total, outcome)?;
    }
    if let Some((o, r, label)) = rolls.get(shown) {
        let mine_label = format!("{attr} {}", mine.label);
        emit_opposed(ctx, who, o, &mine_label, label, &a, r, outcome, why)?;
    }
    Ok(outcome == Outcome::Success)
}

/// The roll of one more of the others, beside the one that counted.
fn also_rolled(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    label: &str,
    r: &Rolled,
    against: &EntityId,
    their_total: i64,
    their_outcome: Outcome,
) -> Result<(), DecideError> {
    let outcome = if their_outcome == Outcome::Success {
        Outcome::Failure
    } else {
        Outcome::Success
    };
    let parts = opposed_record(ctx, who, label, r, against, their_total, outcome, lost(r));
    ctx.emit(Event { parts })
}
