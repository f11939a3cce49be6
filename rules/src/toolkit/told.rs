//! One check, recorded the way every system that judges a d10 (or any) total against a number
//! records it: the check's record and its sentence in one event, the GM's copy of a number only
//! the GM may see, and the whole roll for the GM alone when it is the GM's. The systems give
//! their own words ("hits", "passes"); redaction of an NPC's own numbers is the core's.

use crate::account::{Account, Compared, RollTold, Telling};
use crate::compare::Direction;
use crate::dice::Roll;
use crate::engine::{Ctx, DecideError};
use crate::event::{Against, Audience, CheckRecord, Event, Fact, Modifier, Outcome, Part};
use crate::ids::EntityId;

/// One roll and how it is worded.
pub struct Check<'a> {
    pub who: &'a EntityId,
    pub label: String,
    pub roll: Roll,
    pub modifiers: Vec<Modifier>,
    /// The number the total was compared with, if any, and its name (`Evade`, `toughness`).
    pub against: Option<(i64, &'static str)>,
    /// The rule's verdict; `None` for an open roll such as a tie-break.
    pub success: Option<bool>,
    /// The words for success and failure: `("hits", "misses")`.
    pub words: (&'static str, &'static str),
    /// Why the verdict is not what the numbers alone say (a tie ruled by the table).
    pub because: Option<String>,
    /// The number compared with is the GM's.
    pub hidden: bool,
    /// The whole roll is the GM's (a monster's morale).
    pub gm_only: bool,
}

/// The total of a roll with its modifiers.
pub fn total(roll: &Roll, modifiers: &[Modifier]) -> i64 {
    modifiers
        .iter()
        .fold(roll.total, |sum, m| sum.saturating_add(m.value))
}

/// Records a check in one event: the record, its sentence, and the GM's copy of a hidden
/// number. Returns the total.
pub fn check(ctx: &mut Ctx<'_>, c: Check<'_>) -> Result<i64, DecideError> {
    let total = total(&c.roll, &c.modifiers);
    let outcome = match c.success {
        Some(true) => Outcome::Success,
        Some(false) => Outcome::Failure,
        None => Outcome::Unjudged,
    };
    let margin = c.against.map(|(v, _)| total - v);
    let result = match outcome {
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
            modifiers: c.modifiers.clone(),
            total: Some(total),
            against: c.against.map(|(v, name)| Compared {
                name: name.to_owned(),
                value: Some(v),
                hidden: c.hidden,
                exceed: false,
                under: false,
            }),
            result: result.to_owned(),
            because: c.because.clone(),
            margin: if c.hidden { None } else { margin },
        }),
        effects: Vec::new(),
        budget: Vec::new(),
    };
    let record = CheckRecord {
        actor: Some(c.who.clone()),
        label: c.label.clone(),
        roll: c.roll,
        modifiers: c.modifiers,
        total,
        against: match c.against {
            Some(_) if c.hidden => Against::Hidden,
            Some((v, _)) => Against::Target(v),
            None => Against::Nothing,
        },
        outcome,
        overridden_by: c.because,
        margin: if c.hidden { None } else { margin },
    };
    let audience = if c.gm_only {
        Audience::GmOnly
    } else {
        Audience::Everyone
    };
    let mut event = Event {
        parts: vec![
            Part {
                audience: audience.clone(),
                fact: Fact::Checked(record),
            },
            Part {
                audience,
                fact: Fact::Told(Box::new(account)),
            },
        ],
    };
    if let (Some((target, _)), true, false) = (c.against, c.hidden, c.gm_only) {
        event = event.with(
            Audience::GmOnly,
            Fact::HiddenTarget {
                label: c.label,
                target,
                direction: Direction::Reach,
                margin,
            },
        );
    }
    ctx.emit(event)?;
    Ok(total)
}

pub fn telling_or(ctx: &Ctx<'_>, who: &EntityId) -> Telling {
    ctx.telling.clone().unwrap_or_else(|| Telling {
        actor: Some(who.clone()),
        verb: "rolls".into(),
        ..Telling::default()
    })
}
