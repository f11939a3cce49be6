//! What an attack's die sets off beyond the blow itself, and the abilities that bend a hit's
//! damage. Before the blow lands: a 10 rolled in melee against a rogue with Sudden strike
//! gives the rogue an attack first; a 1 rolled in melee against a cleric with Counterattack
//! knocks the attacker prone. On a hit: a 10 dazes the target (Critical strike: -1 to all its
//! rolls for the attacker's level in rounds) and, in melee, paralyzes it (Paralyzing strike:
//! the level in rounds, one on a T5 aspect save), disarms it if the attacker wins a power
//! challenge (Disarm) and blinds it (Radiant strike: -2 to its attacks and reflex for one
//! round). A target under Ward (divine) struck by an unholy foe takes none of these (nor
//! Thunderous blow's or Pummel's fall): the blow's damage alone. Then Bloody slash may double
//! a bladed blow, and a target at 1 HP with Deathless makes the attacker win a power
//! challenge to hurt it.
//!
//! "Rolls a 10" reads the face or the total as the table rules (`tinyd10.natural`); a 10 that
//! misses sets off nothing that needs a hit.

use crate::engine::{Ctx, DecideError};
use crate::event::Modifier;
use crate::state::{Combatant, Status};

use super::attack::{Declared, ready_melee, strike_one};
use super::checks::{self, Winner};
use super::content::Attribute;
use super::rolls::{self, Side};
use super::sheet::{AttackKind, AttackStats, Stats};
use super::tell::{self, Check};
use super::{
    BLINDED, DAZED, DISARMED, FANGED, HP, PARALYZED, PRONE, THUNDEROUS, afflict, cannot_act,
    stats_of,
};

/// Bloody slash doubles a blow on a d10 of this or more; Call to battle's roll is the same.
pub const SIX_OR_MORE: i64 = 6;
/// Radiant strike's blindness: its penalty and rounds.
pub const BLIND: (i64, i64) = (-2, 1);
/// Critical strike's daze: its penalty (the rounds are the attacker's level).
pub const DAZE: i64 = -1;
/// Deathless's bonus in its power challenge.
pub const DEATHLESS_BONUS: i64 = 1;

/// Whether `t` is a foe of `c` who can still answer (not dead, dying or out).
fn able_foe(c: &Combatant, t: &Combatant) -> bool {
    c.side != t.side && cannot_act(t).is_none()
}

/// What `c`'s die (`nat`) sets off before its blow on `t` lands. Returns whether `c` still
/// stands to deliver it (a Sudden strike may drop it first).
pub fn before_the_blow(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    w: &AttackStats,
    nat: Option<i64>,
    free: bool,
) -> Result<bool, DecideError> {
    if !w.kind.is_melee() {
        return Ok(true);
    }
    let t = ctx.combatant(&t.id)?;
    if !able_foe(c, &t) {
        return Ok(true);
    }
    let t_stats = stats_of(&t)?;
    if nat == Some(1) && t_stats.has_ability("counterattack") {
        ctx.telling = None;
        ctx.set_status(
            &c.id,
            PRONE,
            Some(Status {
                source: "counterattack".into(),
                magnitude: checks::PRONE_TOUGHNESS,
                rounds_left: None,
            }),
        )?;
        ctx.note_about(
            &c.id,
            format!(
                "{} rolls a 1: {} counterattacks and knocks it prone",
                c.id, t.id
            ),
        )?;
    }
    if nat == Some(10) && !free && t_stats.has_ability("sudden_strike") {
        let Some(weapon) = ready_melee(&t, &t_stats) else {
            return Ok(true);
        };
        ctx.telling = None;
        // With `tinyd10.natural = total` the 10 is the attacker's total: the GM's number for the
        // GM's attacker, so the line does not say it.
        let rolled = if crate::redact::gm_only_numbers(c) {
            "'s attack"
        } else {
            " rolls a 10"
        };
        ctx.note_about(
            &t.id,
            format!("{}{rolled}: {} strikes first (sudden strike)", c.id, t.id),
        )?;
        strike_one(ctx, &t, &weapon, &Declared::plain(), None, c, true)?;
        let c = ctx.combatant(&c.id)?;
        if let Some(why) = cannot_act(&c) {
            ctx.telling = None;
            ctx.note_about(&c.id, format!("{} is {why} before its blow lands", c.id))?;
            return Ok(false);
        }
    }
    Ok(true)
}

/// What a hit of `c` on `t` whose die read `nat` does besides damage: Critical strike's daze
/// and, in melee, Radiant strike's blindness.
pub fn on_the_hit(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    t: &Combatant,
    w: &AttackStats,
    nat: Option<i64>,
    overpower: bool,
) -> Result<(), DecideError> {
    if super::lasting::attack_warded(c, t) {
        // Ward (divine): the unholy attacker's blow does its damage and nothing else.
        let would = (w.kind.is_melee() && ctx.combatant(&c.id)?.has_status(THUNDEROUS))
            || (nat == Some(10)
                && (stats.has_ability("critical_strike")
                    || (w.kind.is_melee()
                        && ["paralyzing_strike", "disarm", "radiant_strike", "pummel"]
                            .iter()
                            .any(|a| stats.has_ability(a)))));
        if would {
            ctx.telling = None;
            ctx.note_about(
                &t.id,
                format!(
                    "{} resists the effects of {}'s attack (ward): only its damage lands",
                    t.id, c.id
                ),
            )?;
        }
        return Ok(());
    }
    if w.kind.is_melee() && ctx.combatant(&c.id)?.has_status(THUNDEROUS) {
        thunder(ctx, c, t)?;
    }
    if nat != Some(10) {
        return Ok(());
    }
    if stats.has_ability("critical_strike") {
        // The daze lasts the attacker's level: the GM's number when the attacker is the GM's.
        let gms = crate::redact::gm_only_numbers(c);
        let rounds = if gms {
            afflict::Rounds::Gms(stats.level)
        } else {
            afflict::Rounds::Told(stats.level)
        };
        afflict::afflict(ctx, &t.id, DAZED, DAZE, rounds, "critical strike")?;
        let how_long = if gms {
            String::new()
        } else {
            format!(" for {} rounds", stats.level)
        };
        ctx.note_about(
            &t.id,
            format!(
                "{} rolls a 10: {} is dazed, {DAZE} to all rolls{how_long} (critical strike)",
                c.id, t.id
            ),
        )?;
    }
    if w.kind.is_melee() && stats.has_ability("paralyzing_strike") {
        paralyze(ctx, c, stats, t)?;
    }
    if w.kind.is_melee() && stats.has_ability("disarm") {
        disarm(ctx, c, t, overpower)?;
    }
    if w.kind.is_melee() && stats.has_ability("radiant_strike") {
        let (penalty, rounds) = BLIND;
        afflict::afflict(
            ctx,
            &t.id,
            BLINDED,
            penalty,
            afflict::Rounds::Told(rounds),
            "radiant strike",
        )?;
        ctx.note_about(
            &t.id,
            format!(
                "{} rolls a 10: heavenly light blinds {}, {penalty} to attacks and reflex for {rounds} round (radiant strike)",
                c.id, t.id
            ),
        )?;
    }
    Ok(())
}

/// Thunderous blow's hit: a d10, and on 6 or more the target is knocked prone too.
fn thunder(ctx: &mut Ctx<'_>, c: &Combatant, t: &Combatant) -> Result<(), DecideError> {
    let roll = super::dice::d10(ctx.dice)?;
    let prone = roll.total >= SIX_OR_MORE;
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "thunderous blow: 6 or more knocks the target prone".into(),
            roll,
            modifiers: Vec::new(),
            against: Some((SIX_OR_MORE, "thunderous blow")),
            success: Some(prone),
            words: ("knocks it prone", "leaves it standing"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    if prone {
        ctx.set_status(
            &t.id,
            PRONE,
            Some(Status {
                source: "thunderous blow".into(),
                magnitude: checks::PRONE_TOUGHNESS,
                rounds_left: None,
            }),
        )?;
    }
    Ok(())
}

/// Paralyzing strike: the target is paralyzed for the attacker's level in rounds, one round if
/// it makes a T5 aspect save.
fn paralyze(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    t: &Combatant,
) -> Result<(), DecideError> {
    let t = ctx.combatant(&t.id)?;
    let saved = rolls::save(
        ctx,
        &t,
        &[Attribute::Aspect],
        rolls::Target::toughness(checks::STANDARD_SAVE, false),
        Some("paralyzing strike"),
    )?;
    // Unsaved, it lasts the attacker's level: the GM's number when the attacker is the GM's.
    let gms = !saved && crate::redact::gm_only_numbers(c);
    let rounds = if saved { 1 } else { stats.level };
    let (length, how_long) = if gms {
        (afflict::Rounds::Gms(rounds), String::new())
    } else {
        (
            afflict::Rounds::Told(rounds),
            format!(" for {rounds} round(s)"),
        )
    };
    afflict::afflict(ctx, &t.id, PARALYZED, 0, length, "paralyzing strike")?;
    ctx.note_about(
        &t.id,
        format!(
            "{} rolls a 10: {} is paralyzed{how_long} (paralyzing strike)",
            c.id, t.id
        ),
    )
}

/// Disarm: a power challenge; if the attacker wins, the target is disarmed (bare hands until
/// the GM rules its weapon back in hand).
fn disarm(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
    overpower: bool,
) -> Result<(), DecideError> {
    let t = ctx.combatant(&t.id)?;
    let c = ctx.combatant(&c.id)?;
    let won = super::attack::power_challenge(ctx, &c, &t, "disarm", overpower)?;
    if won != Winner::Starter {
        return Ok(());
    }
    ctx.set_status(
        &t.id,
        DISARMED,
        Some(Status {
            source: c.id.0.clone(),
            magnitude: 0,
            rounds_left: None,
        }),
    )?;
    // Told as the attacker's doing, for the table to see as it sees the status.
    ctx.note_about(&c.id, format!("{} disarms {}", c.id, t.id))
}

/// Fanged strike: a melee 10 that hits marks the rogue, so the damage its blow deals heals it
/// (`harm::damage` reads the mark when the damage lands, after any answer to the hit).
pub fn fang(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    w: &AttackStats,
    nat: Option<i64>,
) -> Result<(), DecideError> {
    if nat != Some(10) || !w.kind.is_melee() || !stats.has_ability("fanged_strike") {
        return Ok(());
    }
    ctx.set_status(
        &c.id,
        FANGED,
        Some(Status {
            source: "fanged strike".into(),
            magnitude: 0,
            rounds_left: None,
        }),
    )
}

/// Bloody slash: a melee hit with a bladed weapon rolls a d10, and on 6 or more the blow deals
/// double. Returns the doubled amount, `None` when it is not doubled.
pub fn bloody_slash(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    stats: &Stats,
    w: &AttackStats,
    amount: i64,
) -> Result<Option<i64>, DecideError> {
    if !(stats.has_ability("bloody_slash") && w.bladed && w.kind != AttackKind::Ranged) {
        return Ok(None);
    }
    let roll = super::dice::d10(ctx.dice)?;
    let face = roll.total;
    let doubled = face >= SIX_OR_MORE;
    tell::check(
        ctx,
        Check {
            who: &c.id,
            label: "bloody slash: 6 or more doubles the damage".into(),
            roll,
            modifiers: Vec::new(),
            against: Some((SIX_OR_MORE, "bloody slash")),
            success: Some(doubled),
            words: ("doubles the blow", "does not double it"),
            because: None,
            hidden: false,
            gm_only: false,
        },
    )?;
    Ok(doubled.then_some(amount * 2))
}

/// Deathless: a hit on a target at 1 HP that has it deals damage only if the attacker wins a
/// power challenge, the target +1 (a tie goes as the table rules ties). Whether the damage
/// goes through.
pub fn deathless_lets_through(
    ctx: &mut Ctx<'_>,
    c: &Combatant,
    t: &Combatant,
) -> Result<bool, DecideError> {
    let t = ctx.combatant(&t.id)?;
    if t.resource(HP) != 1 || !stats_of(&t)?.has_ability("deathless") {
        return Ok(true);
    }
    let c = ctx.combatant(&c.id)?;
    let sides = (
        Side {
            who: &c,
            attribute: Attribute::Power,
            extra: Vec::new(),
        },
        Side {
            who: &t,
            attribute: Attribute::Power,
            extra: vec![Modifier::new("deathless", DEATHLESS_BONUS)],
        },
    );
    // Rolled only at 1 HP: for the GM's creature, that it happens at all is the GM's.
    let won = if crate::redact::gm_only_numbers(&t) {
        rolls::gm_challenge(ctx, sides.0, sides.1, "deathless")?
    } else {
        rolls::challenge(ctx, sides.0, sides.1, "deathless")?
    };
    Ok(won == Winner::Starter)
}
