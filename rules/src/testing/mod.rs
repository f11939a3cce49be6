//! Combatants for the core's own tests, on the generic sheet: the core is tested without any
//! system, as it runs without naming one.

use std::collections::BTreeMap;

use crate::ids::{EntityId, SeatId};
use crate::sheet::Sheet;
use crate::state::{Combatant, Kind};

/// A combatant of `kind` (`pc`, `npc` or `object`) with the given resources, on a generic
/// sheet that holds the same numbers as stats.
pub fn combatant(
    id: &str,
    kind: &str,
    owner: Option<&str>,
    resources: &[(&str, i64)],
) -> Combatant {
    let kind = match kind {
        "pc" => Kind::Pc,
        "npc" => Kind::Npc,
        _ => Kind::Object,
    };
    let numbers: BTreeMap<String, i64> = resources
        .iter()
        .map(|(k, v)| ((*k).to_owned(), *v))
        .collect();
    Combatant {
        id: EntityId::new(id),
        name: id.to_owned(),
        kind,
        owner: owner.map(SeatId::from),
        side: if kind == Kind::Pc {
            "players"
        } else {
            "enemies"
        }
        .to_owned(),
        position: None,
        sheet: Sheet::generic(numbers.clone()),
        resources: numbers,
        statuses: BTreeMap::new(),
        turn: BTreeMap::new(),
    }
}

pub mod scene;
