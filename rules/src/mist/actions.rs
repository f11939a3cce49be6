//! What a seat may send: the specs of mist's actions, and the catalogue of those offered now.
//! The rules still judge every action sent (a spec is the shape, not the permission).

use crate::action::{ActionSpec, ArgKind, ArgSpec};
use crate::ids::{EntityId, Seat};
use crate::state::StateView;
use crate::toolkit::{controlled, start_spec, turns};

use super::{AMBUSHER, DELAYED, UNCONSCIOUS, cannot_act, sheet_of};

fn action(name: &str, actor: Option<&EntityId>, help: &str, args: Vec<ArgSpec>) -> ActionSpec {
    ActionSpec {
        name: name.to_owned(),
        help: help.to_owned(),
        actor: actor.cloned(),
        args,
        costs: Vec::new(),
    }
}

/// Actions only the GM takes, with no actor.
pub const GM_ACTIONS: [&str; 10] = [
    "start_encounter",
    "stealth",
    "perception",
    "clear_jam",
    "ambush",
    "opportunity_attack",
    "end_encounter",
    "end_group_turn",
    "set_mist",
    "rest",
];

/// The two modifier tables, as arguments of an attack.
pub(super) fn modifier_args() -> Vec<ArgSpec> {
    let int = |n: &str, help: &str, lo: i64, hi: i64| {
        ArgSpec::new(n, ArgKind::Int, false, help).range(lo, hi)
    };
    let flag = |n: &str, help: &str| ArgSpec::new(n, ArgKind::Flag, false, help);
    vec![
        int("body_part", "melee: a particular body part, +3 or +5", 0, 5),
        int("terrain", "melee: difficult terrain, +X", 0, 20),
        int("elevation", "melee: an enemy on elevation, +2 or -2", -2, 2),
        int(
            "crowd",
            "melee: more than two enemies, +X per enemy, summed",
            0,
            50,
        ),
        flag("ally_engaged", "ranged: the target fights an ally, +3"),
        flag("running", "ranged: the target runs, +2"),
        flag("half_cover", "ranged: half covered, +2"),
        flag("barely_visible", "ranged: barely visible, +4"),
        flag("far", "ranged: far range, +3"),
        flag("beyond", "ranged: beyond range, +5"),
        int("weather", "ranged: weather, +X", 0, 20),
    ]
}

/// The spec of `name` for `actor` (its shape only; `now` hints are the catalogue's).
pub fn spec(name: &str, actor: Option<&EntityId>) -> Option<ActionSpec> {
    let target = || ArgSpec::new("target", ArgKind::Entity, true, "whom");
    let weapon = || {
        ArgSpec::new(
            "weapon",
            ArgKind::Text,
            false,
            "a weapon id (bare hands without)",
        )
    };
    Some(match name {
        "start_encounter" => action(
            name,
            None,
            "Start the encounter: each group rolls initiative.",
            vec![],
        ),
        "end_encounter" => action(name, None, "End the encounter.", vec![]),
        "ambush" => action(
            name,
            None,
            "Start the fight with an ambush: those marked `ambusher` act first, +3, then initiative.",
            vec![],
        ),
        "opportunity_attack" => action(
            name,
            None,
            "Someone provoked: an engaged combatant strikes at once with a melee weapon or fists.",
            vec![
                ArgSpec::new("attacker", ArgKind::Entity, true, "who strikes"),
                target(),
                weapon(),
            ],
        ),
        "clear_jam" => action(
            name,
            None,
            "A character's Craft check to clear a jammed gun, against the difficulty you set (in a fight, their action).",
            vec![
                target(),
                ArgSpec::new("weapon", ArgKind::Text, true, "the jammed gun"),
                ArgSpec::new("difficulty", ArgKind::Int, true, "the repair difficulty")
                    .range(0, 30),
                ArgSpec::new(
                    "attribute",
                    ArgKind::Text,
                    true,
                    "the attribute you name for Craft",
                )
                .choices(&["body", "senses", "science", "willpower"]),
            ],
        ),
        "stealth" | "perception" => {
            let (help, skill) = if name == "stealth" {
                (
                    "A character hides: d10 + the table's attribute + Stealth + your bonus; below the other groups' passive perception it is spotted, else marked `ambusher`. Only you and its seat see it.",
                    "Stealth",
                )
            } else {
                (
                    "A character searches actively: d10 + the table's attribute + Perception + your bonus against the lowest Stealth hidden from it. Only you and its seat see it.",
                    "Perception",
                )
            };
            action(
                name,
                None,
                help,
                vec![
                    target(),
                    ArgSpec::new(
                        "bonus",
                        ArgKind::Int,
                        false,
                        "preparations, equipment, light (E11's poor lighting: 3)",
                    )
                    .range(-10, 10),
                    ArgSpec::new(
                        "attribute",
                        ArgKind::Text,
                        false,
                        if skill == "Stealth" {
                            "only when `mist.stealth_attribute` is `gm`: the attribute you name"
                        } else {
                            "only when `mist.perception_attribute` is `gm`: the attribute you name"
                        },
                    )
                    .choices(&["body", "senses", "science", "willpower"]),
                ],
            )
        }
        "stun" => action(
            name,
            actor,
            "Out of combat, hidden from the target: an attack with +3 (ambush) whose damage, doubled and plus Stunning, may knock it out.",
            vec![target(), weapon()],
        ),
        "end_group_turn" => action(
            name,
            None,
            "End the acting group's turn: who has not acted loses the round's action.",
            vec![],
        ),
        "set_mist" => action(
            name,
            None,
            "Say whether the fight is in the mist (powder rules).",
            vec![ArgSpec::new("on", ArgKind::Flag, false, "in the mist")],
        ),
        "rest" => action(
            name,
            None,
            "A rest after the fight for every conscious character.",
            vec![
                ArgSpec::new("kind", ArgKind::Text, true, "how long")
                    .choices(&["short", "long", "sleep"]),
            ],
        ),
        "attack" => {
            let mut args = vec![
                target(),
                weapon(),
                ArgSpec::new(
                    "interrupt",
                    ArgKind::Entity,
                    false,
                    "with a delayed action: the enemy whose action this must beat",
                ),
            ];
            args.extend(modifier_args());
            action(
                name,
                actor,
                "Attack: d10 + Body (melee) or Senses (ranged) + bonuses against Evade.",
                args,
            )
        }
        "grab" => action(
            name,
            actor,
            "Catch someone: an attack (bare hands or a device), then Athletics against their Athletics or Brawl.",
            vec![target(), weapon()],
        ),
        "release" => action(
            name,
            actor,
            "Let go of the one you hold (takes no action).",
            vec![],
        ),
        "aim" => action(
            name,
            actor,
            "Aimed attack: +3, fired when the target's group has had its turn; with the delayed action, fired at once (the target may dodge only if quicker in a Speed contest).",
            vec![target(), weapon()],
        ),
        "delay" => action(
            name,
            actor,
            "Hold the round's action as a delayed action, to use outside the group's turn.",
            vec![],
        ),
        "revive" => action(
            name,
            actor,
            "Revive an unconscious character against its revive difficulty.",
            vec![
                target(),
                ArgSpec::new("skill", ArgKind::Text, true, "the skill used")
                    .choices(&["medicine", "survival"]),
                ArgSpec::new(
                    "attribute",
                    ArgKind::Text,
                    false,
                    "with Survival: the attribute the GM names",
                )
                .choices(&["body", "senses", "science", "willpower"]),
            ],
        ),
        "medicine_heal" => action(
            name,
            actor,
            "Out of combat: Medicine against 10, a point of Life per point over.",
            vec![target()],
        ),
        "reload" => action(
            name,
            actor,
            "Reload a fired gun: a round's action per round of its reload time (none when it is 0).",
            vec![ArgSpec::new("weapon", ArgKind::Text, true, "the gun")],
        ),
        "act" => action(
            name,
            actor,
            "Any other action (stand up, use an item): the GM rules its check.",
            vec![ArgSpec::new(
                "what",
                ArgKind::Text,
                true,
                "what the character does",
            )],
        ),
        _ => return None,
    })
}

pub fn catalogue(state: &dyn StateView, seat: &Seat) -> Vec<ActionSpec> {
    let mut out: Vec<ActionSpec> = start_spec(state, seat).into_iter().collect();
    let enc = state.encounter();
    if seat.is_gm() {
        let names: &[&str] = if enc.active {
            &[
                "end_encounter",
                "end_group_turn",
                "set_mist",
                "opportunity_attack",
                "clear_jam",
            ]
        } else {
            &["stealth", "perception", "ambush", "rest", "clear_jam"]
        };
        out.extend(names.iter().filter_map(|n| spec(n, None)));
    }
    let now = turns::may_act(enc);
    let unconscious: Vec<String> = state
        .combatant_ids()
        .into_iter()
        .filter(|i| {
            state
                .combatant(i)
                .is_some_and(|c| c.has_status(UNCONSCIOUS))
        })
        .map(|i| i.0)
        .collect();
    for c in controlled(state, seat) {
        let names: Vec<&str> = if cannot_act(&c).is_some() {
            Vec::new()
        } else if !enc.active {
            if c.has_status(AMBUSHER) {
                vec!["revive", "medicine_heal", "stun"]
            } else {
                vec!["revive", "medicine_heal"]
            }
        } else if now.contains(&c.id) {
            vec!["attack", "grab", "aim", "delay", "revive", "act"]
        } else if c.has_status(DELAYED) {
            vec!["attack", "grab", "aim", "revive", "act"]
        } else {
            Vec::new()
        };
        let mut names = names;
        if c.has_status(DELAYED) {
            // One delayed action at most, whatever the actions a round.
            names.retain(|n| *n != "delay");
        }
        if enc.active && c.has_status(super::hold::HOLDING) {
            names.push("release");
        }
        let unloaded: Vec<String> = sheet_of(&c)
            .map(|s| {
                s.weapons
                    .iter()
                    .filter(|w| c.has_status(&super::unloaded_key(&w.id)))
                    .map(|w| w.id.clone())
                    .collect()
            })
            .unwrap_or_default();
        // Reloading takes the round's action (or none), so it is offered when acting is.
        if !unloaded.is_empty() && (!enc.active || !names.is_empty()) {
            names.push("reload");
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
        for name in names {
            if let Some(mut s) = spec(name, Some(&c.id)) {
                for a in &mut s.args {
                    match (name, a.name.as_str()) {
                        ("revive", "target") => a.now.clone_from(&unconscious),
                        ("reload", "weapon") => a.now.clone_from(&unloaded),
                        (_, "target" | "interrupt") => a.now.clone_from(&others),
                        (_, "weapon") => a.now.clone_from(&weapons),
                        _ => {}
                    }
                }
                out.push(s);
            }
        }
    }
    out
}
