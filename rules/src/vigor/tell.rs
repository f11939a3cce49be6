//! vigor's words for the accounts its events carry (see `crate::account`): an attack "hits" or
//! "misses" Guard, a defence "evades" or "fails", a victory sum is a "VS", and damage moves
//! Durability or Health. Redaction of an NPC's numbers is the core's (`redact`), not ours.

use crate::account::{Account, Compared, Effect, RollTold, Telling};
use crate::compare::judge;
use crate::dice::Roll;
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, CheckRecord, Event, Fact, Modifier, Outcome};
use crate::ids::EntityId;

/// What a roll is and how its result is worded.
pub struct Check<'a> {
    pub who: &'a EntityId,
    pub label: String,
    pub roll: Roll,
    pub against: Against,
    /// What the total is compared with, in vigor's words: `Guard`, `VS`, `aune's attack`.
    pub compared: String,
    /// The words for success and failure: `("hit", "miss")`.
    pub words: (&'static str, &'static str),
    pub because: Option<String>,
    /// What the total is compared with is the GM's (an NPC's Guard): the record says only
    /// whether it was beaten, and the number goes to the GM alone.
    pub hidden: bool,
}

/// Judges and records a check in one event: the record and its sentence. Returns the outcome.
pub fn check(ctx: &mut Ctx<'_>, c: Check<'_>) -> Result<Outcome, DecideError> {
    let total = c.roll.total;
    let j = judge(total, &c.against);
    let (value, exceed) = match &c.against {
        Against::Target(n) => (Some(*n), false),
        Against::Exceed(n) => (Some(*n), true),
        Against::Opposed { total, .. } => (Some(*total), true),
        _ => (None, false),
    };
    let against = value.map(|v| Compared {
        name: c.compared.clone(),
        value: Some(v),
        hidden: c.hidden,
        exceed,
        under: false,
    });
    let result = match j.outcome {
        Outcome::Success => c.words.0,
        Outcome::Failure => c.words.1,
        Outcome::Unjudged => "",
    };
    let telling = telling_or(ctx, c.who);
    let by = (telling.actor.as_ref() != Some(c.who)).then(|| c.who.clone());
    let account = Account {
        actor: telling.actor,
        verb: telling.verb,
        target: telling.target,
        instrument: telling.instrument,
        roll: Some(RollTold {
            by,
            label: c.label.clone(),
            roll: c.roll.clone(),
            modifiers: Vec::new(),
            total: Some(total),
            against,
            result: result.to_owned(),
            because: c.because.clone(),
            margin: j.margin,
        }),
        effects: Vec::new(),
        budget: Vec::new(),
    };
    let secret = match (&c.against, c.hidden) {
        (Against::Exceed(n), true) => Some((*n, crate::compare::Direction::Exceed)),
        (Against::Target(n), true) => Some((*n, crate::compare::Direction::Reach)),
        _ => None,
    }
    .map(|(target, direction)| Fact::HiddenTarget {
        label: c.label.clone(),
        target,
        direction,
        margin: j.margin,
    });
    let record = CheckRecord {
        actor: Some(c.who.clone()),
        label: c.label,
        roll: c.roll,
        modifiers: Vec::new(),
        total,
        against: if secret.is_some() {
            Against::Hidden
        } else {
            c.against
        },
        outcome: j.outcome,
        overridden_by: None,
        margin: if secret.is_some() { None } else { j.margin },
    };
    let mut event = Event::public(Fact::Checked(record)).with(
        crate::event::Audience::Everyone,
        Fact::Told(Box::new(account)),
    );
    if let Some(fact) = secret {
        event = event.with(crate::event::Audience::GmOnly, fact);
    }
    ctx.emit(event)?;
    Ok(j.outcome)
}

fn telling_or(ctx: &Ctx<'_>, who: &EntityId) -> Telling {
    ctx.telling.clone().unwrap_or_else(|| Telling {
        actor: Some(who.clone()),
        verb: "rolls".into(),
        ..Telling::default()
    })
}

/// One resource a hit or a cure moved: `Durability 12 → 4`.
pub struct Moved<'a> {
    pub word: &'a str,
    pub before: i64,
    pub after: i64,
}

/// The sentence of damage (or healing) to `target`: how the amount was built and what moved.
pub fn effect(
    ctx: &Ctx<'_>,
    target: &EntityId,
    what: &str,
    amount: i64,
    steps: Vec<Modifier>,
    moved: &[Moved<'_>],
    wound: Option<String>,
) -> Account {
    let telling = telling_or(ctx, target);
    let mut effects: Vec<Effect> = moved
        .iter()
        .filter(|m| m.before != m.after)
        .map(|m| Effect {
            entity: target.clone(),
            what: what.to_owned(),
            steps: Vec::new(),
            amount: Some((m.after - m.before).abs()),
            resource: Some(m.word.to_owned()),
            before: Some(m.before),
            after: Some(m.after),
            wound: wound.clone(),
        })
        .collect();
    if effects.is_empty() {
        effects.push(Effect {
            entity: target.clone(),
            what: what.to_owned(),
            steps: Vec::new(),
            amount: Some(amount),
            resource: None,
            before: None,
            after: None,
            wound: wound.clone(),
        });
    }
    if let Some(first) = effects.first_mut() {
        first.steps = steps;
    }
    Account {
        actor: telling.actor,
        verb: telling.verb,
        target: Some(target.clone()),
        instrument: telling.instrument,
        roll: None,
        effects,
        budget: Vec::new(),
    }
}
