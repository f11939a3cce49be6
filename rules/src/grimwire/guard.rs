//! Shielding others: a character within 3 m of someone attacked may throw themselves in the
//! way, as an auxiliary reaction, before anyone rolls. They roll AGL with +5 (they want to be
//! hit) against the attacker's COR roll, or, when the attacker is an NPC that rolls nothing,
//! against its attack TN. Made, the blow lands on them instead; failed, the target evades as
//! usual, against the same attack roll. It works on melee, ranged and thrown attacks, never on
//! supernatural ones, and a character shields against one attacker a round (that attacker's
//! every attack, though).
//!
//! The choice is a window offered before the attack's rolls to the seats of everyone who can
//! still shield: on the target's side, able to act, not raging, within 3 m of the target, with
//! the auxiliary action left and not already shielding against another attacker this round.
//! The first answer closes it; "none", or no answer in time, lets the attack go on.

use std::collections::BTreeMap;

use crate::decision::{Closing, PendingStep, Resolver, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact, Modifier, Outcome};
use crate::grid::distance;
use crate::ids::{EntityId, Seat};
use crate::refusal::Refusal;
use crate::state::{StateView, Status};

use super::attack::{Blow, MELEE_M, Swing, attack_mods, opposed_record, resolve_blow};
use super::check::{Target, judge, record, roll_d20};
use super::economy::{AUX_USED, spend_auxiliary};
use super::options::{self, SHIELD_OTHERS};
use super::sheet::Attribute;
use super::{deciding_seats, is_pc, sheet_of, status};

pub const STEP_GUARD: &str = "grimwire.guard";
/// On a shielder, for the round (magnitude) it shields against an attacker (source).
pub const SHIELDING: &str = "shielding_from";
/// What a shielder adds to AGL.
pub const BONUS: i64 = 5;

/// Whom `c` shields against this round (`round`), if anyone.
fn shielding(c: &crate::state::Combatant, round: u32) -> Option<&str> {
    c.statuses
        .get(SHIELDING)
        .filter(|s| s.magnitude == i64::from(round))
        .map(|s| s.source.as_str())
}

/// Who can still throw themselves in front of `target` against `attacker`.
fn shielders(ctx: &Ctx<'_>, attacker: &EntityId, target: &EntityId) -> Vec<EntityId> {
    let enc = ctx.state.encounter();
    let Some(t) = ctx.state.combatant(target) else {
        return Vec::new();
    };
    if !enc.active {
        return Vec::new();
    }
    let Some(at) = t.position else {
        return Vec::new();
    };
    let diagonal = ctx.state.options().diagonal();
    enc.order
        .iter()
        .filter(|id| *id != target && *id != attacker)
        .filter(|id| {
            ctx.state.combatant(id).is_some_and(|c| {
                let near = c.position.is_some_and(|p| {
                    i64::try_from(distance(p, at, diagonal)).unwrap_or(i64::MAX) <= MELEE_M
                });
                c.side == t.side
                    && near
                    && status::unable(c).is_none()
                    && !super::frenzy::raging(c)
                    && match shielding(c, enc.round) {
                        // Against the one attacker this round: again, at no new cost.
                        Some(from) => from == attacker.as_str(),
                        None => c.turn_counter(AUX_USED) == 0,
                    }
            })
        })
        .cloned()
        .collect()
}

/// Opens the window when someone can shield `target` from `who`'s `blow`: whether it opened
/// (and the attack waits).
pub fn offer(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    target: &EntityId,
    blow: &Blow,
) -> Result<bool, DecideError> {
    let candidates: Vec<EntityId> = match options::choice_of(ctx.state.options(), SHIELD_OTHERS) {
        "never" => Vec::new(),
        "all" => shielders(ctx, who, target),
        // By default the GM is not asked before every player's attack.
        _ => shielders(ctx, who, target)
            .into_iter()
            .filter(|id| ctx.state.combatant(id).is_some_and(is_pc))
            .collect(),
    };
    if candidates.is_empty() {
        return Ok(false);
    }
    let mut seats: Vec<Seat> = Vec::new();
    for id in &candidates {
        for s in deciding_seats(&ctx.combatant(id)?) {
            if !seats.contains(&s) {
                seats.push(s);
            }
        }
    }
    let mut options: Vec<String> = candidates.iter().map(|id| id.0.clone()).collect();
    options.push("none".into());
    let data: BTreeMap<String, StepValue> = [
        ("attacker".to_owned(), StepValue::Entity(who.clone())),
        ("target".to_owned(), StepValue::Entity(target.clone())),
    ]
    .into();
    // No one actor: any of those asked may answer, for their own character.
    let step = PendingStep {
        rule: STEP_GUARD.into(),
        seats,
        question: format!(
            "{who} attacks {target}. Throw yourself in the way (your auxiliary action; AGL +5 against the attack)? Name who shields, or none."
        ),
        options,
        default: "none".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret: kept(blow),
        ..Default::default()
    };
    ctx.ask(step).map(|_| true)
}

/// The blow's numbers, for the GM alone while the window is open (an NPC's weapon and TN
/// override are the GM's).
fn kept(blow: &Blow) -> BTreeMap<String, StepValue> {
    let mut m: BTreeMap<String, StepValue> = [
        ("weapon".to_owned(), StepValue::Text(blow.weapon.clone())),
        ("situation".to_owned(), StepValue::Int(blow.situation)),
        ("range".to_owned(), StepValue::Int(blow.range)),
        ("targeted".to_owned(), StepValue::Flag(blow.targeted)),
        ("nonlethal".to_owned(), StepValue::Flag(blow.nonlethal)),
        ("hidden".to_owned(), StepValue::Flag(blow.hidden)),
        ("cover".to_owned(), StepValue::Int(blow.cover)),
        ("surprise".to_owned(), StepValue::Int(blow.surprise)),
    ]
    .into();
    if let Some(tn) = blow.tn_override {
        m.insert("tn".to_owned(), StepValue::Int(tn));
    }
    m
}

fn restored(step: &PendingStep) -> Result<Blow, DecideError> {
    let bad = |what: &str| DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("{what} missing"),
    };
    let int = |k: &str| match step.secret.get(k) {
        Some(StepValue::Int(i)) => Ok(*i),
        _ => Err(bad(k)),
    };
    let flag = |k: &str| matches!(step.secret.get(k), Some(StepValue::Flag(true)));
    let weapon = match step.secret.get("weapon") {
        Some(StepValue::Text(w)) => w.clone(),
        _ => return Err(bad("weapon")),
    };
    Ok(Blow {
        weapon,
        situation: int("situation")?,
        range: int("range")?,
        targeted: flag("targeted"),
        nonlethal: flag("nonlethal"),
        tn_override: int("tn").ok(),
        hidden: flag("hidden"),
        cover: int("cover")?,
        surprise: int("surprise")?,
    })
}

/// The window's answer: the named shielder (theirs to name) steps in, or nobody does, and the
/// attack goes on.
pub fn resume(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    closing: &Closing<'_>,
) -> Result<(), DecideError> {
    let bad = |what: &str| DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("{what} missing"),
    };
    let who = step
        .entity("attacker")
        .ok_or_else(|| bad("attacker"))?
        .clone();
    let target = step.entity("target").ok_or_else(|| bad("target"))?.clone();
    let blow = restored(step)?;
    let shielder = match closing.choice {
        "none" => None,
        id => {
            let id = EntityId::from(id);
            let c = ctx.combatant(&id)?;
            if let Resolver::Seat(seat) = closing.by {
                crate::toolkit::controls(seat, &c)?;
            }
            // Nothing moves while the window is open: those offered are those who can.
            if !step.options.contains(&id.0) {
                return Err(Refusal::Rule(format!("{id} can no longer shield {target}")).into());
            }
            let round = ctx.state.encounter().round;
            if shielding(&c, round).is_none() {
                spend_auxiliary(ctx, &id)?;
            }
            let round = i64::from(round);
            let mark = Status {
                source: who.0.clone(),
                magnitude: round,
                rounds_left: None,
            };
            ctx.set_status(&id, SHIELDING, Some(mark))?;
            Some(id)
        }
    };
    resolve_blow(ctx, &who, &target, &blow, shielder.as_ref())
}

/// What came of a shielder's attempt.
pub enum Intercept {
    /// The shielder took the blow (a natural 20 doubles it still).
    Took { natural_20: bool },
    /// The target evades as usual, against the attacker's roll already made, if any.
    Failed(Option<super::check::Rolled>),
}

/// `shielder` throws themselves in front of the swing's target: AGL +5 against the attacker's
/// COR roll, or its attack TN when it rolls nothing.
pub fn intercept(
    ctx: &mut Ctx<'_>,
    s: &Swing<'_>,
    shielder: &EntityId,
) -> Result<Intercept, DecideError> {
    let (who, target) = (s.who, s.target);
    let attacker = ctx.combatant(who)?;
    let plus = [Modifier::new("throwing themselves in the way", BONUS)];
    let label = format!("AGL shield {target}");
    let npc_on_pc = is_pc(&ctx.combatant(target)?) && !is_pc(&attacker);
    if npc_on_pc {
        let tn = s.tn_override.unwrap_or_else(|| {
            sheet_of(&attacker)
                .ok()
                .and_then(|sh| sh.npc.as_ref().map(|n| n.attack_tn))
                .unwrap_or(11)
        }) + s.range;
        let r = roll_d20(ctx, shielder, Attribute::AGL, &plus)?;
        let (outcome, why) = judge(&r, tn);
        let against = Target::Tn {
            tn,
            hidden: s.hidden,
        };
        record(ctx, shielder, &label, &r, against, outcome, why)?;
        return took(ctx, shielder, target, outcome, false);
    }
    let a = roll_d20(ctx, who, s.hit_attr, &attack_mods(s))?;
    // A target who cannot defend is hit with no roll of the attacker's: here the roll only
    // sets what the shielder must reach, and goes astray on no face.
    let defenceless = status::defenceless(&ctx.combatant(target)?, s.evade_attr).is_some();
    if a.natural <= s.threshold && !defenceless {
        // The blow goes astray before anyone can step into it.
        return Ok(Intercept::Failed(Some(a)));
    }
    let d = roll_d20(ctx, shielder, Attribute::AGL, &plus)?;
    let made = d.fails.is_none() && d.natural != 1 && d.total >= a.total;
    let outcome = if made {
        Outcome::Success
    } else {
        Outcome::Failure
    };
    let why = d
        .fails
        .map(str::to_owned)
        .or_else(|| (d.natural == 1).then(|| "natural 1".to_owned()));
    let mut parts = opposed_record(ctx, shielder, &label, &d, who, a.total, outcome, why);
    if made || defenceless {
        // The attack roll lands on the shielder: written here, as it is not rolled again.
        let a_label = format!("{} attack", s.hit_attr);
        parts.extend(opposed_record(
            ctx,
            who,
            &a_label,
            &a,
            shielder,
            d.total,
            Outcome::Success,
            (a.natural == 20).then(|| "natural 20".to_owned()),
        ));
        ctx.emit(Event { parts })?;
        if !made {
            // The defenceless target is hit as it would have been, its roll already written.
            took(ctx, shielder, target, outcome, false)?;
            return Ok(Intercept::Failed(None));
        }
        return took(ctx, shielder, target, outcome, a.natural == 20);
    }
    ctx.emit(Event { parts })?;
    took(ctx, shielder, target, outcome, false)?;
    Ok(Intercept::Failed(Some(a)))
}

fn took(
    ctx: &mut Ctx<'_>,
    shielder: &EntityId,
    target: &EntityId,
    outcome: Outcome,
    natural_20: bool,
) -> Result<Intercept, DecideError> {
    let text = if outcome == Outcome::Success {
        format!("{shielder} throws themselves in front of {target} and takes the blow")
    } else {
        format!("{shielder} tries to shield {target}, too late: {target} must evade")
    };
    ctx.emit(Event::public(Fact::Noted { text }))?;
    Ok(if outcome == Outcome::Success {
        Intercept::Took { natural_20 }
    } else {
        Intercept::Failed(None)
    })
}
