//! Splash-effect (wizard, 1 PP, `cast --splash`): an attack spell that deals damage to its
//! target deals the same amount to every other creature within 10 ft of that target, each of
//! them struck only by an attack roll of its own against its own toughness. "All creatures"
//! is read as written: allies and the caster too, if they stand that close. Distances need the
//! grid; off it nobody is near enough for the server and the GM judges. The PP are paid with
//! the spell, whether or not it strikes; a spell that misses or deals nothing splashes nothing.

use crate::engine::{Ctx, DecideError};
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};

use super::cast::spell_attack;
use super::content::Spell;
use super::moving::feet_between;
use super::sheet::Stats;
use super::{DEAD, harm};

/// Splash-effect's cost and radius.
pub const COST: i64 = 1;
pub const RADIUS_FT: i64 = 10;

/// Refuses a splash `c` cannot make with `spell`.
pub fn check(c: &Combatant, stats: &Stats, spell: &Spell, splash: bool) -> Result<(), Refusal> {
    if !splash {
        return Ok(());
    }
    if !stats.has_ability("splash_effect") {
        return Err(Refusal::Rule(format!(
            "{} does not have splash_effect",
            c.id
        )));
    }
    if !spell.attack || spell.damage.is_none() {
        return Err(Refusal::bad_argument(
            "splash",
            "modifies an attack spell that deals damage",
        ));
    }
    Ok(())
}

/// `spell` dealt `amount` to `target`: every other creature within reach of it is attacked
/// and, if struck, takes as much.
pub fn spread(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    amount: i64,
) -> Result<(), DecideError> {
    let Some(at) = target.position else {
        return Ok(());
    };
    let near: Vec<Combatant> = ctx
        .state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| {
            o.id != target.id
                && o.kind != Kind::Object
                && !o.has_status(DEAD)
                && o.position
                    .is_some_and(|p| feet_between(ctx, at, p) <= RADIUS_FT)
        })
        .collect();
    for o in near {
        let o = ctx.combatant(&o.id)?;
        if o.has_status(DEAD) {
            continue;
        }
        if spell_attack(ctx, c, stats, spell, &o, None)? {
            harm::damage(
                ctx,
                &o.id,
                amount,
                vec![crate::event::Modifier::new("splash-effect", amount)],
                Some(&c.id),
                false,
            )?;
        }
    }
    ctx.telling = None;
    Ok(())
}
