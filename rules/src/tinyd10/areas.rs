//! Spells that reach more than one creature. Some pick their own (everyone of a kind within so
//! many feet of a point: [`around`]); three take a list the caster names (`cast --targets`):
//! Burning touch II (up to two, 3 MP each, a damage roll each), Healing wave (up to the
//! caster's level in creatures within 20 ft of it) and Fireball II (up to five creatures within
//! 10 ft of its target, an attack roll each). Whether one amount rolled serves every creature
//! or each gets its own is the table's (`tinyd10.area_dice`).
//!
//! Distances are measured on the grid. Off it the server cannot tell who stands where: the GM
//! may vouch for the names (`as_named`, the GM's alone); a player's list is refused there.

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};

use super::content::Spell;
use super::dice::roll_told;
use super::moving::feet_between;
use super::options::{AREA_DICE, is};
use super::sheet::Stats;
use super::{DEAD, GRID, harm};

/// Creatures named for a casting, and whether the GM vouches for them off the grid.
#[derive(Default)]
pub struct Named {
    pub ids: Vec<EntityId>,
    pub as_named: bool,
}

/// Reads `targets` (comma-separated ids) and `as_named`: every id a living creature, none
/// twice.
pub fn named(ctx: &Ctx<'_>, args: &Args) -> Result<Named, Refusal> {
    let mut ids: Vec<EntityId> = Vec::new();
    for id in args
        .text("targets")?
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let o = ctx.combatant(&EntityId::from(id))?;
        if o.has_status(DEAD) {
            return Err(Refusal::Rule(format!("{id} is dead")));
        }
        if ids.contains(&o.id) {
            return Err(Refusal::bad_argument("targets", "names each creature once"));
        }
        ids.push(o.id);
    }
    Ok(Named {
        ids,
        as_named: args.flag("as_named")?,
    })
}

/// Every living creature of the table (no objects).
pub fn everyone(ctx: &Ctx<'_>) -> Vec<Combatant> {
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| o.kind != Kind::Object && !o.has_status(DEAD))
        .collect()
}

/// Refuses a list named for an area around `center` that the server measures itself (on the
/// grid) or that only the GM may vouch for (off it).
pub fn check_named(center: &Combatant, named: &Named, feet: i64) -> Result<(), Refusal> {
    if named.ids.is_empty() {
        return Ok(());
    }
    if center.position.is_some() {
        return Err(Refusal::bad_argument(
            "targets",
            "on the grid the spell finds who is within its area itself",
        ));
    }
    if !named.as_named {
        return Err(off_grid(feet));
    }
    Ok(())
}

/// Whether `spell` takes a list of creatures (`targets`).
pub fn takes_list(spell: &Spell) -> bool {
    reach(spell).is_some()
}

/// The creatures `fits` accepts within `feet` of `center` (itself included). On the grid the
/// server finds them and a list is refused; off it, `center` and those the GM names.
pub fn around(
    ctx: &Ctx<'_>,
    center: &Combatant,
    feet: i64,
    named: &Named,
    fits: impl Fn(&Combatant) -> bool,
) -> Result<Vec<Combatant>, Refusal> {
    let all = everyone(ctx);
    check_named(center, named, feet)?;
    if let Some(at) = center.position {
        return Ok(all
            .into_iter()
            .filter(|o| fits(o) && o.position.is_some_and(|p| feet_between(ctx, at, p) <= feet))
            .collect());
    }
    Ok(all
        .into_iter()
        .filter(|o| (o.id == center.id || named.ids.contains(&o.id)) && fits(o))
        .collect())
}

fn off_grid(feet: i64) -> Refusal {
    Refusal::Rule(format!(
        "off the grid the server cannot tell who is within {feet} {}: place the creatures, or the GM names them (`as_named`)",
        GRID.unit
    ))
}

/// A spell that takes a list: its most creatures, and how near (to the caster, or to the
/// target when `of_target`) they must be.
struct Reach {
    most: fn(&Stats) -> usize,
    feet: Option<i64>,
    of_target: bool,
}

fn reach(spell: &Spell) -> Option<Reach> {
    Some(match spell.id.as_str() {
        "burning_touch_2" => Reach {
            most: |_| 2,
            feet: None,
            of_target: false,
        },
        "healing_wave" => Reach {
            most: |s| usize::try_from(s.level.max(1)).unwrap_or(1),
            feet: Some(20),
            of_target: false,
        },
        "fireball_2" => Reach {
            most: |_| 5,
            feet: Some(10),
            of_target: true,
        },
        _ => return None,
    })
}

/// The creatures `spell` reaches when it takes a list (`None` when it does not): those named,
/// or its target alone; each checked against the spell's count and distance.
pub fn group(
    ctx: &Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    target: &Combatant,
    named: &Named,
) -> Result<Option<Vec<Combatant>>, Refusal> {
    let Some(r) = reach(spell) else {
        if named.as_named && named.ids.is_empty() {
            return Err(Refusal::bad_argument("as_named", "vouches for `targets`"));
        }
        return Ok(None);
    };
    let list: Vec<Combatant> = if named.ids.is_empty() {
        vec![target.clone()]
    } else {
        named
            .ids
            .iter()
            .map(|id| ctx.combatant(id))
            .collect::<Result<_, _>>()?
    };
    let most = (r.most)(stats);
    if list.len() > most {
        return Err(Refusal::bad_argument(
            "targets",
            &format!("{} reaches at most {most} creatures", spell.name),
        ));
    }
    let Some(feet) = r.feet else {
        return Ok(Some(list));
    };
    let center = if r.of_target { target } else { c };
    for o in &list {
        match (center.position, o.position) {
            (Some(a), Some(b)) => {
                let d = feet_between(ctx, a, b);
                if d > feet {
                    return Err(Refusal::OutOfRange {
                        what: format!("{} for {}", o.id, spell.name),
                        distance: d,
                        limit: feet,
                        unit: GRID.unit.into(),
                    });
                }
            }
            // The target alone (no list named): its range was judged as any spell's, and off
            // the grid that is the GM's, as for Heal.
            _ if o.id == center.id || named.as_named || named.ids.is_empty() => {}
            _ => return Err(off_grid(feet)),
        }
    }
    Ok(Some(list))
}

/// The MP of a casting on `n` creatures: Burning touch II costs its price for each.
pub fn times(spell: &Spell, n: usize) -> i64 {
    if spell.id == "burning_touch_2" {
        i64::try_from(n).unwrap_or(i64::MAX)
    } else {
        1
    }
}

/// Casts `spell` on each of `list` (paid for already).
pub fn resolve(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    spell: &Spell,
    list: &[Combatant],
    pp: Option<Modifier>,
) -> Result<(), DecideError> {
    let each = is(ctx.state.options(), AREA_DICE, "each");
    let mut shared: Option<i64> = None;
    let mut amount = |ctx: &mut Ctx<'_>, what: &str| -> Result<i64, DecideError> {
        if !each && let Some(v) = shared {
            return Ok(v);
        }
        let notation = spell
            .damage
            .or(spell.heals)
            .unwrap_or(super::dice::Amount::flat(0));
        let purpose = format!("{} {what}", spell.name.to_lowercase());
        let v = roll_told(ctx, &c.id, &purpose, notation, stats.level)?.value;
        shared = Some(v);
        Ok(v)
    };
    for o in list {
        let o = ctx.combatant(&o.id)?;
        if o.has_status(DEAD) {
            continue;
        }
        ctx.telling = Some(super::cast::cast_on(c, spell, &o));
        match spell.id.as_str() {
            "healing_wave" => {
                let v = amount(ctx, "healing")?;
                harm::heal(ctx, &o.id, v, vec![Modifier::new(&spell.name, v)])?;
            }
            "fireball_2" => {
                if super::cast::spell_attack(ctx, c, stats, spell, &o, pp.clone())? {
                    ctx.telling = Some(super::cast::cast_on(c, spell, &o));
                    let v = amount(ctx, "damage")?;
                    harm::damage(
                        ctx,
                        &o.id,
                        v,
                        vec![Modifier::new(&spell.name, v)],
                        Some(&c.id),
                        false,
                    )?;
                }
            }
            // Burning touch II: each its own strike, the damage rolled for each.
            _ => {
                super::cast::land(
                    ctx,
                    c,
                    stats,
                    spell,
                    &o,
                    0,
                    false,
                    false,
                    &super::lasting::Extra::default(),
                )?;
            }
        }
    }
    ctx.telling = None;
    Ok(())
}
