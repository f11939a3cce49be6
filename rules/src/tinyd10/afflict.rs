//! Afflictions that change a creature's rolls, and the round's end that wears the timed ones
//! off. Dazed (Critical strike) takes its magnitude off every roll; blinded (Radiant strike)
//! takes its magnitude off attacks and off rolls made with reflex, once even for a ranged
//! attack that is both (the text lists the two penalties, not a double one). Only the rolls a
//! creature makes read them: a toughness is not a roll.

use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::ids::EntityId;
use crate::state::Status;

use super::content::Attribute;
use super::{APPEAL, BLINDED, DAZED, MAGICAL_POWER, PARALYZED, PRIED, THUNDEROUS};

/// Statuses that count their rounds down at each round's end and go at none left.
pub const TIMED: [&str; 8] = [
    super::care::STRENGTH,
    DAZED,
    BLINDED,
    PARALYZED,
    MAGICAL_POWER,
    PRIED,
    APPEAL,
    THUNDEROUS,
];

/// What `who`'s afflictions take off a roll made with `attribute` (none for a bare d10, such
/// as Call to battle's; an attack when `attack`),
/// read from the state as this command has left it, so an affliction put on earlier in the
/// same command already counts.
pub fn penalties(
    ctx: &Ctx<'_>,
    who: &EntityId,
    attack: bool,
    attribute: Option<Attribute>,
) -> Result<Vec<Modifier>, DecideError> {
    let c = ctx.combatant(who)?;
    let mut out = Vec::new();
    if let Some(s) = c.statuses.get(DAZED) {
        out.push(Modifier::new("dazed", s.magnitude));
    }
    if let Some(s) = c.statuses.get(BLINDED)
        && (attack || attribute == Some(Attribute::Reflex))
    {
        out.push(Modifier::new("blinded", s.magnitude));
    }
    out.extend(super::lasting::penalties(&c, attack, attribute));
    Ok(out)
}

/// The round ends: each timed status on `who` has a round fewer left, and goes at none.
pub fn wear_off(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for key in TIMED.into_iter().chain(super::lasting::TIMED) {
        let Some(s) = c.statuses.get(key).cloned() else {
            continue;
        };
        let left = s.rounds_left.unwrap_or(1).saturating_sub(1);
        let to = (left > 0).then_some(Status {
            rounds_left: Some(left),
            ..s
        });
        set_timed(ctx, who, key, to)?;
    }
    Ok(())
}

/// The fight is over: every status counted in rounds goes from `who`, the spells' and the
/// afflictions' alike (rounds run down only at a round's end, and no round ends out of a fight).
pub fn fight_over(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for key in TIMED.into_iter().chain(super::lasting::TIMED) {
        if c.statuses.contains_key(key) {
            set_timed(ctx, who, key, None)?;
        }
    }
    Ok(())
}

/// Marks, in a status's source, rounds that come from the GM's numbers (an NPC's level): the
/// players are told the status without them, and its countdown is the GM's.
const GM_ROUNDS: &str = " [rounds: the GM's]";
/// Marks a status whose rounds and magnitude are both the GM's.
const GM_ALL: &str = " [the GM's]";

/// How long an affliction lasts, and whether that length is the GM's to know.
pub enum Rounds {
    /// A length anyone may know (a fixed round, dice rolled in the open).
    Told(i64),
    /// A length that says something of the GM's creature (its level).
    Gms(i64),
    /// A length and a magnitude both the GM's (Mage armor's level-sized bonus from the GM's
    /// caster): the players are told the status alone.
    Secret(i64),
}

/// Puts `status` of `magnitude` on `who` for its rounds, from `source`. A creature already
/// under it keeps whichever lasts longer (two dazes do not add up: the text gives each its own
/// duration, not a sum).
pub fn afflict(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    status: &str,
    magnitude: i64,
    rounds: Rounds,
    source: &str,
) -> Result<(), DecideError> {
    let (rounds, marker) = match rounds {
        Rounds::Told(n) => (n, ""),
        Rounds::Gms(n) => (n, GM_ROUNDS),
        Rounds::Secret(n) => (n, GM_ALL),
    };
    let rounds = u32::try_from(rounds.max(1)).unwrap_or(1);
    let now = ctx.combatant(who)?.statuses.get(status).cloned();
    if now
        .as_ref()
        .is_some_and(|s| s.rounds_left.unwrap_or(0) >= rounds)
    {
        return Ok(());
    }
    let source = format!("{source}{marker}");
    set_timed(
        ctx,
        who,
        status,
        Some(Status {
            source,
            magnitude,
            rounds_left: Some(rounds),
        }),
    )
}

/// Sets a timed status; one whose rounds are the GM's goes whole to the GM and, to everyone
/// else, as a stand-in without its rounds (and nothing at all when only the rounds change).
pub(super) fn set_timed(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    status: &str,
    to: Option<Status>,
) -> Result<(), DecideError> {
    let from = ctx.combatant(who)?.statuses.get(status).cloned();
    let gms = |s: &Option<Status>| {
        s.as_ref()
            .is_some_and(|s| s.source.ends_with(GM_ROUNDS) || s.source.ends_with(GM_ALL))
    };
    if !gms(&from) && !gms(&to) {
        return ctx.set_status(who, status, to);
    }
    if from == to {
        return Ok(());
    }
    let told = |s: &Option<Status>| {
        s.as_ref().map(|s| Status {
            source: s
                .source
                .trim_end_matches(GM_ROUNDS)
                .trim_end_matches(GM_ALL)
                .to_owned(),
            magnitude: if s.source.ends_with(GM_ALL) {
                0
            } else {
                s.magnitude
            },
            rounds_left: None,
        })
    };
    let (told_from, told_to) = (told(&from), told(&to));
    let mut parts = vec![Part {
        audience: Audience::GmOnly,
        fact: Fact::StatusSet {
            entity: who.clone(),
            status: status.to_owned(),
            from,
            to,
        },
    }];
    if told_from != told_to {
        parts.push(Part {
            audience: Audience::AllButGm,
            fact: Fact::StatusSet {
                entity: who.clone(),
                status: status.to_owned(),
                from: told_from,
                to: told_to,
            },
        });
    }
    ctx.emit(Event { parts })
}
