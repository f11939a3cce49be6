//! Use Ability: a technique, spell or talent from the sheet. Its Vigor and Mana are paid when it
//! begins; its actions come from this turn and, when there are not enough, from the turns that
//! follow (the creature spends those turns' first actions on it). What it does is the GM's to
//! rule, since the text lists no abilities; the server says when it takes effect.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};

use super::{ACTIONS, MANA, VIGOR, settle, sheet_of};

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
    if c.has_status(CHANNELLING) {
        return Err(Refusal::Rule(format!("{} is still busy with another ability", c.id)).into());
    }
    let left = c.resource(ACTIONS);
    if left < 1 {
        return Err(Refusal::InsufficientResource {
            resource: "actions".into(),
            needed: 1,
            available: left,
        }
        .into());
    }
    for (key, word, cost) in [
        (VIGOR, "Vigor", ability.vigor),
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
    ctx.set_resource(&c.id, VIGOR, c.resource(VIGOR) - ability.vigor)?;
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
        return ctx.note_about(
            &c.id,
            format!("{} uses {}: it takes effect now", c.id, ability.name),
        );
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
