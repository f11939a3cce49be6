//! 10acity's words for the accounts its events carry: a check "succeeds" or "fails" against a
//! "challenge rating" (or a defender's roll), impact is rolled, stress moves. Redaction of an
//! NPC's numbers is the core's (`redact`); a hidden challenge rating goes to the GM alone here.

use crate::account::{Account, Compared, RollTold};
use crate::compare::{Direction, judge};
use crate::dice::Roll;
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Audience, CheckRecord, Event, Fact, Modifier, Outcome};
use crate::ids::EntityId;

/// A check to record: the pool, what is added to its highest die, and what it faced.
pub struct Check<'a> {
    pub who: &'a EntityId,
    pub verb: String,
    pub target: Option<EntityId>,
    pub label: String,
    pub roll: Roll,
    pub modifiers: Vec<Modifier>,
    pub total: i64,
    /// The value to beat and its name (`challenge rating`, `kara's defence`).
    pub against: i64,
    pub compared: String,
    /// The value is the GM's: players learn only whether it was beaten.
    pub hidden: bool,
    pub because: Option<String>,
}

/// Records a check in one event (the record and its sentence) and returns the outcome.
pub fn check(ctx: &mut Ctx<'_>, c: Check<'_>) -> Result<Outcome, DecideError> {
    let against = Against::Exceed(c.against);
    let j = judge(c.total, &against);
    let result = match j.outcome {
        Outcome::Success => "succeeds",
        _ => "fails",
    };
    let account = Account {
        actor: Some(c.who.clone()),
        verb: c.verb,
        target: c.target,
        instrument: None,
        roll: Some(RollTold {
            by: None,
            label: c.label.clone(),
            roll: c.roll.clone(),
            modifiers: c.modifiers.clone(),
            total: Some(c.total),
            against: Some(Compared {
                name: c.compared,
                value: Some(c.against),
                hidden: c.hidden,
                exceed: true,
                under: false,
            }),
            result: result.to_owned(),
            because: c.because,
            margin: j.margin,
        }),
        effects: Vec::new(),
        budget: Vec::new(),
    };
    let record = CheckRecord {
        actor: Some(c.who.clone()),
        label: c.label.clone(),
        roll: c.roll,
        modifiers: c.modifiers,
        total: c.total,
        against: if c.hidden { Against::Hidden } else { against },
        outcome: j.outcome,
        overridden_by: None,
        margin: if c.hidden { None } else { j.margin },
    };
    let mut event = Event::public(Fact::Checked(record))
        .with(Audience::Everyone, Fact::Told(Box::new(account)));
    if c.hidden {
        event = event.with(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: c.label,
                target: c.against,
                direction: Direction::Exceed,
                margin: j.margin,
            },
        );
    }
    ctx.emit(event)?;
    Ok(j.outcome)
}

/// A roll with what is added to it and no number to beat (the opening initiative roll): its
/// record and its sentence, "who rolls what: dice + rank = total".
pub fn open_roll(
    ctx: &mut Ctx<'_>,
    who: &EntityId,
    verb: &str,
    label: String,
    roll: Roll,
    modifiers: Vec<Modifier>,
) -> Result<i64, DecideError> {
    let total = modifiers
        .iter()
        .fold(roll.total, |sum, m| sum.saturating_add(m.value));
    let account = Account {
        actor: Some(who.clone()),
        verb: verb.to_owned(),
        target: None,
        instrument: None,
        roll: Some(RollTold {
            by: None,
            label: label.clone(),
            roll: roll.clone(),
            modifiers: modifiers.clone(),
            total: Some(total),
            against: None,
            result: String::new(),
            because: None,
            margin: None,
        }),
        effects: Vec::new(),
        budget: Vec::new(),
    };
    let record = CheckRecord {
        actor: Some(who.clone()),
        label,
        roll,
        modifiers,
        total,
        against: Against::Nothing,
        outcome: Outcome::Unjudged,
        overridden_by: None,
        margin: None,
    };
    ctx.emit(
        Event::public(Fact::Checked(record))
            .with(Audience::Everyone, Fact::Told(Box::new(account))),
    )?;
    Ok(total)
}

/// A roll that is not judged (impact, challenge dice), said to everyone or to the GM alone.
pub fn rolled(
    ctx: &mut Ctx<'_>,
    by: Option<&EntityId>,
    purpose: String,
    roll: Roll,
    gm_only: bool,
) -> Result<(), DecideError> {
    let fact = Fact::Rolled {
        by: by.cloned(),
        purpose,
        roll,
    };
    let event = if gm_only {
        Event {
            parts: vec![crate::event::Part {
                audience: Audience::GmOnly,
                fact,
            }],
        }
    } else {
        Event::public(fact)
    };
    ctx.emit(event)
}

/// A dice expression the rules build from numbers they checked; a failure to parse is a bug,
/// reported as a refusal rather than a panic.
pub fn expr(text: &str) -> Result<crate::dice::DiceExpr, DecideError> {
    crate::dice::DiceExpr::parse(text)
        .map_err(|e| crate::refusal::Refusal::Rule(format!("cannot roll `{text}`: {e}")).into())
}
