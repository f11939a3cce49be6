//! An apprentice or familiar in a fight. Once a pact binds it (`knacks`), the companion attacks
//! in melee with advantage once per fight for free, and again each time its master pays 1 PP;
//! otherwise it does not attack. "With advantage" has no meaning in the text (A17): it is read
//! as the +1 the GM's combat advantage gives, shown as its own step so the table sees it.

use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::DEAD;
use super::knacks::COMPANION;
use super::rolls::spend_pp;
use super::sheet::AttackStats;

/// The attacks a companion has made this fight (its magnitude), gone when the fight ends.
pub const ATTACKS: &str = "companion_attacks";
/// What a further attack in the same fight costs its master.
pub const AGAIN_PP: i64 = 1;
/// "With advantage", as the server reads it.
pub const ADVANTAGE: i64 = 1;

/// Before a companion's blow lands: whether it may strike now, what it costs, and the
/// advantage it adds (0 for anyone who is not a companion, or outside a fight).
pub fn before_attack(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    w: &AttackStats,
) -> Result<i64, DecideError> {
    let Some(bond) = c.statuses.get(COMPANION) else {
        return Ok(0);
    };
    if !ctx.state.encounter().active {
        return Ok(0);
    }
    if !w.kind.is_melee() {
        return Err(Refusal::Rule(format!(
            "{} is an apprentice or familiar: it attacks in melee",
            c.id
        ))
        .into());
    }
    let master = ctx.combatant(&bond.source.as_str().into())?;
    let made = c.statuses.get(ATTACKS).map_or(0, |s| s.magnitude);
    if made > 0 {
        if master.has_status(DEAD) {
            return Err(Refusal::Rule(format!(
                "{} has had its attack this fight, and its master {} is dead",
                c.id, master.id
            ))
            .into());
        }
        spend_pp(
            ctx,
            &master.id,
            AGAIN_PP,
            &format!("{}'s attack again", c.id),
        )?;
    }
    ctx.set_status(
        &c.id,
        ATTACKS,
        Some(Status {
            source: master.id.0.clone(),
            magnitude: made + 1,
            rounds_left: None,
        }),
    )?;
    let paid = if made > 0 {
        format!("{} pays {AGAIN_PP} PP for it", master.id)
    } else {
        "its free one this fight".to_owned()
    };
    ctx.note_about(
        &c.id,
        format!(
            "{}, {}'s companion, attacks with advantage (+{ADVANTAGE}): {paid}",
            c.id, master.id
        ),
    )?;
    Ok(ADVANTAGE)
}

/// The fight's end: the count starts again in the next.
pub fn fight_over(ctx: &mut Ctx<'_>, who: &crate::ids::EntityId) -> Result<(), DecideError> {
    ctx.set_status(who, ATTACKS, None)
}
