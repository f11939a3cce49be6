//! Use Ability: a technique, spell or talent from the sheet. Its Vigor and Mana are paid when it
//! begins; its actions come from this turn and, when there are not enough, from the turns that
//! follow (the creature spends those turns' first actions on it). What it does is the GM's to
//! rule, since the text lists no abilities; the server says when it takes effect.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};

use super::attack::Strike;
use super::sheet::Ability;
use super::{ACTIONS, MANA, OFF_HAND_COST, VIGOR, settle, sheet_of};

/// The strike an attacking ability makes, if it attacks: its weapon (rolling the ability's
/// attack dice where it names them) against `target`, with an off-hand strike after it when
/// asked for and the technique is a light-weapon one.
fn attack_of(c: &Combatant, ability: &Ability, args: &Args) -> Result<Option<Strike>, Refusal> {
    let off_hand = args.text("off_hand")?;
    let Some(weapon_id) = &ability.weapon else {
        if off_hand.is_some() {
            return Err(Refusal::Rule(format!(
                "{} makes no attack to add an off-hand to",
                ability.name
            )));
        }
        return Ok(None);
    };
    let sheet = sheet_of(c)?;
    let mut weapon = sheet.weapon(Some(weapon_id)).ok_or_else(|| {
        Refusal::Rule(format!(
            "{}'s weapon `{weapon_id}` is not on the sheet",
            ability.name
        ))
    })?;
    if let Some(a) = ability.attack_ability {
        weapon.attack_ability = a;
    }
    let then = match off_hand {
        None => None,
        Some(_) if !ability.light_weapon => {
            return Err(Refusal::Rule(format!(
                "{} is not a light-weapon technique: no off-hand attack rides on it",
                ability.name
            )));
        }
        Some(id) => Some(sheet.weapon(Some(id)).ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a weapon on {}'s sheet", c.id),
            name: id.to_owned(),
        })?),
    };
    let target = args.require_entity("target")?;
    if target == c.id {
        return Err(Refusal::Rule("a creature does not attack itself".into()));
    }
    Ok(Some(Strike {
        attacker: c.id.clone(),
        target,
        weapon,
        charges: 0,
        challenges: 0,
        from_behind: false,
        off_hand: false,
        then,
    }))
}

/// Status of a creature still putting actions into an ability: magnitude = actions still owed,
/// source = the ability's name.
pub const CHANNELLING: &str = "channelling";

pub fn use_ability(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let id = args
        .text("ability")?
        .ok_or_else(|| Refusal::bad_argument("ability", "is required"))?;
    let ability = sheet_of(c)?
        .abilities_list
        .iter()
        .find(|a| a.id == id)
        .cloned()
        .ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("an ability of {}", c.id),
            name: id.to_owned(),
        })?;
    let strike = attack_of(c, &ability, args)?;
    if c.has_status(CHANNELLING) {
        return Err(Refusal::Rule(format!("{} is still busy with another ability", c.id)).into());
    }
    let left = c.resource(ACTIONS);
    if strike.is_some() && left < ability.actions {
        // An attack lands when it is made: one that would carry into later turns is refused
        // rather than left hanging over a target that may have moved.
        return Err(Refusal::InsufficientResource {
            resource: "actions".into(),
            needed: ability.actions,
            available: left,
        }
        .into());
    }
    if left < 1 {
        return Err(Refusal::InsufficientResource {
            resource: "actions".into(),
            needed: 1,
            available: left,
        }
        .into());
    }
    let off_hand_cost = match &strike {
        Some(s) if s.then.is_some() => OFF_HAND_COST,
        _ => 0,
    };
    for (key, word, cost) in [
        (VIGOR, "Vigor", ability.vigor + off_hand_cost),
        (MANA, "Mana", ability.mana),
    ] {
        if c.resource(key) < cost {
            return Err(Refusal::InsufficientResource {
                resource: word.into(),
                needed: cost,
                available: c.resource(key),
            }
            .into());
        }
    }
    ctx.set_resource(
        &c.id,
        VIGOR,
        c.resource(VIGOR) - ability.vigor - off_hand_cost,
    )?;
    ctx.set_resource(&c.id, MANA, c.resource(MANA) - ability.mana)?;
    settle(ctx, &c.id, &ability.name)?;
    if ability.opens {
        let me = ctx.combatant(&c.id)?;
        super::opening::offer(ctx, &me, &format!("uses {}", ability.name))?;
    }
    let now = left.min(ability.actions);
    ctx.set_resource(&c.id, ACTIONS, left - now)?;
    let owed = ability.actions - now;
    if owed == 0 {
        ctx.note_about(
            &c.id,
            format!("{} uses {}: it takes effect now", c.id, ability.name),
        )?;
        return match strike {
            Some(s) => super::attack::strike(ctx, s),
            None => Ok(()),
        };
    }
    ctx.set_status(
        &c.id,
        CHANNELLING,
        Some(Status {
            source: ability.name.clone(),
            magnitude: owed,
            rounds_left: None,
        }),
    )?;
    ctx.note_about(
        &c.id,
        format!(
            "{} begins {}: {owed} more action(s) in later turns",
            c.id, ability.name
        ),
    )
}

/// At the start of a turn with `actions`, what a channelling creature still owes is taken
/// first; the ability takes effect once nothing is owed. Returns the actions left to use.
pub fn carry_on(ctx: &mut Ctx<'_>, id: &EntityId, actions: i64) -> Result<i64, DecideError> {
    let c = ctx.combatant(id)?;
    let Some(status) = c.statuses.get(CHANNELLING).cloned() else {
        return Ok(actions);
    };
    let taken = actions.min(status.magnitude);
    let owed = status.magnitude - taken;
    if owed == 0 {
        ctx.set_status(id, CHANNELLING, None)?;
        ctx.note_about(
            id,
            format!("{id} completes {}: it takes effect now", status.source),
        )?;
    } else {
        ctx.set_status(
            id,
            CHANNELLING,
            Some(Status {
                magnitude: owed,
                ..status
            }),
        )?;
    }
    Ok(actions - taken)
}
