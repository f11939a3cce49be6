//! The class abilities that strike a foe (`ability`): Smite (3 PP, 1d10 to an unholy
//! creature), Hail of daggers (3 PP, 1d5 + L daggers of 1 damage each) and Stunning blow
//! (2 PP, +1 to hit, 2 damage, and the target wins a power challenge or lies prone and
//! unconscious for 1d5 rounds). An ability that targets a foe needs an attack roll against its
//! toughness; the text names no attribute for these, so Smite rolls aspect (the cleric's divine
//! attribute), Hail of daggers reflex (thrown, one roll for the volley) and Stunning blow power
//! (a melee blow): rulings written in `docs/tinyd10.md`.

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::refusal::Refusal;
use crate::state::{Combatant, Status};

use super::checks::{self, Winner};
use super::content::Attribute;
use super::dice::{Amount, Die, roll_told};
use super::rolls::{self, Side, d10_for, declare_pp, spend_pp};
use super::round::spend;
use super::sheet::Stats;
use super::tell::{self, Check};
use super::{ACTION, DEAD, PP, PRONE, UNCONSCIOUS, harm, stats_of};

/// The striking abilities: id, PP cost, attribute, attack bonus.
pub const STRIKES: [(&str, i64, Attribute, i64); 3] = [
    ("smite", 3, Attribute::Aspect, 0),
    ("hail_of_daggers", 3, Attribute::Reflex, 0),
    ("stunning_blow", 2, Attribute::Power, 1),
];

/// The tags the text's "evil, undead, or otherwise unholy" covers.
const UNHOLY: [&str; 3] = ["evil", "undead", "unholy"];

/// Whether a creature is evil, undead or unholy (Smite, Wrath).
pub fn is_unholy(stats: &Stats) -> bool {
    stats.tags.iter().any(|g| UNHOLY.contains(&g.as_str()))
}

pub fn ability(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    args: &Args,
    seat: &crate::ids::Seat,
) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let name = args.require_text("name")?;
    if name == super::call::ID {
        return super::call::call(ctx, c, &stats);
    }
    if super::knacks::KNACKS.contains(&name) {
        return super::knacks::knack(ctx, c, &stats, name, args, seat);
    }
    match name {
        "healing_sacrifice" => return super::mending::sacrifice(ctx, c, &stats, args),
        "enchanted_healing" => return super::mending::enchanted(ctx, c, &stats, args),
        _ => {}
    }
    if let Some((id, cost)) = super::boons::BOONS.into_iter().find(|(id, _)| *id == name) {
        return super::boons::boon(ctx, c, &stats, id, cost, args);
    }
    let (id, cost, attribute, bonus) = STRIKES
        .into_iter()
        .find(|(id, ..)| *id == name)
        .ok_or_else(|| {
            Refusal::bad_argument(
                "name",
                "smite, hail_of_daggers, stunning_blow, call_to_battle, magical_power, prying_eye, bless_weapon, appeal_to_heaven, commanding_presence, healing_sacrifice, enchanted_healing, walk_on_water, disguise or apprentice",
            )
        })?;
    if !stats.has_ability(id) {
        return Err(Refusal::Rule(format!("{} does not have {id}", c.id)).into());
    }
    let t = ctx.combatant(&args.require_entity("target")?)?;
    if t.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is already dead", t.id)).into());
    }
    super::presence::must_target(ctx, c, &t.id)?;
    // Thrown daggers are a ranged attack: a flood (Cataclysm) forbids them.
    if id == "hail_of_daggers" {
        super::grounds::may_shoot(c)?;
    }
    let pp = args.int("pp")?.unwrap_or(0);
    let pool = c.resource(PP);
    if pp + cost > pool {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {id}"),
            needed: pp + cost,
            available: pool,
        }
        .into());
    }
    spend(ctx, c, ACTION)?;
    spend_pp(ctx, &c.id, cost, id)?;
    let mut bonuses = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    if bonus != 0 {
        bonuses.push(Modifier::new(id.replace('_', " "), bonus));
    }
    bonuses.extend(super::afflict::penalties(
        ctx,
        &c.id,
        true,
        Some(attribute),
    )?);
    if let Some(m) = declare_pp(ctx, c, pp, 0)? {
        bonuses.push(m);
    }
    let toughness = super::presence::toughness_against(ctx, &t)?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "uses".into(),
        target: Some(t.id.clone()),
        instrument: Some(id.replace('_', " ")),
    });
    let roll = d10_for(ctx, &c.id, &stats)?;
    let total = tell::total(&roll, &bonuses);
    let hit = checks::attack_hits(total, toughness);
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: format!("{} attack", id.replace('_', " ")),
            roll,
            modifiers: bonuses,
            against: Some((toughness, "toughness")),
            success: Some(hit),
            words: ("hits", "misses"),
            because: None,
            hidden: crate::redact::gm_only_numbers(&t),
            gm_only: false,
        },
    )?;
    if !hit {
        ctx.telling = None;
        return Ok(());
    }
    match id {
        "smite" => {
            if !is_unholy(&stats_of(&t)?) {
                ctx.telling = None;
                return ctx
                    .note_about(&t.id, format!("{} is not unholy: smite does nothing", t.id));
            }
            let r = roll_told(
                ctx,
                &c.id,
                "smite damage",
                Amount::die(Die::D10),
                stats.level,
            )?;
            ctx.telling = None;
            harm::damage(
                ctx,
                &t.id,
                r.value,
                vec![Modifier::new("smite", r.value)],
                Some(&c.id),
                false,
            )
        }
        "hail_of_daggers" => {
            let daggers = Amount {
                die: Some(Die::D5),
                flat: 0,
                plus_level: true,
            };
            let r = roll_told(ctx, &c.id, "daggers", daggers, stats.level)?;
            ctx.telling = None;
            harm::damage(
                ctx,
                &t.id,
                r.value,
                vec![Modifier::new("daggers, 1 each", r.value)],
                Some(&c.id),
                false,
            )
        }
        _ => {
            ctx.telling = None;
            harm::damage(
                ctx,
                &t.id,
                2,
                vec![Modifier::new("stunning blow", 2)],
                Some(&c.id),
                false,
            )?;
            let t = ctx.combatant(&t.id)?;
            if t.has_status(DEAD) {
                return Ok(());
            }
            // Ward (divine) keeps an unholy attacker's effects off: the blow lands, the
            // knock-out does not.
            if super::lasting::attack_warded(c, &t) {
                ctx.telling = None;
                return ctx.note_about(
                    &t.id,
                    format!("{}'s ward keeps the stunning blow's knock-out off", t.id),
                );
            }
            let won = rolls::challenge(
                ctx,
                Side {
                    who: c,
                    attribute: Attribute::Power,
                    extra: Vec::new(),
                },
                Side {
                    who: &t,
                    attribute: Attribute::Power,
                    extra: Vec::new(),
                },
                "stunning blow",
            )?;
            if won == Winner::Resister {
                return Ok(());
            }
            let rounds = roll_told(
                ctx,
                &c.id,
                "rounds stunned",
                Amount::die(Die::D5),
                stats.level,
            )?
            .value;
            let stunned = |source: &str| Status {
                source: source.into(),
                magnitude: 0,
                rounds_left: u32::try_from(rounds).ok(),
            };
            ctx.set_status(
                &t.id,
                PRONE,
                Some(Status {
                    rounds_left: None,
                    ..stunned("stunning blow")
                }),
            )?;
            ctx.set_status(&t.id, UNCONSCIOUS, Some(stunned("stunning blow")))?;
            ctx.note_about(
                &t.id,
                format!("{} is knocked prone and out for {rounds} rounds", t.id),
            )
        }
    }
}
