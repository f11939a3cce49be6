//! The class abilities that heal others (`ability`), each the turn's ability. Healing
//! sacrifice (cleric): allies within 50 ft are healed to full, each for 1 of the cleric's HP and
//! 2 PP; the cleric may not pay its last HP (it would heal others by falling). Enchanted healing
//! (wizard): MP become HP for the wizard or an ally; the text gives no rate, so the table
//! chooses one (`tinyd10.enchanted_healing`: by default the server refuses and the GM rules).

use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};

use super::moving::feet_between;
use super::options::{ENCHANTED_HEALING, is};
use super::sheet::Stats;
use super::{ACTION, DEAD, HP, MP, PP, harm, stats_of};

/// Healing sacrifice's reach in feet, and its price per ally in HP and PP.
pub const SACRIFICE_FT: i64 = 50;
pub const SACRIFICE_HP: i64 = 1;
pub const SACRIFICE_PP: i64 = 2;

pub fn sacrifice(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    args: &Args,
) -> Result<(), DecideError> {
    if !stats.has_ability("healing_sacrifice") {
        return Err(Refusal::Rule(format!("{} does not have healing_sacrifice", c.id)).into());
    }
    let mut ids = vec![args.require_entity("target")?];
    for id in args
        .text("also")?
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        ids.push(EntityId::from(id));
    }
    let mut allies: Vec<Combatant> = Vec::new();
    for id in ids {
        let a = ctx.combatant(&id)?;
        if allies.iter().any(|o| o.id == a.id) {
            return Err(Refusal::bad_argument("also", &format!("names {} twice", a.id)).into());
        }
        if a.id == c.id || a.side != c.side || a.kind == Kind::Object || a.has_status(DEAD) {
            return Err(Refusal::Rule(format!(
                "healing sacrifice heals the cleric's living allies; {} is not one",
                a.id
            ))
            .into());
        }
        if let (Some(from), Some(to)) = (c.position, a.position) {
            let feet = feet_between(ctx, from, to);
            if feet > SACRIFICE_FT {
                return Err(Refusal::OutOfRange {
                    what: format!("{} for healing sacrifice", a.id),
                    distance: feet,
                    limit: SACRIFICE_FT,
                    unit: super::GRID.unit.into(),
                }
                .into());
            }
        }
        allies.push(a);
    }
    let n = i64::try_from(allies.len()).unwrap_or(i64::MAX);
    let (hp, pp) = (c.resource(HP), c.resource(PP));
    if pp < SACRIFICE_PP * n {
        return Err(Refusal::InsufficientResource {
            resource: "power points for healing sacrifice".into(),
            needed: SACRIFICE_PP * n,
            available: pp,
        }
        .into());
    }
    if hp <= SACRIFICE_HP * n {
        return Err(Refusal::InsufficientResource {
            resource: "hit points for healing sacrifice (the last one is not given)".into(),
            needed: SACRIFICE_HP * n + 1,
            available: hp,
        }
        .into());
    }
    super::round::spend_in_combat(ctx, c, ACTION)?;
    ctx.set_resource(&c.id, PP, pp - SACRIFICE_PP * n)?;
    ctx.set_resource(&c.id, HP, hp - SACRIFICE_HP * n)?;
    ctx.note_about(
        &c.id,
        format!(
            "{} gives {} HP and {} PP to heal {n} allies fully (healing sacrifice)",
            c.id,
            SACRIFICE_HP * n,
            SACRIFICE_PP * n
        ),
    )?;
    for a in allies {
        let max = stats_of(&a)?.hp_max;
        let missing = (max - ctx.combatant(&a.id)?.resource(HP)).max(0);
        harm::heal(
            ctx,
            &a.id,
            missing,
            vec![Modifier::new("healing sacrifice: to full", missing)],
        )?;
    }
    Ok(())
}

pub fn enchanted(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    args: &Args,
) -> Result<(), DecideError> {
    if !stats.has_ability("enchanted_healing") {
        return Err(Refusal::Rule(format!("{} does not have enchanted_healing", c.id)).into());
    }
    if !is(ctx.state.options(), ENCHANTED_HEALING, "one_each") {
        return Err(Refusal::Rule(
            "the text gives Enchanted healing no rate: the GM rules it (set MP and HP by ruling), or the table sets tinyd10.enchanted_healing".into(),
        )
        .into());
    }
    let target = match args.entity("target")? {
        Some(t) => ctx.combatant(&t)?,
        None => c.clone(),
    };
    if target.side != c.side || target.kind == Kind::Object || target.has_status(DEAD) {
        return Err(Refusal::Rule(format!(
            "enchanted healing heals the wizard or a living ally; {} is not one",
            target.id
        ))
        .into());
    }
    let mp = args
        .int("mp")?
        .ok_or_else(|| Refusal::bad_argument("mp", "how many MP to turn into HP"))?;
    let have = c.resource(MP);
    if mp > have {
        return Err(Refusal::InsufficientResource {
            resource: "magic points for enchanted healing".into(),
            needed: mp,
            available: have,
        }
        .into());
    }
    super::round::spend_in_combat(ctx, c, ACTION)?;
    ctx.set_resource(&c.id, MP, have - mp)?;
    harm::heal(
        ctx,
        &target.id,
        mp,
        vec![Modifier::new("enchanted healing: 1 HP a MP", mp)],
    )?;
    Ok(())
}
