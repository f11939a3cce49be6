//! Frenzy and amok: temporary Condition (the status's magnitude: the text's undefined
//! "critical level", the character's level when the GM gives none), one more attack a turn,
//! friendly fire 5 faces likelier, nothing but melee attacks (a dash only with no one in
//! reach), no techniques, and no agony or terror. Amok is frenzy that tells no friend from foe:
//! its attacks go at the nearest character.

use crate::engine::{Ctx, DecideError};
use crate::grid::distance;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::attack::MELEE_M;
use super::status::{AMOK, FRENZY, TERROR};
use super::{DEAD, sheet_of};

/// What frenzy adds to the natural faces that go astray.
pub const FRIENDLY_FIRE: i64 = 5;

/// Whether `c` is in a frenzy (amok included).
pub fn raging(c: &Combatant) -> bool {
    c.has_status(FRENZY) || c.has_status(AMOK)
}

/// A ruling set frenzy or amok (`key`) on `who`: its temporary Condition, recorded as the
/// status's magnitude, and the terror it drives out.
pub fn began(ctx: &mut Ctx<'_>, who: &EntityId, key: &str, given: i64) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    let amount = if given > 0 {
        given
    } else {
        sheet_of(&c)?.level
    }
    .min(super::temp::MAX);
    if let Some(s) = c.statuses.get(key).cloned() {
        // The amount is temporary Condition: of the GM's combatant, the GM's.
        let audience = if crate::redact::gm_only_numbers(&c) {
            crate::event::Audience::GmOnly
        } else {
            crate::event::Audience::Everyone
        };
        let recorded = Status {
            magnitude: amount,
            ..s
        };
        ctx.set_status_for(audience, who, key, Some(recorded))?;
    }
    super::temp::gain(ctx, who, amount, key)?;
    if c.has_status(TERROR) {
        ctx.set_status(who, TERROR, None)?;
        ctx.note_about(who, format!("{who}'s {key} drives out the terror"))?;
    }
    Ok(())
}

/// What a raging character may do on its turn: attack, move, dash (with no one in reach),
/// end or pass the turn.
pub fn may_take(ctx: &Ctx<'_>, c: &Combatant, action: &str) -> Result<(), Refusal> {
    if !raging(c) {
        return Ok(());
    }
    match action {
        "attack" | "move" | "end_turn" | "pass" => Ok(()),
        "dash" => match in_reach(ctx, c).first() {
            Some(near) => Err(Refusal::Rule(format!(
                "{} rages with {near} in reach: only a melee attack",
                c.id
            ))),
            None => Ok(()),
        },
        _ => Err(Refusal::Rule(format!(
            "{} rages: nothing but melee attacks, moving, and a dash when no one is in reach",
            c.id
        ))),
    }
}

/// The targets within melee reach of `c`, nearest first: its enemies, or anyone in amok.
fn in_reach(ctx: &Ctx<'_>, c: &Combatant) -> Vec<EntityId> {
    let amok = c.has_status(AMOK);
    nearest_all(ctx, c)
        .into_iter()
        .filter(|(id, d)| {
            *d <= MELEE_M && (amok || ctx.state.combatant(id).is_some_and(|o| o.side != c.side))
        })
        .map(|(id, _)| id)
        .collect()
}

/// Every other living character in the fight and on the grid (no object), with its distance
/// from `c`, nearest first.
fn nearest_all(ctx: &Ctx<'_>, c: &Combatant) -> Vec<(EntityId, i64)> {
    let Some(at) = c.position else {
        return Vec::new();
    };
    let diagonal = ctx.state.options().diagonal();
    let mut out: Vec<(EntityId, i64)> = ctx
        .state
        .encounter()
        .order
        .iter()
        .filter(|id| **id != c.id)
        .filter_map(|id| {
            let o = ctx.state.combatant(id)?;
            if o.has_status(DEAD) || o.kind == crate::state::Kind::Object {
                return None;
            }
            let id = id.clone();
            let d = i64::try_from(distance(at, o.position?, diagonal)).unwrap_or(i64::MAX);
            Some((id, d))
        })
        .collect();
    out.sort_by_key(|(id, d)| (*d, id.clone()));
    out
}

/// An attack by a raging `c` on `target`: melee only, and in amok at the nearest.
pub fn may_attack(
    ctx: &Ctx<'_>,
    c: &Combatant,
    target: &EntityId,
    melee: bool,
) -> Result<(), Refusal> {
    if !raging(c) {
        return Ok(());
    }
    if !melee {
        return Err(Refusal::Rule(format!("{} rages: melee attacks only", c.id)));
    }
    if c.has_status(AMOK) {
        let all = nearest_all(ctx, c);
        if let Some((_, closest)) = all.first() {
            let nearest: Vec<String> = all
                .iter()
                .filter(|(_, d)| d == closest)
                .map(|(id, _)| id.to_string())
                .collect();
            if !nearest.iter().any(|n| n == target.as_str()) {
                return Err(Refusal::Rule(format!(
                    "{} runs amok and attacks the nearest: {}",
                    c.id,
                    nearest.join(" or ")
                )));
            }
        }
    }
    Ok(())
}
