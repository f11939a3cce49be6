//! Defence and the situation around an attack: the defender's free reaction roll (its own
//! hero dice and skill, never earning Spin), and the advantage dice and bonuses that size,
//! partial hard cover, prone, full defence and a hinder put on one side or the other. An
//! advantage die is one more hero d10 in the pool; the highest is still the one kept.

use crate::action::Args;
use crate::dice::roll;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::Combatant;

use super::tell::{self, expr};
use super::{COVER, FULL_DEFENCE, HINDER, PRONE, SPIN, rules, sheet_of};

/// What the situation adds to each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Edge {
    pub attack_dice: i64,
    pub attack_bonus: i64,
    pub defence_dice: i64,
    pub defence_bonus: i64,
}

/// The edge of `attacker` against `target` (if any), from their sheets, statuses and the
/// action's flags: `physical` (size counts), `ranged` (prone helps the defender; adjacent it
/// helps the attacker), `advantage` (dice the GM or a helper gives), `hindered` (the
/// attacker's hinder applies to this action).
pub fn edge(
    attacker: &Combatant,
    target: Option<&Combatant>,
    args: &Args,
) -> Result<Edge, Refusal> {
    let mut e = Edge {
        attack_dice: args.int("advantage")?.unwrap_or(0),
        ..Edge::default()
    };
    let of = |k: &str| attacker.statuses.get(k).map_or(0, |s| s.magnitude);
    // A lock keeps its grapple's hinder; a grapple holding more than one limb hinders every
    // physical action by itself.
    let held = of(super::GRAPPLED).max(of(super::LOCKED));
    let many_limbs = of(super::GRAPPLED_LIMBS) > 1 && args.flag("physical")?;
    if args.flag("hindered")? {
        // A grapple is a hinder too; hinders do not stack, so the larger counts.
        e.attack_bonus -= rules::hinder(of(HINDER), held);
    } else if many_limbs {
        e.attack_bonus -= held;
    }
    let Some(t) = target else {
        return Ok(e);
    };
    if args.flag("physical")? {
        let steps = rules::size_steps(sheet_of(attacker)?.size, sheet_of(t)?.size);
        let (ad, ab, dd, db) = rules::size_edge(steps);
        e.attack_dice += ad;
        e.attack_bonus += ab;
        e.defence_dice += dd;
        e.defence_bonus += db;
    }
    if t.has_status(FULL_DEFENCE) {
        e.defence_dice += 1;
    }
    // Partly behind hard cover: as if one size step smaller.
    if t.statuses.get(COVER).is_some_and(|s| s.magnitude == 1) {
        e.defence_dice += 1;
        e.defence_bonus += 1;
    }
    if t.has_status(PRONE) {
        if args.flag("ranged")? {
            e.defence_dice += 1;
        } else {
            e.attack_dice += 1;
        }
    }
    Ok(e)
}

/// The defender's roll: its skill's attribute dice plus its advantage dice, keep the highest,
/// add the rank and bonus. A fumble costs it a Spin; a reaction earns none.
pub fn defend(
    ctx: &mut Ctx<'_>,
    target: &Combatant,
    skill: &str,
    e: Edge,
) -> Result<(i64, String, bool), DecideError> {
    let (_, dice, rank) = sheet_of(target)?
        .skill(skill)
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a skill of {}", target.id),
            name: skill.to_owned(),
        })?;
    // Defending is doing something else: it breaks a coup de grâce under way.
    super::death::interrupted(ctx, target, "defence")?;
    let r = roll(
        &expr(&format!("{}d10kh1", dice + e.defence_dice))?,
        ctx.dice,
    )?;
    let faces: Vec<i64> = r.dice.iter().map(|d| i64::from(d.face)).collect();
    let reading = rules::read_pool(&faces);
    let total = reading.highest + rank + e.defence_bonus;
    let hidden = crate::redact::gm_only_numbers(target);
    tell::rolled(ctx, Some(&target.id), format!("{skill} defence"), r, hidden)?;
    if reading.fumble {
        let spin = target.resource(SPIN);
        ctx.set_resource(&target.id, SPIN, rules::add_spin(spin, -1))?;
    }
    Ok((total, format!("{}'s {skill} defence", target.id), hidden))
}
