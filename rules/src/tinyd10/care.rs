//! Looking after the party: the cleric's Words (temporary HP, or +1 power for 1d5 rounds, to
//! allies within earshot), standard healing (a T6 intellect check, automatic with the heal
//! skill, restoring 1-2 HP, MP and PP; a whole turn in combat), healing potions, and the GM's
//! rest after the fight (a day's rest: 1d5 + 2 HP, MP and PP).

use crate::account::Telling;
use crate::action::Args;
use crate::dice::{DiceExpr, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::StateView;
use crate::state::{Combatant, Kind, Status};

use super::checks::{self, HEAL_CHECK};
use super::content::Attribute;
use super::dice::{Amount, Die, roll_told};
use super::options::{EARSHOT, STANDARD_HEAL, choice_of, is};
use super::rolls::{against_toughness, declare_pp, spend_pp};
use super::round::{end_turn, spend};
use super::{ACTION, DEAD, MOVE, MP, PP, TEMP_HP, harm, stats_of};

/// The status Words of strength gives: +1 power, with its rounds left.
pub const STRENGTH: &str = "words_of_strength";
/// How many healing potions a combatant has drunk or given (the sheet lists those carried).
pub const POTIONS_USED: &str = "potions_used";

/// The allies Words reach: the speaker's side, the speaker too unless the table rules not.
fn within_earshot(ctx: &Ctx<'_>, c: &Combatant) -> Vec<EntityId> {
    let with_speaker = is(ctx.state.options(), EARSHOT, "with_speaker");
    ctx.state
        .combatant_ids()
        .into_iter()
        .filter_map(|id| ctx.state.combatant(&id).cloned())
        .filter(|o| o.side == c.side && o.kind != Kind::Object && !o.has_status(DEAD))
        .filter(|o| with_speaker || o.id != c.id)
        .map(|o| o.id)
        .collect()
}

pub fn words(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let which = args.require_text("of")?;
    let (ability, pp) = match which {
        "healing" => ("words_of_healing", 1),
        "strength" => ("words_of_strength", 2),
        _ => return Err(Refusal::bad_argument("of", "healing or strength").into()),
    };
    if !stats.has_ability(ability) {
        return Err(Refusal::Rule(format!("{} does not have {ability}", c.id)).into());
    }
    let have = ctx.combatant(&c.id)?.resource(PP);
    if have < pp {
        return Err(Refusal::InsufficientResource {
            resource: format!("power points for {ability}"),
            needed: pp,
            available: have,
        }
        .into());
    }
    super::round::spend_in_combat(ctx, c, ACTION)?;
    spend_pp(ctx, &c.id, pp, ability)?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "speaks".into(),
        target: None,
        instrument: Some(ability.replace('_', " ")),
    });
    let rounds = if which == "strength" {
        let r = roll_told(
            ctx,
            &c.id,
            "rounds of words of strength",
            Amount::die(Die::D5),
            stats.level,
        )?;
        ctx.note_about(&c.id, format!("words of strength last {} rounds", r.value))?;
        r.value
    } else {
        0
    };
    for id in within_earshot(ctx, c) {
        if which == "healing" {
            let now = ctx.combatant(&id)?.resource(TEMP_HP);
            ctx.set_resource(&id, TEMP_HP, now + 2)?;
        } else {
            ctx.set_status(
                &id,
                STRENGTH,
                Some(Status {
                    source: c.id.0.clone(),
                    magnitude: 1,
                    rounds_left: u32::try_from(rounds).ok(),
                }),
            )?;
        }
    }
    ctx.telling = None;
    Ok(())
}

/// What standard healing restores of each of HP, MP and PP, as the table rules "1-2".
fn standard_amount(ctx: &mut Ctx<'_>, by: &EntityId) -> Result<(i64, Vec<Modifier>), DecideError> {
    match choice_of(ctx.state.options(), STANDARD_HEAL) {
        "one" => Ok((1, vec![Modifier::new("standard healing", 1)])),
        "two" => Ok((2, vec![Modifier::new("standard healing", 2)])),
        _ => {
            let expr =
                DiceExpr::parse("1d2").map_err(|e| Refusal::Rule(format!("dice `1d2`: {e}")))?;
            let r = roll(&expr, ctx.dice)?;
            let total = r.total;
            ctx.emit(crate::event::Event::public(crate::event::Fact::Rolled {
                by: Some(by.clone()),
                purpose: "standard healing".into(),
                roll: r,
            }))?;
            Ok((total, vec![Modifier::new("1d2", total)]))
        }
    }
}

/// `heal`: standard healing of `target` (the healer itself when not named). In combat it takes
/// the healer's whole turn.
pub fn heal(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let target = match args.entity("target")? {
        Some(t) => ctx.combatant(&t)?,
        None => c.clone(),
    };
    if target.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is dead", target.id)).into());
    }
    let in_combat = ctx.state.encounter().active;
    if in_combat {
        super::round::require_turn(ctx, c)?;
        let me = ctx.combatant(&c.id)?;
        if me.resource(MOVE) < 1 {
            return Err(Refusal::NoneLeft {
                actor: c.id.clone(),
                slot: "whole turn (healing takes it)".into(),
            }
            .into());
        }
        spend(ctx, c, ACTION)?;
        ctx.set_resource(&c.id, MOVE, 0)?;
    }
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "tends".into(),
        target: Some(target.id.clone()),
        instrument: Some("standard healing".into()),
    });
    let ok = if stats.has_skill("heal") {
        ctx.note_about(
            &c.id,
            format!("{} has the heal skill: the healing succeeds", c.id),
        )?;
        true
    } else {
        let mut modifiers = vec![Modifier::new(
            "intellect",
            stats.attribute(Attribute::Intellect),
        )];
        modifiers.extend(super::afflict::penalties(
            ctx,
            &c.id,
            false,
            Some(Attribute::Intellect),
        )?);
        if let Some(m) = declare_pp(ctx, c, args.int("pp")?.unwrap_or(0), 0)? {
            modifiers.push(m);
        }
        against_toughness(
            ctx,
            &c.id,
            &stats,
            "heal check".into(),
            modifiers,
            super::rolls::Target::toughness(HEAL_CHECK, false),
            ("succeeds", "fails"),
        )?
    };
    if ok {
        let (amount, steps) = standard_amount(ctx, &c.id)?;
        restore(ctx, &target, amount, steps)?;
    }
    ctx.telling = None;
    if in_combat {
        end_turn(ctx, &c.id)?;
    }
    Ok(())
}

/// Restores `amount` HP (doubled by Rapid regeneration), MP (doubled by Spell adept) and PP.
fn restore(
    ctx: &mut Ctx<'_>,
    target: &Combatant,
    amount: i64,
    steps: Vec<Modifier>,
) -> Result<(), DecideError> {
    let t = stats_of(target)?;
    let double = |ability: &str| if t.has_ability(ability) { 2 } else { 1 };
    harm::heal(
        ctx,
        &target.id,
        amount * double("rapid_regeneration"),
        steps,
    )?;
    for (key, max, by) in [
        (MP, t.mp_max, amount * double("spell_adept")),
        (PP, t.pp_max, amount),
    ] {
        let now = ctx.combatant(&target.id)?.resource(key);
        ctx.set_resource(&target.id, key, checks::healed(now, by, max))?;
    }
    Ok(())
}

/// `potion`: a healing potion (1d5 HP) from the actor's pack, drunk or given; it takes the
/// turn's action in combat.
pub fn potion(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let stats = stats_of(c)?;
    let target = match args.entity("target")? {
        Some(t) => ctx.combatant(&t)?,
        None => c.clone(),
    };
    let carried = c
        .sheet
        .typed::<super::Sheet>(super::ID)
        .map(|s| s.items.iter().filter(|i| *i == "healing_potion").count())
        .unwrap_or(0);
    let used = c.statuses.get(POTIONS_USED).map_or(0, |s| s.magnitude);
    if i64::try_from(carried).unwrap_or(0) <= used {
        return Err(Refusal::InsufficientResource {
            resource: "healing potions".into(),
            needed: 1,
            available: 0,
        }
        .into());
    }
    if ctx.state.encounter().active {
        super::round::spend_in_combat(ctx, c, ACTION)?;
    }
    ctx.set_status(
        &c.id,
        POTIONS_USED,
        Some(Status {
            source: "pack".into(),
            magnitude: used + 1,
            rounds_left: None,
        }),
    )?;
    ctx.telling = Some(Telling {
        actor: Some(c.id.clone()),
        verb: "uses".into(),
        target: Some(target.id.clone()),
        instrument: Some("healing potion".into()),
    });
    let r = roll_told(
        ctx,
        &c.id,
        "healing potion",
        Amount::die(Die::D5),
        stats.level,
    )?;
    let t = stats_of(&target)?;
    let amount = if t.has_ability("rapid_regeneration") {
        r.value * 2
    } else {
        r.value
    };
    harm::heal(ctx, &target.id, amount, r.steps)?;
    ctx.telling = None;
    Ok(())
}

/// The GM's `rest` out of combat: a day's rest gives every living character 1d5 + 2 HP, MP
/// and PP (one roll for the three).
pub fn rest(ctx: &mut Ctx<'_>, _args: &Args) -> Result<(), DecideError> {
    if ctx.state.encounter().active {
        return Err(Refusal::EncounterRunning.into());
    }
    for id in ctx.state.combatant_ids() {
        let c = ctx.combatant(&id)?;
        if c.kind != Kind::Pc || c.has_status(DEAD) {
            continue;
        }
        let amount = Amount {
            die: Some(Die::D5),
            flat: 2,
            plus_level: false,
        };
        let r = roll_told(ctx, &id, "a day's rest", amount, 1)?;
        ctx.telling = Some(Telling {
            actor: Some(id.clone()),
            verb: "rests".into(),
            target: None,
            instrument: Some("a day's rest".into()),
        });
        restore(ctx, &c, r.value, r.steps)?;
    }
    ctx.telling = None;
    Ok(())
}
