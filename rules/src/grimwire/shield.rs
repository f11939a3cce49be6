//! Shielding oneself: a character who fails to evade an attack with AGL may raise a shield (or
//! a large weapon with a shielding bonus) and add its bonus to the roll. If that turns the
//! blow, the shield takes it instead and its instability die (d20 unless the sheet says) is
//! rolled: 1 breaks it for good, 2 breaks it (it can be mended), 3 means it did not hold and the
//! blow lands after all, as the text's table of unstable objects reads.
//!
//! The choice is offered after every failed evasion with a shield at hand, whether or not the
//! bonus would be enough: offering it only when it would be enough would tell the player the
//! hidden TN. A natural 1 fails whatever is added, so then nothing is offered, and nor against
//! a natural 20, which always hits.

use std::collections::BTreeMap;

use crate::decision::{PendingStep, StepValue};
use crate::dice::{DiceExpr, roll};
use crate::engine::{Ctx, DecideError};
use crate::event::{Event, Fact};
use crate::ids::EntityId;
use crate::refusal::Refusal;
use crate::state::{Combatant, StateView, Status};

use super::sheet::Weapon;
use super::{deciding_seats, sheet_of};

pub const STEP_SHIELD: &str = "grimwire.shield";
/// On the bearer, for a weapon that broke (magnitude 1: for good; 0: it can be mended).
pub const BROKEN: &str = "broken:";
pub const DEFAULT_INSTABILITY: u32 = 20;

/// Whether `weapon` of `c` is broken.
pub fn broken(c: &Combatant, weapon: &str) -> bool {
    c.has_status(&format!("{BROKEN}{weapon}"))
}

/// The best shield `c` can raise: the unbroken item with the highest shielding bonus.
pub fn best(c: &Combatant) -> Option<Weapon> {
    let sheet = sheet_of(c).ok()?;
    sheet
        .weapons
        .iter()
        .filter(|w| w.shielding > 0 && !broken(c, &w.id))
        .max_by_key(|w| w.shielding)
        .cloned()
}

/// What a failed evasion left to decide.
pub struct Failed<'a> {
    pub attacker: &'a EntityId,
    pub target: &'a EntityId,
    pub weapon: &'a str,
    /// The evasion's total, and what it had to reach (or beat, against a PC's attack).
    pub total: i64,
    pub against: i64,
    pub exceed: bool,
    pub tie_half: bool,
    pub nonlethal: bool,
    pub targeted: bool,
}

/// Asks the evader whether to raise `shield`. The numbers to compare, and the attacker's
/// weapon, stay in the step's secret part: the TN may be hidden, the weapon the GM's.
pub fn offer(ctx: &mut Ctx<'_>, f: &Failed<'_>, shield: &Weapon) -> Result<(), DecideError> {
    let target = ctx.combatant(f.target)?;
    let data: BTreeMap<String, StepValue> = [
        ("attacker".to_owned(), StepValue::Entity(f.attacker.clone())),
        ("target".to_owned(), StepValue::Entity(f.target.clone())),
        ("shield".to_owned(), StepValue::Text(shield.id.clone())),
        ("tie_half".to_owned(), StepValue::Flag(f.tie_half)),
        ("nonlethal".to_owned(), StepValue::Flag(f.nonlethal)),
        ("targeted".to_owned(), StepValue::Flag(f.targeted)),
    ]
    .into();
    let secret: BTreeMap<String, StepValue> = [
        ("total".to_owned(), StepValue::Int(f.total)),
        ("against".to_owned(), StepValue::Int(f.against)),
        ("exceed".to_owned(), StepValue::Flag(f.exceed)),
        // An NPC's weapon is the GM's to name.
        ("weapon".to_owned(), StepValue::Text(f.weapon.to_owned())),
    ]
    .into();
    let step = PendingStep {
        rule: STEP_SHIELD.into(),
        actor: Some(f.target.clone()),
        seats: deciding_seats(&target),
        question: format!(
            "{} failed to evade {}'s attack. Raise the {} (+{} AGL)? If that turns the blow, the {} takes it and may break.",
            f.target, f.attacker, shield.name, shield.shielding, shield.name
        ),
        options: vec!["raise".into(), "no".into()],
        default: "raise".into(),
        timeout_ms: ctx.state.options().decision_timeout_ms(),
        data,
        secret,
        ..Default::default()
    };
    ctx.ask(step).map(|_| ())
}

/// What the answer leaves: whether the blow still lands (and with what), after the shield.
pub struct Outcome {
    pub attacker: EntityId,
    pub target: EntityId,
    pub lands: bool,
    pub tie_half: bool,
    pub nonlethal: bool,
    pub targeted: bool,
}

pub fn resume(ctx: &mut Ctx<'_>, step: &PendingStep, choice: &str) -> Result<Outcome, DecideError> {
    let bad = |what: &str| DecideError::BadStep {
        prompt_id: step.prompt_id,
        rule: step.rule.clone(),
        problem: format!("{what} missing"),
    };
    let attacker = step
        .entity("attacker")
        .ok_or_else(|| bad("attacker"))?
        .clone();
    let target = step.entity("target").ok_or_else(|| bad("target"))?.clone();
    let shield_id = step.text("shield").ok_or_else(|| bad("shield"))?.to_owned();
    let secret_int = |k: &str| match step.secret.get(k) {
        Some(StepValue::Int(i)) => Ok(*i),
        _ => Err(bad(k)),
    };
    let (total, against) = (secret_int("total")?, secret_int("against")?);
    let exceed = matches!(step.secret.get("exceed"), Some(StepValue::Flag(true)));
    let flag = |k: &str| step.flag(k).unwrap_or(false);
    let mut out = Outcome {
        attacker: attacker.clone(),
        target: target.clone(),
        lands: true,
        tie_half: flag("tie_half"),
        nonlethal: flag("nonlethal"),
        targeted: flag("targeted"),
    };
    if choice != "raise" {
        return Ok(out);
    }
    let c = ctx.combatant(&target)?;
    let shield = sheet_of(&c)?
        .weapon(&shield_id)
        .cloned()
        .ok_or_else(|| Refusal::Rule(format!("{target} no longer has the {shield_id}")))?;
    let raised = total + shield.shielding;
    let turns = if exceed {
        raised > against
    } else {
        raised >= against
    };
    let name = &shield.name;
    if !turns {
        say(
            ctx,
            format!(
                "{target} raises the {name} (+{}): {total} + {} = {raised}, not enough: the blow lands",
                shield.shielding, shield.shielding
            ),
        )?;
        return Ok(out);
    }
    say(
        ctx,
        format!(
            "{target} raises the {name} (+{}): {total} + {} = {raised} turns the blow onto it",
            shield.shielding, shield.shielding
        ),
    )?;
    let sides = shield.instability.unwrap_or(DEFAULT_INSTABILITY);
    let expr = DiceExpr::parse(&format!("1d{sides}"))
        .map_err(|e| Refusal::Rule(format!("the {name}'s instability die: {e}")))?;
    let r = roll(&expr, ctx.dice)?;
    let face = r.total;
    ctx.emit(Event::public(Fact::Rolled {
        by: Some(target.clone()),
        purpose: format!("instability of the {name} (d{sides}: 1 breaks it for good, 2 breaks it, 3 it does not hold)"),
        roll: r,
    }))?;
    match face {
        1 | 2 => {
            let status = Status {
                source: name.clone(),
                magnitude: i64::from(face == 1),
                rounds_left: None,
            };
            ctx.set_status(&target, &format!("{BROKEN}{shield_id}"), Some(status))?;
            let how = if face == 1 {
                "for good"
            } else {
                "until mended"
            };
            say(
                ctx,
                format!("the {name} breaks {how}; the blow does no harm"),
            )?;
            out.lands = false;
        }
        3 => say(ctx, format!("the {name} does not hold: the blow lands"))?,
        _ => {
            say(ctx, format!("the {name} holds"))?;
            out.lands = false;
        }
    }
    Ok(out)
}

fn say(ctx: &mut Ctx<'_>, text: String) -> Result<(), DecideError> {
    ctx.emit(Event::public(Fact::Noted { text }))
}
