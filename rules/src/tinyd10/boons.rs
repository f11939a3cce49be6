//! The class abilities that set a lasting effect rather than strike (`ability`), each the
//! turn's ability: Magical power (wizard: every PP becomes a temporary MP, and +1 toughness for
//! 1d5 rounds), Prying eye (rogue, 2 PP: a foe's toughness -2 for the round), Bless weapon
//! (cleric, 2 PP: a weapon of the cleric's deals +1, and 1d5 in place of the 1 to the unholy,
//! for the fight) and Appeal to heaven (cleric, 2 PP, at half HP or less: +1 attack and damage
//! and no damage taken for the level in rounds), and Commanding presence (warrior, 3 PP: see
//! `presence`). Their numbers are read where they count: the
//! toughness (`round::toughness_of`), the attack and its damage (`attack`), the damage taken
//! (`harm`).

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};

use super::dice::{Amount, Die, roll_for};
use super::rolls::spend_pp;
use super::round::spend;
use super::sheet::Stats;
use super::{
    ACTION, APPEAL, BLESSED_WEAPON, DEAD, HP, MAGICAL_POWER, MP, PP, PRIED, afflict, stats_of,
};

/// The lasting abilities: id and PP cost.
pub const BOONS: [(&str, i64); 5] = [
    ("magical_power", 0),
    ("prying_eye", 2),
    ("bless_weapon", 2),
    ("appeal_to_heaven", 2),
    ("commanding_presence", 3),
];

/// Magical power's toughness, Prying eye's, and the rounds Prying eye lasts.
pub const MAGICAL_TOUGHNESS: i64 = 1;
pub const PRIED_TOUGHNESS: i64 = -2;

pub fn boon(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    id: &str,
    cost: i64,
    args: &Args,
) -> Result<(), DecideError> {
    if !stats.has_ability(id) {
        return Err(Refusal::Rule(format!("{} does not have {id}", c.id)).into());
    }
    let have = c.resource(PP);
    if have < cost {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {id}"),
            needed: cost,
            available: have,
        }
        .into());
    }
    match id {
        "prying_eye" => {
            let t = ctx.combatant(&args.require_entity("target")?)?;
            if t.has_status(DEAD) {
                return Err(Refusal::Rule(format!("{} is already dead", t.id)).into());
            }
            pay(ctx, c, cost, id)?;
            afflict::afflict(
                ctx,
                &t.id,
                PRIED,
                PRIED_TOUGHNESS,
                afflict::Rounds::Told(1),
                "prying eye",
            )?;
            // Told as the rogue's doing: it says nothing of the GM's numbers.
            ctx.note_about(
                &c.id,
                format!(
                    "{} finds {}'s weak spot: toughness {PRIED_TOUGHNESS} this round (prying eye)",
                    c.id, t.id
                ),
            )
        }
        "bless_weapon" => {
            let weapon = match args.text("weapon")? {
                Some(w) => stats.attack(w),
                None => stats.attacks.first(),
            }
            .filter(|w| w.id != super::sheet::UNARMED)
            .cloned()
            .ok_or_else(|| Refusal::bad_argument("weapon", "is not one of the cleric's weapons"))?;
            pay(ctx, c, cost, id)?;
            // The status names the weapon: an NPC's is the GM's.
            super::call::mark(
                ctx,
                &c.id,
                BLESSED_WEAPON,
                Some(Status {
                    source: weapon.id.clone(),
                    magnitude: 1,
                    rounds_left: None,
                }),
            )?;
            ctx.note_about(
                &c.id,
                format!(
                    "{} blesses the {} for the fight (bless weapon)",
                    c.id, weapon.name
                ),
            )
        }
        "commanding_presence" => {
            pay(ctx, c, cost, id)?;
            super::presence::command(ctx, c)
        }
        "appeal_to_heaven" => {
            let hp = c.resource(HP);
            if hp * 2 > stats.hp_max {
                return Err(Refusal::Rule(format!(
                    "{} may appeal to heaven at half its hit points or less ({hp} of {})",
                    c.id, stats.hp_max
                ))
                .into());
            }
            pay(ctx, c, cost, id)?;
            // It lasts the cleric's level: the GM's number for the GM's cleric.
            let rounds = if crate::redact::gm_only_numbers(c) {
                afflict::Rounds::Gms(stats.level)
            } else {
                afflict::Rounds::Told(stats.level)
            };
            afflict::afflict(ctx, &c.id, APPEAL, 1, rounds, "appeal to heaven")?;
            ctx.note_about(
                &c.id,
                format!(
                    "{} appeals to heaven: +1 attack and damage, no damage taken for {} rounds",
                    c.id, stats.level
                ),
            )
        }
        _ => {
            pay(ctx, c, cost, id)?;
            let pp = ctx.combatant(&c.id)?.resource(PP);
            let mp = ctx.combatant(&c.id)?.resource(MP);
            ctx.set_resource(&c.id, PP, 0)?;
            ctx.set_resource(&c.id, MP, mp + pp)?;
            // The GM's creature's face is its rounds, which `Rounds::Gms` keeps: the GM's alone.
            let rounds = roll_for(
                ctx,
                &c.id,
                "rounds of magical power",
                Amount::die(Die::D5),
                stats.level,
                crate::redact::gm_only_numbers(c),
            )?
            .value;
            afflict::afflict(
                ctx,
                &c.id,
                MAGICAL_POWER,
                MAGICAL_TOUGHNESS,
                // The GM's creature rolled its rounds for the GM alone.
                if crate::redact::gm_only_numbers(c) {
                    afflict::Rounds::Gms(rounds)
                } else {
                    afflict::Rounds::Told(rounds)
                },
                "magical power",
            )?;
            ctx.note_about(
                &c.id,
                format!(
                    "{} turns {pp} PP into temporary MP and gains +{MAGICAL_TOUGHNESS} toughness for {rounds} rounds (magical power)",
                    c.id
                ),
            )
        }
    }
}

/// The turn's ability and its PP.
fn pay(ctx: &mut Ctx<'_>, c: &Combatant, cost: i64, id: &str) -> Result<(), DecideError> {
    spend(ctx, c, ACTION)?;
    if cost > 0 {
        spend_pp(ctx, &c.id, cost, &id.replace('_', " "))?;
    }
    Ok(())
}

/// The end of the fight: what lasted "for the combat encounter" goes, and temporary MP above
/// the maximum with it.
pub fn fight_over(ctx: &mut Ctx<'_>, who: &Combatant) -> Result<(), DecideError> {
    super::call::mark(ctx, &who.id, BLESSED_WEAPON, None)?;
    ctx.set_status(&who.id, super::COMMANDING, None)?;
    let max = stats_of(who)?.mp_max;
    let mp = ctx.combatant(&who.id)?.resource(MP);
    if mp > max {
        ctx.set_resource(&who.id, MP, max)?;
    }
    Ok(())
}
