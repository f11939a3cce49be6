//! What a seat may send: the specs of 10acity's actions and the catalogue offered now. The
//! rules still judge every action sent (a spec is the shape, not the permission).

use crate::action::{ActionSpec, ArgKind, ArgSpec};
use crate::ids::{EntityId, Seat};
use crate::state::StateView;
use crate::toolkit::controlled;

use super::check;

/// Actions only the GM takes, with no actor.
pub const GM_ACTIONS: [&str; 2] = ["end_scene", "care"];
/// Actions a character takes.
pub const CHARACTER_ACTIONS: [&str; 3] = ["check", "generate_spin", "recover_tenacity"];

fn action(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.to_owned(),
        help: help.to_owned(),
        actor: actor.cloned(),
        args,
        costs: Vec::new(),
    }
}

/// The spec of `name` for `actor`.
pub fn spec(name: &str, actor: Option<&EntityId>) -> Option<ActionSpec> {
    Some(match name {
        "check" => action(
            name,
            actor,
            "Roll the skill's attribute d10s, keep the highest, add the rank; beat the challenge.",
            check::args(),
        ),
        "generate_spin" => action(
            name,
            actor,
            "At exactly 0 Spin: spend your turn to gain 1 Spin.",
            vec![],
        ),
        "recover_tenacity" => action(
            name,
            actor,
            "At 0 10acity: a 10-minute short rest gives 1 point.",
            vec![],
        ),
        "end_scene" => action(
            name,
            None,
            "End the scene: positive Spin drops to 0 (negative stays) and stress clears.",
            vec![],
        ),
        "care" => action(
            name,
            None,
            "A day of care: the healer rolls its skill's impact dice into the patient's recovery; wounds heal at 5 x wounds each.",
            vec![
                ArgSpec::new("healer", ArgKind::Entity, true, "who gives the care"),
                ArgSpec::new("patient", ArgKind::Entity, true, "who is cared for"),
                ArgSpec::new("skill", ArgKind::Text, true, "the healer's skill"),
            ],
        ),
        _ => return None,
    })
}

pub fn catalogue(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out = Vec::new();
    if seat.is_gm() {
        out.extend(GM_ACTIONS.iter().filter_map(|n| spec(n, None)));
    }
    for c in controlled(state, seat) {
        out.extend(
            CHARACTER_ACTIONS
                .iter()
                .filter_map(|n| spec(n, Some(&c.id))),
        );
    }
    out
}
