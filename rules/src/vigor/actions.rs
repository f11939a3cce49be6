//! What a seat may send: the specs of vigor's actions, and the catalogue of those offered now.
//! The rules still judge every action sent (a spec is the shape, not the permission).

use crate::action::{ActionSpec, ArgKind, ArgSpec};
use crate::ids::{EntityId, Seat};
use crate::state::StateView;
use crate::toolkit::{controlled, start_spec};

use super::{PRONE, sheet_of};

fn action(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.to_owned(),
        help: help.to_owned(),
        actor: actor.cloned(),
        args,
        costs: Vec::new(),
    }
}

fn steps_args() -> Vec<ArgSpec> {
    vec![
        ArgSpec::new("charges", ArgKind::Int, false, "charges on the roll").range(0, 10),
        ArgSpec::new("challenges", ArgKind::Int, false, "challenges on the roll").range(0, 10),
    ]
}

/// Actions only the GM takes, with no actor.
pub const GM_ACTIONS: [&str; 6] = [
    "start_encounter",
    "end_encounter",
    "visibility",
    "resistance",
    "spring_ready",
    "knock_down",
];

/// The spec of `name` for `actor` (its shape only; `now` hints are the catalogue's).
pub fn spec(name: &str, actor: Option<&EntityId>) -> Option<ActionSpec> {
    let target = || ArgSpec::new("target", ArgKind::Entity, true, "whom");
    Some(match name {
        "start_encounter" => action(
            name,
            None,
            "Start the encounter: everyone rolls initiative.",
            vec![],
        ),
        "end_encounter" => action(name, None, "End the encounter.", vec![]),
        "visibility" => action(
            name,
            None,
            "Set the scene's visibility: ranged attacks are capped and harder.",
            vec![
                ArgSpec::new("level", ArgKind::Text, true, "how far one sees")
                    .choices(&["normal", "reduced", "low", "zero"]),
            ],
        ),
        "resistance" => {
            let mut args = vec![
                target(),
                ArgSpec::new(
                    "ability",
                    ArgKind::Text,
                    true,
                    "the ability the effect names",
                )
                .choices(&super::checks::ABILITIES),
                ArgSpec::new("vs", ArgKind::Int, true, "the victory sum").range(1, 200),
                ArgSpec::new(
                    "secret",
                    ArgKind::Flag,
                    false,
                    "keep the VS from the players",
                ),
            ];
            args.extend(steps_args());
            action(
                name,
                None,
                "Call for a Resistance check: d20 + the ability's and Resistance bonus dice.",
                args,
            )
        }
        "spring_ready" => action(
            name,
            None,
            "The condition a creature readied for has come: it takes its readied action now, as a reaction.",
            vec![target()],
        ),
        "knock_down" => action(
            name,
            None,
            "Knock a creature down: prone; in its own turn it loses the action it was taking.",
            vec![target()],
        ),
        "use_ability" => action(
            name,
            actor,
            "Use a technique, spell or talent from your sheet: its Vigor and Mana now, its actions now and in later turns.",
            vec![
                ArgSpec::new("ability", ArgKind::Text, true, "the ability's id"),
                ArgSpec::new(
                    "target",
                    ArgKind::Entity,
                    false,
                    "whom an attacking ability strikes",
                ),
                ArgSpec::new(
                    "off_hand",
                    ArgKind::Text,
                    false,
                    "with a light-weapon technique, also strike with this off-hand weapon for 8 Vigor",
                ),
            ],
        ),
        "use_item" => action(
            name,
            actor,
            "Use an item you carry (the GM rules what it does). 1 action.",
            vec![ArgSpec::new("item", ArgKind::Text, true, "the item's id")],
        ),
        "ready" => {
            // The readied action's own arguments, each optional here: which it needs is
            // checked against that action's spec when it is readied.
            let mut args = vec![
                ArgSpec::new("trigger", ArgKind::Text, true, "the condition, in words"),
                ArgSpec::new(
                    "action",
                    ArgKind::Text,
                    false,
                    "what to do then (attack if left out)",
                )
                .choices(&super::ready::READYABLE),
            ];
            for readied in super::ready::READYABLE {
                for mut a in spec(readied, actor).map(|s| s.args).unwrap_or_default() {
                    if args.iter().all(|b| b.name != a.name) {
                        a.required = false;
                        args.push(a);
                    }
                }
            }
            action(
                name,
                actor,
                "Ready an action (an attack unless you name another) for a condition before your next turn; the GM springs it and you take it as a reaction. 1 action.",
                args,
            )
        }
        "use_skill" => {
            let mut args = vec![
                ArgSpec::new("skill", ArgKind::Text, true, "the skill, e.g. awareness"),
                ArgSpec::new("target", ArgKind::Entity, false, "on whom, if anyone"),
                ArgSpec::new(
                    "vs",
                    ArgKind::Int,
                    false,
                    "the victory sum the GM sets (without it the GM reads the total)",
                )
                .range(1, 200)
                .gm_only(),
                ArgSpec::new(
                    "secret",
                    ArgKind::Flag,
                    false,
                    "keep the VS from the players",
                )
                .gm_only(),
            ];
            args.extend(steps_args());
            action(
                name,
                actor,
                "Use a skill: d20 + its bonus dice, against the VS when the GM gives one. 1 action.",
                args,
            )
        }
        "attack" => {
            let mut args = vec![
                target(),
                ArgSpec::new(
                    "weapon",
                    ArgKind::Text,
                    false,
                    "weapon id (the first on the sheet if left out)",
                ),
                ArgSpec::new(
                    "off_hand",
                    ArgKind::Text,
                    false,
                    "also strike with this off-hand weapon (or `unarmed`) for 8 Vigor",
                ),
                ArgSpec::new(
                    "from_behind",
                    ArgKind::Flag,
                    false,
                    "the blow comes from behind (halves Guard if the target is unaware)",
                ),
            ];
            args.extend(steps_args());
            action(
                name,
                actor,
                "Attack: d20 + bonus dice must beat Guard. 1 action.",
                args,
            )
        }
        "defend" => action(
            name,
            actor,
            "Defend: defensive reactions cost 2 Vigor less until your next turn. 1 action.",
            vec![],
        ),
        "move" => action(
            name,
            actor,
            "Move up to your Speed in feet. 1 action.",
            vec![ArgSpec::new("to", ArgKind::Cell, true, "where to")],
        ),
        "stand" => action(name, actor, "Stand up from prone. 1 action.", vec![]),
        "emergency_aid" => {
            let mut args = vec![target()];
            args.extend(steps_args());
            action(
                name,
                actor,
                "Emergency aid: Medicine (treatment) VS 20 restores 1d10 Durability. 2 actions.",
                args,
            )
        }
        "stabilise" => {
            let mut args = vec![target()];
            args.extend(steps_args());
            action(
                name,
                actor,
                "Stabilise a creature in shock: Medicine or Medical Science VS 20. 1 action.",
                args,
            )
        }
        "escape" => action(
            name,
            actor,
            "Escape: flee; foes within reach may take the opening. 1 action.",
            vec![],
        ),
        "end_turn" => action(name, actor, "End your turn.", vec![]),
        _ => return None,
    })
}

/// What `seat` is offered now: for each of its creatures whose turn it is, its actions, with
/// the targets and weapons it could name.
pub fn catalogue(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out: Vec<ActionSpec> = start_spec(state, seat).into_iter().collect();
    let enc = state.encounter();
    if !enc.active {
        return out;
    }
    if seat.is_gm() {
        out.extend(
            [
                "end_encounter",
                "visibility",
                "resistance",
                "spring_ready",
                "knock_down",
            ]
            .into_iter()
            .filter_map(|n| spec(n, None)),
        );
    }
    for c in controlled(state, seat) {
        if enc.current.as_ref() != Some(&c.id) {
            continue;
        }
        let others: Vec<String> = state
            .combatant_ids()
            .into_iter()
            .filter(|t| *t != c.id)
            .map(|t| t.0)
            .collect();
        let weapons: Vec<String> = sheet_of(&c)
            .map(|s| s.weapons.iter().map(|w| w.id.clone()).collect())
            .unwrap_or_default();
        let mut names = vec![
            "attack",
            "defend",
            "move",
            "escape",
            "use_skill",
            "ready",
            "use_ability",
            "use_item",
            "emergency_aid",
            "stabilise",
            "end_turn",
        ];
        if c.has_status(PRONE) {
            names.push("stand");
        }
        for name in names {
            if let Some(mut s) = spec(name, Some(&c.id)) {
                for a in &mut s.args {
                    match a.name.as_str() {
                        "target" => a.now.clone_from(&others),
                        "weapon" | "off_hand" => a.now.clone_from(&weapons),
                        "item" => {
                            a.now = sheet_of(&c)
                                .map(|s| s.items.iter().map(|x| x.id.clone()).collect())
                                .unwrap_or_default();
                        }
                        "ability" => {
                            a.now = sheet_of(&c)
                                .map(|s| s.abilities_list.iter().map(|x| x.id.clone()).collect())
                                .unwrap_or_default();
                        }
                        _ => {}
                    }
                }
                out.push(s);
            }
        }
    }
    out
}
