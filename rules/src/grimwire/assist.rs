//! Assisting: others help with a check the GM calls. Each helper rolls with their own
//! attribute and everything that bends their rolls, and the highest total is the result. In a
//! fight helping costs the helper's action (off its turn, as a reaction's does).

use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Outcome, Part};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;

use super::check::{Target, judge, record, resolve_attribute, roll_d20};
use super::economy;
use super::sheet::Attribute;

/// Who helps, each with the attribute they roll.
pub fn helpers(
    ctx: &Ctx<'_>,
    who: &EntityId,
    attribute: Attribute,
    text: &str,
) -> Result<Vec<(EntityId, Attribute, String)>, Refusal> {
    let mut out: Vec<(EntityId, Attribute, String)> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (id, attr) = match part.split_once(':') {
            Some((id, a)) => (
                EntityId::from(id.trim()),
                (
                    resolve_attribute(ctx.state.options(), a.trim())?,
                    a.trim().to_owned(),
                ),
            ),
            None => (EntityId::from(part), (attribute, attribute.to_string())),
        };
        if id == *who || out.iter().any(|(o, ..)| *o == id) {
            return Err(Refusal::bad_argument(
                "helpers",
                &format!("names `{id}` twice, or the one who rolls"),
            ));
        }
        ctx.combatant(&id)?;
        economy::require_able(ctx, &id)?;
        out.push((id, attr.0, attr.1));
    }
    if out.is_empty() {
        return Err(Refusal::bad_argument("helpers", "names nobody"));
    }
    Ok(out)
}

/// The assisted check: `who` rolls, then each helper; the highest total counts.
#[allow(clippy::too_many_arguments)]
pub fn check(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    attribute: Attribute,
    name: &str,
    helpers: &[(EntityId, Attribute, String)],
    extra: &[Modifier],
    tn: Option<(i64, bool)>,
) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        // A helper on its own turn gives that turn's action; off it, as a reaction does: this
        // round's action before its turn, next round's after.
        for (h, ..) in helpers {
            if ctx.state.encounter().current.as_ref() == Some(h) {
                economy::spend_action(ctx, h)?;
            } else {
                economy::spend_reaction(ctx, h)?;
            }
        }
    }
    let rollers = std::iter::once((who.clone(), attribute, name.to_owned()))
        .chain(helpers.iter().cloned())
        .collect::<Vec<_>>();
    let mut best: Option<(EntityId, i64, Outcome)> = None;
    for (id, attr, attr_name) in rollers {
        let r = roll_d20(ctx, &id, attr, extra)?;
        let label = if id == *who {
            format!("{attr_name} check")
        } else {
            format!("{attr_name} check, helping {who}")
        };
        let (target, outcome, why) = match tn {
            Some((tn, hidden)) => {
                let (o, why) = judge(&r, tn);
                (Target::Tn { tn, hidden }, o, why)
            }
            None => (Target::None, Outcome::Unjudged, None),
        };
        record(ctx, &id, &label, &r, target, outcome, why)?;
        if best.as_ref().is_none_or(|(_, t, _)| r.total > *t) {
            best = Some((id, r.total, outcome));
        }
    }
    let Some((id, total, outcome)) = best else {
        return Ok(());
    };
    let verdict = match outcome {
        Outcome::Success => ": a success",
        Outcome::Failure => ": a failure",
        Outcome::Unjudged => "",
    };
    let text = format!("{id}'s {total} is the highest and counts for {who}'s check{verdict}");
    // Which roll was highest says something of a GM's combatant's numbers: then the GM alone
    // reads whose it was.
    let hidden = std::iter::once(who)
        .chain(helpers.iter().map(|(h, ..)| h))
        .any(|e| {
            ctx.state
                .combatant(e)
                .is_some_and(crate::redact::gm_only_numbers)
        });
    if hidden {
        ctx.emit(Event {
            parts: vec![
                Part {
                    audience: Audience::GmOnly,
                    fact: Fact::Noted { text },
                },
                Part {
                    audience: Audience::AllButGm,
                    fact: Fact::Noted {
                        text: format!("the highest roll counts for {who}'s check{verdict}"),
                    },
                },
            ],
        })
    } else {
        ctx.emit(Event::public(Fact::Noted { text }))
    }
}
