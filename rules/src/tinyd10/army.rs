//! One man army (warrior, 1 PP a target): the turn's melee attack made on several opponents
//! at once. Each target gets its own attack roll against its own toughness, as Splash-effect
//! rolls for each creature (the text does not say one roll serves them all: a ruling in
//! `docs/tinyd10.md`), and each costs its point, the first included. On the grid every target
//! must be within striking range (a cell next to the warrior); off it the GM judges. Power
//! strike and Feint belong to a single blow and are refused with it; PP added to the roll add
//! to every roll of the sweep and are paid once.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::Combatant;

use super::attack::Declared;
use super::moving::feet_between;
use super::sheet::{AttackStats, Stats};
use super::{DEAD, GRID};

/// The opponents `also` names besides `first`, checked: `c` has the ability, the weapon is a
/// melee one, every target is a distinct living opponent within striking range.
pub fn more_targets(
    ctx: &Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    w: &AttackStats,
    d: &Declared,
    args: &Args,
    first: &Combatant,
) -> Result<Vec<Combatant>, DecideError> {
    let Some(list) = args.text("also")? else {
        return Ok(Vec::new());
    };
    if !stats.has_ability("one_man_army") {
        return Err(Refusal::Rule(format!("{} does not have one_man_army", c.id)).into());
    }
    if !w.kind.is_melee() {
        return Err(Refusal::bad_argument("weapon", "one man army is a melee attack").into());
    }
    if d.power_strike > 0 || d.feint || d.blessed {
        return Err(Refusal::bad_argument(
            "also",
            "one man army is not taken with power strike, feint or blessed",
        )
        .into());
    }
    let mut out: Vec<Combatant> = Vec::new();
    for id in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let t = ctx.combatant(&EntityId::from(id))?;
        if t.id == first.id || out.iter().any(|o| o.id == t.id) {
            return Err(Refusal::bad_argument("also", &format!("names {} twice", t.id)).into());
        }
        if t.has_status(DEAD) {
            return Err(Refusal::Rule(format!("{} is already dead", t.id)).into());
        }
        super::presence::must_target(ctx, c, &t.id)?;
        out.push(t);
    }
    if out.is_empty() {
        return Err(Refusal::bad_argument("also", "names at least one more opponent").into());
    }
    for t in std::iter::once(first).chain(out.iter()) {
        if t.id == c.id || t.side == c.side {
            return Err(Refusal::bad_argument(
                "also",
                &format!("one man army strikes opponents; {} is not one", t.id),
            )
            .into());
        }
        if let (Some(a), Some(b)) = (c.position, t.position) {
            let feet = feet_between(ctx, a, b);
            let reach = i64::from(GRID.cell_size);
            if feet > reach {
                return Err(Refusal::OutOfRange {
                    what: format!("{} for one man army", t.id),
                    distance: feet,
                    limit: reach,
                    unit: GRID.unit.into(),
                }
                .into());
            }
        }
    }
    Ok(out)
}

/// What One man army costs for `targets`: a point each when there is more than one.
pub fn cost(targets: &[Combatant]) -> i64 {
    if targets.len() > 1 {
        i64::try_from(targets.len()).unwrap_or(i64::MAX)
    } else {
        0
    }
}
