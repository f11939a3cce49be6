//! An attack: the roll against Guard (a total equal to Guard misses), the defender's Defense
//! reaction (Dodge, Deflect or Block) for 5 Vigor, 3 while Defending, which must beat the
//! attack's total (a tie goes to the attacker), then the damage. An off-hand attack rides on
//! the same action for 8 Vigor with two challenges to hit and to damage.

use std::collections::BTreeMap;

use crate::account::Telling;
use crate::action::Args;
use crate::decision::{PendingStep, StepValue};
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Outcome};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, Kind, StateView};
use crate::toolkit::deciders;

use super::bonus_dice::{Steps, action_roll, bursting};
use super::guard::{Cover, Situation, guard};
use super::reach::{clear_path, feet_between};
use super::round::{label, spend};
use super::sheet::Weapon;
use super::tell::{self, Check};
use super::{
    COVER, DEAD, DEFEND_DISCOUNT, DEFENDING, DEFENSE_COST, GRID, INCAPACITATED,
    OFF_HAND_CHALLENGES, OFF_HAND_COST, PRONE, SHOCK, UNAWARE, UNCONSCIOUS, VIGOR, WOUNDED, settle,
    sheet_of,
};

pub const STEP_DEFENSE: &str = "vigor.defense";

/// What one strike carries from the roll to the damage.
#[derive(Debug, Clone)]
pub struct Strike {
    pub attacker: EntityId,
    pub target: EntityId,
    pub weapon: Weapon,
    pub charges: i64,
    pub challenges: i64,
    pub from_behind: bool,
    /// Whether this is the off-hand strike (two challenges to hit and to damage).
    pub off_hand: bool,
    /// The off-hand weapon still to strike with after this one.
    pub then: Option<Weapon>,
}

pub fn attack(ctx: &mut Ctx<'_>, c: &Combatant, args: &Args) -> Result<(), DecideError> {
    let sheet = sheet_of(c)?.clone();
    let weapon_id = args.text("weapon")?;
    // Without a weapon named, the first on the sheet (bare hands when it lists none).
    let weapon = match weapon_id {
        None => first_weapon(&sheet),
        Some(_) => sheet.weapon(weapon_id),
    }
    .ok_or_else(|| Refusal::UnknownName {
        system: super::ID.into(),
        what: format!("a weapon on {}'s sheet", c.id),
        name: weapon_id.unwrap_or("").to_owned(),
    })?;
    let off_hand = match args.text("off_hand")? {
        None => None,
        Some(id) => Some(sheet.weapon(Some(id)).ok_or_else(|| Refusal::UnknownName {
            system: super::ID.into(),
            what: format!("a weapon on {}'s sheet", c.id),
            name: id.to_owned(),
        })?),
    };
    let target = ctx.combatant(&args.require_entity("target")?)?;
    if target.id == c.id {
        return Err(Refusal::Rule("a creature does not attack itself".into()).into());
    }
    if target.has_status(DEAD) {
        return Err(Refusal::Rule(format!("{} is already dead", target.id)).into());
    }
    for w in std::iter::once(&weapon).chain(off_hand.iter()) {
        in_reach(ctx, c, &target, w)?;
    }
    let vigor = c.resource(VIGOR);
    if off_hand.is_some() && vigor < OFF_HAND_COST {
        return Err(Refusal::InsufficientResource {
            resource: "Vigor".into(),
            needed: OFF_HAND_COST,
            available: vigor,
        }
        .into());
    }
    spend(ctx, c, 1)?;
    if off_hand.is_some() {
        ctx.set_resource(&c.id, VIGOR, vigor - OFF_HAND_COST)?;
        settle(ctx, &c.id, "off-hand attack")?;
    }
    strike(
        ctx,
        Strike {
            attacker: c.id.clone(),
            target: target.id.clone(),
            weapon,
            charges: args.int("charges")?.unwrap_or(0),
            challenges: args.int("challenges")?.unwrap_or(0),
            from_behind: args.flag("from_behind")?,
            off_hand: false,
            then: off_hand,
        },
    )
}

/// A melee weapon reaches only within its reach and along a clear path, a ranged one within
/// what visibility allows, when both stand on the grid.
fn in_reach(ctx: &Ctx<'_>, c: &Combatant, t: &Combatant, w: &Weapon) -> Result<(), Refusal> {
    let Some(feet) = feet_between(ctx, c, t) else {
        return Ok(());
    };
    let level = ctx
        .state
        .encounter()
        .values
        .get(super::visibility::VISIBILITY)
        .copied()
        .unwrap_or(0);
    let limit = if w.ranged {
        super::visibility::range_cap(level)
    } else {
        Some(w.reach_ft)
    };
    match limit {
        Some(limit) if feet > limit => Err(Refusal::OutOfRange {
            what: t.id.to_string(),
            distance: feet,
            limit,
            unit: GRID.unit.into(),
        }),
        _ if !w.ranged && !clear_path(ctx, c, t) => Err(Refusal::Rule(format!(
            "{} cannot reach {} with a melee weapon: a wall, cover or obstacle stands between them",
            c.id, t.id
        ))),
        _ => Ok(()),
    }
}

/// The steps of a strike's roll to hit.
fn hit_steps(s: &Strike, attacker: &Combatant, target: &Combatant) -> Steps {
    let mut challenges = s.challenges;
    if s.off_hand {
        challenges += OFF_HAND_CHALLENGES;
    }
    // Shooting at someone lying down is harder.
    if s.weapon.ranged && target.has_status(PRONE) {
        challenges += 1;
    }
    Steps {
        charges: s.charges,
        challenges,
        wounded: attacker.has_status(WOUNDED),
    }
}

pub fn strike(ctx: &mut Ctx<'_>, s: Strike) -> Result<(), DecideError> {
    let attacker = ctx.combatant(&s.attacker)?;
    let target = ctx.combatant(&s.target)?;
    let a_sheet = sheet_of(&attacker)?.clone();
    let t_sheet = sheet_of(&target)?.clone();
    let steps = hit_steps(&s, &attacker, &target);
    let dice = a_sheet.attack_dice(s.weapon.attack_ability);
    let burst = bursting(ctx.state.options());
    let roll = crate::dice::roll(&action_roll(dice, steps.die(), burst), ctx.dice)?;
    let situation = Situation {
        behind_unaware: s.from_behind && target.has_status(UNAWARE),
        size_over: a_sheet.size.rank() - t_sheet.size.rank(),
        cover: target
            .statuses
            .get(COVER)
            .and_then(|c| Cover::from_magnitude(c.magnitude)),
        ranged: s.weapon.ranged,
        area: false,
        visibility: 0,
    };
    let level = ctx
        .state
        .encounter()
        .values
        .get(super::visibility::VISIBILITY)
        .copied()
        .unwrap_or(0);
    let feet = feet_between(ctx, &attacker, &target);
    let situation = Situation {
        visibility: if s.weapon.ranged {
            super::visibility::penalty(level, feet)
        } else {
            0
        },
        ..situation
    };
    let (to_beat, built) = guard(t_sheet.guard(), &situation);
    let total = roll.total;
    ctx.telling = Some(Telling {
        actor: Some(s.attacker.clone()),
        verb: if s.off_hand {
            "strikes off-hand at"
        } else {
            "attacks"
        }
        .into(),
        target: Some(s.target.clone()),
        instrument: Some(s.weapon.name.clone()),
    });
    // An NPC's Guard is the GM's: the players hear what changed it, not by how much.
    let hidden = crate::redact::gm_only_numbers(&target);
    let because = (built.len() > 1).then(|| {
        built
            .iter()
            .map(|m| {
                if hidden {
                    m.label.clone()
                } else {
                    format!("{} {:+}", m.label, m.value)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    });
    let outcome = tell::check(
        ctx,
        Check {
            who: &s.attacker,
            label: label("attack", steps, dice > 0),
            roll,
            against: Against::Exceed(to_beat),
            compared: "Guard".into(),
            words: ("hit", "miss"),
            because,
            hidden,
        },
    )?;
    if outcome != Outcome::Success {
        return follow_with_off_hand(ctx, &s);
    }
    if let Some(why) = cannot_react(ctx, &target) {
        ctx.note_about(&s.target, format!("{} cannot react: {why}", s.target))?;
        super::harm::damage(ctx, &s)?;
        return follow_with_off_hand(ctx, &s);
    }
    let cost = defense_cost(&target);
    // The attacker's weapons (and what it strikes with next) are the GM's when it is an NPC:
    // they go in the window's GM-only part, and the question names only the kind of weapon.
    let mut secret = BTreeMap::from([("weapon".to_owned(), StepValue::Text(s.weapon.id.clone()))]);
    let data = BTreeMap::from([
        ("attacker".to_owned(), StepValue::Entity(s.attacker.clone())),
        ("attack_total".to_owned(), StepValue::Int(total)),
        ("off_hand".to_owned(), StepValue::Flag(s.off_hand)),
        ("charges".to_owned(), StepValue::Int(s.charges)),
        ("challenges".to_owned(), StepValue::Int(s.challenges)),
        ("from_behind".to_owned(), StepValue::Flag(s.from_behind)),
    ]);
    if let Some(next) = &s.then {
        secret.insert("then".to_owned(), StepValue::Text(next.id.clone()));
    }
    let attacker = ctx.combatant(&s.attacker)?;
    let weapon = if crate::redact::gm_only_numbers(&attacker) {
        if s.weapon.ranged {
            "a ranged weapon".to_owned()
        } else {
            "a melee weapon".to_owned()
        }
    } else {
        s.weapon.name.clone()
    };
    ctx.ask(PendingStep {
        rule: STEP_DEFENSE.into(),
        actor: Some(s.target.clone()),
        seats: deciders(&target),
        question: format!(
            "{} hits {} with {weapon}: defend (Dodge, Deflect or Block) for {cost} Vigor?",
            s.attacker, s.target
        ),
        options: vec!["defend".into(), "take".into()],
        default: "take".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        ..PendingStep::default()
    })?;
    Ok(())
}

/// Why a creature has no reaction: it cannot dodge while helpless, and nobody reacts in its own
/// turn.
pub fn cannot_react(ctx: &Ctx<'_>, t: &Combatant) -> Option<&'static str> {
    if t.kind == Kind::Object {
        return Some("an object");
    }
    for (s, why) in [
        (DEAD, "dead"),
        (SHOCK, "in shock"),
        (UNCONSCIOUS, "unconscious"),
        (INCAPACITATED, "incapacitated"),
    ] {
        if t.has_status(s) {
            return Some(why);
        }
    }
    (ctx.state.encounter().current.as_ref() == Some(&t.id)).then_some("it is its own turn")
}

/// The weapon a creature takes an opening with: the first on its sheet (bare hands if none).
pub fn first_weapon(sheet: &super::Sheet) -> Option<Weapon> {
    sheet.weapon(sheet.weapons.first().map(|w| w.id.as_str()))
}

/// One ordinary attack with no off-hand and nothing moving its dice: a Take Opening.
pub fn strike_once(
    ctx: &mut Ctx<'_>,
    attacker: &EntityId,
    target: &EntityId,
    weapon: Weapon,
) -> Result<(), DecideError> {
    strike(
        ctx,
        Strike {
            attacker: attacker.clone(),
            target: target.clone(),
            weapon,
            charges: 0,
            challenges: 0,
            from_behind: false,
            off_hand: false,
            then: None,
        },
    )
}

/// Vigor a Defense reaction costs `t` now.
pub fn defense_cost(t: &Combatant) -> i64 {
    if t.has_status(DEFENDING) {
        DEFENSE_COST - DEFEND_DISCOUNT
    } else {
        DEFENSE_COST
    }
}

/// Bonus dice to Defense: Speed's, a quarter of them (rounded down) while prone.
pub fn defense_dice(speed_dice: i64, prone: bool) -> i64 {
    if prone { speed_dice / 4 } else { speed_dice }
}

pub fn resume_defense(
    ctx: &mut Ctx<'_>,
    step: &PendingStep,
    choice: &str,
) -> Result<(), DecideError> {
    let defender = step
        .actor
        .clone()
        .ok_or_else(|| DecideError::malformed(step, "actor"))?;
    let attacker = step
        .entity("attacker")
        .cloned()
        .ok_or_else(|| DecideError::malformed(step, "attacker"))?;
    let total = step
        .int("attack_total")
        .ok_or_else(|| DecideError::malformed(step, "attack_total"))?;
    let a = ctx.combatant(&attacker)?;
    let a_sheet = sheet_of(&a)?.clone();
    let weapon_of = |key: &str| {
        step.secret_text(key)
            .and_then(|id| a_sheet.weapon(Some(id)))
    };
    let weapon = weapon_of("weapon").ok_or_else(|| DecideError::malformed(step, "weapon"))?;
    let s = Strike {
        attacker: attacker.clone(),
        target: defender.clone(),
        weapon,
        charges: step.int("charges").unwrap_or(0),
        challenges: step.int("challenges").unwrap_or(0),
        from_behind: step.flag("from_behind").unwrap_or(false),
        off_hand: step.flag("off_hand").unwrap_or(false),
        then: weapon_of("then"),
    };
    let evaded = choice == "defend" && defense(ctx, &defender, &attacker, total)?;
    if !evaded {
        super::harm::damage(ctx, &s)?;
    }
    follow_with_off_hand(ctx, &s)
}

/// The Defense reaction: pays, rolls, and says whether it beat the attack.
fn defense(
    ctx: &mut Ctx<'_>,
    defender: &EntityId,
    attacker: &EntityId,
    attack_total: i64,
) -> Result<bool, DecideError> {
    let d = ctx.combatant(defender)?;
    let cost = defense_cost(&d);
    let vigor = d.resource(VIGOR);
    if vigor < cost {
        return Err(Refusal::InsufficientResource {
            resource: "Vigor".into(),
            needed: cost,
            available: vigor,
        }
        .into());
    }
    ctx.set_resource(defender, VIGOR, vigor - cost)?;
    settle(ctx, defender, "defense")?;
    let sheet = sheet_of(&d)?.clone();
    let dice = defense_dice(sheet.bonus_dice.speed, d.has_status(PRONE));
    let steps = Steps {
        wounded: d.has_status(WOUNDED),
        ..Steps::default()
    };
    let roll = crate::dice::roll(
        &action_roll(
            dice,
            steps.die(),
            super::bonus_dice::bursting(ctx.state.options()),
        ),
        ctx.dice,
    )?;
    ctx.telling = Some(Telling {
        actor: Some(defender.clone()),
        verb: "defends against".into(),
        target: Some(attacker.clone()),
        instrument: None,
    });
    let outcome = tell::check(
        ctx,
        Check {
            who: defender,
            label: label("defense", steps, dice > 0),
            roll,
            against: Against::Opposed {
                entity: attacker.clone(),
                total: attack_total,
            },
            compared: format!("{attacker}'s attack"),
            words: ("evades", "fails"),
            because: Some(format!("{cost} Vigor spent")),
            hidden: false,
        },
    )?;
    Ok(outcome == Outcome::Success)
}

fn follow_with_off_hand(ctx: &mut Ctx<'_>, s: &Strike) -> Result<(), DecideError> {
    let Some(w) = s.then.clone() else {
        return Ok(());
    };
    if ctx.combatant(&s.target)?.has_status(DEAD) {
        return Ok(());
    }
    strike(
        ctx,
        Strike {
            weapon: w,
            off_hand: true,
            then: None,
            ..s.clone()
        },
    )
}
