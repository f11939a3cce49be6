//! What a strike that lands does: its damage roll (the weapon's quality dice and the Strength
//! or Skill bonus dice), what armour, cover and Durability rank let through, and the body it
//! reaches, told as the attacker's hit.

use crate::account::Telling;
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::state::{Kind, StateView, Status};

use super::attack::Strike;
use super::bonus_dice::{Steps, burst_in, bursting, damage_roll};
use super::damage::{Blow, Protection, Track, take, through};
use super::guard::Cover;
use super::options::{ARMOUR_QUALITY, EPIC_DIE, FEEBLE_DIE, LEGENDARY_DIE, OVERFLOW, choice_of};
use super::sheet::Quality;
use super::tell::{self, Moved};
use super::{COVER, DEAD, DURABILITY, HEALTH, OFF_HAND_CHALLENGES, WOUNDED, settle, sheet_of};

/// Sides of the damage die of a quality: ordinary d8 and heroic d10 by the text, the others
/// by table option.
pub fn quality_die(options: &crate::options::TableOptions, q: Quality) -> crate::dice::Primitive {
    use crate::dice::Primitive;
    let by_option = |key: &str| {
        let text = choice_of(options, key);
        text.trim_start_matches('d')
            .parse::<u32>()
            .ok()
            .and_then(Primitive::from_sides)
            .unwrap_or(Primitive::D8)
    };
    match q {
        Quality::Feeble => by_option(FEEBLE_DIE),
        Quality::Ordinary => Primitive::D8,
        Quality::Heroic => Primitive::D10,
        Quality::Epic => by_option(EPIC_DIE),
        Quality::Legendary => by_option(LEGENDARY_DIE),
    }
}

/// Damage of a strike that landed: quality dice plus Strength or Skill bonus dice (stepped by
/// Wounded and, off-hand, by two challenges; the attack's charges stay on the attack), then
/// armour, then the body.
pub fn damage(ctx: &mut Ctx<'_>, s: &Strike) -> Result<(), DecideError> {
    let attacker = ctx.combatant(&s.attacker)?;
    let target = ctx.combatant(&s.target)?;
    let a_sheet = sheet_of(&attacker)?.clone();
    let t_sheet = sheet_of(&target)?.clone();
    let options = ctx.state.options().clone();
    let steps = Steps {
        charges: 0,
        challenges: if s.off_hand { OFF_HAND_CHALLENGES } else { 0 },
        wounded: attacker.has_status(WOUNDED),
    };
    let bonus = a_sheet.damage_dice(s.weapon.damage_bonus);
    let expr = damage_roll(
        s.weapon.damage,
        quality_die(&options, s.weapon.quality),
        bonus,
        steps.die(),
        bursting(&options),
    );
    let roll = crate::dice::roll(&expr, ctx.dice)?;
    let critical = burst_in(&roll);
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(s.attacker.clone()),
        purpose: if critical {
            "damage (critical hit: a bonus die burst)".into()
        } else {
            "damage".into()
        },
        roll: roll.clone(),
    }))?;
    let cover = target
        .statuses
        .get(COVER)
        .and_then(|c| Cover::from_magnitude(c.magnitude))
        .filter(|_| s.weapon.ranged)
        .map_or(0, Cover::armour);
    let protection = Protection {
        armour: t_sheet
            .best_armour()
            .map(|a| (a.rank, a.quality, a.physical_only)),
        cover,
        durability: t_sheet.durability_rank,
        object: target.kind == Kind::Object,
    };
    let any_superior = choice_of(&options, ARMOUR_QUALITY) == "any_superior";
    let blow = Blow {
        rolled: roll.total,
        weapon: s.weapon.quality,
        kind: s.weapon.damage_type,
    };
    let (amount, steps_told) = through(blow, protection, any_superior);
    // The damage is the attacker's doing, whatever was told last (the defender's roll).
    ctx.telling = Some(Telling {
        actor: Some(s.attacker.clone()),
        verb: "hits".into(),
        target: Some(s.target.clone()),
        instrument: Some(s.weapon.name.clone()),
    });
    hurt(ctx, &s.target, amount, steps_told, s.weapon.to_health)
}

/// Takes `amount` off a creature's Durability, then Health, with the conditions that follow
/// and one sentence saying what moved.
pub fn hurt(
    ctx: &mut Ctx<'_>,
    id: &EntityId,
    amount: i64,
    steps: Vec<crate::event::Modifier>,
    to_health: bool,
) -> Result<(), DecideError> {
    let source = "hit";
    let t = ctx.combatant(id)?;
    let carry = choice_of(ctx.state.options(), OVERFLOW) == "carry";
    let before = Track {
        durability: t.resource(DURABILITY),
        health: t.resource(HEALTH),
        object: t.kind == Kind::Object,
    };
    // A poison passes Durability by: it is taken as if the creature were already wounded,
    // and Durability stays where it was.
    let after = if to_health && !before.object {
        let a = take(
            Track {
                durability: 0,
                ..before
            },
            amount,
            carry,
        );
        super::damage::After {
            durability: before.durability,
            ..a
        }
    } else {
        take(before, amount, carry)
    };
    let by = ctx.telling.as_ref().and_then(|t| t.actor.clone());
    ctx.emit(ctx.damage_resolved(id, steps.clone(), amount, by.as_ref()))?;
    let wound = if after.killed {
        Some(if before.object { "destroyed" } else { "killed" }.to_owned())
    } else if after.health == 0 && !before.object {
        Some("in shock".to_owned())
    } else if after.durability == 0 && !before.object {
        Some("wounded".to_owned())
    } else if amount > 0 {
        // What anyone at the table sees of a hit, when they may not see the numbers.
        Some("hurt".to_owned())
    } else {
        Some("unharmed".to_owned())
    };
    let account = tell::effect(
        ctx,
        id,
        "damage",
        amount,
        steps,
        &[
            Moved {
                word: "Durability",
                before: before.durability,
                after: after.durability,
            },
            Moved {
                word: "Health",
                before: before.health,
                after: after.health,
            },
        ],
        wound,
    );
    ctx.emit(Event::public(Fact::Told(Box::new(account))))?;
    ctx.set_resource(id, DURABILITY, after.durability)?;
    ctx.set_resource(id, HEALTH, after.health)?;
    if after.killed {
        super::end_shock(ctx, &ctx.combatant(id)?)?;
        ctx.set_status(
            id,
            DEAD,
            Some(Status {
                source: source.to_owned(),
                magnitude: 0,
                rounds_left: None,
            }),
        )?;
        return Ok(());
    }
    settle(ctx, id, source)
}
