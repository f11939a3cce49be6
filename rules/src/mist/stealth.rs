//! Hiding and looking, before a fight: a hider's Stealth check (d10 + the table's attribute +
//! Stealth + the GM's bonus for preparations, equipment, light) is spotted when it falls below
//! the watching party's passive perception (the best Senses + Perception of one of them); an
//! unspotted hider is marked `ambusher` with its total. A searcher's active Perception check
//! must reach the lowest Stealth of those hidden from it; reached, they are all found.
//!
//! Who learns what: a hider's roll, its mark and its total are the GM's and the hider's own
//! seat's, never the table's (an NPC's hiding place, or that it hides at all, must not leak).
//! A search draws one die whether anyone hides or not, and a searcher who finds nothing hears
//! the same words either way; the difficulty (the hiders' lowest total) is the GM's.

use std::collections::BTreeSet;

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView, Status};

use super::attack::d10;
use super::checks;
use super::options::{CHECK_TIES, PERCEPTION_ATTRIBUTE, STEALTH_ATTRIBUTE, choice_of, is};
use super::tell::{self, Check};
use super::{AMBUSHER, cannot_act, sheet_of};

/// The source of an `ambusher` mark a Stealth check set (the GM's own marks have another).
pub const SOURCE: &str = "stealth";

/// The seats that may see what concerns `cs` alone: their players' and the GM's.
pub fn seats_of(cs: &[&Combatant]) -> Audience {
    let seats: BTreeSet<_> = cs.iter().filter_map(|c| c.owner.clone()).collect();
    if seats.is_empty() {
        Audience::GmOnly
    } else {
        Audience::Seats(seats)
    }
}

/// Removes `c`'s `ambusher` mark, for the eyes that saw it set: a Stealth check's mark was the
/// hider's and the GM's; one the GM set openly is cleared openly.
pub fn clear_mark(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    let Some(mark) = c.statuses.get(AMBUSHER) else {
        return Ok(());
    };
    let audience = if mark.source == SOURCE {
        seats_of(&[c])
    } else {
        Audience::Everyone
    };
    ctx.set_status_for(audience, &c.id, AMBUSHER, None)
}

fn before_the_fight(ctx: &Ctx<'_>, what: &str) -> Result<(), Refusal> {
    if ctx.state.encounter().active {
        return Err(Refusal::Rule(format!(
            "{what} is rolled before a fight (to hide for an ambush or to find the hidden); in a fight the GM rules"
        )));
    }
    Ok(())
}

/// The attribute behind `skill`: the table's option, or the one the GM names when the option
/// is `gm` (required then, refused otherwise: the table has fixed it).
fn attribute(
    ctx: &Ctx<'_>,
    c: &Combatant,
    args: &Args,
    key: &'static str,
) -> Result<Modifier, Refusal> {
    let fixed = choice_of(ctx.state.options(), key);
    let name = match (fixed, args.text("attribute")?) {
        ("gm", Some(named)) => named,
        ("gm", None) => {
            return Err(Refusal::bad_argument(
                "attribute",
                &format!("is required: the table's `{key}` is `gm`, so the GM names it"),
            ));
        }
        (_, Some(_)) => {
            return Err(Refusal::bad_argument(
                "attribute",
                &format!(
                    "is the table's `{key}` ({fixed}); it is named per roll only when that option is `gm`"
                ),
            ));
        }
        (fixed, None) => fixed,
    };
    let value = super::care::attribute(c, name)?;
    let mut label = name.to_owned();
    if let Some(first) = label.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    Ok(Modifier::new(label, value))
}

/// One who can roll: present, conscious, not an object.
fn able(ctx: &Ctx<'_>, args: &Args) -> Result<Combatant, DecideError> {
    let c = ctx.combatant(&args.require_entity("target")?)?;
    if c.kind == Kind::Object {
        return Err(Refusal::bad_argument("target", "is an object").into());
    }
    super::able(&c)?;
    Ok(c)
}

fn modifiers_of(first: Modifier, skill: (&str, i64), bonus: i64) -> Vec<Modifier> {
    let mut out = vec![first, Modifier::new(skill.0, skill.1)];
    if bonus != 0 {
        out.push(Modifier::new("situation", bonus));
    }
    out
}

/// The GM's call for `target`'s Stealth check. Those of other groups who could see (conscious,
/// not objects) watch passively: the best Senses + Perception of one of them (E10). Below it,
/// the hider is spotted (a tie stays hidden); otherwise it is marked `ambusher`, the total as
/// the mark's magnitude, for the ambush and for a search.
pub fn stealth(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    before_the_fight(ctx, "a Stealth check")?;
    let c = able(ctx, args)?;
    let s = sheet_of(&c)?.clone();
    let bonus = args.int("bonus")?.unwrap_or(0);
    let modifiers = modifiers_of(
        attribute(ctx, &c, args, STEALTH_ATTRIBUTE)?,
        ("Stealth", s.skills.stealth),
        bonus,
    );
    let mut watchers: Vec<(Combatant, i64)> = Vec::new();
    let mut pairs = Vec::new();
    for id in ctx.state.combatant_ids() {
        let w = ctx.combatant(&id)?;
        if w.side != c.side && w.kind != Kind::Object && cannot_act(&w).is_none() {
            let ws = sheet_of(&w)?;
            let pair = (ws.senses, ws.skills.perception);
            pairs.push(pair);
            watchers.push((w, checks::passive_perception(&[pair])));
        }
    }
    let passive = checks::passive_perception(&pairs);
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let total = tell::total(&roll, &modifiers);
    let hidden = !checks::spotted(total, passive);
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "hides".into(),
        target: None,
        instrument: None,
    });
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "Stealth".into(),
            roll,
            modifiers,
            against: Some((passive, "passive perception")),
            success: Some(hidden),
            words: ("stays hidden", "is spotted"),
            because: None,
            hidden: true,
            // The table does not learn that anyone hides: the hider's seat hears it below.
            gm_only: true,
        },
    )?;
    ctx.telling = None;
    let own = seats_of(&[&c]);
    if own != Audience::GmOnly {
        let outcome = if hidden { "stays hidden" } else { "is spotted" };
        ctx.emit(Event {
            parts: vec![Part {
                audience: own.clone(),
                fact: Fact::Noted {
                    text: format!(
                        "{} hides with a Stealth total of {total} and {outcome}",
                        c.id
                    ),
                },
            }],
        })?;
    }
    // The watchers who spot the hider (each whose own passive perception it falls below)
    // learn it: their seats and the GM, no one else.
    let spotters: Vec<&Combatant> = watchers
        .iter()
        .filter(|(_, p)| !hidden && checks::spotted(total, *p))
        .map(|(w, _)| w)
        .collect();
    if !spotters.is_empty() {
        let names: Vec<&str> = spotters.iter().map(|w| w.id.0.as_str()).collect();
        ctx.emit(Event {
            parts: vec![Part {
                audience: seats_of(&spotters),
                fact: Fact::Noted {
                    text: format!("{} spots {} trying to hide", names.join(", "), c.id),
                },
            }],
        })?;
    }
    let mark = hidden.then(|| Status {
        source: SOURCE.into(),
        magnitude: total,
        rounds_left: None,
    });
    ctx.set_status_for(own, &c.id, AMBUSHER, mark)
}

/// The GM's call for `target`'s active Perception check: against the lowest Stealth of those
/// of other groups marked `ambusher` (E11). Reached (a tie as `mist.check_ties` rules), they are
/// all found and their marks go; missed, or with nobody hidden, the searcher finds nothing.
pub fn perception(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    before_the_fight(ctx, "a Perception check")?;
    let c = able(ctx, args)?;
    let s = sheet_of(&c)?.clone();
    let bonus = args.int("bonus")?.unwrap_or(0);
    let modifiers = modifiers_of(
        attribute(ctx, &c, args, PERCEPTION_ATTRIBUTE)?,
        ("Perception", s.skills.perception),
        bonus,
    );
    let mut hiders: Vec<Combatant> = Vec::new();
    for id in ctx.state.combatant_ids() {
        let h = ctx.combatant(&id)?;
        // Only a Stealth check's mark is searched for: a mark the GM set by ruling has no
        // total to reach, and such a hider is found only by the GM's word.
        let by_stealth = h.statuses.get(AMBUSHER).is_some_and(|m| m.source == SOURCE);
        if h.side != c.side && by_stealth && cannot_act(&h).is_none() {
            hiders.push(h);
        }
    }
    let lowest = checks::ambush_difficulty(
        &hiders
            .iter()
            .filter_map(|h| h.statuses.get(AMBUSHER).map(|m| m.magnitude))
            .collect::<Vec<_>>(),
    );
    let roll = crate::dice::roll(&d10()?, ctx.dice)?;
    let total = tell::total(&roll, &modifiers);
    let found = lowest
        .is_some_and(|d| checks::passes(total, d, is(ctx.state.options(), CHECK_TIES, "succeeds")));
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "searches".into(),
        target: None,
        instrument: None,
    });
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: match lowest {
                Some(_) => "Perception".into(),
                None => "Perception: nobody is hidden from them".into(),
            },
            roll,
            modifiers,
            against: lowest.map(|d| (d, "lowest Stealth")),
            success: lowest.map(|_| found),
            words: ("finds the hidden", "finds nothing"),
            because: None,
            hidden: true,
            gm_only: true,
        },
    )?;
    ctx.telling = None;
    let yours = if c.owner.is_some() {
        format!(" with a Perception total of {total}")
    } else {
        String::new()
    };
    if !found {
        return ctx.emit(Event {
            parts: vec![Part {
                audience: seats_of(&[&c]),
                fact: Fact::Noted {
                    text: format!("{} searches{yours} and finds nothing", c.id),
                },
            }],
        });
    }
    let names: Vec<String> = hiders.iter().map(|h| h.id.0.clone()).collect();
    let mut who: Vec<&Combatant> = hiders.iter().collect();
    who.push(&c);
    ctx.emit(Event {
        parts: vec![Part {
            audience: seats_of(&who),
            fact: Fact::Noted {
                text: format!("{} searches{yours} and spots {}", c.id, names.join(", ")),
            },
        }],
    })?;
    for h in &hiders {
        clear_mark(ctx, h)?;
    }
    Ok(())
}
