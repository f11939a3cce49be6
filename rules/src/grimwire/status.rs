//! The status effects of the text that bend a roll, take a turn away or strike at its start:
//! knocked down, stunned, paralysed, sensory impairment, inebriated, burning, bleeding, terror,
//! and the kinds of unconsciousness (unconscious, asleep, knocked out; out cold and dying are
//! `burnout`'s). The GM sets them with `rule.set-status` (magnitude and rounds as below); the
//! actions here end some of them.
//!
//! A status with rounds covers that many of its bearer's turns: at the start of each turn it
//! covers it counts down, and at the start of the turn after the last it goes, before anything
//! else happens in that turn. Without rounds it lasts until something ends it.
//!
//! Every number and default is in `docs/grimwire.md` ("Status effects").

use crate::dice::{DiceExpr, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::agony;
use super::check::{Target, judge, record, roll_d20_resisting};
use super::damage::{DamageInput, damage_steps, round_half_up, take};
use super::options::{self, TERROR_TN};
use super::sheet::{Attribute, DamageType};
use super::{DEAD, DYING, OUT_COLD, sheet_of};

pub const KNOCKED_DOWN: &str = "knocked_down";
pub const STUNNED: &str = "stunned";
pub const PARALYSED: &str = "paralysed";
/// Magnitude: unused; the impaired sense may be named in the source.
pub const SENSES: &str = "sensory_impaired";
pub const INEBRIATED: &str = "inebriated";
pub const BURNING: &str = "burning";
/// Magnitude: the Condition lost at the start of each turn (at least 1).
pub const BLEEDING: &str = "bleeding";
pub const TERROR: &str = "terror";
pub const UNCONSCIOUS: &str = "unconscious";
pub const ASLEEP: &str = "asleep";
/// Wakes by itself after a minute: 10 rounds, when the GM gives none.
pub const KNOCKED_OUT: &str = "knocked_out";
pub const KNOCKED_OUT_ROUNDS: u32 = 10;
/// On a bleeding character whose wound someone holds (source: the holder): no bleeding
/// until the holder's next turn begins.
pub const PRESSED: &str = "wound_held";

/// The statuses this module counts down.
const TIMED: [&str; 13] = [
    KNOCKED_DOWN,
    STUNNED,
    PARALYSED,
    SENSES,
    INEBRIATED,
    BURNING,
    BLEEDING,
    TERROR,
    UNCONSCIOUS,
    ASLEEP,
    KNOCKED_OUT,
    FRENZY,
    AMOK,
];

/// Frenzy and amok (amok: frenzy that tells no friend from foe).
pub const FRENZY: &str = "frenzy";
pub const AMOK: &str = "amok";
/// The statuses of the mind, which unconsciousness removes and keeps away.
pub const MENTAL: [&str; 3] = [TERROR, FRENZY, AMOK];
/// Every kind of unconsciousness.
pub const UNCONSCIOUS_KINDS: [&str; 4] = [UNCONSCIOUS, ASLEEP, KNOCKED_OUT, OUT_COLD];

/// Whether `c` is unconscious in any way.
pub fn senseless(c: &Combatant) -> bool {
    UNCONSCIOUS_KINDS.iter().any(|k| c.has_status(k))
}

/// `who` is unconscious: what held their mind (terror, frenzy, amok) is gone.
pub fn clear_mind(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    for key in MENTAL {
        if let Some(s) = ctx.combatant(who)?.statuses.get(key).cloned() {
            ctx.set_status(who, key, None)?;
            ctx.note_about(who, format!("{who} is unconscious: no longer in {key}"))?;
            super::temp::lose(ctx, who, super::temp::given_by(key, s.magnitude), key)?;
        }
    }
    Ok(())
}

/// Sets `key`, a kind of unconsciousness, on `who`, with what falling unconscious does.
pub fn fall_senseless(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    key: &str,
    status: Status,
) -> Result<(), DecideError> {
    ctx.set_status(who, key, Some(status))?;
    clear_mind(ctx, who)
}

/// Turn counter: 1 in a turn whose terror roll failed (only cowering or fleeing is left).
pub const COWERING: &str = "cowering";

/// The penalties of the text, in one place.
pub const KNOCKED_DOWN_AGL: i64 = -3;
pub const STUN_PENALTY: i64 = -3;
pub const SENSES_PENALTY: i64 = -5;
pub const INEBRIATED_TOG: i64 = 1;
pub const INEBRIATED_OTHERS: i64 = -3;
pub const INEBRIATED_AGAINST_TERROR: i64 = 3;
/// Burning's damage at the start of each turn.
pub const BURN_DICE: &str = "2d6";
/// On a character under water: unconscious there, they take 6 damage at each turn's start.
pub const UNDERWATER: &str = "underwater";
pub const DROWNING_DAMAGE: i64 = 6;
/// How far away a character may help another up, wake them or hold their wound.
pub const REACH_M: i64 = 3;

/// Why `c` can do nothing at all now, if so.
pub fn unable(c: &Combatant) -> Option<&'static str> {
    [
        (DEAD, "dead"),
        (DYING, "dying"),
        (OUT_COLD, "out cold"),
        (UNCONSCIOUS, "unconscious"),
        (ASLEEP, "asleep"),
        (KNOCKED_OUT, "knocked out"),
        (PARALYSED, "paralysed"),
        (STUNNED, "stunned"),
    ]
    .into_iter()
    .find(|(s, _)| c.has_status(s))
    .map(|(_, why)| why)
}

/// Why an attack on `c` evaded with `evade` hits without a defensive roll, if it does: the
/// dying and every kind of unconscious make none; the paralysed fail every AGL roll.
pub fn defenceless(c: &Combatant, evade: Attribute) -> Option<&'static str> {
    [
        (DYING, "dying"),
        (OUT_COLD, "out cold"),
        (UNCONSCIOUS, "unconscious"),
        (ASLEEP, "asleep"),
        (KNOCKED_OUT, "knocked out"),
    ]
    .into_iter()
    .find(|(s, _)| c.has_status(s))
    .map(|(_, why)| why)
    .or_else(|| (evade == Attribute::AGL && c.has_status(PARALYSED)).then_some("paralysed"))
}

/// What `c`'s statuses add to a roll of `attribute`. `against_terror`: the roll resists
/// terror, where drink gives +3 instead of its penalty.
pub fn modifiers(c: &Combatant, attribute: Attribute, against_terror: bool) -> Vec<Modifier> {
    let mut out = Vec::new();
    if c.has_status(KNOCKED_DOWN) && attribute == Attribute::AGL {
        out.push(Modifier::new("knocked down", KNOCKED_DOWN_AGL));
    }
    if c.has_status(STUNNED) && matches!(attribute, Attribute::AGL | Attribute::MND) {
        out.push(Modifier::new("stunned", STUN_PENALTY));
    }
    if c.has_status(SENSES) && attribute == Attribute::PER {
        out.push(Modifier::new("senses impaired", SENSES_PENALTY));
    }
    if c.has_status(INEBRIATED) {
        let value = match attribute {
            Attribute::TOG => INEBRIATED_TOG,
            Attribute::MND if against_terror => INEBRIATED_AGAINST_TERROR,
            _ => INEBRIATED_OTHERS,
        };
        out.push(Modifier::new("inebriated", value));
    }
    out.extend(super::grapple::modifiers(c, attribute));
    out
}

/// What `c`'s statuses add to an attack or an evasion beyond its attribute's: impaired senses.
pub fn fighting(c: &Combatant) -> Vec<Modifier> {
    if c.has_status(SENSES) {
        vec![Modifier::new("senses impaired", SENSES_PENALTY)]
    } else {
        Vec::new()
    }
}

/// Why a roll of `attribute` by `c` fails whatever the die, if it does.
pub fn fails(c: &Combatant, attribute: Attribute) -> Option<&'static str> {
    if c.has_status(PARALYSED)
        && matches!(attribute, Attribute::TOG | Attribute::COR | Attribute::AGL)
    {
        Some("paralysed")
    } else if c.has_status(STUNNED) && attribute == Attribute::PER {
        Some("stunned")
    } else {
        None
    }
}

/// What an attack by `c` with a weapon of `class` may not do: aim a ranged shot without the
/// senses to pick a target.
pub fn may_aim(c: &Combatant, ranged: bool) -> Result<(), Refusal> {
    if ranged && c.has_status(SENSES) {
        return Err(Refusal::Rule(format!(
            "{} cannot pick a target for an aimed ranged attack with impaired senses (melee, \
             splash and supernatural attacks still can, at -5)",
            c.id
        )));
    }
    Ok(())
}

/// In a turn whose terror roll failed, only cowering or fleeing: moving, dashing, ending it.
pub fn may_take(c: &Combatant, action: &str) -> Result<(), Refusal> {
    if c.turn_counter(COWERING) != 0 && !matches!(action, "move" | "dash" | "end_turn") {
        return Err(Refusal::Rule(format!(
            "{} is terrified this turn and can only cower or flee (move, dash or end the turn)",
            c.id
        )));
    }
    Ok(())
}

/// The start of `who`'s turn: timed statuses count down or end, then burning burns, bleeding
/// bleeds and terror asks for its MND roll, in that order, each only while `who` still lives.
pub fn turn_starts(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let_go_of_wounds(ctx, who)?;
    super::grapple::turn_starts(ctx, who)?;
    agony::count_down(ctx, who)?;
    count_down(ctx, who)?;
    let alive = |ctx: &Ctx<'_>| ctx.combatant(who).map(|c| !c.has_status(DEAD));
    if alive(ctx)? && ctx.combatant(who)?.has_status(BURNING) {
        burn(ctx, who)?;
    }
    let held = ctx.combatant(who)?.has_status(PRESSED);
    if alive(ctx)?
        && !held
        && let Some(s) = ctx.combatant(who)?.statuses.get(BLEEDING).cloned()
    {
        let amount = s.magnitude.max(1);
        ctx.note_about(who, format!("{who} bleeds and loses {amount} Condition"))?;
        take(
            ctx,
            who,
            amount,
            vec![Modifier::new("bleeding", amount)],
            None,
        )?;
    }
    let c = ctx.combatant(who)?;
    if !c.has_status(DEAD) && c.has_status(UNDERWATER) && senseless(&c) {
        ctx.note_about(
            who,
            format!("{who} is unconscious under water and takes {DROWNING_DAMAGE} damage"),
        )?;
        let steps = vec![Modifier::new("drowning", DROWNING_DAMAGE)];
        take(ctx, who, DROWNING_DAMAGE, steps, None)?;
    }
    // Terror asks a mind that is awake: one who cannot act this turn makes no roll.
    let c = ctx.combatant(who)?;
    if c.has_status(TERROR) && unable(&c).is_none() {
        face_terror(ctx, who)?;
    }
    Ok(())
}

/// `who`'s turn begins: the wounds it held are its hands' no more.
fn let_go_of_wounds(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    for id in ctx.state.combatant_ids() {
        let held = ctx
            .state
            .combatant(&id)
            .and_then(|c| c.statuses.get(PRESSED))
            .is_some_and(|s| s.source == who.0);
        if held {
            ctx.set_status(&id, PRESSED, None)?;
        }
    }
    Ok(())
}

/// Bleeding stopped for good (an item, a stabilised patient).
pub fn stop_bleeding(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    for key in [BLEEDING, PRESSED] {
        if ctx.combatant(who)?.has_status(key) {
            ctx.set_status(who, key, None)?;
        }
    }
    Ok(())
}

/// The fight is over: a status counted in rounds ends with the rounds.
pub fn fight_over(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for key in TIMED {
        if let Some(s) = c.statuses.get(key).filter(|s| s.rounds_left.is_some()) {
            ctx.set_status(who, key, None)?;
            ctx.note_about(who, format!("{who} is no longer {}", key.replace('_', " ")))?;
            let gave = super::temp::given_by(key, s.magnitude);
            super::temp::lose(ctx, who, gave, &key.replace('_', " "))?;
        }
    }
    if c.has_status(PRESSED) {
        ctx.set_status(who, PRESSED, None)?;
    }
    if let Some(s) = c.statuses.get(agony::AGONY) {
        agony::pass(ctx, who, s.magnitude)?;
    }
    Ok(())
}

fn count_down(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let c = ctx.combatant(who)?;
    for key in TIMED {
        let Some(s) = c.statuses.get(key) else {
            continue;
        };
        // Knocked out without a number of rounds wakes after the text's minute.
        let rounds = match s.rounds_left {
            None if key == KNOCKED_OUT => Some(KNOCKED_OUT_ROUNDS),
            r => r,
        };
        match rounds {
            Some(0) => {
                ctx.set_status(who, key, None)?;
                ctx.note_about(who, format!("{who} is no longer {}", key.replace('_', " ")))?;
                let gave = super::temp::given_by(key, s.magnitude);
                super::temp::lose(ctx, who, gave, &key.replace('_', " "))?;
            }
            Some(n) => ctx.set_status(
                who,
                key,
                Some(Status {
                    rounds_left: Some(n - 1),
                    ..s.clone()
                }),
            )?,
            None => {}
        }
    }
    Ok(())
}

/// 2d6 heat: armour counts only where it lists heat; weakness, resistance and immunity to heat
/// apply.
fn burn(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let expr = DiceExpr::parse(BURN_DICE)
        .map_err(|e| Refusal::Rule(format!("burning's dice `{BURN_DICE}`: {e}")))?;
    let roll = roll(&expr, ctx.dice)?;
    let c = ctx.combatant(who)?;
    let mut input = DamageInput::against(roll.total, None, false, DamageType::Heat, sheet_of(&c)?);
    input.round_half_up = round_half_up(ctx);
    let (steps, total) = damage_steps(&input);
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(who.clone()),
        purpose: format!("{who} burns ({BURN_DICE} heat)"),
        roll,
    }))?;
    take(ctx, who, total, steps, None)?;
    if !ctx.combatant(who)?.has_status(DEAD) {
        agony::renew(ctx, who, "burning")?;
    }
    Ok(())
}

/// Terror's MND roll: made, the terror goes; failed, this turn is only for cowering or
/// fleeing.
fn face_terror(ctx: &mut Ctx<'_>, who: &EntityId) -> Result<(), DecideError> {
    let tn = options::int_of(ctx.state.options(), TERROR_TN);
    let r = roll_d20_resisting(ctx, who, Attribute::MND, &[], true)?;
    let (outcome, why) = judge(&r, tn);
    let label = "MND against terror";
    record(
        ctx,
        who,
        label,
        &r,
        Target::Tn { tn, hidden: false },
        outcome,
        why,
    )?;
    if outcome == crate::event::Outcome::Success {
        ctx.set_status(who, TERROR, None)?;
        ctx.note_about(who, format!("{who} masters the terror"))
    } else {
        ctx.set_turn_counter(who, COWERING, 1)?;
        ctx.note_about(
            who,
            format!("{who} is gripped by terror: this turn they can only cower or flee"),
        )
    }
}
