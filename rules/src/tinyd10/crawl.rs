//! Crawling the dungeon, the GM's actions for a character's attempt on a door, a lock or a
//! trap, each against a toughness the GM names (secret with `hidden`):
//! - forcing a door: a power check; a door broken down calls a wandering monster check at
//!   once, the GM's alone;
//! - picking a lock: a reflex check, +1 with the pick lock skill, only with a thieves' kit;
//!   Magical intrusion (with the pick lock skill) opens it without one;
//! - a trap: found by a perception check (intellect, spot and detect trap +1 each, the race's
//!   bonus, a carried ten-foot pole's +1), rolled for the GM alone so a failed search does not
//!   tell the table a trap is there; the GM searches a room with no trap the same way
//!   (`--none`), and the table's copy of it is that of a missed trap; disarmed by a reflex check (+1 with disarm trap) with a
//!   thieves' kit, or a magical one by Dispel magic alone (its MP, no roll); sprung, a save
//!   against its toughness, and on a failure its damage (a bare range such as "2-3" rolled as
//!   `tinyd10.trap_damage` rules).
//!
//! They are exploration: refused while a fight runs (the GM then uses `check` and `save`).

use crate::account::Telling;
use crate::action::Args;
use crate::engine::{Ctx, DecideError};
use crate::event::{Audience, Event, Fact, Modifier, Part};
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView};

use super::checks;
use super::content::{Attribute, content};
use super::dice::roll_told;
use super::explore::{TrapDamage, data, wandering_check};
use super::options::{CHECK_TIES, TRAP_DAMAGE, choice_of, is};
use super::rolls::{Target, against_toughness, d10_told, declare_pp};
use super::sheet::Stats;
use super::tell::{self, Check};
use super::{MP, cannot_act, stats_of};

/// The thieves' kit a lock or a trap needs, and the pole that helps find traps.
pub const THIEVES_KIT: &str = "thieves_kit";
pub const TEN_FOOT_POLE: &str = "ten_foot_pole";

/// Whether `c`'s sheet lists `item`.
pub fn carries(c: &Combatant, item: &str) -> bool {
    c.sheet
        .typed::<super::Sheet>(super::ID)
        .is_ok_and(|s| s.items.iter().any(|i| i == item))
}

/// The character attempting, able to act, with its numbers.
fn attempting(ctx: &Ctx<'_>, args: &Args) -> Result<(Combatant, Stats), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    let c = ctx.combatant(&args.require_entity("by")?)?;
    if let Some(why) = cannot_act(&c) {
        return Err(Refusal::CannotAct {
            actor: c.id.clone(),
            reason: why.to_owned(),
        }
        .into());
    }
    let stats = stats_of(&c)?;
    Ok((c, stats))
}

fn toughness(args: &Args) -> Result<Target, DecideError> {
    Ok(Target::toughness(
        args.require_int("toughness")?,
        args.flag("hidden")?,
    ))
}

/// The attribute, the skills the character has among `skills` (+1 each), and what ails it.
fn modifiers(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    attribute: Attribute,
    skills: &[&str],
) -> Result<Vec<Modifier>, DecideError> {
    let mut m = vec![Modifier::new(attribute.word(), stats.attribute(attribute))];
    for s in skills.iter().filter(|s| stats.has_skill(s)) {
        m.push(Modifier::new(s.replace('_', " "), 1));
    }
    m.extend(super::afflict::penalties(
        ctx,
        &c.id,
        false,
        Some(attribute),
    )?);
    Ok(m)
}

fn add_pp(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    args: &Args,
    m: &mut Vec<Modifier>,
) -> Result<(), DecideError> {
    if let Some(pp) = declare_pp(ctx, c, args.int("pp")?.unwrap_or(0), 0)? {
        m.push(pp);
    }
    Ok(())
}

fn telling(ctx: &mut Ctx<'_>, c: &Combatant, verb: &str, what: &str) {
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: verb.into(),
        target: None,
        instrument: Some(what.into()),
    });
}

/// The GM's `force_door`: a power check against the door's toughness; broken down, it calls a
/// wandering monster check (and its reaction, with `reaction`).
pub fn force_door(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let (c, stats) = attempting(ctx, args)?;
    let target = toughness(args)?;
    let mut m = modifiers(ctx, &c, &stats, Attribute::Power, &[])?;
    add_pp(ctx, &c, args, &mut m)?;
    telling(ctx, &c, "forces", "a door");
    let broken = against_toughness(
        ctx,
        &c.id,
        &stats,
        "power check: force a door".into(),
        m,
        target,
        ("breaks it down", "fails to force it"),
    )?;
    ctx.telling = None;
    if broken {
        wandering_check(ctx, "a door broken down", args.flag("reaction")?)?;
    }
    Ok(())
}

/// The GM's `pick_lock`: a reflex check against the lock's toughness with a thieves' kit (+1
/// with pick lock); Magical intrusion with pick lock opens it with no check and no kit.
pub fn pick_lock(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let (c, stats) = attempting(ctx, args)?;
    let target = toughness(args)?;
    if stats.has_ability("magical_intrusion") && stats.has_skill("pick_lock") {
        ctx.note_about(
            &c.id,
            format!(
                "the lock opens before {} (magical intrusion) and locks again behind them",
                c.id
            ),
        )?;
        return Ok(());
    }
    if !carries(&c, THIEVES_KIT) {
        return Err(Refusal::Rule(format!(
            "{} has no thieves' kit: picking a lock needs one",
            c.id
        ))
        .into());
    }
    let mut m = modifiers(ctx, &c, &stats, Attribute::Reflex, &["pick_lock"])?;
    add_pp(ctx, &c, args, &mut m)?;
    telling(ctx, &c, "picks", "a lock with a thieves' kit");
    against_toughness(
        ctx,
        &c.id,
        &stats,
        "reflex check: pick a lock".into(),
        m,
        target,
        ("opens it", "fails to open it"),
    )?;
    ctx.telling = None;
    Ok(())
}

/// A trap as the GM names it: an example's, or the GM's own toughness and damage.
struct TrapAt {
    name: String,
    toughness: i64,
    damage: Option<TrapDamage>,
    save: Attribute,
    poison: bool,
}

fn trap_of(args: &Args) -> Result<TrapAt, DecideError> {
    let given_t = args.int("toughness")?;
    let given_damage = match args.text("damage")? {
        Some(d) => Some(TrapDamage::try_from(d.to_owned()).map_err(|e| {
            Refusal::bad_argument(
                "damage",
                &format!("{e}; a trap's damage is an amount (2, 1d5, 1d5+1) or a range (2-3)"),
            )
        })?),
        None => None,
    };
    let given_save = match args.text("attribute")? {
        Some(a) => Some(Attribute::parse(a).ok_or_else(|| {
            Refusal::bad_argument("attribute", "aspect, intellect, power or reflex")
        })?),
        None => None,
    };
    match args.text("trap")? {
        Some(id) => {
            let t = data()?.trap(id).ok_or_else(|| {
                Refusal::bad_argument("trap", "falling_rock, hidden_pit or poison_gas")
            })?;
            Ok(TrapAt {
                name: t.name.clone(),
                toughness: given_t.unwrap_or(t.toughness),
                damage: Some(given_damage.unwrap_or(t.damage)),
                save: given_save.unwrap_or(t.save),
                poison: t.poison,
            })
        }
        None => Ok(TrapAt {
            name: "a trap".into(),
            toughness: given_t.ok_or_else(|| {
                Refusal::bad_argument("toughness", "is required for a trap of the GM's own")
            })?,
            damage: given_damage,
            save: given_save.unwrap_or(Attribute::Reflex),
            poison: false,
        }),
    }
}

/// What a search where there is no trap (`--none`) may not name.
const NOT_WITH_NONE: [&str; 5] = ["trap", "toughness", "damage", "attribute", "magical"];

/// The GM's `trap`: `detect`, `disarm` or `spring` a trap; `detect --none` searches where the
/// GM knows there is none, told to the table exactly as a missed trap is.
pub fn trap(ctx: &mut Ctx<'_>, args: &Args) -> Result<(), DecideError> {
    let (c, stats) = attempting(ctx, args)?;
    if args.flag("none")? {
        if args.require_text("step")? != "detect" {
            return Err(Refusal::bad_argument(
                "none",
                "only a search (`--step detect`) is made where there is no trap",
            )
            .into());
        }
        if NOT_WITH_NONE.iter().any(|k| args.0.contains_key(*k)) {
            return Err(Refusal::bad_argument(
                "none",
                "a search where there is no trap names no trap, toughness, damage or attribute",
            )
            .into());
        }
        return detect(ctx, &c, &stats, None, args);
    }
    let t = trap_of(args)?;
    match args.require_text("step")? {
        "detect" => detect(ctx, &c, &stats, Some(&t), args),
        "disarm" => disarm(ctx, &c, &stats, &t, args),
        "spring" => spring(ctx, &c, &t, args),
        _ => Err(Refusal::bad_argument("step", "detect, disarm or spring").into()),
    }
}

/// A search for the trap (`None`: where there is none): the roll is the GM's; the table hears
/// only what was found. A search of an empty room draws the same die and makes the same events
/// as a missed trap, so nothing a player's copy holds tells the two apart.
fn detect(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    t: Option<&TrapAt>,
    args: &Args,
) -> Result<(), DecideError> {
    let mut m = modifiers(
        ctx,
        c,
        stats,
        Attribute::Intellect,
        &["spot", "detect_trap"],
    )?;
    if stats.perception != 0 {
        m.push(Modifier::new("race: perception", stats.perception));
    }
    if carries(c, TEN_FOOT_POLE) {
        let pole = content()
            .map_err(|e| Refusal::Rule(e.to_string()))?
            .item(TEN_FOOT_POLE)
            .map_or(0, |i| i.trap_perception);
        m.push(Modifier::new("ten-foot pole", pole));
    }
    add_pp(ctx, c, args, &mut m)?;
    let roll = d10_told(ctx, &c.id, stats, true)?;
    let check = match t {
        Some(t) => {
            let found = checks::passes(
                tell::total(&roll, &m),
                t.toughness,
                is(ctx.state.options(), CHECK_TIES, "succeeds"),
            );
            telling(ctx, c, "searches for", &t.name);
            Check {
                who: &c.id,
                label: format!("perception check: find {}", t.name),
                roll,
                modifiers: m,
                against: Some((t.toughness, "toughness")),
                success: Some(found),
                words: ("finds it", "misses it"),
                because: None,
                hidden: false,
                gm_only: true,
            }
        }
        None => {
            telling(ctx, c, "searches for", "a trap");
            Check {
                who: &c.id,
                label: "perception check: there is no trap to find".into(),
                roll,
                modifiers: m,
                against: None,
                success: None,
                words: ("", ""),
                because: None,
                hidden: false,
                gm_only: true,
            }
        }
    };
    let found = check.success == Some(true);
    tell::check(ctx, check)?;
    ctx.telling = None;
    let text = match t {
        Some(t) if found => format!("{} searches and finds a trap: {}", c.id, t.name),
        _ => format!("{} searches and finds nothing", c.id),
    };
    ctx.emit(Event {
        parts: vec![Part {
            audience: Audience::Everyone,
            fact: Fact::Noted { text },
        }],
    })
}

fn disarm(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    t: &TrapAt,
    args: &Args,
) -> Result<(), DecideError> {
    if args.flag("magical")? {
        let spell = content()
            .map_err(|e| Refusal::Rule(e.to_string()))?
            .spell("dispel_magic")
            .ok_or_else(|| Refusal::Rule("no dispel_magic in the spells".into()))?;
        if !stats.knows_spell(&spell.id) {
            return Err(Refusal::Rule(format!(
                "{} does not know Dispel magic: only it disarms a magical trap",
                c.id
            ))
            .into());
        }
        let cost = super::cast::cost(spell, stats, false, false)?;
        let have = c.resource(MP);
        if have < cost {
            return Err(Refusal::InsufficientResource {
                resource: "magic points for dispel magic".into(),
                needed: cost,
                available: have,
            }
            .into());
        }
        ctx.set_resource(&c.id, MP, have - cost)?;
        return ctx.note_about(
            &c.id,
            format!(
                "{} casts dispel magic ({cost} MP) and the magical {} is disarmed",
                c.id, t.name
            ),
        );
    }
    if !carries(c, THIEVES_KIT) {
        return Err(Refusal::Rule(format!(
            "{} has no thieves' kit: disarming a trap needs one",
            c.id
        ))
        .into());
    }
    let mut m = modifiers(ctx, c, stats, Attribute::Reflex, &["disarm_trap"])?;
    add_pp(ctx, c, args, &mut m)?;
    telling(ctx, c, "disarms", &t.name);
    against_toughness(
        ctx,
        &c.id,
        stats,
        format!("reflex check: disarm {}", t.name),
        m,
        Target::toughness(t.toughness, args.flag("hidden")?),
        ("disarms it", "fails to disarm it"),
    )?;
    ctx.telling = None;
    Ok(())
}

/// A trap's damage as the table rules a bare range: rolled on a die as wide as the range, or
/// its low or high end.
fn trap_damage(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    name: &str,
    damage: TrapDamage,
) -> Result<(i64, Vec<Modifier>), DecideError> {
    let purpose = format!("{name} damage ({damage})");
    match damage {
        TrapDamage::Amount(a) => {
            let level = stats_of(c)?.level;
            let r = roll_told(ctx, &c.id, &purpose, a, level)?;
            Ok((r.value, r.steps))
        }
        TrapDamage::Range(low, high) => match choice_of(ctx.state.options(), TRAP_DAMAGE) {
            "low" => Ok((
                low,
                vec![Modifier::new(format!("{name}: the low end"), low)],
            )),
            "high" => Ok((
                high,
                vec![Modifier::new(format!("{name}: the high end"), high)],
            )),
            _ => {
                let width = high - low + 1;
                let expr = super::dice::expr(&format!("1d{width}"))?;
                let r = crate::dice::roll(&expr, ctx.dice)?;
                let face = r.total;
                ctx.emit(Event::public(Fact::Rolled {
                    by: Some(c.id.clone()),
                    purpose,
                    roll: r,
                }))?;
                // The die reads 1 up; the range starts at `low`: the step moves it there, up
                // (2-3) or down (0-1), so the steps add up to the damage.
                let mut steps = vec![Modifier::new(format!("1d{width}"), face)];
                if low != 1 {
                    steps.push(Modifier::new("range from", low - 1));
                }
                Ok((face + low - 1, steps))
            }
        },
    }
}

fn spring(ctx: &mut Ctx<'_>, c: &Combatant, t: &TrapAt, args: &Args) -> Result<(), DecideError> {
    if t.poison && stats_of(c)?.poison_immune {
        return ctx.note_about(
            &c.id,
            format!("{} is immune to poison: the {} does nothing", c.id, t.name),
        );
    }
    telling(ctx, c, "springs", &t.name);
    let saved = super::rolls::save(
        ctx,
        c,
        &[t.save],
        Target::toughness(t.toughness, args.flag("hidden")?),
        Some(&t.name),
    )?;
    ctx.telling = None;
    if saved {
        return Ok(());
    }
    let Some(damage) = t.damage else {
        return ctx.note_about(
            &c.id,
            format!(
                "{} fails to escape {}: the GM rules what it does",
                c.id, t.name
            ),
        );
    };
    let (amount, steps) = trap_damage(ctx, c, &t.name, damage)?;
    ctx.telling = Some(Telling {
        actor: None,
        verb: "deals damage to".into(),
        target: Some(c.id.clone()),
        instrument: Some(t.name.clone()),
    });
    super::harm::damage(ctx, &c.id, amount, steps, None, false)?;
    ctx.telling = None;
    Ok(())
}
