//! Tiny d10's words for the accounts its events carry (see `crate::account`): an attack "hits"
//! or "misses" a toughness, a check or save "succeeds" or "fails" against one, a challenge is
//! "won" or "lost" against the other side's total, and damage and healing move HP. The rule
//! judges; this only records. A toughness that is an NPC's or that the GM set in secret stays
//! the GM's: the record then says only whether it was reached. Redaction of an NPC's own
//! numbers (its attributes in the modifiers) is the core's (`redact`).

use crate::account::{Account, Effect};
use crate::engine::Ctx;
use crate::event::Modifier;
use crate::ids::EntityId;

use crate::toolkit::told::telling_or;
pub use crate::toolkit::told::{Check, check, total};

/// The sentence of a resource moved on `target`: how the amount was built, the amount (all of
/// it, even past 0 or the maximum, so it matches its steps) and the value before and after.
#[allow(clippy::too_many_arguments)]
pub fn moved(
    ctx: &Ctx<'_>,
    target: &EntityId,
    what: &str,
    resource: &str,
    steps: Vec<Modifier>,
    amount: i64,
    before: i64,
    after: i64,
) -> Account {
    let telling = telling_or(ctx, target);
    Account {
        actor: telling.actor,
        verb: telling.verb,
        target: Some(target.clone()),
        instrument: telling.instrument,
        roll: None,
        effects: vec![Effect {
            entity: target.clone(),
            what: what.to_owned(),
            steps,
            amount: Some(amount),
            resource: Some(resource.to_owned()),
            before: Some(before),
            after: Some(after),
            wound: None,
        }],
        budget: Vec::new(),
    }
}
