//! mist's words for the accounts its events carry (see `crate::account`): an attack "hits" or
//! "misses" Evade, a check "passes" or "fails" its difficulty, and damage moves Life. The rule
//! judges; this only records, so a natural 10 or a table's tie ruling is said where it won.
//! An NPC's Evade is the GM's: the record then says only whether it was reached, and the number
//! goes to the GM alone. Redaction of an NPC's own numbers is the core's (`redact`).

use crate::account::{Account, Effect};
use crate::engine::Ctx;
use crate::event::Modifier;
use crate::ids::EntityId;

use crate::toolkit::told::telling_or;
pub use crate::toolkit::told::{Check, check, total};

/// The sentence of Life moved on `target`: how the amount was built and Life before and after.
pub fn life_moved(
    ctx: &Ctx<'_>,
    target: &EntityId,
    what: &str,
    steps: Vec<Modifier>,
    before: i64,
    after: i64,
    wound: Option<String>,
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
            amount: Some((after - before).abs()),
            resource: Some("Life".to_owned()),
            before: Some(before),
            after: Some(after),
            wound,
        }],
        budget: Vec::new(),
    }
}
