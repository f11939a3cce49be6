//! Spells that turn a blow or a weapon on the one who holds it. To serpents: the target's
//! weapon writhes into serpents for 1d10 rounds; at each round's end after the round of the
//! casting that finds the holder still holding them, the holder makes a reflex save against
//! the caster's spell save or is bitten: 1 damage and -1 to its attacks for 1d5 rounds. The
//! holder lets go (`let_go`, in its turn, costing nothing) and is then disarmed as by Disarm:
//! bare hands until the GM rules the weapon back in hand. Reprisal: for the fight, a foe's
//! blow on the caster falls instead on the foe that struck the caster last before it (that
//! same foe when it struck last); the first blow, or one after that foe died or changed side,
//! lands as it would. Who struck whom last is kept for every creature from the fight's start
//! (an encounter value), so blows before the casting count.

use crate::account::Telling;
use crate::account::plural;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::afflict::{Rounds, afflict, set_timed};
use super::content::Attribute;
use super::dice::{Amount, roll_for};
use super::{DEAD, DISARMED, checks, harm, stats_of};

/// On the holder: source the caster, magnitude the round of the casting, the serpents' rounds.
pub const SERPENTS: &str = "serpents";
/// A serpent's bite: magnitude off the bitten's attacks, for 1d5 rounds.
pub const BITTEN: &str = "bitten";
pub const BITE_ATTACK: i64 = -1;
/// On the caster, for the fight.
pub const REPRISAL: &str = "reprisal";
/// Encounter value `struck_last_by.<id>`: 1 + the place in the order of the foe that last
/// struck that creature.
const STRUCK_LAST: &str = "struck_last_by";

/// The caster named in a status's source, before any marker `afflict` appends.
fn caster_of(source: &str) -> EntityId {
    EntityId::from(source.split(" [").next().unwrap_or(""))
}

/// Turns `target`'s weapon to serpents for `rounds` (`caster`'s casting in `round`).
pub fn serpents(
    ctx: &mut Ctx<'_>,
    caster: &Combatant,
    target: &Combatant,
    rounds: Rounds,
) -> Result<(), DecideError> {
    let round = i64::from(ctx.state.encounter().round);
    set_timed(ctx, &target.id, SERPENTS, None)?;
    afflict(ctx, &target.id, SERPENTS, round, rounds, caster.id.as_str())
}

/// `c` lets go of its serpents: it is disarmed.
pub fn let_go(ctx: &mut Ctx<'_>, c: &Combatant) -> Result<(), DecideError> {
    if !c.has_status(SERPENTS) {
        return Err(Refusal::Rule(format!("{} holds no serpents", c.id)).into());
    }
    if ctx.state.encounter().active {
        super::round::require_turn(ctx, c)?;
    }
    set_timed(ctx, &c.id, SERPENTS, None)?;
    ctx.set_status(
        &c.id,
        DISARMED,
        Some(Status {
            source: "to serpents".into(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        &c.id,
        format!(
            "{} lets go of the serpents: disarmed, bare hands until the GM rules the weapon back in hand",
            c.id
        ),
    )
}

/// A bite to put on: who, its rounds, and whether they are the GM's.
pub struct Bite(EntityId, i64, bool);

/// A round ends: each holder that has held its serpents past the round of the casting saves
/// or is bitten (the damage now; the bites to put on once the round's counts have worn down,
/// [`bitten`], so the round that ends is not one of their rounds).
pub fn round_end(ctx: &mut Ctx<'_>) -> Result<Vec<Bite>, DecideError> {
    let round = i64::from(ctx.state.encounter().round);
    let mut bites = Vec::new();
    for id in ctx.state.combatant_ids() {
        let o = ctx.combatant(&id)?;
        let Some(s) = o.statuses.get(SERPENTS).cloned() else {
            continue;
        };
        if o.has_status(DEAD) || round <= s.magnitude {
            continue;
        }
        let c = ctx.combatant(&caster_of(&s.source))?;
        let stats = stats_of(&c)?;
        let secret = crate::redact::gm_only_numbers(&c);
        let against = super::rolls::Target {
            value: super::lasting::spell_save(&c, &stats).unwrap_or(checks::STANDARD_SAVE),
            name: "spell save",
            hidden: secret,
        };
        ctx.telling = Some(Telling {
            actor: Some(id.clone()),
            verb: "resists the serpents of".into(),
            target: Some(c.id.clone()),
            instrument: None,
        });
        if super::rolls::save(ctx, &o, &[Attribute::Reflex], against, None)? {
            continue;
        }
        ctx.telling = Some(Telling {
            actor: None,
            verb: "the serpents bite".into(),
            target: Some(id.clone()),
            instrument: None,
        });
        harm::damage(
            ctx,
            &id,
            1,
            vec![Modifier::new("serpent's bite", 1)],
            Some(&c.id),
            false,
        )?;
        ctx.telling = None;
        // The caster's dice: the GM's alone for the GM's caster (its face is the length).
        let amount = Amount::try_from("1d5".to_owned()).map_err(Refusal::Rule)?;
        let n = roll_for(
            ctx,
            &c.id,
            "rounds of the bite",
            amount,
            stats.level,
            secret,
        )?
        .value;
        bites.push(Bite(id, n, secret));
    }
    ctx.telling = None;
    Ok(bites)
}

/// The bites of the round that ended: -1 to attacks for their rounds.
pub fn bitten(ctx: &mut Ctx<'_>, bites: Vec<Bite>) -> Result<(), DecideError> {
    for Bite(id, n, secret) in bites {
        if ctx.combatant(&id)?.has_status(DEAD) {
            continue;
        }
        let rounds = if secret {
            Rounds::Gms(n)
        } else {
            Rounds::Told(n)
        };
        afflict(ctx, &id, BITTEN, BITE_ATTACK, rounds, "serpent's bite")?;
        let how_long = if secret {
            String::new()
        } else {
            format!(" for {nr}", nr = plural(n, "round"))
        };
        // Told as the caster's spell's lines are: to the table for a player's caster.
        let audience = if secret {
            Audience::GmOnly
        } else {
            Audience::Everyone
        };
        ctx.emit(Event {
            parts: vec![Part {
                audience,
                fact: Fact::Noted {
                    text: format!("{id} held on and is bitten: {BITE_ATTACK} to attacks{how_long}"),
                },
            }],
        })?;
    }
    Ok(())
}

/// A foe `source` strikes `target` for `amount`: it is kept as the last to strike `target`;
/// under Reprisal, the foe that struck `target` last before it, if it still stands against
/// `target`, is returned to take the blow instead.
pub fn reprisal(
    ctx: &mut Ctx<'_>,
    target: &EntityId,
    source: &EntityId,
    amount: i64,
) -> Result<Option<EntityId>, DecideError> {
    let enc = ctx.state.encounter();
    if !enc.active || amount < 1 || target == source {
        return Ok(None);
    }
    let t = ctx.combatant(target)?;
    let s = ctx.combatant(source)?;
    if t.side == s.side {
        return Ok(None);
    }
    let Some(at) = enc.order.iter().position(|id| id == source) else {
        return Ok(None);
    };
    let key = format!("{STRUCK_LAST}.{target}");
    let before = enc.values.get(&key).copied().unwrap_or(0);
    let before = usize::try_from(before - 1)
        .ok()
        .and_then(|i| enc.order.get(i).cloned());
    // Who last struck whom is kept for Reprisal only: the GM's to read, so the table's log
    // does not gain a line of bookkeeping after every blow (and it is kept after every blow,
    // so its events say nothing of who knows the spell).
    let to = i64::try_from(at).unwrap_or(i64::MAX - 1) + 1;
    let from = enc.values.get(&key).copied().unwrap_or(0);
    if from != to {
        ctx.emit(Event {
            parts: vec![Part {
                audience: Audience::GmOnly,
                fact: Fact::EncounterValueSet { key, from, to },
            }],
        })?;
    }
    if !t.has_status(REPRISAL) {
        return Ok(None);
    }
    let Some(before) = before else {
        return Ok(None);
    };
    let b = ctx.combatant(&before)?;
    if b.has_status(DEAD) || b.side == t.side {
        return Ok(None);
    }
    Ok(Some(before))
}
