//! What a seat may send: the specs of 10acity's actions and the catalogue offered now. The
//! rules still judge every action sent (a spec is the shape, not the permission).

use crate::action::{ActionSpec, ArgKind, ArgSpec};
use crate::ids::{EntityId, Seat};
use crate::state::StateView;
use crate::toolkit::controlled;

use super::check;

/// Actions only the GM takes, with no actor.
pub const GM_ACTIONS: [&str; 7] = [
    "spend_pool",
    "task",
    "start_encounter",
    "end_encounter",
    "end_scene",
    "care",
    "bargain",
];
/// Actions a character takes.
pub const CHARACTER_ACTIONS: [&str; 18] = [
    "lock",
    "withdraw",
    "hold",
    "release",
    "help",
    "coup_de_grace",
    "overcome",
    "come_round",
    "full_defence",
    "check",
    "generate_spin",
    "recover_tenacity",
    "end_turn",
    "pass_first",
    "interact",
    "move",
    "sprint",
    "respond",
];

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
        "start_encounter" => action(
            name,
            None,
            "Start the encounter: everyone rolls the opening skill; the highest takes the spotlight.",
            vec![ArgSpec::new(
                "skill",
                ArgKind::Text,
                false,
                "the opening skill (default reaction)",
            )],
        ),
        "end_encounter" => action(
            name,
            None,
            "End the encounter (and the scene with it).",
            vec![],
        ),
        "end_turn" => action(
            name,
            actor,
            "End your turn and pass the spotlight: to one you acted on (an opponent first), else an opponent still to act. When the one you acted on has already acted, it chooses instead: leave `next` out.",
            vec![ArgSpec::new(
                "next",
                ArgKind::Entity,
                false,
                "who takes the spotlight",
            )],
        ),
        "pass_first" => action(
            name,
            actor,
            "At the opening, before anyone has acted, give first place to anyone: you keep your turn for later in the round.",
            vec![ArgSpec::new(
                "to",
                ArgKind::Entity,
                true,
                "who takes first place",
            )],
        ),
        "interact" => action(
            name,
            actor,
            "Your turn's one interaction: a door, drawing a weapon, a few words.",
            vec![ArgSpec::new("what", ArgKind::Text, false, "what you do")],
        ),
        "move" => action(
            name,
            actor,
            "Your turn's movement: up to your movement speed (plus a sprint).",
            vec![ArgSpec::new("spaces", ArgKind::Int, true, "how far").range(0, 10_000)],
        ),
        "coup_de_grace" => action(
            name,
            actor,
            "Begin a coup de grâce, or finish it with your next turn's action; doing anything else in between breaks it.",
            vec![ArgSpec::new("target", ArgKind::Entity, true, "whom")],
        ),
        "help" => action(
            name,
            actor,
            "Spend your action to help an ally's next quick pass/fail check with a skill: the better ranked of you rolls, with one more die.",
            vec![
                ArgSpec::new("target", ArgKind::Entity, true, "whom you help"),
                ArgSpec::new("skill", ArgKind::Text, true, "the skill"),
            ],
        ),
        "hold" => action(
            name,
            actor,
            "Set your action or movement aside until a trigger you name.",
            vec![
                ArgSpec::new("what", ArgKind::Text, true, "what you hold")
                    .choices(&["action", "movement"]),
                ArgSpec::new("trigger", ArgKind::Text, true, "what sets it off"),
            ],
        ),
        "release" => action(
            name,
            actor,
            "The trigger has come: use the held action (your next check) or movement now.",
            vec![
                ArgSpec::new("what", ArgKind::Text, true, "what you held")
                    .choices(&["action", "movement"]),
                ArgSpec::new(
                    "spaces",
                    ArgKind::Int,
                    false,
                    "how far, for a held movement",
                )
                .range(0, 10_000),
            ],
        ),
        "withdraw" => action(
            name,
            actor,
            "Spend your action to leave melee this turn without parting actions against you.",
            vec![],
        ),
        "lock" => action(
            name,
            actor,
            "Turn your grapple into a lock (or keep it) and deal your unarmed or locking item's impact, no check.",
            vec![
                ArgSpec::new("target", ArgKind::Entity, true, "whom you hold"),
                ArgSpec::new(
                    "item",
                    ArgKind::Text,
                    false,
                    "an item with the locking property",
                ),
            ],
        ),
        "overcome" => action(
            name,
            actor,
            "Try to throw off a condition: free once a turn, or again with your action.",
            vec![
                ArgSpec::new("condition", ArgKind::Text, true, "which condition")
                    .choices(&super::conditions::CONDITIONS),
                ArgSpec::new("skill", ArgKind::Text, true, "the skill you roll"),
                ArgSpec::new("cr", ArgKind::Int, false, "the narrator's challenge").range(0, 200),
                ArgSpec::new(
                    "against",
                    ArgKind::Text,
                    false,
                    "the applier's skill that holds it",
                ),
                ArgSpec::new(
                    "with_action",
                    ArgKind::Flag,
                    false,
                    "spend your action on it",
                ),
                ArgSpec::new(
                    "on",
                    ArgKind::Entity,
                    false,
                    "an object whose condition you remove (your action)",
                ),
            ],
        ),
        "come_round" => action(
            name,
            actor,
            "Unconscious: roll Strength or Concentration against 2d6 + 1d6 per wound.",
            vec![ArgSpec::new(
                "skill",
                ArgKind::Text,
                true,
                "concentration or a strength skill",
            )],
        ),
        "full_defence" => action(
            name,
            actor,
            "Spend your action defending: an advantage die on all your defence rolls until your next turn.",
            vec![],
        ),
        "sprint" => action(
            name,
            actor,
            "Spend your action: an Athletics check whose total is added to this turn's movement.",
            vec![],
        ),
        "respond" => action(
            name,
            actor,
            "Brought back into the spotlight after acting: pay 1 10acity or Spin to answer with one action now.",
            vec![
                ArgSpec::new("pay", ArgKind::Text, false, "what you pay")
                    .choices(&["tenacity", "spin"]),
            ],
        ),
        "spend_pool" => action(
            name,
            None,
            "Spend impact from a shared pool on an option the narrator offers (explore).",
            vec![
                ArgSpec::new("pool", ArgKind::Text, true, "the pool"),
                ArgSpec::new("cost", ArgKind::Int, true, "the option's impact").range(1, 10_000),
            ],
        ),
        "task" => action(
            name,
            None,
            "Set the impact a pool must accrue to finish a task (crafting, a timed task).",
            vec![
                ArgSpec::new("pool", ArgKind::Text, true, "the pool"),
                ArgSpec::new("requirement", ArgKind::Int, true, "impact needed").range(1, 10_000),
            ],
        ),
        "bargain" => action(
            name,
            None,
            "Trade some of a character's negative Spin for a complication in the story.",
            vec![
                ArgSpec::new("target", ArgKind::Entity, true, "whose negative Spin"),
                ArgSpec::new("remove", ArgKind::Int, true, "how much to take away").range(1, 10),
            ],
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
